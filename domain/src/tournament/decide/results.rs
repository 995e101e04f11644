//! Table games starting; results recorded, corrected and voided.

use super::super::Tournament;
use super::super::command::MAX_TEXT_LEN;
use super::super::error::{Role, TournamentError};
use super::super::event::*;
use super::super::refs::{AccountId, Context, StageKind, TableRef};
use super::super::result::ResultInput;
use super::super::state::{State, Table};
use super::{Decision, text};

impl State {
    fn existing_table(&self, at: TableRef) -> Result<&Table, TournamentError> {
        self.table(at).ok_or(TournamentError::NoSuchTable(at))
    }

    pub(super) fn decide_start_table(
        &self,
        ctx: &Context,
        at: TableRef,
        game: &Option<String>,
    ) -> Decision {
        self.require(ctx, Role::Official, None)?;
        let table = self.existing_table(at)?;
        if table.started || table.result.is_some() {
            return Err(TournamentError::TableAlreadyStarted(at));
        }
        // The first game follows from the draw; a game after a void is a new deal,
        // which no official who plays in the tournament may ask for.
        if !table.voids.is_empty() {
            self.require_neutral(ctx)?;
        }
        Ok(Event::TableGameStarted(TableGameStarted {
            table: at,
            game: game.clone(),
            by: ctx.actor,
        }))
    }

    /// The result `input` decides for table `at`, checked against who sits there: every
    /// seated player still in the tournament plays; a player who withdrew or was
    /// disqualified after the draw may be missing; no-shows and nobody else may appear.
    pub(crate) fn checked_result(
        &self,
        at: TableRef,
        input: &ResultInput,
    ) -> Result<Vec<PlayerResult>, TournamentError> {
        let table = self.existing_table(at)?;
        let totals_only = matches!(input, ResultInput::Game { game: None, .. });
        let rounds_required = self.config.as_ref().is_some_and(|c| c.rounds_required);
        if totals_only && table.game.is_none() && rounds_required {
            return Err(TournamentError::RoundsRequired);
        }
        let rules = self.rules()?;
        let result = input.resolve(rules)?;
        for line in &result {
            if !table.players.contains(&line.player) {
                return Err(TournamentError::BadResult(format!(
                    "player {} is not seated at {at}",
                    line.player
                )));
            }
            if table.absent.contains(&line.player) {
                return Err(TournamentError::BadResult(format!(
                    "player {} is recorded as a no-show at {at}",
                    line.player
                )));
            }
        }
        for p in table.present() {
            let still_in = self.player(p).is_some_and(|p| p.is_active());
            if still_in && !result.iter().any(|l| l.player == p) {
                return Err(TournamentError::BadResult(format!(
                    "player {p} sits at {at} and has no result"
                )));
            }
        }
        if result.len() < 2 {
            return Err(TournamentError::BadResult(
                "a game has at least 2 players".into(),
            ));
        }
        Ok(result)
    }
}

impl Tournament {
    pub(super) fn decide_record(
        &self,
        ctx: &Context,
        at: TableRef,
        input: &ResultInput,
        reason: Option<&str>,
    ) -> Decision {
        let s = &self.state;
        s.require(ctx, Role::Official, None)?;
        s.require_neutral(ctx)?;
        let table = s.existing_table(at)?;
        if table.result.is_some() {
            return Err(TournamentError::ResultAlreadyRecorded(at));
        }
        let reason = reason
            .map(|r| text(r, MAX_TEXT_LEN, TournamentError::BadReason))
            .transpose()?;
        // An online game reports its own result: a person overriding it says why, and
        // the override is listed for review (`State::interventions`).
        let by_hand = ctx.actor.account().is_some();
        if by_hand && table.game.is_some() && reason.is_none() {
            return Err(TournamentError::ReasonRequired(at));
        }
        let event = ResultRecorded {
            table: at,
            input: input.clone(),
            result: s.checked_result(at, input)?,
            by: ctx.actor,
            flagged: Vec::new(),
            reason,
        };
        Ok(self.flagged(Event::ResultRecorded(event)))
    }

    pub(super) fn decide_correct(
        &self,
        ctx: &Context,
        at: TableRef,
        input: &ResultInput,
        reason: &str,
    ) -> Decision {
        let s = &self.state;
        s.require(ctx, Role::Official, None)?;
        s.require_neutral(ctx)?;
        let reason = text(reason, MAX_TEXT_LEN, TournamentError::BadReason)?;
        if s.existing_table(at)?.result.is_none() {
            return Err(TournamentError::NoResult(at));
        }
        let event = ResultCorrected {
            table: at,
            input: input.clone(),
            result: s.checked_result(at, input)?,
            reason,
            by: ctx.actor,
            flagged: Vec::new(),
        };
        Ok(self.flagged(Event::ResultCorrected(event)))
    }

    /// A no-show (see [`Command::RecordNoShow`](super::super::Command::RecordNoShow)).
    pub(super) fn decide_no_show(
        &self,
        ctx: &Context,
        at: TableRef,
        player: AccountId,
        reason: &str,
    ) -> Decision {
        let s = &self.state;
        s.require(ctx, Role::Official, None)?;
        s.require_neutral(ctx)?;
        let reason = text(reason, MAX_TEXT_LEN, TournamentError::BadReason)?;
        let table = s.existing_table(at)?;
        if s.stage(at.stage).map(|st| st.kind) != Some(StageKind::Qualification) {
            return Err(TournamentError::WrongPhase(
                "no-shows are recorded in the qualification; in a knockout, withdraw the player",
            ));
        }
        if !table.players.contains(&player) {
            return Err(TournamentError::NotAtTable { player, table: at });
        }
        if table.absent.contains(&player) {
            return Err(TournamentError::AlreadyAbsent { player, table: at });
        }
        if table.result.is_some() {
            return Err(TournamentError::ResultAlreadyRecorded(at));
        }
        if table.started {
            return Err(TournamentError::TableAlreadyStarted(at));
        }
        let fewest = usize::from(s.rules()?.min_players).max(2);
        let left = table
            .present()
            .filter(|&p| p != player && s.player(p).is_some_and(|p| p.is_active()))
            .count();
        if left < fewest {
            return Err(TournamentError::NotEnoughPlayers {
                players: left,
                min: fewest,
            });
        }
        let event = NoShowRecorded {
            table: at,
            player,
            reason,
            by: ctx.actor,
            flagged: Vec::new(),
        };
        Ok(self.flagged(Event::NoShowRecorded(event)))
    }

    pub(super) fn decide_void(&self, ctx: &Context, at: TableRef, reason: &str) -> Decision {
        let s = &self.state;
        s.require(ctx, Role::Official, None)?;
        s.require_neutral(ctx)?;
        let reason = text(reason, MAX_TEXT_LEN, TournamentError::BadReason)?;
        let table = s.existing_table(at)?;
        if table.result.is_none() && !table.started {
            return Err(TournamentError::NoResult(at));
        }
        let event = GameVoided {
            table: at,
            reason,
            by: ctx.actor,
            flagged: Vec::new(),
        };
        Ok(self.flagged(Event::GameVoided(event)))
    }
}

//! Any tournament command an account sends ([`CommandWrite`]): the rules engine
//! decides it as that account, around two checks only the server can make. What only
//! the server does (choosing draw seeds, opening its own online games) is refused
//! before the decision; the accounts a command brings in must exist (and a referee
//! hold the role) once the caller may send it.

use std::borrow::Cow;
use std::collections::HashMap;

use serde_json::Value;
use sqlx::PgConnection;
use yaniv_domain::aggregate::Aggregate;
use yaniv_domain::tournament::{
    AccountId, Command, Event, RATINGS_PROCEDURE, RecordedSeeding, SEASON_PROCEDURE, SeasonBasis,
    Seeding, Tournament,
};
use yaniv_verify::tournament::linked_table;

use super::answers::{CommandResponse, TournamentEvent, view};
use super::{refusal, repo, seeds};
use crate::auth::accounts::{self, Account};
use crate::auth::role::Role;
use crate::error::{ApiError, Reason};
use crate::streams::{Write, json_answer};

/// A domain command sent by an account, decided as that account.
#[derive(Debug)]
pub struct CommandWrite {
    id: i64,
    account: Account,
    command: Command,
    /// The order read before the write (the rating list's or a season's), for the
    /// start of a seeded tournament.
    seeding: Option<SeedingOrder>,
}

/// Where a seeded tournament's entry order comes from, as the server read it before
/// the write: the rating list (`docs/ratings.md` section 9) or a season's standings
/// (`docs/seasons.md` section 4), everyone on it best first.
#[derive(Debug, Clone)]
pub struct SeedingOrder {
    /// Under `yaniv-ratings/1`, the list's instant; under `yaniv-season/1`, the read's.
    pub as_of_micros: i64,
    /// The season's standings read, or `None` for the rating list.
    pub season: Option<SeasonBasis>,
    pub best_first: Vec<AccountId>,
}

impl SeedingOrder {
    /// `entrants` in the order's order, then those not in it in the order given.
    fn seeding_of(&self, entrants: &[AccountId]) -> Vec<AccountId> {
        let place: HashMap<AccountId, usize> = self
            .best_first
            .iter()
            .enumerate()
            .map(|(i, &a)| (a, i))
            .collect();
        let mut order: Vec<AccountId> = entrants
            .iter()
            .copied()
            .filter(|a| place.contains_key(a))
            .collect();
        order.sort_by_key(|a| place.get(a).copied().unwrap_or(usize::MAX));
        order.extend(entrants.iter().copied().filter(|a| !place.contains_key(a)));
        order
    }

    /// The seeding this order gives a tournament configured with `seeding`, if it is
    /// the order that config asks for.
    fn recorded(
        &self,
        seeding: Seeding,
        season: Option<i64>,
        entrants: &[AccountId],
    ) -> Option<RecordedSeeding> {
        let procedure = match (seeding, &self.season) {
            (Seeding::Rating, None) => RATINGS_PROCEDURE,
            (Seeding::Season, Some(basis)) if Some(basis.season) == season => SEASON_PROCEDURE,
            _ => return None,
        };
        Some(RecordedSeeding {
            procedure: procedure.to_owned(),
            as_of_micros: self.as_of_micros,
            season: self.season.clone(),
            order: self.seeding_of(entrants),
        })
    }
}

impl CommandWrite {
    /// `command` to tournament `id`, sent by `account`.
    pub fn new(id: i64, account: Account, command: Command) -> Self {
        Self {
            id,
            account,
            command,
            seeding: None,
        }
    }

    /// The command as the client sent it.
    pub fn command(&self) -> &Command {
        &self.command
    }

    /// With the order a `start_qualification` seeds from, when the tournament asks for
    /// one.
    pub fn with_seeding(mut self, seeding: SeedingOrder) -> Self {
        self.seeding = Some(seeding);
        self
    }

    /// The command as the rules engine decides it: a `start_qualification` of a seeded
    /// tournament gets the order read by the server, never one from the client
    /// ([`CommandWrite::refuse_servers_own`]). An order of another kind than the config
    /// asks for now (it changed in between) is left out, and the engine refuses the
    /// start for want of one.
    fn as_decided(&self, tournament: &Tournament) -> Cow<'_, Command> {
        let (Command::StartQualification { .. }, Some(order)) = (&self.command, &self.seeding)
        else {
            return Cow::Borrowed(&self.command);
        };
        let state = tournament.state();
        let Some(config) = state.config.as_ref() else {
            return Cow::Borrowed(&self.command);
        };
        let entrants: Vec<AccountId> = state.qualification_entrants().map(|p| p.account).collect();
        match order.recorded(config.seeding, config.season, &entrants) {
            Some(seeding) => Cow::Owned(Command::StartQualification {
                seeding: Some(seeding),
            }),
            None => Cow::Borrowed(&self.command),
        }
    }
}

impl Write<Tournament> for CommandWrite {
    async fn execute(
        &mut self,
        conn: &mut PgConnection,
        _id: i64,
        tournament: &mut Tournament,
    ) -> Result<Vec<Event>, ApiError> {
        self.refuse_servers_own(conn, tournament).await?;
        // The clock is read once the tournament's lock is held: a registration window
        // is judged at the moment of the decision.
        let mut ctx = super::context(&self.account, repo::now());
        let command = self.as_decided(tournament).into_owned();
        let events = Aggregate::execute(tournament, &command, &mut ctx).map_err(|e| refusal(&e))?;
        // Only once the caller may send the command: before, any account could learn
        // from the answer whether an id exists and holds the referee role.
        check_accounts(conn, &self.command).await?;
        Ok(events)
    }

    fn answer(
        &self,
        id: i64,
        tournament: &Tournament,
        events: &[Event],
        _before: u64,
    ) -> Result<Value, ApiError> {
        json_answer(&CommandResponse {
            id,
            version: tournament.version(),
            events: TournamentEvent::appended(tournament, events),
            tournament: view(tournament)?,
        })
    }
}

impl CommandWrite {
    /// What only the server does: choosing draw seeds (a seed chosen by a client would
    /// let whoever chose it pick the seating), taking a seeding from the rating list,
    /// and opening online games.
    ///
    /// One exception keeps old tournaments drawable: a commitment published before the
    /// server held the seeds is drawn from by whoever made it, with `draw_round` and the
    /// seed it commits to (the domain checks the seed against it).
    async fn refuse_servers_own(
        &self,
        conn: &mut PgConnection,
        tournament: &Tournament,
    ) -> Result<(), ApiError> {
        let refused = |code, detail: &str| ApiError::Refused {
            reason: Reason::Invalid,
            code,
            title: "Refused by the tournament",
            detail: detail.to_owned(),
        };
        match &self.command {
            Command::CommitDrawSeed { .. } => Err(refused(
                "draws_by_server",
                "the server chooses and commits every draw seed: draw with \
                 POST /v1/tournaments/{id}/draws",
            )),
            Command::DrawRound { .. } | Command::RedrawRound { .. } => {
                let pending = tournament.state().pending_commitment;
                let held = match &pending {
                    Some(commitment) => seeds::held(conn, self.id, commitment).await?,
                    None => true,
                };
                if held {
                    Err(refused(
                        "draws_by_server",
                        "the server holds the seed of the next draw: draw with \
                         POST /v1/tournaments/{id}/draws",
                    ))
                } else {
                    Ok(())
                }
            }
            Command::StartQualification { seeding: Some(_) } => Err(refused(
                "seeding_by_server",
                "the server takes a seeding from its own rating list or the season's \
                 standings: send start_qualification without one",
            )),
            Command::StartTableGame {
                game: Some(game), ..
            } if linked_table(game).is_some() => Err(refused(
                "online_games_by_server",
                "this server's game tables are opened by a draw or by \
                 POST /v1/tournaments/{id}/tables/{stage}/{round}/{table}/online",
            )),
            _ => Ok(()),
        }
    }
}

/// The accounts a command brings into the tournament must exist, and a referee must
/// hold the referee role: the domain knows account ids only. Checked after the domain
/// has decided that the caller may send the command.
async fn check_accounts(conn: &mut PgConnection, command: &Command) -> Result<(), ApiError> {
    let (account, field, needs_referee) = match command {
        Command::Register { player } | Command::EnterLate { player } => (*player, "player", false),
        Command::AddReferee { referee } => (*referee, "referee", true),
        _ => return Ok(()),
    };
    let found = accounts::by_id(&mut *conn, account)
        .await
        .map_err(|e| ApiError::unexpected("reading an account", e))?;
    let refused = |code, detail: String| ApiError::Refused {
        reason: Reason::Invalid,
        code,
        title: "Refused by the tournament",
        detail: format!("{field}: {detail}"),
    };
    match found {
        None => Err(refused(
            "unknown_account",
            format!("no account with id {account}"),
        )),
        Some(a) if needs_referee && !a.has_role(Role::Referee) => Err(refused(
            "not_a_referee",
            format!("account {account} does not have the referee role"),
        )),
        Some(_) => Ok(()),
    }
}

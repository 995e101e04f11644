//! Deciding player entropy: the server's commitment before a deal, a seat's
//! contribution, the default for a seat whose clock ran out or that is absent, and the
//! deal once nobody owes anything.

use crate::game::{Command, DealSource, Game, Seat};
use crate::shuffle::Contribution;

use super::super::clock::ClockState;
use super::super::command::TableServices;
use super::super::error::TableError;
use super::super::event::StreamEvent;
use super::super::state::Table;
use super::event::{DealSeedCommitted, EntropyContributed, EntropyEvent};
use super::{ENTROPY_PROCEDURE, EntropyState, first_starter};

impl Table {
    /// `seat` sends its contribution to the next deal; the last one lets the server
    /// deal, and play goes on.
    pub(in crate::table) fn contribute(
        &mut self,
        seat: Seat,
        value: Contribution,
        services: &mut TableServices<'_>,
    ) -> Result<Vec<StreamEvent>, TableError> {
        let Some(round) = self.entropy.pending().map(|p| p.round) else {
            return Err(TableError::NothingToContribute);
        };
        if !self.entropy.awaiting().contains(&seat) {
            return Err(TableError::NothingToContribute);
        }
        let mut done = Vec::new();
        record(
            &mut self.entropy,
            EntropyContributed {
                round,
                seat,
                value: Some(value),
            },
            &mut done,
        )?;
        self.play_on(done, services)
    }

    /// The default contribution of `seat`, whose clock ran out.
    pub(in crate::table) fn contribute_default(
        &mut self,
        seat: Seat,
        done: &mut Vec<StreamEvent>,
    ) -> Result<(), TableError> {
        if let Some(round) = self.entropy.pending().map(|p| p.round) {
            let default = EntropyContributed {
                round,
                seat,
                value: None,
            };
            record(&mut self.entropy, default, done)?;
        }
        Ok(())
    }
}

/// Folds one entropy event into `entropy` and hands it out; one the procedure refuses
/// is the server's own fault and is never handed out.
fn record(
    entropy: &mut EntropyState,
    event: EntropyContributed,
    out: &mut Vec<StreamEvent>,
) -> Result<(), TableError> {
    let event = StreamEvent::Entropy(EntropyEvent::Contributed(event));
    entropy
        .observe(&event)
        .map_err(|e| TableError::Internal(format!("the server's own contribution: {e}")))?;
    out.push(event);
    Ok(())
}

/// The next deal of `game` at a table with player entropy, or `None` while seats owe
/// their contribution. Commits to a fresh server seed first when none is committed for
/// the round, and gives absent seats the default at once.
pub(in crate::table) fn prepare_deal(
    entropy: &mut EntropyState,
    clock: &ClockState,
    game: &Game,
    services: &mut TableServices<'_>,
    out: &mut Vec<StreamEvent>,
) -> Result<Option<Command>, String> {
    let round = game.round_number() + 1;
    if !entropy.committed_for(round) {
        let seed = services.seed()?;
        let event = StreamEvent::Entropy(EntropyEvent::SeedCommitted(DealSeedCommitted {
            round,
            procedure: ENTROPY_PROCEDURE.to_owned(),
            commitment: seed.commitment(),
            seed,
        }));
        entropy
            .observe(&event)
            .map_err(|e| format!("the server's own commitment does not hold: {e}"))?;
        out.push(event);
    }
    for seat in entropy.awaiting() {
        if clock.is_absent(seat) {
            let default = EntropyContributed {
                round,
                seat,
                value: None,
            };
            record(entropy, default, out).map_err(|e| e.to_string())?;
        }
    }
    if !entropy.awaiting().is_empty() {
        return Ok(None);
    }
    let deal_seed = entropy
        .pending()
        .map(super::state::PendingDeal::deal_seed)
        .ok_or("no seed is committed for the deal")?;
    let starter = (round == 1).then(|| first_starter(&deal_seed, game.players().len()));
    Ok(Some(Command::Deal {
        starter,
        source: DealSource::Seeded(deal_seed),
    }))
}

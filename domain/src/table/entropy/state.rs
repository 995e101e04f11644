//! [`EntropyState`]: which round's seed the server committed to, who has contributed,
//! who still owes a contribution; and the check of a stored stream against the
//! procedure, event by event.

use crate::game::{Deal, Event as GameEvent, Seat};
use crate::shuffle::{Commitment, Contribution, Seed};

use super::super::event::{StreamEvent, TableCreated};
use super::event::{DealSeedCommitted, EntropyContributed, EntropyEvent};
use super::{ENTROPY_PROCEDURE, first_starter, mix};

/// Where a stored stream departs from the procedure. Each has a stable code.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EntropyMismatch {
    #[error("{0} at a table without player entropy")]
    NotEnabled(&'static str),
    #[error("the seed committed to for round {round} is committed out of place: {why}")]
    MisplacedCommitment { round: u32, why: &'static str },
    #[error("the procedure {0:?} is not yaniv-player-entropy/1")]
    UnknownProcedure(String),
    #[error("the commitment is not the SHA-256 of the server's seed")]
    CommitmentMismatch,
    #[error("seat {seat} contributes to round {round} out of place: {why}")]
    MisplacedContribution {
        round: u32,
        seat: Seat,
        why: &'static str,
    },
    #[error("round {round} is dealt while seats {missing:?} still owe their contribution")]
    ContributionMissing { round: u32, missing: Vec<Seat> },
    #[error("round {round} is dealt without a committed server seed")]
    DealWithoutCommitment { round: u32 },
    #[error("the deal's seed is not the mix of the committed seed and the contributions")]
    SeedMismatch,
    #[error("round 1 starts at seat {stored}, but the mixed seed draws seat {drawn}")]
    StarterMismatch { stored: Seat, drawn: Seat },
}

impl EntropyMismatch {
    pub fn code(&self) -> &'static str {
        match self {
            Self::NotEnabled(_)
            | Self::MisplacedCommitment { .. }
            | Self::MisplacedContribution { .. }
            | Self::UnknownProcedure(_) => "unexpected_event",
            Self::CommitmentMismatch => "commitment_mismatch",
            Self::ContributionMissing { .. } => "contribution_missing",
            Self::DealWithoutCommitment { .. } => "deal_without_commitment",
            Self::SeedMismatch => "entropy_mismatch",
            Self::StarterMismatch { .. } => "starter_mismatch",
        }
    }
}

/// The round being prepared: the server's seed and what each seat sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingDeal {
    pub round: u32,
    pub commitment: Commitment,
    seed: Seed,
    /// Per seat: `None` until it contributes; then its value (`None` inside for the
    /// default).
    contributions: Vec<Option<Option<Contribution>>>,
}

impl PendingDeal {
    /// The deal seed from the server's seed and what has been contributed so far.
    pub fn deal_seed(&self) -> Seed {
        let values: Vec<Option<Contribution>> =
            self.contributions.iter().map(|c| c.flatten()).collect();
        mix(&self.seed, &values)
    }

    /// The seats that have contributed (a default included), in seat order.
    pub fn contributed(&self) -> Vec<Seat> {
        seats_where(&self.contributions, Option::is_some)
    }
}

fn seats_where<T>(per_seat: &[T], keep: impl Fn(&T) -> bool) -> Vec<Seat> {
    per_seat
        .iter()
        .enumerate()
        .filter(|(_, value)| keep(value))
        .filter_map(|(seat, _)| Seat::try_from(seat).ok())
        .collect()
}

/// Player entropy at one table (see the module docs of `entropy`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EntropyState {
    enabled: bool,
    /// Per seat: sends contributions (a human seat still in the game).
    contributors: Vec<bool>,
    pending: Option<PendingDeal>,
    /// The last round dealt, and the last one over (0: none yet).
    last_dealt: u32,
    last_ended: u32,
}

impl EntropyState {
    /// The state of a new table of `seats` seats; `bots` are the bot seats.
    pub fn new(enabled: bool, seats: u8, bots: impl IntoIterator<Item = Seat>) -> Self {
        let mut contributors = vec![enabled; usize::from(seats)];
        for seat in bots {
            if let Some(slot) = contributors.get_mut(usize::from(seat)) {
                *slot = false;
            }
        }
        Self {
            enabled,
            contributors,
            ..Self::default()
        }
    }

    /// The state of the table `created` sets up.
    pub fn of_table(created: &TableCreated) -> Self {
        Self::new(
            created.player_entropy,
            created.seats,
            created.bots.iter().map(|bot| bot.seat),
        )
    }

    pub fn enabled(&self) -> bool {
        self.enabled
    }

    /// The round being prepared, once the server committed to its seed.
    pub fn pending(&self) -> Option<&PendingDeal> {
        self.pending.as_ref()
    }

    /// Whether the server's seed for `round` is committed already.
    pub fn committed_for(&self, round: u32) -> bool {
        self.pending.as_ref().is_some_and(|p| p.round == round)
    }

    /// The seats whose contribution the deal waits for, in seat order.
    pub fn awaiting(&self) -> Vec<Seat> {
        match &self.pending {
            None => Vec::new(),
            Some(pending) => (0..self.contributors.len())
                .filter(|&seat| {
                    self.contributors[seat] && pending.contributions.get(seat) == Some(&None)
                })
                .filter_map(|seat| Seat::try_from(seat).ok())
                .collect(),
        }
    }

    /// Whether the server's seed of `round` may be shown to players: its round is over.
    pub fn seed_revealed(&self, round: u32) -> bool {
        round <= self.last_ended
    }

    /// Folds the next event of the stream, checking it against the procedure. The
    /// state moves on even when the event does not hold, so a fold of a stored stream
    /// serves the table as stored; the audit reports the error.
    pub fn observe(&mut self, event: &StreamEvent) -> Result<(), EntropyMismatch> {
        match event {
            StreamEvent::Entropy(EntropyEvent::SeedCommitted(committed)) => {
                self.committed(committed)
            }
            StreamEvent::Entropy(EntropyEvent::Contributed(contributed)) => {
                self.contributed(contributed)
            }
            StreamEvent::Game(GameEvent::RoundDealt(dealt)) => {
                let checked = self.check_deal(dealt.round, dealt.starter, &dealt.deal);
                self.pending = None;
                self.last_dealt = dealt.round;
                checked
            }
            StreamEvent::Game(GameEvent::RoundEnded(ended)) => {
                self.last_ended = ended.round;
                for &seat in &ended.eliminated {
                    if let Some(slot) = self.contributors.get_mut(usize::from(seat)) {
                        *slot = false;
                    }
                }
                Ok(())
            }
            StreamEvent::Game(GameEvent::GameFinished(_)) => {
                // The game may end mid-round (a forfeit): its seed is shown then.
                self.last_ended = self.last_ended.max(self.last_dealt);
                Ok(())
            }
            StreamEvent::Game(_) | StreamEvent::Table(_) | StreamEvent::Clock(_) => Ok(()),
        }
    }

    fn committed(&mut self, committed: &DealSeedCommitted) -> Result<(), EntropyMismatch> {
        let misplaced = |why| EntropyMismatch::MisplacedCommitment {
            round: committed.round,
            why,
        };
        let checked = if !self.enabled {
            Err(EntropyMismatch::NotEnabled("deal_seed_committed.v1"))
        } else if self.pending.is_some() {
            Err(misplaced("a seed is committed already for the next deal"))
        } else if committed.round != self.last_dealt + 1 {
            Err(misplaced("it is not the next round"))
        } else if committed.procedure != ENTROPY_PROCEDURE {
            Err(EntropyMismatch::UnknownProcedure(
                committed.procedure.clone(),
            ))
        } else if !committed.commitment.matches(&committed.seed) {
            Err(EntropyMismatch::CommitmentMismatch)
        } else {
            Ok(())
        };
        self.pending = Some(PendingDeal {
            round: committed.round,
            commitment: committed.commitment,
            seed: committed.seed,
            contributions: vec![None; self.contributors.len()],
        });
        checked
    }

    fn contributed(&mut self, contributed: &EntropyContributed) -> Result<(), EntropyMismatch> {
        let seat = usize::from(contributed.seat);
        let misplaced = |why| EntropyMismatch::MisplacedContribution {
            round: contributed.round,
            seat: contributed.seat,
            why,
        };
        if !self.enabled {
            return Err(EntropyMismatch::NotEnabled("entropy_contributed.v1"));
        }
        if !self.contributors.get(seat).copied().unwrap_or(false) {
            return Err(misplaced(
                "the seat sends none (a bot, out of the game, no seat)",
            ));
        }
        let Some(pending) = self
            .pending
            .as_mut()
            .filter(|p| p.round == contributed.round)
        else {
            return Err(misplaced("no seed is committed for that round"));
        };
        match pending.contributions.get_mut(seat) {
            Some(slot @ None) => {
                *slot = Some(contributed.value);
                Ok(())
            }
            _ => Err(misplaced("the seat has contributed already")),
        }
    }

    fn check_deal(&self, round: u32, starter: Seat, deal: &Deal) -> Result<(), EntropyMismatch> {
        if !self.enabled {
            return Ok(());
        }
        let Some(pending) = self.pending.as_ref().filter(|p| p.round == round) else {
            return Err(EntropyMismatch::DealWithoutCommitment { round });
        };
        let missing = self.awaiting();
        if !missing.is_empty() {
            return Err(EntropyMismatch::ContributionMissing { round, missing });
        }
        let deal_seed = pending.deal_seed();
        match deal {
            Deal::Shuffled { seed, .. } if *seed == deal_seed => {}
            _ => return Err(EntropyMismatch::SeedMismatch),
        }
        if round == 1 {
            let drawn = first_starter(&deal_seed, self.contributors.len());
            if drawn != starter {
                return Err(EntropyMismatch::StarterMismatch {
                    stored: starter,
                    drawn,
                });
            }
        }
        Ok(())
    }
}

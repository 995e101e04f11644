//! The game as commands decided into events and events folded into state.
//!
//! - `command.rs` / `event.rs` / `error.rs`: what comes in, what is stored, what is refused.
//! - `state.rs`: [`Game`] and its fold, [`Game::apply`].
//! - `decide/`: [`Game::decide`], one file per kind of command.
//! - `scoring/`: the end of a round: points, reductions, eliminations, next starter.
//! - `deal.rs`: dealing from a seed or checking a deal entered on paper.
//! - `piles.rs`: the discard piles (several under Cell Division), where a draw comes
//!   from and where laid cards go.
//! - `view.rs`: what one seat may see, with the actions legal for it now.
//! - `discard.rs`: the discard pile's history in a round, read again from the events.
//! - `diff.rs`: what changed between two states of a game, for referees.
//! - `mismatch.rs`: how a replay names a stored event the rules did not decide.
//! - `describe.rs`: an event as a short sentence, for referees.
//! - `visibility.rs`: the event log as each viewer may see it.

mod add_ons;
mod command;
mod deal;
mod decide;
mod describe;
mod diff;
mod discard;
mod divergence;
mod error;
mod event;
mod mismatch;
mod pile_choice;
mod piles;
mod scoring;
mod seat_view;
mod state;
mod view;
mod visibility;

pub use command::{Command, DealSource, DrawChoice, QueenSwap};
pub use describe::{describe, seat_name};
pub use diff::{GameDiff, SeatDiff, diff};
pub use discard::{DiscardPile, LaidOn, LaidOnKind, PileThrow, Taken, discard_pile};
pub use divergence::{earliest_divergence, earliest_divergence_from};
pub use error::GameError;
pub use event::*;
pub(crate) use piles::Laying;
pub use scoring::{RoundEnding, RoundScore, score_round, standings};
pub use seat_view::{LegalActions, PileView, RoundStage, SeatView, SizeDraws};
pub use state::Game;
pub use visibility::{Viewer, visible_events};

use crate::cards::{Cards, Hand};
use crate::rules::Rules;
use crate::shuffle::Commitment;

impl Game {
    /// Folds trusted events (read back from our own store).
    pub fn from_events<'a>(events: impl IntoIterator<Item = &'a Event>) -> Game {
        let mut game = Game::new();
        for e in events {
            game.apply(e);
        }
        game
    }

    /// Decides and applies `command`, returning the events it produced.
    pub fn execute(&mut self, command: &Command) -> Result<Vec<Event>, GameError> {
        let events = self.decide(command)?;
        for e in &events {
            self.apply(e);
        }
        Ok(events)
    }

    /// Replays untrusted events through the rules: every action event is decided again
    /// from the state before it, and what the rules produce must be exactly the events
    /// that follow. Returns the index of the first event that does not hold, and why.
    pub fn replay_checked(events: &[Event]) -> Result<Game, (usize, GameError)> {
        Self::replay_checked_from(Game::new(), events)
    }

    /// [`Game::replay_checked`] of `events` following the state `game` (a trusted
    /// prefix already folded); indices are into `events`.
    pub(crate) fn replay_checked_from(
        mut game: Game,
        events: &[Event],
    ) -> Result<Game, (usize, GameError)> {
        let mut at = 0;
        // One buffer for every decision: turns are then decided without allocating.
        let mut produced = Vec::new();
        while at < events.len() {
            let mut command = command_behind(&events[at], &events[at + 1..]).ok_or_else(|| {
                (
                    at,
                    GameError::EventMismatch(format!(
                        "a {} event only follows the action that causes it",
                        events[at].type_name()
                    )),
                )
            })?;
            // A shuffled stock decides the draws Sevens forces: decided afresh, a stored
            // draw that differs is then named at its own version.
            if let Command::Play {
                forced,
                pinata,
                redealt,
                queen_taken,
                ..
            }
            | Command::Slap {
                forced,
                pinata,
                redealt,
                queen_taken,
                ..
            } = &mut command
                && game.round.stock_ordered
            {
                forced.clear();
                *pinata = None;
                redealt.clear();
                *queen_taken = None;
            }
            produced.clear();
            game.decide_into(&command, &mut produced)
                .map_err(|e| (mismatch::refused_at(at, &e, events), e))?;
            // Which readings a game plays by (slap-downs, hand cap, pile order) are
            // fixed when it is created: a game stored before a reading keeps its own.
            if let (Some(Event::GameCreated(decided)), Event::GameCreated(stored)) =
                (produced.first_mut(), &events[at])
            {
                decided.keep_readings_of(stored);
            }
            for (offset, expected) in produced.iter().enumerate() {
                match events.get(at + offset) {
                    Some(stored) if stored == expected => {}
                    Some(stored) => {
                        return Err((
                            at + offset,
                            mismatch::stored_event_refused(expected, stored),
                        ));
                    }
                    None => {
                        return Err((
                            at + offset,
                            GameError::EventMismatch(format!(
                                "a {} event is missing",
                                expected.type_name()
                            )),
                        ));
                    }
                }
            }
            for e in &produced {
                game.apply(e);
            }
            at += produced.len();
        }
        Ok(game)
    }

    pub fn rules(&self) -> Option<&Rules> {
        self.rules.as_deref()
    }

    pub fn players(&self) -> &[String] {
        &self.players
    }

    /// Number of events folded so far: the version of the stream.
    pub fn version(&self) -> u64 {
        self.version
    }

    pub fn is_created(&self) -> bool {
        self.created
    }

    pub fn is_finished(&self) -> bool {
        self.finished.is_some()
    }

    pub fn round_number(&self) -> u32 {
        self.round.number
    }

    pub fn round_in_progress(&self) -> bool {
        self.round.in_progress
    }

    /// Whether a new round must be dealt now (the game is created, not over, and no round
    /// is being played).
    pub fn needs_deal(&self) -> bool {
        self.created && self.finished.is_none() && !self.round.in_progress
    }

    pub fn totals(&self) -> &[u32] {
        &self.totals[..self.seat_count()]
    }

    pub fn is_eliminated(&self, seat: Seat) -> bool {
        (seat as usize) < self.seat_count() && !self.is_active(seat)
    }

    /// Standings now: final once the game is over.
    pub fn standings(&self) -> Vec<Standing> {
        match (&self.finished, self.rules.as_deref()) {
            (Some(final_standings), _) => final_standings.clone(),
            (None, Some(rules)) => standings(
                rules,
                self.totals(),
                &self.eliminated_in[..self.seat_count()],
            ),
            (None, None) => Vec::new(),
        }
    }

    /// Whose turn it is to throw or call, or to declare, in the current round.
    pub fn to_act(&self) -> Option<Seat> {
        if !self.round.in_progress {
            return None;
        }
        Some(match self.round.stage {
            state::Stage::Playing | state::Stage::LastTurns { .. } => self.round.turn,
            state::Stage::GoingAlong { next, .. }
            | state::Stage::Kluft { next, .. }
            | state::Stage::Waterfall { next, .. } => next,
        })
    }

    /// A seat's hand (hidden information: for that seat, referees, and tests).
    pub fn hand(&self, seat: Seat) -> &Hand {
        static NONE: Hand = Hand::new();
        self.round.hands.get(seat as usize).unwrap_or(&NONE)
    }

    /// The commitment to the seed of the round in play, if it was dealt from one.
    pub fn commitment(&self) -> Option<Commitment> {
        self.round.commitment
    }

    pub fn stock_len(&self) -> usize {
        self.round.stock.len()
    }

    /// The latest throw, on top of its discard pile.
    pub fn top_throw(&self) -> Cards {
        self.round.piles.latest_top()
    }

    /// Every card in play right now (hands, stock, discard, a piñata set aside, a
    /// waterfall going round), for conservation checks.
    pub fn cards_in_play(&self) -> crate::cards::CardCounts {
        let mut counts = crate::cards::CardCounts::default();
        for hand in &self.round.hands[..self.seat_count()] {
            hand.iter().for_each(|c| counts.add(c));
        }
        self.round.stock.iter().for_each(|&c| counts.add(c));
        self.round.piles.cards().for_each(|c| counts.add(c));
        self.round.pinata.iter().for_each(|&c| counts.add(c));
        if let state::Stage::Waterfall { left, .. } = self.round.stage {
            left.iter().for_each(|c| counts.add(c));
        }
        counts
    }

    /// The deck of this game.
    pub fn deck(&self) -> Option<crate::cards::Deck> {
        self.deck
    }
}

/// The events a turn caused by the bonus rules (Crazy queens, Sevens, Piñata,
/// Double-edged sword), with the reshuffles among them, at the start of `following`.
fn caused(following: &[Event]) -> impl Iterator<Item = &Event> {
    following.iter().take_while(|e| e.follows_a_play())
}

/// Sevens: the cards the play just before `following` forced the others to draw.
fn forced_by(following: &[Event]) -> Vec<crate::cards::Card> {
    caused(following)
        .filter_map(|e| match e {
            Event::ForcedToDraw(forced) => Some(forced.card),
            _ => None,
        })
        .collect()
}

/// Piñata: the card the play just before `following` set aside.
fn pinata_by(following: &[Event]) -> Option<crate::cards::Card> {
    caused(following).find_map(|e| match e {
        Event::PinataSetAside(set_aside) => Some(set_aside.card),
        _ => None,
    })
}

/// Double-edged sword: the hands (per seat) the play just before `following` dealt.
fn redealt_by(following: &[Event]) -> Vec<Hand> {
    caused(following)
        .find_map(|e| match e {
            Event::HandsRedealt(redealt) => Some(
                redealt
                    .hands
                    .iter()
                    .map(|hand| hand.clone().unwrap_or_default())
                    .collect(),
            ),
            _ => None,
        })
        .unwrap_or_default()
}

/// Crazy queens: the swap the player of the play just before `following` chose.
fn queen_by(following: &[Event]) -> Option<QueenSwap> {
    caused(following).find_map(|e| match e {
        Event::QueenSwapped(swapped) => Some(QueenSwap {
            target: swapped.target,
            give: swapped.given,
        }),
        _ => None,
    })
}

/// Crazy queens: the card the blind pick of that swap took.
fn queen_taken_by(following: &[Event]) -> Option<crate::cards::Card> {
    caused(following).find_map(|e| match e {
        Event::QueenSwapped(swapped) => Some(swapped.taken),
        _ => None,
    })
}

/// The command that produced an action event, for [`Game::replay_checked`].
/// `following` are the events after it.
fn command_behind(event: &Event, following: &[Event]) -> Option<Command> {
    // Most plays cause nothing: their command names nothing, without asking five times.
    let following = if caused(following).next().is_some() {
        following
    } else {
        &[]
    };
    Some(match event {
        Event::GameCreated(e) => Command::Create {
            rules: e.rules.clone(),
            players: e.players.clone(),
            initial_totals: e.initial_totals.clone(),
        },
        Event::RoundDealt(e) => Command::Deal {
            starter: Some(e.starter),
            source: match &e.deal {
                Deal::Shuffled { seed, .. } => DealSource::Seeded(*seed),
                Deal::Explicit { hands, up_card } => DealSource::Explicit {
                    hands: hands.clone(),
                    up_card: *up_card,
                },
            },
        },
        Event::TurnPlayed(e) => Command::Play {
            seat: e.seat,
            throw: e.thrown,
            draw: match e.draw {
                Draw::Stock(card) => DrawChoice::StockCard(card),
                Draw::Discard(card) => DrawChoice::Discard(card),
            },
            // What the bonus rules made the turn take off the stock or deal, named by
            // the events that follow it.
            forced: forced_by(following),
            pinata: pinata_by(following),
            redealt: redealt_by(following),
            queen: queen_by(following),
            queen_taken: queen_taken_by(following),
        },
        &Event::SlappedDown(SlappedDown { seat, card }) => Command::Slap {
            seat,
            card,
            forced: forced_by(following),
            pinata: pinata_by(following),
            redealt: redealt_by(following),
            queen: queen_by(following),
            queen_taken: queen_taken_by(following),
        },
        &Event::AddedOn(AddedOn { seat, cards }) => Command::AddOn { seat, cards },
        &Event::Called(Called { seat, call }) => Command::Call { seat, call },
        &Event::WentAlong(WentAlong { seat, going }) => Command::GoAlong { seat, going },
        &Event::OnderkluftDeclared(OnderkluftDeclared {
            seat,
            challenged: challenge,
        }) => Command::Onderkluft { seat, challenge },
        &Event::WaterfallStarted(WaterfallStarted { seat, cards, .. }) => {
            Command::Waterfall { seat, cards }
        }
        &Event::WaterfallPicked(WaterfallPicked { seat, card, .. }) => {
            Command::WaterfallPick { seat, card }
        }
        &Event::PileKilled(PileKilled { seat, size }) => Command::KillPile { seat, size },
        Event::StockReshuffled(_)
        | Event::RoundEnded(_)
        | Event::GameFinished(_)
        | Event::HandsShown(_)
        | Event::ForcedToDraw(_)
        | Event::PinataSetAside(_)
        | Event::PinataTaken(_)
        | Event::HandsRedealt(_)
        | Event::QueenSwapped(_) => return None,
    })
}

//! Creating the table and dealing each round.

use crate::rules::{BonusRule, Rules, SlapDown, StarterRule};
use crate::shuffle::SHUFFLE_ALGORITHM;

use super::super::command::DealSource;
use super::super::deal::check_explicit;
use super::super::error::GameError;
use super::super::event::{Deal, Event, GameCreated, MAX_PLAYERS, RoundDealt, Seat};
use super::super::state::Game;

/// Longest player name accepted.
pub const MAX_NAME_LEN: usize = 64;

impl Game {
    pub(super) fn decide_create(
        &self,
        rules: &Rules,
        players: &[String],
        initial_totals: &[u32],
    ) -> Result<Vec<Event>, GameError> {
        if self.created {
            return Err(GameError::AlreadyCreated);
        }
        rules.validate()?;
        let n = players.len();
        if n < rules.min_players as usize || n > (rules.max_players as usize).min(MAX_PLAYERS) {
            return Err(GameError::BadPlayers(format!(
                "these rules seat {} to {} players, not {n}",
                rules.min_players, rules.max_players
            )));
        }
        for (i, name) in players.iter().enumerate() {
            if name.trim().is_empty() || name.chars().count() > MAX_NAME_LEN {
                return Err(GameError::BadPlayers(format!(
                    "player {i}: a name has 1 to {MAX_NAME_LEN} characters"
                )));
            }
            // A record's names are shown to referees and in the replay viewer.
            if !crate::text::shows_as_written(name, &[]) {
                return Err(GameError::BadPlayers(format!(
                    "player {i}: a name holds a control, invisible or direction character, \
                     or a pile of combining marks"
                )));
            }
            if players[..i].contains(name) {
                return Err(GameError::BadPlayers(format!("{name:?} is seated twice")));
            }
        }
        let initial_totals = match initial_totals.len() {
            0 => vec![0; n],
            len if len == n => initial_totals.to_vec(),
            len => {
                return Err(GameError::BadPlayers(format!(
                    "{len} initial totals for {n} players"
                )));
            }
        };
        // "This play is called a slap-down": new games read a slapped card as a play.
        let slap_downs_play = rules.slap_down != SlapDown::Off
            && rules.bonus_rules.iter().any(|b| b.played_card_sets_off());
        // "A card is drawn for each seven played", with no limit: new games let a hand
        // grow, and say so where a rule can grow one.
        let hands_uncapped = rules.bonus_rules.iter().any(|b| b.grows_hands());
        // A card drawn off a pile leaves the rest of its throw in order: only Osmosis
        // reads a pile's top again after a draw.
        let pile_tops_keep_order = rules.has_bonus(BonusRule::Osmosis);
        Ok(vec![Event::GameCreated(GameCreated {
            rules: rules.clone(),
            players: players.to_vec(),
            initial_totals,
            slap_downs_play,
            hands_uncapped,
            pile_tops_keep_order,
        })])
    }

    pub(super) fn decide_deal(
        &self,
        starter: Option<Seat>,
        source: &DealSource,
    ) -> Result<Vec<Event>, GameError> {
        let rules = self.rules.as_deref().ok_or(GameError::NotCreated)?;
        if self.finished.is_some() {
            return Err(GameError::GameOver);
        }
        if self.round.in_progress {
            return Err(GameError::WrongPhase("a round is being played"));
        }
        let round = self.round.number + 1;
        let (starter, dealer) = if round == 1 {
            let starter = starter
                .ok_or_else(|| GameError::BadDeal("the first round needs a starter".into()))?;
            self.check_seat(starter)?;
            let dealer = match rules.next_starter {
                StarterRule::LowestHand => None,
                StarterRule::LeftOfDealer | StarterRule::LeftOfRoundWinner => {
                    Some(self.previous_active(starter))
                }
            };
            (starter, dealer)
        } else {
            let derived = self
                .next_starter
                .ok_or_else(|| GameError::BadDeal("no starter was set by the last round".into()))?;
            if let Some(given) = starter
                && given != derived
            {
                return Err(GameError::BadDeal(format!(
                    "seat {given} cannot start this round: the rules give seat {derived}"
                )));
            }
            (derived, self.next_dealer)
        };
        let deal = match source {
            DealSource::Seeded(seed) => Deal::Shuffled {
                algorithm: SHUFFLE_ALGORITHM.to_owned(),
                commitment: seed.commitment(),
                seed: *seed,
            },
            DealSource::Explicit { hands, up_card } => {
                let deck = self.deck.ok_or(GameError::NotCreated)?;
                let active: Vec<bool> = (0..self.seat_count() as Seat)
                    .map(|s| self.is_active(s))
                    .collect();
                check_explicit(deck, rules.hand_size as usize, &active, hands, *up_card)
                    .map_err(GameError::BadDeal)?;
                Deal::Explicit {
                    hands: hands.to_vec(),
                    up_card: *up_card,
                }
            }
        };
        Ok(vec![Event::RoundDealt(RoundDealt {
            round,
            dealer,
            starter,
            deal,
        })])
    }
}

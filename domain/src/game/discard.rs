//! The discard pile of a round as it grew, for referees: the fold ([`Game`]) keeps only
//! the throw on top and an unordered heap below it, so [`discard_pile`] reads the
//! round's events again: the up card, every throw with the thrower's draw, what was
//! slapped down or added onto each throw, the card a later turn took from it, and
//! which throws a reshuffle turned back into stock. Under Cell Division each throw
//! names the pile it went on; a five of diamonds that killed a pile (Fifths Disease)
//! is listed as a throw onto it without a draw.

use serde::{Deserialize, Serialize};

use crate::cards::{Card, Cards};

use super::event::{Draw, Event, Seat};
use super::piles::Laying;
use super::state::Game;

/// The discard pile of one round, oldest throw first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DiscardPile {
    /// The round's number (1 for the first).
    pub round: u32,
    /// Version of the round's deal.
    pub dealt_at: u64,
    /// Version of the round's end, once it is over.
    pub ended_at: Option<u64>,
    /// Every throw of the round in order, the up card first; the last one is on top.
    pub throws: Vec<PileThrow>,
}

/// One throw onto the pile (or the card turned up at the deal) and what became of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PileThrow {
    /// Version of the event that put it on the pile (the deal, for the up card).
    pub version: u64,
    /// Who threw it; `null` for the up card.
    pub seat: Option<Seat>,
    /// The size of the pile it went on: 1 for the original pile (the only one of rules
    /// without Cell Division).
    pub pile: u8,
    /// The cards thrown, bottom first.
    pub cards: Cards,
    /// What the thrower drew after throwing; `null` for the up card.
    pub draw: Option<Draw>,
    /// Cards laid onto this throw later: the thrower's slap-down, others' add-ons.
    pub laid_on: Vec<LaidOn>,
    /// The card a later turn took from this throw, if one did.
    pub taken: Option<Taken>,
    /// Osmosis: the cards still later turns took from this throw while it lay on top of
    /// its pile (empty, and left out, under other rules).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub taken_later: Vec<Taken>,
    /// Version of the reshuffle that turned this throw back into stock; `null` while
    /// it lies on the pile.
    pub reshuffled_at: Option<u64>,
}

/// Cards laid onto a throw outside a turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LaidOn {
    pub version: u64,
    pub seat: Seat,
    pub kind: LaidOnKind,
    pub cards: Cards,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum LaidOnKind {
    /// The thrower laid the card just drawn onto their own throw.
    Slap,
    /// Another player (or the thrower, where the rules allow) added cards.
    AddOn,
}

/// A card taken from a throw by a later turn's draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Taken {
    /// Version of the turn that took it.
    pub version: u64,
    pub seat: Seat,
    pub card: Card,
}

/// The discard pile of the last round dealt among `events` (each with its stream
/// version, in order, `game_created.v1` first); `None` before the first deal.
pub fn discard_pile<'a>(events: impl IntoIterator<Item = (u64, &'a Event)>) -> Option<DiscardPile> {
    let mut game = Game::new();
    let mut pile: Option<DiscardPile> = None;
    for (version, event) in events {
        // Where a draw comes from and where cards are laid follow from the state before
        // the event.
        let before = &game;
        if let Some(pile) = pile.as_mut() {
            match event {
                Event::TurnPlayed(turn) => {
                    if let Draw::Discard(card) = turn.draw {
                        let from = before.drawn_from(card, &turn.thrown);
                        if let Some(top) = top_of(pile, from) {
                            let taken = Taken {
                                version,
                                seat: turn.seat,
                                card,
                            };
                            match top.taken {
                                None => top.taken = Some(taken),
                                Some(_) => top.taken_later.push(taken),
                            }
                        }
                    }
                    let on = before.rules().map_or(1, |r| r.pile_for(turn.thrown.len()));
                    pile.throws.push(PileThrow {
                        version,
                        seat: Some(turn.seat),
                        pile: on,
                        cards: turn.thrown,
                        draw: Some(turn.draw),
                        laid_on: Vec::new(),
                        taken: None,
                        taken_later: Vec::new(),
                        reshuffled_at: None,
                    });
                }
                Event::SlappedDown(slap) => {
                    let cards = Cards::from_iter([slap.card]);
                    let on = before.laid_on(cards.as_slice(), Laying::Slap);
                    lay_on(pile, on, version, slap.seat, LaidOnKind::Slap, cards);
                }
                Event::AddedOn(add) => {
                    let on = before.laid_on(add.cards.as_slice(), Laying::AddOn);
                    lay_on(pile, on, version, add.seat, LaidOnKind::AddOn, add.cards);
                }
                Event::PileKilled(kill) => pile.throws.push(PileThrow {
                    version,
                    seat: Some(kill.seat),
                    pile: kill.size,
                    cards: Cards::from_iter([Card::FIVE_OF_DIAMONDS]),
                    draw: None,
                    laid_on: Vec::new(),
                    taken: None,
                    taken_later: Vec::new(),
                    reshuffled_at: None,
                }),
                Event::StockReshuffled(_) => {
                    // Every live pile's throws below its top one go back into stock.
                    let piles = &before.round.piles;
                    let mut tops_seen = 0u64;
                    for throw in pile.throws.iter_mut().rev() {
                        let bit = 1u64 << (throw.pile & 63);
                        let covered = tops_seen & bit != 0;
                        tops_seen |= bit;
                        let dead = piles.get(throw.pile).is_none_or(|p| p.dead);
                        if covered && !dead {
                            throw.reshuffled_at.get_or_insert(version);
                        }
                    }
                }
                Event::RoundEnded(_) => pile.ended_at = Some(version),
                _ => {}
            }
        }
        game.apply(event);
        if let Event::RoundDealt(dealt) = event {
            pile = Some(DiscardPile {
                round: dealt.round,
                dealt_at: version,
                ended_at: None,
                throws: vec![PileThrow {
                    version,
                    seat: None,
                    pile: 1,
                    cards: game.top_throw(),
                    draw: None,
                    laid_on: Vec::new(),
                    taken: None,
                    taken_later: Vec::new(),
                    reshuffled_at: None,
                }],
            });
        }
    }
    pile
}

/// The throw on top of the pile of `size`.
fn top_of(pile: &mut DiscardPile, size: u8) -> Option<&mut PileThrow> {
    pile.throws.iter_mut().rev().find(|t| t.pile == size)
}

fn lay_on(
    pile: &mut DiscardPile,
    on: u8,
    version: u64,
    seat: Seat,
    kind: LaidOnKind,
    cards: Cards,
) {
    if let Some(top) = top_of(pile, on) {
        top.laid_on.push(LaidOn {
            version,
            seat,
            kind,
            cards,
        });
    }
}

impl PileThrow {
    /// The cards of this throw still on the pile: thrown and laid on, less the card
    /// taken; none once reshuffled.
    pub fn remaining(&self) -> Vec<Card> {
        if self.reshuffled_at.is_some() {
            return Vec::new();
        }
        let mut cards: Vec<Card> = self
            .cards
            .iter()
            .chain(self.laid_on.iter().flat_map(|l| l.cards.iter()))
            .collect();
        for taken in self.taken.iter().chain(&self.taken_later) {
            if let Some(at) = cards.iter().position(|&c| c == taken.card) {
                cards.remove(at);
            }
        }
        cards
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::BotKind;
    use crate::rules::Preset;

    /// Every preset's rules, and the house rules with the pile family's bonus rules.
    fn rule_sets() -> Vec<(String, crate::rules::Rules)> {
        let mut sets: Vec<_> = Preset::ALL
            .into_iter()
            .map(|p| (p.name().to_owned(), p.rules()))
            .collect();
        for bonus in [
            &["cell_division", "fifths_disease"][..],
            &["cell_division", "osmosis", "fifths_disease"],
        ] {
            let serde_json::Value::Object(overrides) = serde_json::json!({ "bonus_rules": bonus })
            else {
                unreachable!("an object")
            };
            let rules = Preset::House.rules().with_overrides(&overrides);
            sets.push((bonus.join(" + "), rules.expect("valid")));
        }
        sets
    }

    fn sorted(mut cards: Vec<Card>) -> Vec<Card> {
        cards.sort_unstable();
        cards
    }

    /// After every event of whole games of every preset, the history accounts for the
    /// pile the fold holds: the same cards on it, the same throw on top.
    #[test]
    fn the_history_adds_up_to_the_folded_pile() {
        let (mut throws, mut laid_on, mut taken, mut reshuffles) = (0, 0, 0, 0);
        let (mut kills, mut other_piles) = (0, 0);
        let games = rule_sets()
            .into_iter()
            .flat_map(|set| BotKind::ALL.map(|kind| (set.clone(), kind)));
        for ((preset, rules), kind) in games {
            for seed in [1, 2] {
                let events = crate::sim::bots_game(kind, &rules, 3, seed);
                let versioned = || (10..).zip(events.iter());
                assert_eq!(discard_pile(versioned().take(1)), None);
                let mut game = Game::new();
                let mut pile = None;
                for (n, event) in events.iter().enumerate() {
                    game.apply(event);
                    pile = discard_pile(versioned().take(n + 1));
                    let Some(pile) = &pile else {
                        continue;
                    };
                    assert_eq!(pile.round, game.round_number());
                    let on_pile: Vec<Card> =
                        pile.throws.iter().flat_map(PileThrow::remaining).collect();
                    let folded: Vec<Card> = game.round.piles.cards().collect();
                    assert_eq!(
                        sorted(on_pile),
                        sorted(folded),
                        "{preset:?} after event {n}"
                    );
                    // The latest throw: the last entry on its pile (a pile killed since
                    // shows the five on top).
                    let latest = game.round.piles.latest_size();
                    let top = pile.throws.iter().rev().find(|t| t.pile == latest);
                    let top = top.expect("the up card at least");
                    assert_eq!(
                        sorted(top.remaining()),
                        sorted(game.top_throw().iter().collect()),
                        "{preset:?} after event {n}"
                    );
                    let killed = top.seat.is_some() && top.draw.is_none();
                    if !killed {
                        assert_eq!(top.seat, game.top_thrower().or(top.seat));
                    }
                }
                assert!(
                    pile.is_some_and(|p| p.ended_at.is_some()),
                    "the game is over"
                );
                // Each round, once over: one throw per turn after the up card, and a
                // card taken from a throw exactly when the next turn drew from the pile.
                let ends = events
                    .iter()
                    .enumerate()
                    .filter(|(_, e)| matches!(e, Event::RoundEnded(_)));
                for (end, _) in ends {
                    let pile = discard_pile(versioned().take(end + 1)).expect("dealt");
                    assert_eq!(pile.ended_at, Some(end as u64 + 10));
                    let dealt = usize::try_from(pile.dealt_at - 10).expect("an index");
                    assert!(matches!(events[dealt], Event::RoundDealt(_)));
                    let round = &events[dealt..=end];
                    let turns = round
                        .iter()
                        .filter(|e| matches!(e, Event::TurnPlayed(_)))
                        .count();
                    let killed = round
                        .iter()
                        .filter(|e| matches!(e, Event::PileKilled(_)))
                        .count();
                    assert_eq!(pile.throws.len(), turns + killed + 1);
                    kills += killed;
                    other_piles += pile.throws.iter().filter(|t| t.pile > 1).count();
                    for throw in &pile.throws {
                        for taken in throw.taken.iter().chain(&throw.taken_later) {
                            // Taken by a later turn that drew that card from the pile.
                            let by = pile.throws.iter().find(|t| t.version == taken.version);
                            let by = by.expect("a turn took it");
                            assert!(throw.version < by.version);
                            assert_eq!(Some(taken.seat), by.seat);
                            assert_eq!(by.draw, Some(Draw::Discard(taken.card)));
                        }
                    }
                    let drew_from_piles = pile
                        .throws
                        .iter()
                        .filter(|t| matches!(t.draw, Some(Draw::Discard(_))))
                        .count();
                    let taken_here: usize = pile
                        .throws
                        .iter()
                        .map(|t| usize::from(t.taken.is_some()) + t.taken_later.len())
                        .sum();
                    assert_eq!(taken_here, drew_from_piles, "{preset}");
                    if !rules.several_piles() {
                        // One pile: a card is taken from the throw just before.
                        for (throw, next) in pile.throws.iter().zip(&pile.throws[1..]) {
                            let drew = matches!(next.draw, Some(Draw::Discard(_)));
                            assert_eq!(throw.taken.is_some(), drew);
                        }
                    }
                    let laid = round
                        .iter()
                        .filter(|e| matches!(e, Event::SlappedDown(_) | Event::AddedOn(_)))
                        .count();
                    assert_eq!(
                        pile.throws.iter().map(|t| t.laid_on.len()).sum::<usize>(),
                        laid
                    );
                    throws += pile.throws.len();
                    laid_on += laid;
                    taken += pile.throws.iter().filter(|t| t.taken.is_some()).count();
                    if round.iter().any(|e| matches!(e, Event::StockReshuffled(_))) {
                        reshuffles += 1;
                        assert!(pile.throws.iter().any(|t| t.reshuffled_at.is_some()));
                    }
                }
            }
        }
        assert!(throws > 20 && taken > 0, "{throws} throws, {taken} taken");
        assert!(
            kills > 0 && other_piles > 0,
            "{kills} kills, {other_piles} on other piles"
        );
        // Slap-downs, add-ons and reshuffles are rarer: they must show up somewhere
        // for the test to mean something.
        assert!(laid_on > 0, "no slap-down nor add-on in any round");
        assert!(reshuffles > 0, "no round ran out of stock");
        eprintln!(
            "{throws} throws, {laid_on} laid on, {taken} taken, {reshuffles} rounds reshuffled"
        );
    }
}

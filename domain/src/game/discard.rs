//! The discard pile of a round as it grew, for referees: the fold ([`Game`]) keeps only
//! the throw on top and an unordered heap below it, so [`discard_pile`] reads the
//! round's events again: the up card, every throw with the thrower's draw, what was
//! slapped down or added onto each throw, the card the next player took from it, and
//! which throws a reshuffle turned back into stock.

use serde::{Deserialize, Serialize};

use crate::cards::{Card, Cards};

use super::event::{Draw, Event, Seat};
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
    /// The cards thrown, bottom first.
    pub cards: Cards,
    /// What the thrower drew after throwing; `null` for the up card.
    pub draw: Option<Draw>,
    /// Cards laid onto this throw later: the thrower's slap-down, others' add-ons.
    pub laid_on: Vec<LaidOn>,
    /// The card the next player took from this throw, if one did.
    pub taken: Option<Taken>,
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

/// A card taken from a throw by the next player's draw.
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
        game.apply(event);
        if let Event::RoundDealt(dealt) = event {
            pile = Some(DiscardPile {
                round: dealt.round,
                dealt_at: version,
                ended_at: None,
                throws: vec![PileThrow {
                    version,
                    seat: None,
                    cards: game.top_throw(),
                    draw: None,
                    laid_on: Vec::new(),
                    taken: None,
                    reshuffled_at: None,
                }],
            });
            continue;
        }
        let Some(pile) = pile.as_mut() else {
            continue;
        };
        match event {
            Event::TurnPlayed(turn) => {
                if let (Draw::Discard(card), Some(top)) = (turn.draw, pile.throws.last_mut()) {
                    top.taken = Some(Taken {
                        version,
                        seat: turn.seat,
                        card,
                    });
                }
                pile.throws.push(PileThrow {
                    version,
                    seat: Some(turn.seat),
                    cards: turn.thrown,
                    draw: Some(turn.draw),
                    laid_on: Vec::new(),
                    taken: None,
                    reshuffled_at: None,
                });
            }
            Event::SlappedDown(slap) => lay_on(pile, version, slap.seat, LaidOnKind::Slap, {
                Cards::from_iter([slap.card])
            }),
            Event::AddedOn(add) => lay_on(pile, version, add.seat, LaidOnKind::AddOn, add.cards),
            Event::StockReshuffled(_) => {
                let below = pile.throws.len().saturating_sub(1);
                for throw in &mut pile.throws[..below] {
                    throw.reshuffled_at.get_or_insert(version);
                }
            }
            Event::RoundEnded(_) => pile.ended_at = Some(version),
            _ => {}
        }
    }
    pile
}

fn lay_on(pile: &mut DiscardPile, version: u64, seat: Seat, kind: LaidOnKind, cards: Cards) {
    if let Some(top) = pile.throws.last_mut() {
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
        if let Some(at) = self
            .taken
            .and_then(|t| cards.iter().position(|&c| c == t.card))
        {
            cards.remove(at);
        }
        cards
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::BotKind;
    use crate::rules::Preset;

    fn bots_game(kind: BotKind, preset: Preset, players: usize, seed: u64) -> Vec<Event> {
        crate::sim::bots_game(kind, &preset.rules(), players, seed)
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
        let games = Preset::ALL
            .into_iter()
            .flat_map(|preset| BotKind::ALL.map(|kind| (preset, kind)));
        for (preset, kind) in games {
            for seed in [1, 2] {
                let events = bots_game(kind, preset, 3, seed);
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
                    let mut folded = game.round.discard_below.clone();
                    folded.extend(game.top_throw().iter());
                    assert_eq!(
                        sorted(on_pile),
                        sorted(folded),
                        "{preset:?} after event {n}"
                    );
                    let top = pile.throws.last().expect("the up card at least");
                    assert_eq!(
                        sorted(top.remaining()),
                        sorted(game.top_throw().iter().collect()),
                        "{preset:?} after event {n}"
                    );
                    assert_eq!(top.seat, game.top_thrower().or(top.seat));
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
                    assert_eq!(pile.throws.len(), turns + 1);
                    for (throw, next) in pile.throws.iter().zip(&pile.throws[1..]) {
                        assert!(throw.version < next.version);
                        let drew_from_pile = matches!(next.draw, Some(Draw::Discard(_)));
                        assert_eq!(throw.taken.is_some(), drew_from_pile);
                        if let Some(taken) = throw.taken {
                            assert_eq!(Some(taken.seat), next.seat);
                            assert_eq!(taken.version, next.version);
                            assert_eq!(next.draw, Some(Draw::Discard(taken.card)));
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
        // Slap-downs, add-ons and reshuffles are rarer: they must show up somewhere
        // for the test to mean something.
        assert!(laid_on > 0, "no slap-down nor add-on in any round");
        assert!(reshuffles > 0, "no round ran out of stock");
        eprintln!(
            "{throws} throws, {laid_on} laid on, {taken} taken, {reshuffles} rounds reshuffled"
        );
    }
}

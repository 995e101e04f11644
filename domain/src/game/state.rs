//! The state of a game, folded from its events ([`Game::apply`]). Folding trusts the
//! events (they came out of `decide`); it never panics on any event, but a stream that was
//! not produced by `decide` is only caught by [`Game::replay_checked`](super::Game::replay_checked).

use std::sync::Arc;

use crate::cards::{Card, Cards, Deck, Hand};
use crate::rules::{BonusRule, Rules};
use crate::shuffle::{Commitment, Seed, ShuffleStream, shuffle_in_place};

use super::deal::dealt_from_seed;
use super::event::*;
use super::piles::{Laying, Piles};

/// A whole game: the table, the totals, and the round in play.
///
/// The rules and the players' names never change once the game is created, and are
/// shared by its copies: a bonus rule folds a copy of the game to decide the rest of a
/// turn, and a call one to score the round, and neither needs its own.
#[derive(Debug, Clone, Default)]
pub struct Game {
    pub(crate) created: bool,
    pub(crate) rules: Option<Arc<Rules>>,
    pub(crate) players: Arc<[String]>,
    pub(crate) deck: Option<Deck>,
    pub(crate) totals: [u32; MAX_PLAYERS],
    /// The round a seat was eliminated in; `None` while it plays.
    pub(crate) eliminated_in: [Option<u32>; MAX_PLAYERS],
    pub(crate) successful_calls: [u16; MAX_PLAYERS],
    pub(crate) round: Round,
    /// Set by the round's end: who deals and starts the next round.
    pub(crate) next_dealer: Option<Seat>,
    pub(crate) next_starter: Option<Seat>,
    pub(crate) finished: Option<Vec<Standing>>,
    /// A slapped card sets off the bonus rules as a thrown one does
    /// ([`GameCreated::slap_downs_play`]).
    pub(crate) slap_downs_play: bool,
    /// A hand takes any number of cards ([`GameCreated::hands_uncapped`]); otherwise
    /// one of [`MAX_CARDS`](crate::cards::MAX_CARDS) takes no more.
    pub(crate) hands_uncapped: bool,
    /// A card drawn off a pile's top keeps the others in order
    /// ([`GameCreated::pile_tops_keep_order`]).
    pub(crate) pile_tops_keep_order: bool,
    /// How many events have been folded: the stream version.
    pub(crate) version: u64,
}

/// The round in play (or the last one, once it is over).
#[derive(Debug, Clone, Default)]
pub(crate) struct Round {
    pub number: u32,
    pub in_progress: bool,
    pub dealer: Option<Seat>,
    pub starter: Seat,
    pub hands: [Hand; MAX_PLAYERS],
    /// Top of the stock is the last element.
    pub stock: Vec<Card>,
    /// Whether `stock` is in its real order (dealt from a seed) or only a multiset
    /// (dealt on paper: draws name their card).
    pub stock_ordered: bool,
    pub seed: Option<Seed>,
    pub commitment: Option<Commitment>,
    pub reshuffles: u32,
    /// The discard piles: one, or one per throw size under Cell Division.
    pub piles: Piles,
    /// Who threw the latest throw; `None` for the card turned up at the deal, and once
    /// nothing may be laid on it any more.
    pub top_thrower: Option<Seat>,
    pub turn: Seat,
    /// Nothing done yet in this turn (an own-turn add-on can forfeit the call).
    pub turn_fresh: bool,
    /// The card the last thrower drew, while they may still slap it down.
    pub slap_card: Option<Card>,
    pub turns_played: u32,
    pub stage: Stage,
    /// Spy: cards shown to a player (viewer, owner, the shown cards the owner still
    /// holds). Empty unless a queen of diamonds was thrown under `spy`.
    pub shown: Vec<(Seat, Seat, Hand)>,
    /// Southern Hemisphere: a nine reversed the direction of play this round.
    pub reversed: bool,
    /// Piñata: the card a three set aside, face down, until the next three takes it.
    pub pinata: Option<Card>,
    /// Double-edged sword: the round's re-deals so far.
    pub redeals: u32,
    /// Crazy queens: the round's swaps so far.
    pub queen_swaps: u32,
    /// Waterfall: the player whose turn it is passed one already. It begins their turn,
    /// so it also closes the window on the throw before it.
    pub waterfall_passed: bool,
    /// Fifths Disease: a pile was killed since the latest throw. The kill begins a
    /// turn, so it closes the window on the throw before it.
    pub pile_killed: bool,
    /// Fifths Disease: the player whose turn it is killed a pile in it (once a turn).
    pub killed_in_turn: bool,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) enum Stage {
    #[default]
    Playing,
    /// Belgian: after a call, each other player plays one last turn.
    LastTurns { caller: Seat, remaining: u8 },
    /// Belgian: declarations, clockwise from the caller's left. `going` is a seat bitmask.
    GoingAlong {
        caller: Seat,
        next: Seat,
        declared: u8,
        going: u8,
    },
    /// Kluft: the others decide in turn whether to challenge; `challengers` is a bitmask.
    Kluft {
        caller: Seat,
        next: Seat,
        challengers: u8,
    },
    /// Waterfall: the cards of `initiator`'s straight still going round; `next` keeps
    /// one of `left` and passes the rest on.
    Waterfall {
        initiator: Seat,
        next: Seat,
        left: Cards,
    },
}

impl Game {
    pub fn new() -> Game {
        Game::default()
    }

    /// Folds one event into the state.
    pub fn apply(&mut self, event: &Event) {
        self.version += 1;
        match event {
            Event::GameCreated(e) => self.apply_created(e),
            Event::RoundDealt(e) => self.apply_dealt(e),
            Event::TurnPlayed(e) => self.apply_turn(e),
            Event::StockReshuffled(e) => self.apply_reshuffle(e),
            Event::SlappedDown(e) => {
                if let Some(hand) = self.round.hands.get_mut(e.seat as usize) {
                    hand.remove(e.card);
                }
                self.forget_shown(e.seat, &[e.card]);
                let pile = self.laid_on(&[e.card], Laying::Slap);
                self.round.piles.lay_on(pile, &[e.card]);
                self.round.slap_card = None;
                if self.slap_downs_play && self.reverses(&[e.card]) {
                    self.round.reversed = !self.round.reversed;
                    // The slap comes before the next player begins: the turn passes
                    // from the slapper in the new direction.
                    self.round.turn = self.next_in_play(e.seat);
                    self.round.turn_fresh = true;
                }
            }
            Event::AddedOn(e) => {
                let pile = self.laid_on(e.cards.as_slice(), Laying::AddOn);
                if let Some(hand) = self.round.hands.get_mut(e.seat as usize) {
                    let _ = hand.remove_all(e.cards.as_slice());
                }
                self.forget_shown(e.seat, e.cards.as_slice());
                self.round.piles.lay_on(pile, e.cards.as_slice());
                if e.seat == self.round.turn
                    && matches!(self.round.stage, Stage::Playing | Stage::LastTurns { .. })
                {
                    self.round.turn_fresh = false;
                }
            }
            Event::Called(e) => self.apply_called(e),
            Event::HandsRedealt(e) => {
                for (seat, hand) in (0..).zip(&e.hands) {
                    if let (Some(hand), Some(slot)) = (hand, self.round.hands.get_mut(seat)) {
                        *slot = hand.clone();
                    }
                }
                self.round.redeals = e.redeal;
                // What Spy showed and the card just drawn are gone with the old hands.
                self.round.shown.clear();
                self.round.slap_card = None;
            }
            Event::QueenSwapped(e) => {
                let hands = &mut self.round.hands;
                if let Some(hand) = hands.get_mut(e.seat as usize) {
                    hand.remove(e.given);
                    hand.push(e.taken);
                }
                if let Some(hand) = hands.get_mut(e.target as usize) {
                    hand.remove(e.taken);
                    hand.push(e.given);
                }
                self.round.queen_swaps = e.swap;
                // The two players know what changed hands; anyone else who saw either
                // hand (Spy) no longer knows which of those cards are still there.
                let pair = [e.seat, e.target];
                self.forget_shown_but_to(e.seat, &[e.given], &pair);
                self.forget_shown_but_to(e.target, &[e.taken], &pair);
            }
            Event::WaterfallStarted(e) => {
                if let Some(hand) = self.round.hands.get_mut(e.seat as usize) {
                    let _ = hand.remove_all(e.cards.as_slice());
                }
                // Who knew the starter's hand (Spy) learns nothing of the straight: only
                // the player it is passed to sees it.
                self.forget_shown_but_to(e.seat, e.cards.as_slice(), &[e.to]);
                self.round.waterfall_passed = true;
                self.round.slap_card = None;
                self.round.stage = Stage::Waterfall {
                    initiator: e.seat,
                    next: e.to,
                    left: e.cards,
                };
            }
            Event::WaterfallPicked(e) => {
                if let Stage::Waterfall {
                    initiator, left, ..
                } = self.round.stage
                {
                    let hands = &mut self.round.hands;
                    if let Some(hand) = hands.get_mut(e.seat as usize) {
                        hand.push(e.card);
                    }
                    if e.to == initiator {
                        if let Some(hand) = hands.get_mut(initiator as usize) {
                            hand.extend(e.passed.as_slice());
                        }
                        self.round.stage = Stage::Playing;
                    } else {
                        let mut left = left;
                        left.remove(e.card);
                        self.round.stage = Stage::Waterfall {
                            initiator,
                            next: e.to,
                            left,
                        };
                    }
                }
            }
            Event::PileKilled(e) => {
                if let Some(hand) = self.round.hands.get_mut(e.seat as usize) {
                    hand.remove(Card::FIVE_OF_DIAMONDS);
                }
                self.forget_shown(e.seat, &[Card::FIVE_OF_DIAMONDS]);
                let round = &mut self.round;
                round.piles.kill(e.size, Card::FIVE_OF_DIAMONDS);
                round.pile_killed = true;
                round.killed_in_turn = true;
                round.slap_card = None;
                // The five lies on the latest throw: nothing is laid on that any more.
                if round.piles.latest_size() == e.size {
                    round.top_thrower = None;
                }
            }
            Event::PinataSetAside(e) => {
                take_from_stock(&mut self.round.stock, e.card);
                self.round.pinata = Some(e.card);
            }
            Event::PinataTaken(e) => {
                if let Some(hand) = self.round.hands.get_mut(e.seat as usize) {
                    hand.push(e.card);
                }
                self.round.pinata = None;
            }
            Event::ForcedToDraw(e) => {
                let round = &mut self.round;
                if let Some(hand) = round.hands.get_mut(e.seat as usize) {
                    hand.push(e.card);
                }
                take_from_stock(&mut round.stock, e.card);
            }
            Event::HandsShown(e) => {
                for (owner, hand) in (0..).zip(&e.hands) {
                    if let Some(hand) = hand {
                        self.round
                            .shown
                            .retain(|&(v, o, _)| (v, o) != (e.to, owner));
                        self.round.shown.push((e.to, owner, hand.clone()));
                    }
                }
            }
            Event::WentAlong(e) => {
                if let Stage::GoingAlong {
                    caller,
                    next,
                    declared,
                    going,
                } = self.round.stage
                {
                    self.round.stage = Stage::GoingAlong {
                        caller,
                        next: self.next_other_than(next, caller),
                        declared: declared + 1,
                        going: with_seat(going, e.seat, e.going),
                    };
                }
            }
            Event::OnderkluftDeclared(e) => {
                if let Stage::Kluft {
                    caller,
                    next,
                    challengers,
                } = self.round.stage
                {
                    self.round.stage = Stage::Kluft {
                        caller,
                        next: self.next_other_than(next, caller),
                        challengers: with_seat(challengers, e.seat, e.challenged),
                    };
                }
            }
            Event::RoundEnded(e) => self.apply_round_ended(e),
            Event::GameFinished(e) => self.finished = Some(e.standings.clone()),
        }
    }

    fn apply_created(&mut self, e: &GameCreated) {
        self.created = true;
        self.deck = Some(e.rules.deck(e.players.len()));
        self.rules = Some(Arc::new(e.rules.clone()));
        self.players = e.players.as_slice().into();
        self.slap_downs_play = e.slap_downs_play;
        self.hands_uncapped = e.hands_uncapped;
        self.pile_tops_keep_order = e.pile_tops_keep_order;
        for (seat, &total) in e.initial_totals.iter().enumerate().take(MAX_PLAYERS) {
            self.totals[seat] = total;
        }
    }

    fn apply_dealt(&mut self, e: &RoundDealt) {
        let hand_size = self.rules_hand_size();
        let order = self.active_from(e.starter);
        let round = &mut self.round;
        round.number = e.round;
        round.in_progress = true;
        round.dealer = e.dealer;
        round.starter = e.starter;
        round.turn = e.starter;
        round.turn_fresh = true;
        round.slap_card = None;
        round.turns_played = 0;
        round.reshuffles = 0;
        round.stage = Stage::Playing;
        round.top_thrower = None;
        round.shown.clear();
        round.reversed = false;
        round.pinata = None;
        round.redeals = 0;
        round.queen_swaps = 0;
        round.waterfall_passed = false;
        round.pile_killed = false;
        round.killed_in_turn = false;
        self.next_dealer = None;
        self.next_starter = None;
        let (hands, up_card, stock, ordered, seed, commitment) = match &e.deal {
            Deal::Shuffled {
                seed, commitment, ..
            } => {
                let Some(deck) = self.deck else { return };
                let dealt = dealt_from_seed(seed, deck, hand_size, &order);
                (
                    dealt.hands.map(Hand::from),
                    dealt.up_card,
                    dealt.stock,
                    true,
                    Some(*seed),
                    Some(*commitment),
                )
            }
            Deal::Explicit { hands, up_card } => {
                let mut rest = self.deck.map(Deck::counts).unwrap_or_default();
                let mut seat_hands: [Hand; MAX_PLAYERS] = Default::default();
                for (seat, hand) in hands.iter().enumerate().take(MAX_PLAYERS) {
                    seat_hands[seat] = Hand::from(*hand);
                    hand.iter().for_each(|c| {
                        rest.take(c);
                    });
                }
                rest.take(*up_card);
                let stock = rest
                    .iter()
                    .flat_map(|(c, n)| std::iter::repeat_n(c, n as usize))
                    .collect();
                (seat_hands, *up_card, stock, false, None, None)
            }
        };
        round.hands = hands;
        round.piles.deal(up_card);
        round.stock = stock;
        round.stock_ordered = ordered;
        round.seed = seed;
        round.commitment = commitment;
    }

    /// The pile a turn throwing `thrown` drew `card` from (see [`Game::osmosis`]).
    pub(crate) fn drawn_from(&self, card: Card, thrown: &Cards) -> u8 {
        let own = self
            .rules
            .as_deref()
            .map_or(1, |r| r.pile_for(thrown.len()));
        if self.osmosis() {
            self.discard_source(card, thrown).unwrap_or(own)
        } else {
            own
        }
    }

    /// The pile a slap-down or an add-on of `cards` went on (see [`Game::osmosis`]).
    pub(crate) fn laid_on(&self, cards: &[Card], laying: Laying) -> u8 {
        let latest = self.round.piles.latest_size();
        if self.osmosis() {
            self.lay_target(cards, laying).unwrap_or(latest)
        } else {
            latest
        }
    }

    /// `owner` no longer holds `cards`: nobody it was shown to still knows them there.
    /// What Spy showed of `owner`'s hand after `cards` left it unseen by all but
    /// `knowing`: those viewers forget just `cards`, every other viewer the whole hand
    /// (they cannot tell which of the cards they saw went).
    fn forget_shown_but_to(&mut self, owner: Seat, cards: &[Card], knowing: &[Seat]) {
        self.round
            .shown
            .retain(|&(viewer, o, _)| o != owner || knowing.contains(&viewer));
        self.forget_shown(owner, cards);
    }

    fn forget_shown(&mut self, owner: Seat, cards: &[Card]) {
        if self.round.shown.is_empty() {
            // Nothing shown (always, without Spy): every turn's fold asks.
            return;
        }
        for (_, o, shown) in &mut self.round.shown {
            if *o == owner {
                for &card in cards {
                    shown.remove(card);
                }
            }
        }
    }

    /// Per seat, the cards of its hand that were shown to `viewer` (Spy) and it still
    /// holds; empty where none.
    pub fn shown_to(&self, viewer: Seat) -> Vec<Hand> {
        let mut known = vec![Hand::new(); self.seat_count()];
        for (v, owner, cards) in &self.round.shown {
            if *v == viewer
                && let Some(slot) = known.get_mut(*owner as usize)
            {
                *slot = cards.clone();
            }
        }
        known
    }

    fn apply_turn(&mut self, e: &TurnPlayed) {
        let pile = self
            .rules
            .as_deref()
            .map_or(1, |r| r.pile_for(e.thrown.len()));
        let source = match e.draw {
            Draw::Discard(card) => Some(self.drawn_from(card, &e.thrown)),
            Draw::Stock(_) => None,
        };
        self.forget_shown(e.seat, e.thrown.as_slice());
        let seat = e.seat as usize;
        let Some(hand) = self.round.hands.get_mut(seat) else {
            return;
        };
        let _ = hand.remove_all(e.thrown.as_slice());
        let drawn = e.draw.card();
        hand.push(drawn);
        let round = &mut self.round;
        match e.draw {
            Draw::Stock(card) => take_from_stock(&mut round.stock, card),
            Draw::Discard(card) => {
                if let Some(from) = source {
                    round.piles.take(from, card, self.pile_tops_keep_order);
                }
            }
        }
        round.piles.lay_throw(pile, e.thrown);
        round.top_thrower = Some(e.seat);
        round.slap_card = self
            .rules
            .as_deref()
            .and_then(|r| match (r.slap_down, e.draw) {
                (crate::rules::SlapDown::AfterAnyDraw, _)
                | (crate::rules::SlapDown::AfterStockDraw, Draw::Stock(_)) => Some(drawn),
                _ => None,
            });
        self.round.turns_played += 1;
        self.round.turn_fresh = true;
        self.round.waterfall_passed = false;
        self.round.pile_killed = false;
        self.round.killed_in_turn = false;
        if self.reverses(e.thrown.as_slice()) {
            self.round.reversed = !self.round.reversed;
        }
        match self.round.stage {
            Stage::LastTurns { caller, remaining } if remaining <= 1 => {
                self.round.stage = Stage::GoingAlong {
                    caller,
                    next: self.next_other_than(caller, caller),
                    declared: 0,
                    going: 0,
                };
                self.round.turn = caller;
            }
            Stage::LastTurns { caller, remaining } => {
                self.round.stage = Stage::LastTurns {
                    caller,
                    remaining: remaining - 1,
                };
                self.round.turn = self.next_in_play_other_than(e.seat, caller);
            }
            _ => self.round.turn = self.next_in_play(e.seat),
        }
    }

    fn apply_reshuffle(&mut self, e: &StockReshuffled) {
        let round = &mut self.round;
        round.reshuffles = e.reshuffle;
        let mut cards = std::mem::take(&mut round.stock);
        round.piles.take_below_into(&mut cards);
        if let Some(seed) = &round.seed {
            // Sorting first makes the shuffle independent of how the pile was kept.
            cards.sort_unstable();
            shuffle_in_place(&mut cards, &mut ShuffleStream::new(seed, e.reshuffle));
            cards.reverse();
        }
        round.stock = cards;
    }

    fn apply_called(&mut self, e: &Called) {
        let Some(rules) = self.rules.as_deref() else {
            return;
        };
        let caller = e.seat;
        // A call is not a throw: the last thrower's slap-down stays open as long as the
        // window does (RULES.md interpretation 5; `window_open` closes it at a Kluft call).
        match rules.call_resolution {
            crate::rules::CallResolution::GoAlong { .. } if self.call_within_threshold(caller) => {
                let others = self.active_seats().filter(|&s| s != caller).count() as u8;
                self.round.stage = Stage::LastTurns {
                    caller,
                    remaining: others,
                };
                self.round.turn = self.next_in_play_other_than(caller, caller);
                // The next player's last turn begins: nothing done in it yet.
                self.round.turn_fresh = true;
                self.round.killed_in_turn = false;
            }
            crate::rules::CallResolution::Kluft { .. } => {
                self.round.stage = Stage::Kluft {
                    caller,
                    next: self.next_other_than(caller, caller),
                    challengers: 0,
                };
                self.round.top_thrower = None;
            }
            _ => {}
        }
    }

    fn apply_round_ended(&mut self, e: &RoundEnded) {
        self.round.in_progress = false;
        self.round.slap_card = None;
        self.round.top_thrower = None;
        for (seat, &total) in e.totals.iter().enumerate().take(MAX_PLAYERS) {
            self.totals[seat] = total;
        }
        for &seat in &e.eliminated {
            if let Some(slot) = self.eliminated_in.get_mut(seat as usize) {
                *slot = Some(e.round);
            }
        }
        if matches!(e.outcome, Outcome::Yaniv | Outcome::Kluft)
            && let Some(slot) = e
                .caller
                .and_then(|c| self.successful_calls.get_mut(c as usize))
        {
            *slot += 1;
        }
        self.next_dealer = e.next_dealer;
        self.next_starter = e.next_starter;
    }

    fn rules_hand_size(&self) -> usize {
        self.rules.as_deref().map_or(0, |r| r.hand_size as usize)
    }

    /// Whether the caller's hand is within the call threshold (a call above it, where the
    /// rules allow one, ends the round at once).
    pub(crate) fn call_within_threshold(&self, seat: Seat) -> bool {
        let Some(rules) = self.rules.as_deref() else {
            return false;
        };
        let Some(hand) = self.round.hands.get(seat as usize) else {
            return true;
        };
        let Some(threshold) = rules.call_threshold.map(u32::from) else {
            return true;
        };
        if rules.has_bonus(BonusRule::Wormhole) {
            return hand.is_empty() || rules.call_total(hand.as_slice()) <= threshold;
        }
        // Every card counts zero or more, so the sum is over the threshold as soon as a
        // part of it is: asked for every turn (can the bot call?), most hands are
        // answered after a card or two.
        let mut total = 0;
        for card in hand.iter() {
            total += rules.value(card);
            if total > threshold {
                return false;
            }
        }
        true
    }

    /// Whether `seat`'s hand may take one more card from a bonus rule (a forced draw,
    /// the piñata, a waterfall's card): always, but in a game created before hands had
    /// no limit, not once it holds [`MAX_CARDS`](crate::cards::MAX_CARDS).
    pub(crate) fn takes_a_card(&self, seat: Seat) -> bool {
        self.hands_uncapped
            || self
                .round
                .hands
                .get(seat as usize)
                .is_some_and(|h| h.len() < crate::cards::MAX_CARDS)
    }

    // ---- seating helpers -------------------------------------------------------------

    pub(crate) fn seat_count(&self) -> usize {
        self.players.len().min(MAX_PLAYERS)
    }

    pub(crate) fn is_active(&self, seat: Seat) -> bool {
        (seat as usize) < self.seat_count() && self.eliminated_in[seat as usize].is_none()
    }

    pub(crate) fn active_seats(&self) -> impl Iterator<Item = Seat> + '_ {
        (0..self.seat_count() as Seat).filter(|&s| self.is_active(s))
    }

    pub(crate) fn active_count(&self) -> usize {
        self.active_seats().count()
    }

    /// The next seat still in the game after `seat`, in the direction of play.
    pub(crate) fn next_active(&self, seat: Seat) -> Seat {
        let n = self.seat_count().max(1) as Seat;
        let mut s = seat;
        for _ in 0..n {
            s = (s + 1) % n;
            if self.is_active(s) {
                return s;
            }
        }
        seat
    }

    /// The previous active seat (the player on whose left `seat` sits).
    pub(crate) fn previous_active(&self, seat: Seat) -> Seat {
        let n = self.seat_count().max(1) as Seat;
        let mut s = seat;
        for _ in 0..n {
            s = (s + n - 1) % n;
            if self.is_active(s) {
                return s;
            }
        }
        seat
    }

    /// Southern Hemisphere: "Playing a 9 reverses the direction of play." Whether
    /// playing `cards` does now: not in the last turns after a call, where each other
    /// player plays exactly one turn.
    fn reverses(&self, cards: &[Card]) -> bool {
        self.round.stage == Stage::Playing
            && self
                .rules
                .as_deref()
                .is_some_and(|r| r.has_bonus(BonusRule::SouthernHemisphere))
            && cards.iter().any(|c| c.rank() == 9)
    }

    /// Whose turn follows `seat`'s: the next active seat in the direction of play, which
    /// Southern Hemisphere's nines may have reversed for the round.
    pub(crate) fn next_in_play(&self, seat: Seat) -> Seat {
        if self.round.reversed {
            self.previous_active(seat)
        } else {
            self.next_active(seat)
        }
    }

    /// [`Game::next_in_play`], passing over `skip`.
    pub(crate) fn next_in_play_other_than(&self, seat: Seat, skip: Seat) -> Seat {
        let next = self.next_in_play(seat);
        if next == skip {
            self.next_in_play(next)
        } else {
            next
        }
    }

    /// The next active seat after `seat` that is not `skip`.
    pub(crate) fn next_other_than(&self, seat: Seat, skip: Seat) -> Seat {
        let next = self.next_active(seat);
        if next == skip {
            self.next_active(next)
        } else {
            next
        }
    }

    /// Active seats in the direction of play, starting with `first`.
    pub(crate) fn active_from(&self, first: Seat) -> Vec<Seat> {
        let n = self.seat_count() as Seat;
        (0..n)
            .map(|i| (first + i) % n.max(1))
            .filter(|&s| self.is_active(s))
            .collect()
    }
}

/// Takes `card` off the stock: its top when it is there (a shuffled stock), else
/// wherever it lies (a paper stock, which has no order).
fn take_from_stock(stock: &mut Vec<Card>, card: Card) {
    if stock.last() == Some(&card) {
        stock.pop();
    } else if let Some(at) = stock.iter().position(|&c| c == card) {
        stock.swap_remove(at);
    }
}

/// The seat bitmask `mask`, with `seat` added when `added`.
fn with_seat(mask: u8, seat: Seat, added: bool) -> u8 {
    if added { mask | 1 << (seat & 7) } else { mask }
}

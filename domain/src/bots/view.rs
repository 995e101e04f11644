//! [`BotView`]: what one seat may see, for bots, without allocating.
//!
//! It holds the game privately: this module is the only part of `bots` that can reach the
//! [`Game`], and everything it hands out is what [`Game::view`] shows that seat (its own
//! hand, the others' hand sizes, the top throw and what of it may be drawn, the stock size,
//! totals, whose turn it is) plus the legal actions of [`Game::legal_actions`], produced
//! lazily. The bots in `random.rs` and `greedy.rs` are sibling modules, so Rust's privacy
//! rules keep them from reading other hands or the stock: the restriction is structural.
//!
//! Every enumeration here gives exactly what `legal_actions` lists, in the same order
//! (`domain/tests/properties.rs` checks it at every step of thousands of games).

use crate::cards::{Card, Cards, Hand};
use crate::game::{
    CallKind, Command, Game, Laying, LegalActions, QueenSwap, RoundStage, Seat, SeatView,
};
use crate::rules::{BonusRule, Rules, SlapDown};

/// What a seat declares after a call, when asked in turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Declaration {
    /// Belgian: whether it goes along with the caller.
    GoAlong,
    /// Kluft: whether it challenges the caller (Onderkluft).
    Onderkluft,
}

impl Declaration {
    /// The command by which `seat` declares: `yes` goes along, or challenges.
    pub fn command(self, seat: Seat, yes: bool) -> Command {
        match self {
            Declaration::GoAlong => Command::GoAlong { seat, going: yes },
            Declaration::Onderkluft => Command::Onderkluft {
                seat,
                challenge: yes,
            },
        }
    }
}

/// One seat's view of a game, borrowed for one decision.
#[derive(Debug, Clone, Copy)]
pub struct BotView<'a> {
    game: &'a Game,
    seat: Seat,
}

impl<'a> BotView<'a> {
    /// The view of `seat`. A seat that does not exist (or a game not created) sees an
    /// empty table with nothing to do.
    pub fn new(game: &'a Game, seat: Seat) -> BotView<'a> {
        BotView { game, seat }
    }

    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// The effective rules (public: stored in the game's first event).
    pub fn rules(&self) -> Option<&'a Rules> {
        self.game.rules()
    }

    pub fn round_number(&self) -> u32 {
        self.game.round_number()
    }

    pub fn stage(&self) -> RoundStage {
        self.game.round_stage()
    }

    /// Who must act now (throw or call, or declare).
    pub fn to_act(&self) -> Option<Seat> {
        self.game.to_act()
    }

    /// The caller whose hand is closed while the round is finished (Belgian, Kluft).
    pub fn caller(&self) -> Option<Seat> {
        self.game.closed_caller_public()
    }

    pub fn hand(&self) -> &'a Hand {
        self.game.hand(self.seat)
    }

    pub fn hand_total(&self) -> u32 {
        self.rules()
            .map_or(0, |r| r.hand_total(self.hand().as_slice()))
    }

    pub fn seat_count(&self) -> usize {
        self.game.players().len()
    }

    /// Whether `seat` still plays in the game.
    pub fn is_active(&self, seat: Seat) -> bool {
        (seat as usize) < self.seat_count() && !self.game.is_eliminated(seat)
    }

    /// How many cards `seat` holds (public: everyone sees the others' hand sizes).
    pub fn hand_len(&self, seat: Seat) -> usize {
        self.game.hand(seat).len()
    }

    pub fn totals(&self) -> &'a [u32] {
        self.game.totals()
    }

    pub fn top_throw(&self) -> Cards {
        self.game.top_throw()
    }

    pub fn top_thrower(&self) -> Option<Seat> {
        self.game.top_thrower()
    }

    /// The cards of the top throw the next player may draw (empty between rounds).
    pub fn takeable(&self) -> Cards {
        self.game.latest_takeable()
    }

    pub fn stock_size(&self) -> usize {
        self.game.stock_len()
    }

    /// The word a call uses under these rules.
    pub fn call_kind(&self) -> CallKind {
        self.rules()
            .map_or(CallKind::Yaniv, Rules::call_resolution_kind)
    }

    /// The rules, when this seat may act at all now (a round in play, the seat in it).
    fn in_play(&self) -> Option<&'a Rules> {
        let rules = self.game.rules()?;
        let playing =
            self.game.round_in_progress() && !self.game.is_finished() && self.is_active(self.seat);
        playing.then_some(rules)
    }

    /// Whether it is this seat's turn to throw (or call): `legal_actions` lists throws and
    /// draws exactly then.
    pub fn is_my_turn(&self) -> bool {
        self.in_play().is_some()
            && matches!(self.stage(), RoundStage::Playing | RoundStage::LastTurns)
            && self.to_act() == Some(self.seat)
    }

    /// Every throw the hand can make now, in `legal_actions` order; nothing when it is not
    /// this seat's turn.
    pub fn for_each_throw(&self, found: impl FnMut(&Cards)) {
        if self.is_my_turn() && !self.hand().is_empty() {
            self.game.for_each_playable_throw(self.seat, found);
        }
    }

    /// Whether the stock can be drawn from in this turn.
    pub fn can_draw_from_stock(&self) -> bool {
        self.is_my_turn() && !self.hand().is_empty() && self.stock_size() > 0
    }

    /// Crazy queens: the cards `throw` leaves this seat to give when it makes it swap
    /// (empty when it swaps nothing; then no `queen` may be named).
    pub fn queen_gives(&self, throw: &Cards) -> Hand {
        self.gives_after(throw, self.game.throw_swaps_queens(throw))
    }

    /// The cards left to give after laying `laid`, when laying it `swaps`.
    fn gives_after(&self, laid: &Cards, swaps: bool) -> Hand {
        if !swaps || self.queen_targets().next().is_none() {
            return Hand::new();
        }
        let mut left = self.hand().clone();
        let _ = left.remove_all(laid.as_slice());
        left
    }

    /// Crazy queens: the seats a queen of this seat may target, from its left.
    pub fn queen_targets(&self) -> impl Iterator<Item = Seat> + 'a {
        self.game.queen_targets(self.seat)
    }

    /// Crazy queens: a sensible swap for `throw`, when it makes one: the card worth most
    /// goes to the player with the fewest cards (the nearest to calling), the first of
    /// them from this seat's left on a tie.
    pub fn default_queen_swap(&self, throw: &Cards) -> Option<QueenSwap> {
        self.sensible_swap(self.queen_gives(throw))
    }

    /// [`BotView::default_queen_swap`] for slapping `card` down (a queen slapped in a
    /// game whose slap-downs play swaps as a thrown one does).
    pub fn default_slap_queen_swap(&self, card: Card) -> Option<QueenSwap> {
        let slapped: Cards = std::iter::once(card).collect();
        self.sensible_swap(self.gives_after(&slapped, self.game.slap_swaps_queens(card)))
    }

    fn sensible_swap(&self, gives: Hand) -> Option<QueenSwap> {
        let rules = self.rules()?;
        let give = gives.iter().max_by_key(|&c| (rules.value(c), c))?;
        let target = self.queen_targets().min_by_key(|&s| self.hand_len(s))?;
        Some(QueenSwap { target, give })
    }

    /// Waterfall: every straight this seat may pass to its left now, in `legal_actions`
    /// order.
    pub fn for_each_waterfall(&self, found: impl FnMut(&Cards)) {
        self.game.for_each_waterfall(self.seat, found);
    }

    /// Fifths Disease: the sizes of the piles this seat may kill now, smallest first.
    pub fn killable_piles(&self) -> impl Iterator<Item = u8> + 'a {
        self.game.killable_piles(self.seat)
    }

    /// Waterfall: the cards passed to this seat, of which it must keep one now (empty
    /// when it is not its pick).
    pub fn waterfall_offer(&self) -> Cards {
        match self.game.waterfall_offer() {
            Some((next, cards)) if next == self.seat => cards,
            _ => Cards::new(),
        }
    }

    /// Waterfall: the card of the offer worth least (the lowest card on a tie), when this
    /// seat must keep one.
    pub fn lowest_of_offer(&self) -> Option<Card> {
        let rules = self.rules()?;
        self.waterfall_offer()
            .iter()
            .min_by_key(|&c| (rules.value(c), c))
    }

    /// The discard cards this turn may draw whatever it throws
    /// (`legal_actions().draw_from_discard`; none under Cell Division without Osmosis,
    /// where they depend on the throw's size).
    pub fn discard_draws(&self) -> Cards {
        if self.is_my_turn() && !self.hand().is_empty() {
            self.game.draws_whatever_the_throw()
        } else {
            Cards::new()
        }
    }

    /// The discard cards this turn may draw after throwing `throw` (the joker swap
    /// aside), each once: [`BotView::discard_draws`], or under Cell Division those of
    /// the throw's size.
    pub fn discard_draws_for(&self, throw: &Cards) -> Cards {
        if self.is_my_turn() && !self.hand().is_empty() {
            self.game.discard_draws(throw.len())
        } else {
            Cards::new()
        }
    }

    /// Whether a call is accepted now.
    pub fn can_call(&self) -> bool {
        self.is_my_turn()
            && self.stage() == RoundStage::Playing
            && self.game.call_allowed(self.seat, self.call_kind())
    }

    /// The declaration this seat must make now, if any.
    pub fn owed_declaration(&self) -> Option<Declaration> {
        if self.in_play().is_none() || self.to_act() != Some(self.seat) {
            return None;
        }
        match self.stage() {
            RoundStage::GoingAlong => Some(Declaration::GoAlong),
            RoundStage::Kluft => Some(Declaration::Onderkluft),
            _ => None,
        }
    }

    /// The card this seat (the last thrower) may slap down now.
    pub fn slap(&self) -> Option<Card> {
        // Every seat is asked after every throw and only the thrower may slap: the two
        // plain field reads come first.
        let card = self.game.slap_card()?;
        if self.top_thrower() != Some(self.seat) {
            return None;
        }
        let rules = self.in_play()?;
        if !self.game.window_open() || rules.slap_down == SlapDown::Off {
            return None;
        }
        self.game
            .lay_target(&[card], Laying::Slap)
            .is_some()
            .then_some(card)
    }

    /// Every add-on this seat may lay now, each once, in the order `legal_actions` lists
    /// them (see [`Game::for_each_add_on`]).
    pub fn for_each_add_on(&self, found: impl FnMut(&Cards)) {
        self.game.for_each_add_on(self.seat, found);
    }

    /// Whether any add-on is possible now (stops at the first).
    pub fn any_add_on(&self) -> bool {
        let mut any = false;
        self.for_each_add_on(|_| any = true);
        any
    }

    /// The legal actions built from the allocation-free enumerations above; equal to
    /// [`Game::legal_actions`] for this seat (a property the tests check).
    pub fn legal_actions(&self) -> LegalActions {
        let mut legal = LegalActions::default();
        self.for_each_throw(|t| legal.throws.push(*t));
        legal.draw_from_stock = self.can_draw_from_stock();
        legal.draw_from_discard = self.discard_draws();
        legal.discard_draws = self.game.draws_by_size(&legal.throws);
        legal.call = self.can_call();
        legal.call_penalised = legal.call && !self.game.call_within_threshold(self.seat);
        let owed = self.owed_declaration();
        legal.go_along = owed == Some(Declaration::GoAlong);
        legal.onderkluft = owed == Some(Declaration::Onderkluft);
        legal.slap = self.slap();
        self.for_each_add_on(|a| legal.add_ons.push(*a));
        if self.is_my_turn()
            && !self.hand().is_empty()
            && self
                .rules()
                .is_some_and(|r| r.has_bonus(BonusRule::CrazyQueens))
        {
            legal.queen_targets = self.queen_targets().collect();
        }
        if legal.slap.is_some_and(|c| self.game.slap_swaps_queens(c)) {
            legal.queen_targets = self.queen_targets().collect();
        }
        self.for_each_waterfall(|w| legal.waterfalls.push(*w));
        legal.waterfall_pick = self.waterfall_offer();
        legal.kill_piles = self.killable_piles().collect();
        legal
    }

    /// The full (allocating) view of this seat, as the API shows it.
    pub fn seat_view(&self) -> Option<SeatView> {
        self.game.view(self.seat)
    }
}

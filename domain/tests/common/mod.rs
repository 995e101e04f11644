//! Scenario helper for the `rules_*` tests: a table built from a preset (plus overrides)
//! and named players, rounds dealt from explicit hands, actions taken by player name, and
//! accessors for what the round's end decided. The tournament tests take their result
//! sheets from here too ([`finishing`]).
//!
//! Every test binary includes this module but uses only part of it.
#![allow(dead_code)]

use serde_json::Value;
use yaniv_domain::cards::{Card, Cards, Hand};
use yaniv_domain::game::{
    CallKind, Command, DealSource, DrawChoice, Event, Game, GameError, GameFinished, QueenSwap,
    RoundDealt, RoundEnded, Seat, Standing,
};
use yaniv_domain::rules::{Overrides, Preset, Rules};
use yaniv_domain::tournament::{AccountId, PlayerResult};

/// `card("10H")`; panics on a bad literal (test code only).
pub fn card(text: &str) -> Card {
    text.parse()
        .unwrap_or_else(|e| panic!("bad card literal {text:?}: {e}"))
}

/// `cards("4D 5D JK 7D")`, bottom card first.
pub fn cards(text: &str) -> Cards {
    text.split_whitespace().map(card).collect()
}

/// Draw a named card from the stock (the stock of an explicit deal is the rest of the deck).
pub fn stock(text: &str) -> DrawChoice {
    DrawChoice::StockCard(card(text))
}

/// Draw a card of the previous throw.
pub fn discard(text: &str) -> DrawChoice {
    DrawChoice::Discard(card(text))
}

/// A preset with overrides given as a JSON object, validated like a game record's rules.
pub fn rules_with(preset: Preset, overrides: Value) -> Rules {
    let Value::Object(map) = overrides else {
        panic!("overrides must be a JSON object")
    };
    let overrides: Overrides = map;
    preset
        .rules()
        .with_overrides(&overrides)
        .unwrap_or_else(|e| panic!("overrides rejected: {e}"))
}

// ---- refusals several rules tests expect ----------------------------------------------------

/// An add-on that neither completes a set to four nor continues a run.
pub const ADD_ON_DOES_NOT_FIT: GameError = GameError::AddOnNotAllowed(
    "the cards neither complete the set to exactly four nor extend the run past its top card",
);

/// An add-on with no open throw (none yet, covered, or the window closed).
pub const NO_THROW_TO_ADD_ON_TO: GameError =
    GameError::AddOnNotAllowed("there is no throw to add on to now");

/// An add-on by the caller during the last turns and declarations.
pub const CALLERS_HAND_CLOSED: GameError =
    GameError::AddOnNotAllowed("the caller's hand is closed");

/// A slap-down that neither matches the top card nor continues the run.
pub const SLAP_DOES_NOT_FIT: GameError = GameError::SlapNotAllowed(
    "the card neither matches the top card's rank nor extends the run past its top card",
);

/// A slap-down by someone else than the player who just threw, or too late.
pub const NOT_THE_THROWER: GameError = GameError::SlapNotAllowed(
    "only the player who just threw may slap down, before the next throw",
);

/// A slap-down of a card that was not just drawn from the stock (or a second one).
pub const NOT_JUST_DRAWN: GameError =
    GameError::SlapNotAllowed("only the card just drawn can be slapped down, once");

/// A play while the declarations after a call are taken.
pub const DECLARATIONS_BEING_TAKEN: GameError =
    GameError::WrongPhase("the turns are over; declarations are being taken");

/// A going-along declaration when none is being taken.
pub const NOBODY_GOING_ALONG: GameError =
    GameError::DeclarationNotAllowed("nobody is declaring whether to go along now");

/// One game at a table, with every event it produced.
#[derive(Debug, Clone)]
pub struct Table {
    pub game: Game,
    pub names: Vec<String>,
    pub log: Vec<Event>,
}

impl Table {
    /// A new game under `preset` with all totals at zero.
    pub fn new(preset: Preset, players: &[&str]) -> Table {
        Table::with_rules(preset.rules(), players, &[])
    }

    /// A new game with the given rules and totals before the first round (empty: zero).
    pub fn with_rules(rules: Rules, players: &[&str], initial_totals: &[u32]) -> Table {
        let mut table = Table {
            game: Game::new(),
            names: players.iter().map(|s| s.to_string()).collect(),
            log: Vec::new(),
        };
        let events = table
            .game
            .execute(&Command::Create {
                rules,
                players: table.names.clone(),
                initial_totals: initial_totals.to_vec(),
            })
            .unwrap_or_else(|e| panic!("create refused: {e}"));
        table.log.extend(events);
        table
    }

    /// A new game as a stored game created before hands had no limit and pile tops kept
    /// their order (`hands_uncapped`, `pile_tops_keep_order` absent) plays on.
    pub fn created_before_uncapped_hands(rules: Rules, players: &[&str]) -> Table {
        let mut table = Table::with_rules(rules, players, &[]);
        for event in &mut table.log {
            if let Event::GameCreated(created) = event {
                created.hands_uncapped = false;
                created.pile_tops_keep_order = false;
            }
        }
        table.game = Game::new();
        for event in &table.log {
            table.game.apply(event);
        }
        table
    }

    pub fn with_totals(preset: Preset, players: &[&str], initial_totals: &[u32]) -> Table {
        Table::with_rules(preset.rules(), players, initial_totals)
    }

    pub fn seat(&self, name: &str) -> Seat {
        self.names
            .iter()
            .position(|n| n == name)
            .unwrap_or_else(|| panic!("no player {name:?}")) as Seat
    }

    pub fn name(&self, seat: Seat) -> &str {
        &self.names[seat as usize]
    }

    fn record(&mut self, result: Result<Vec<Event>, GameError>) -> Result<Vec<Event>, GameError> {
        if let Ok(events) = &result {
            self.log.extend(events.iter().cloned());
        }
        result
    }

    pub fn execute(&mut self, command: Command) -> Result<Vec<Event>, GameError> {
        let result = self.game.execute(&command);
        self.record(result)
    }

    // ---- dealing -------------------------------------------------------------------------

    /// Deals a round from explicit hands, one per seat in seat order ("" for a seat out
    /// of the game). `starter` is required in the first round and optional later.
    pub fn try_deal(
        &mut self,
        starter: Option<&str>,
        hands: &[&str],
        up_card: &str,
    ) -> Result<Vec<Event>, GameError> {
        let starter = starter.map(|s| self.seat(s));
        self.execute(Command::Deal {
            starter,
            source: DealSource::Explicit {
                hands: hands.iter().map(|h| cards(h)).collect(),
                up_card: card(up_card),
            },
        })
    }

    /// The first round (or any round with the starter the rules derive).
    pub fn deal(&mut self, starter: &str, hands: &[&str], up_card: &str) -> RoundDealt {
        let events = self
            .try_deal(Some(starter), hands, up_card)
            .unwrap_or_else(|e| panic!("deal refused: {e}"));
        dealt(&events)
    }

    /// A later round, its starter derived by the rules.
    pub fn deal_next(&mut self, hands: &[&str], up_card: &str) -> RoundDealt {
        let events = self
            .try_deal(None, hands, up_card)
            .unwrap_or_else(|e| panic!("deal refused: {e}"));
        dealt(&events)
    }

    // ---- actions by name -------------------------------------------------------------------

    /// Executes the command `command` makes for the seat of `who`.
    fn try_as(
        &mut self,
        who: &str,
        command: impl FnOnce(Seat) -> Command,
    ) -> Result<Vec<Event>, GameError> {
        let command = command(self.seat(who));
        self.execute(command)
    }

    pub fn try_play(
        &mut self,
        who: &str,
        throw: &str,
        draw: DrawChoice,
    ) -> Result<Vec<Event>, GameError> {
        self.try_play_forcing(who, throw, draw, "")
    }

    /// A turn of a round dealt on paper that forces draws (Sevens): `forced` names the
    /// cards the others draw, in order.
    pub fn try_play_forcing(
        &mut self,
        who: &str,
        throw: &str,
        draw: DrawChoice,
        forced: &str,
    ) -> Result<Vec<Event>, GameError> {
        self.try_play_naming(who, throw, draw, forced, None)
    }

    /// A turn of a round dealt on paper that names the cards it takes off the stock for
    /// the bonus rules: `forced` (Sevens) and `pinata` (Piñata).
    pub fn try_play_naming(
        &mut self,
        who: &str,
        throw: &str,
        draw: DrawChoice,
        forced: &str,
        pinata: Option<&str>,
    ) -> Result<Vec<Event>, GameError> {
        let (throw, forced) = (cards(throw), cards(forced).iter().collect::<Vec<_>>());
        let pinata = pinata.map(card);
        let named = Named {
            forced,
            pinata,
            ..Named::default()
        };
        self.try_as(who, |seat| play_naming(seat, throw, draw, None, named))
    }

    /// A turn of a round dealt on paper whose black eight re-deals (Double-edged sword):
    /// `redealt` names every seat's new hand, in seat order ("" where none is dealt).
    pub fn try_play_redealing(
        &mut self,
        who: &str,
        throw: &str,
        draw: DrawChoice,
        redealt: &[&str],
    ) -> Result<Vec<Event>, GameError> {
        let throw = cards(throw);
        let redealt = redealt.iter().map(|hand| cards(hand)).collect();
        let named = Named {
            redealt,
            ..Named::default()
        };
        self.try_as(who, |seat| play_naming(seat, throw, draw, None, named))
    }

    /// A turn whose queen swaps under Crazy queens: `who` gives `give` to `target`;
    /// `taken` names the blind pick (a round dealt on paper needs it).
    pub fn try_play_queen(
        &mut self,
        who: &str,
        throw: &str,
        draw: DrawChoice,
        target: &str,
        give: &str,
        taken: Option<&str>,
    ) -> Result<Vec<Event>, GameError> {
        let (throw, target, give) = (cards(throw), self.seat(target), card(give));
        let named = Named {
            queen_taken: taken.map(card),
            ..Named::default()
        };
        let queen = Some(QueenSwap { target, give });
        self.try_as(who, |seat| play_naming(seat, throw, draw, queen, named))
    }

    /// A slap-down of a round dealt on paper that names what the slapped card takes off
    /// the stock for the bonus rules (a game whose slap-downs play): `forced` (Sevens)
    /// and `pinata` (Piñata).
    pub fn try_slap_naming(
        &mut self,
        who: &str,
        slapped: &str,
        forced: &str,
        pinata: Option<&str>,
    ) -> Result<Vec<Event>, GameError> {
        let named = Named {
            forced: cards(forced).iter().collect(),
            pinata: pinata.map(card),
            ..Named::default()
        };
        let slapped = card(slapped);
        self.try_as(who, |seat| slap_naming(seat, slapped, None, named))
    }

    /// A slap-down of a round dealt on paper whose black eight re-deals (Double-edged
    /// sword, a game whose slap-downs play): `redealt` names every seat's new hand.
    pub fn try_slap_redealing(
        &mut self,
        who: &str,
        slapped: &str,
        redealt: &[&str],
    ) -> Result<Vec<Event>, GameError> {
        let named = Named {
            redealt: redealt.iter().map(|hand| cards(hand)).collect(),
            ..Named::default()
        };
        let slapped = card(slapped);
        self.try_as(who, |seat| slap_naming(seat, slapped, None, named))
    }

    /// A slap-down of a queen that swaps under Crazy queens: `who` gives `give` to
    /// `target`; `taken` names the blind pick (a round dealt on paper needs it).
    pub fn try_slap_queen(
        &mut self,
        who: &str,
        slapped: &str,
        target: &str,
        give: &str,
        taken: Option<&str>,
    ) -> Result<Vec<Event>, GameError> {
        let (slapped, target, give) = (card(slapped), self.seat(target), card(give));
        let named = Named {
            queen_taken: taken.map(card),
            ..Named::default()
        };
        let queen = Some(QueenSwap { target, give });
        self.try_as(who, |seat| slap_naming(seat, slapped, queen, named))
    }

    /// Waterfall: `who` passes the straight `cards` to their left.
    pub fn try_waterfall(&mut self, who: &str, cards: &str) -> Result<Vec<Event>, GameError> {
        let cards = self::cards(cards);
        self.try_as(who, |seat| Command::Waterfall { seat, cards })
    }

    /// Waterfall: `who` keeps `card` of the cards passed to them.
    pub fn try_waterfall_pick(&mut self, who: &str, card: &str) -> Result<Vec<Event>, GameError> {
        let card = self::card(card);
        self.try_as(who, |seat| Command::WaterfallPick { seat, card })
    }

    /// Fifths Disease: `who` kills the pile of `size`-card throws.
    pub fn try_kill_pile(&mut self, who: &str, size: u8) -> Result<Vec<Event>, GameError> {
        self.try_as(who, |seat| Command::KillPile { seat, size })
    }

    /// Whether the play would be accepted now; the table is left unchanged.
    pub fn accepts_play(&self, who: &str, throw: &str, draw: DrawChoice) -> bool {
        let (seat, throw) = (self.seat(who), cards(throw));
        self.accepts(Command::play(seat, throw, draw))
    }

    /// Whether `command` would be accepted now; the table is left unchanged.
    pub fn accepts(&self, command: Command) -> bool {
        self.game.decide(&command).is_ok()
    }

    /// Whether `who` could add `added` on now.
    pub fn accepts_add_on(&self, who: &str, added: &str) -> bool {
        let (seat, cards) = (self.seat(who), cards(added));
        self.accepts(Command::AddOn { seat, cards })
    }

    pub fn play(&mut self, who: &str, throw: &str, draw: DrawChoice) -> Vec<Event> {
        let result = self.try_play(who, throw, draw);
        accepted(result, format_args!("{who} throwing {throw}"))
    }

    /// Calls with the word the rules use (yaniv, or kluft).
    pub fn try_call(&mut self, who: &str) -> Result<Vec<Event>, GameError> {
        let call = self.game.rules().expect("rules").call_resolution_kind();
        self.try_call_as(who, call)
    }

    pub fn try_call_as(&mut self, who: &str, call: CallKind) -> Result<Vec<Event>, GameError> {
        self.try_as(who, |seat| Command::Call { seat, call })
    }

    pub fn call(&mut self, who: &str) -> Vec<Event> {
        let result = self.try_call(who);
        accepted(result, format_args!("{who}'s call"))
    }

    pub fn try_slap(&mut self, who: &str, slapped: &str) -> Result<Vec<Event>, GameError> {
        let card = card(slapped);
        self.try_as(who, |seat| Command::slap(seat, card))
    }

    pub fn slap(&mut self, who: &str, slapped: &str) -> Vec<Event> {
        let result = self.try_slap(who, slapped);
        accepted(result, format_args!("{who}'s slap of {slapped}"))
    }

    pub fn try_add_on(&mut self, who: &str, added: &str) -> Result<Vec<Event>, GameError> {
        let cards = cards(added);
        self.try_as(who, |seat| Command::AddOn { seat, cards })
    }

    pub fn add_on(&mut self, who: &str, added: &str) -> Vec<Event> {
        let result = self.try_add_on(who, added);
        accepted(result, format_args!("{who}'s add-on {added}"))
    }

    pub fn try_go_along(&mut self, who: &str, going: bool) -> Result<Vec<Event>, GameError> {
        self.try_as(who, |seat| Command::GoAlong { seat, going })
    }

    pub fn go_along(&mut self, who: &str, going: bool) -> Vec<Event> {
        let result = self.try_go_along(who, going);
        accepted(result, format_args!("{who}'s going-along declaration"))
    }

    pub fn try_onderkluft(&mut self, who: &str, challenge: bool) -> Result<Vec<Event>, GameError> {
        self.try_as(who, |seat| Command::Onderkluft { seat, challenge })
    }

    pub fn onderkluft(&mut self, who: &str, challenge: bool) -> Vec<Event> {
        let result = self.try_onderkluft(who, challenge);
        accepted(result, format_args!("{who}'s onderkluft declaration"))
    }

    // ---- what the game decided -------------------------------------------------------------

    /// The last `RoundEnded` event of the game.
    pub fn round_ended(&self) -> &RoundEnded {
        self.log
            .iter()
            .rev()
            .find_map(|e| match e {
                Event::RoundEnded(r) => Some(r),
                _ => None,
            })
            .expect("no round has ended")
    }

    /// What `who` scored in the last round, before reductions.
    pub fn points(&self, who: &str) -> u32 {
        self.round_ended().points[self.seat(who) as usize].expect("the player played the round")
    }

    /// The last round's hand total of `who`.
    pub fn hand_total(&self, who: &str) -> u32 {
        self.round_ended().hand_totals[self.seat(who) as usize]
            .expect("the player played the round")
    }

    /// What each of `who` scored in the last round, before reductions.
    pub fn points_of<const N: usize>(&self, who: [&str; N]) -> [u32; N] {
        who.map(|w| self.points(w))
    }

    /// The last round's hand totals of `who`.
    pub fn hand_totals_of<const N: usize>(&self, who: [&str; N]) -> [u32; N] {
        who.map(|w| self.hand_total(w))
    }

    pub fn total(&self, who: &str) -> u32 {
        self.game.totals()[self.seat(who) as usize]
    }

    /// Totals by name, in seat order.
    pub fn totals(&self) -> Vec<(&str, u32)> {
        self.names
            .iter()
            .map(|n| n.as_str())
            .zip(self.game.totals().iter().copied())
            .collect()
    }

    pub fn hand(&self, who: &str) -> Hand {
        self.game.hand(self.seat(who)).clone()
    }

    /// Whose turn (or declaration) it is.
    pub fn to_act(&self) -> Option<&str> {
        self.game.to_act().map(|s| self.name(s))
    }

    /// The last `RoundDealt` event.
    pub fn round_dealt(&self) -> &RoundDealt {
        self.log
            .iter()
            .rev()
            .find_map(|e| match e {
                Event::RoundDealt(r) => Some(r),
                _ => None,
            })
            .expect("no round was dealt")
    }

    pub fn finished(&self) -> Option<&GameFinished> {
        self.log.iter().find_map(|e| match e {
            Event::GameFinished(f) => Some(f),
            _ => None,
        })
    }

    /// Final standings as (name, total, place), best first.
    pub fn standings(&self) -> Vec<(&str, u32, u8)> {
        let standings: &[Standing] = &self.finished().expect("the game is over").standings;
        standings
            .iter()
            .map(|s| (self.name(s.seat), s.total, s.place))
            .collect()
    }

    /// Names of the seats eliminated in the last round.
    pub fn eliminated(&self) -> Vec<&str> {
        self.round_ended()
            .eliminated
            .iter()
            .map(|&s| self.name(s))
            .collect()
    }

    pub fn next_starter(&self) -> Option<&str> {
        self.round_ended().next_starter.map(|s| self.name(s))
    }

    pub fn next_dealer(&self) -> Option<&str> {
        self.round_ended().next_dealer.map(|s| self.name(s))
    }

    /// Checks the whole log through the rules again, as an imported record would be.
    pub fn replays(&self) {
        Game::replay_checked(&self.log)
            .unwrap_or_else(|(at, e)| panic!("event {at} does not replay: {e}"));
    }
}

/// The events of an action that had to be accepted; panics naming `what` was refused.
fn accepted(result: Result<Vec<Event>, GameError>, what: impl std::fmt::Display) -> Vec<Event> {
    result.unwrap_or_else(|e| panic!("{what} refused: {e}"))
}

fn dealt(events: &[Event]) -> RoundDealt {
    events
        .iter()
        .find_map(|e| match e {
            Event::RoundDealt(r) => Some(r.clone()),
            _ => None,
        })
        .expect("a deal produces RoundDealt")
}

/// Whether `events` contain a `RoundEnded`.
pub fn ends_round(events: &[Event]) -> bool {
    events.iter().any(|e| matches!(e, Event::RoundEnded(_)))
}

/// A lap at three seats in which each player throws a set and draws a low card, so that low
/// hands can meet (five cards of one deck never give two hands of 5 or less): Ann comes to
/// 5, Bob to 3 + the card he draws (4 with A♠, 5 with 2♠), Cid stays at 41. Ann is to
/// play again.
pub fn low_lap(preset: Preset, initial_totals: &[u32], bob_draws: &str) -> Table {
    let mut t = Table::with_totals(preset, &["ann", "bob", "cid"], initial_totals);
    t.deal(
        "ann",
        &["KC KD KH AC 4C", "QC QD QH AH 2H", "9C 9D 9H 10S 10H"],
        "7S",
    );
    t.play("ann", "KC KD KH", stock("JK"));
    t.play("bob", "QC QD QH", stock(bob_draws));
    t.play("cid", "9C", stock("3S"));
    t
}

/// Ann throws 4♣-5♣-6♣ and Cid adds his whole hand onto it, 7♣ to J♣: his hand is empty
/// in Bob's turn. Ann holds K♦ Q♦ 2♠ (22), Bob 9♠ 9♦ 9♥ 8♠ 8♦ (43).
pub fn emptied_by_an_add_on(preset: Preset) -> Table {
    let hands = ["4C 5C 6C KD QD", "9S 9D 9H 8S 8D", "7C 8C 9C 10C JC"];
    let mut t = Table::new(preset, &["ann", "bob", "cid"]);
    t.deal("ann", &hands, "2H");
    t.play("ann", "4C 5C 6C", stock("2S"));
    t.add_on("cid", "7C 8C 9C 10C JC");
    t
}

/// A lap at four seats: Ann, Bob and Cid each throw a set of three (kings, queens, jacks),
/// Dan a single ten; each draws the card of `draws` named from the stock.
pub fn lap_of_four(preset: Preset, hands: [&str; 4], draws: [&str; 4]) -> Table {
    let mut t = Table::new(preset, &["ann", "bob", "cid", "dan"]);
    t.deal("ann", &hands, "5S");
    t.play("ann", "KC KD KS", stock(draws[0]));
    t.play("bob", "QC QD QH", stock(draws[1]));
    t.play("cid", "JC JD JH", stock(draws[2]));
    t.play("dan", "10C", stock(draws[3]));
    t
}

/// High cards handed out as filler, in the order they are used.
const SPARE_ORDER: &str = "KS QS JS 10S 9S KD QD JD 10D 9D KC QC JC 10C 9C KH QH JH 10H 9H \
     8S 8D 8C 8H 7S 7D 7C 7H 6S 6D 6C 6H";

/// `n` filler cards (as text) that are in none of `used` (one deck: each card once).
pub fn spare(used: &[&str], n: usize) -> String {
    let taken: Vec<Card> = used
        .iter()
        .flat_map(|u| cards(u).iter().collect::<Vec<_>>())
        .collect();
    let found: Vec<&str> = SPARE_ORDER
        .split_whitespace()
        .filter(|c| !taken.contains(&card(c)))
        .take(n)
        .collect();
    assert_eq!(found.len(), n, "not enough spare cards");
    found.join(" ")
}

/// A tournament table's standings: `order[i]` finishes (i + 1)-th, with `first` points
/// for the winner and `step` more for each place below.
pub fn finishing(order: &[AccountId], first: u32, step: u32) -> Vec<PlayerResult> {
    (0u32..)
        .zip(order)
        .map(|(i, &player)| PlayerResult {
            player,
            total: first + step * i,
            place: i as u8 + 1,
        })
        .collect()
}

/// What a paper record names beside a turn for the bonus rules (the fields of the same
/// names in `Command::Play`).
#[derive(Default)]
struct Named {
    forced: Vec<Card>,
    pinata: Option<Card>,
    redealt: Vec<Cards>,
    queen_taken: Option<Card>,
}

/// The slap-down of `card`, with the swap `queen` and what `named` names.
fn slap_naming(seat: Seat, card: Card, queen: Option<QueenSwap>, named: Named) -> Command {
    Command::Slap {
        seat,
        card,
        forced: named.forced,
        pinata: named.pinata,
        redealt: named.redealt.into_iter().map(Hand::from).collect(),
        queen,
        queen_taken: named.queen_taken,
    }
}

/// The turn `throw` then `draw`, with the swap `queen` and what `named` names.
fn play_naming(
    seat: Seat,
    throw: Cards,
    draw: DrawChoice,
    queen: Option<QueenSwap>,
    named: Named,
) -> Command {
    Command::Play {
        seat,
        throw,
        draw,
        forced: named.forced,
        pinata: named.pinata,
        redealt: named.redealt.into_iter().map(Hand::from).collect(),
        queen,
        queen_taken: named.queen_taken,
    }
}

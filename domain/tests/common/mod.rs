//! Scenario helper for the `rules_*` tests: a table built from a preset (plus overrides)
//! and named players, rounds dealt from explicit hands, actions taken by player name, and
//! accessors for what the round's end decided.
//!
//! Every test binary includes this module but uses only part of it.
#![allow(dead_code)]

use serde_json::Value;
use yaniv_domain::cards::{Card, Cards};
use yaniv_domain::game::{
    CallKind, Command, DealSource, DrawChoice, Event, Game, GameError, GameFinished, RoundDealt,
    RoundEnded, Seat, Standing,
};
use yaniv_domain::rules::{Overrides, Preset, Rules};

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

/// One game at a table, with every event it produced.
#[derive(Debug)]
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

    pub fn try_play(
        &mut self,
        who: &str,
        throw: &str,
        draw: DrawChoice,
    ) -> Result<Vec<Event>, GameError> {
        let seat = self.seat(who);
        self.execute(Command::Play {
            seat,
            throw: cards(throw),
            draw,
        })
    }

    /// Whether the play would be accepted now; the table is left unchanged.
    pub fn accepts_play(&self, who: &str, throw: &str, draw: DrawChoice) -> bool {
        self.game
            .decide(&Command::Play {
                seat: self.seat(who),
                throw: cards(throw),
                draw,
            })
            .is_ok()
    }

    /// Whether `command` would be accepted now; the table is left unchanged.
    pub fn accepts(&self, command: Command) -> bool {
        self.game.decide(&command).is_ok()
    }

    /// Whether `who` could add `added` on now.
    pub fn accepts_add_on(&self, who: &str, added: &str) -> bool {
        self.accepts(Command::AddOn {
            seat: self.seat(who),
            cards: cards(added),
        })
    }

    pub fn play(&mut self, who: &str, throw: &str, draw: DrawChoice) -> Vec<Event> {
        self.try_play(who, throw, draw)
            .unwrap_or_else(|e| panic!("{who} throwing {throw} refused: {e}"))
    }

    /// Calls with the word the rules use (yaniv, or kluft).
    pub fn try_call(&mut self, who: &str) -> Result<Vec<Event>, GameError> {
        let call = self.game.rules().expect("rules").call_resolution_kind();
        self.try_call_as(who, call)
    }

    pub fn try_call_as(&mut self, who: &str, call: CallKind) -> Result<Vec<Event>, GameError> {
        let seat = self.seat(who);
        self.execute(Command::Call { seat, call })
    }

    pub fn call(&mut self, who: &str) -> Vec<Event> {
        self.try_call(who)
            .unwrap_or_else(|e| panic!("{who}'s call refused: {e}"))
    }

    pub fn try_slap(&mut self, who: &str, slapped: &str) -> Result<Vec<Event>, GameError> {
        let seat = self.seat(who);
        self.execute(Command::Slap {
            seat,
            card: card(slapped),
        })
    }

    pub fn slap(&mut self, who: &str, slapped: &str) -> Vec<Event> {
        self.try_slap(who, slapped)
            .unwrap_or_else(|e| panic!("{who}'s slap of {slapped} refused: {e}"))
    }

    pub fn try_add_on(&mut self, who: &str, added: &str) -> Result<Vec<Event>, GameError> {
        let seat = self.seat(who);
        self.execute(Command::AddOn {
            seat,
            cards: cards(added),
        })
    }

    pub fn add_on(&mut self, who: &str, added: &str) -> Vec<Event> {
        self.try_add_on(who, added)
            .unwrap_or_else(|e| panic!("{who}'s add-on {added} refused: {e}"))
    }

    pub fn try_go_along(&mut self, who: &str, going: bool) -> Result<Vec<Event>, GameError> {
        let seat = self.seat(who);
        self.execute(Command::GoAlong { seat, going })
    }

    pub fn go_along(&mut self, who: &str, going: bool) -> Vec<Event> {
        self.try_go_along(who, going)
            .unwrap_or_else(|e| panic!("{who}'s going-along declaration refused: {e}"))
    }

    pub fn try_onderkluft(&mut self, who: &str, challenge: bool) -> Result<Vec<Event>, GameError> {
        let seat = self.seat(who);
        self.execute(Command::Onderkluft { seat, challenge })
    }

    pub fn onderkluft(&mut self, who: &str, challenge: bool) -> Vec<Event> {
        self.try_onderkluft(who, challenge)
            .unwrap_or_else(|e| panic!("{who}'s onderkluft declaration refused: {e}"))
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

    pub fn hand(&self, who: &str) -> Cards {
        self.game.hand(self.seat(who))
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

//! Import: a record is validated by replaying it. Every part of it becomes a command
//! (`Create`, then per round `Deal` and one command per action) decided by the engine, so
//! the record layer checks only what the engine cannot see: names, card notation, the
//! shape of the deal, the shuffle, and where rounds begin and end.

use crate::cards::{Card, Cards, Hand, MAX_HAND};
use crate::game::{Command, DealSource, DrawChoice, Event, Game, GameError, QueenSwap, Seat};
use crate::shuffle::entropy::{ENTROPY_PROCEDURE, first_starter, mix};
use crate::shuffle::{Commitment, Contribution, Seed};

use super::error::RecordError;
use super::format::{
    Act, ActionRecord, DrawRecord, EntropyRecord, GameRecord, RECORD_FORMAT,
    RECORD_FORMAT_UNCAPPED, RoundRecord, TurnBonus,
};
use super::parse::{check_record_format, parse_record};
use super::result::ReplayResult;

/// What a valid record replays to.
#[derive(Debug, Clone)]
pub struct ReplayOutcome {
    /// The `yaniv-result/1` document.
    pub result: ReplayResult,
    /// The events the engine decided, `game_created.v1` first.
    pub events: Vec<Event>,
    /// The game after the last round of the record.
    pub game: Game,
}

/// Parses and replays a record given as JSON text.
pub fn replay_json(bytes: &[u8]) -> Result<ReplayOutcome, RecordError> {
    replay(&parse_record(bytes)?)
}

/// Replays `record` through the rules; the first problem is returned with its position.
pub fn replay(record: &GameRecord) -> Result<ReplayOutcome, RecordError> {
    let (outcome, problem) = replay_until_problem(record);
    match problem {
        Some(problem) => Err(problem),
        None => Ok(outcome),
    }
}

/// Replays `record` as far as the rules accept it: what the accepted part decided, and
/// the first problem (`None` when the whole record replays). A referee stepping through
/// a faulty record sees the game up to where it goes wrong.
pub fn replay_until_problem(record: &GameRecord) -> (ReplayOutcome, Option<RecordError>) {
    let mut replay = Replay {
        players: &record.players,
        game: Game::new(),
        events: Vec::new(),
        slaps_set_off_nothing: record.format == RECORD_FORMAT,
        hands_capped: record.format != RECORD_FORMAT_UNCAPPED,
    };
    let problem = replay.all(record).err();
    let result = ReplayResult::from_events(&replay.events, &replay.game.standings());
    let outcome = ReplayOutcome {
        result,
        events: replay.events,
        game: replay.game,
    };
    (outcome, problem)
}

struct Replay<'r> {
    players: &'r [String],
    game: Game,
    events: Vec<Event>,
    /// A `yaniv-record/1` record: its game is played as before slap-downs played.
    slaps_set_off_nothing: bool,
    /// A `yaniv-record/1` or `/2` record: its hands stop at 16 cards and a draw off a
    /// pile's top reorders it, as in the games those versions were written for.
    hands_capped: bool,
}

/// The bonus fields of an action, parsed: the fields of the same names in
/// `Command::Play` and `Command::Slap`.
struct Named {
    forced: Vec<Card>,
    pinata: Option<Card>,
    redealt: Vec<Hand>,
    queen: Option<QueenSwap>,
    queen_taken: Option<Card>,
}

/// Where in the record: round and action index.
type At = (Option<usize>, Option<usize>);

impl Replay<'_> {
    fn all(&mut self, record: &GameRecord) -> Result<(), RecordError> {
        check_record_format(record)?;
        self.create(record)?;
        for (r, round) in record.rounds.iter().enumerate() {
            self.round(r, round)?;
        }
        Ok(())
    }

    fn create(&mut self, record: &GameRecord) -> Result<(), RecordError> {
        let rules = record
            .rules
            .resolve()
            .map_err(|e| RecordError::new(None, None, "bad_rules", e.to_string()))?;
        // The table first (rules and players, by the engine), then the totals by name.
        let table = Command::Create {
            rules: rules.clone(),
            players: self.players.to_vec(),
            initial_totals: Vec::new(),
        };
        Game::new()
            .decide(&table)
            .map_err(|e| self.rule_error((None, None), None, &e))?;
        let initial_totals = match &record.initial_totals {
            None => Vec::new(),
            Some(map) => {
                let mut totals = vec![None; self.players.len()];
                for (name, &total) in map.iter() {
                    let seat = self.seat(name, (None, None), "initial_totals")?;
                    if totals[seat as usize].replace(total).is_some() {
                        return Err(RecordError::bad_record(
                            None,
                            None,
                            format!("initial_totals names {name} twice"),
                        ));
                    }
                }
                let missing = totals.iter().position(Option::is_none);
                if let Some(seat) = missing {
                    return Err(RecordError::bad_record(
                        None,
                        None,
                        format!("initial_totals has no total for {}", self.players[seat]),
                    ));
                }
                totals.into_iter().flatten().collect()
            }
        };
        let command = Command::Create {
            rules,
            players: self.players.to_vec(),
            initial_totals,
        };
        let mut created = self
            .game
            .decide(&command)
            .map_err(|e| self.rule_error((None, None), None, &e))?;
        for event in &mut created {
            if let Event::GameCreated(game) = event {
                if self.slaps_set_off_nothing {
                    game.slap_downs_play = false;
                }
                if self.hands_capped {
                    game.hands_uncapped = false;
                    game.pile_tops_keep_order = false;
                }
            }
        }
        for event in &created {
            self.game.apply(event);
        }
        self.events.extend(created);
        Ok(())
    }

    fn round(&mut self, r: usize, round: &RoundRecord) -> Result<(), RecordError> {
        if self.game.is_finished() {
            return Err(RecordError::new(
                Some(r),
                None,
                "game_over",
                "the game ended with the round before: no further round is played",
            ));
        }
        self.deal(r, round)?;
        for (a, action) in round.actions.iter().enumerate() {
            if !self.game.round_in_progress() {
                return Err(if self.game.is_finished() {
                    RecordError::new(
                        Some(r),
                        Some(a),
                        "game_over",
                        "the game ended with the action before: nothing may follow it",
                    )
                } else {
                    RecordError::new(
                        Some(r),
                        Some(a),
                        "round_over",
                        "the round ended with the action before: the next round starts with a new deal",
                    )
                });
            }
            self.action((Some(r), Some(a)), action)?;
        }
        if self.game.round_in_progress() {
            let who = self
                .game
                .to_act()
                .map_or_else(|| "someone".to_owned(), |s| self.name(s).to_owned());
            return Err(RecordError::new(
                Some(r),
                None,
                "round_not_finished",
                format!(
                    "the round is not over after its last action ({who} is still to act); a record ends after a finished round"
                ),
            ));
        }
        Ok(())
    }

    fn deal(&mut self, r: usize, round: &RoundRecord) -> Result<(), RecordError> {
        let at = (Some(r), None);
        let starter = round
            .starter
            .as_deref()
            .map(|n| self.seat(n, at, "the starter"))
            .transpose()?;
        if self.game.round_number() == 0 && starter.is_none() {
            return Err(RecordError::new(
                Some(r),
                None,
                "bad_deal",
                "the first round names its \"starter\" (drawn at random at the table)",
            ));
        }
        if let (Some(given), Some(derived)) = (starter, self.game.next_starter)
            && given != derived
        {
            return Err(RecordError::new(
                Some(r),
                None,
                "bad_deal",
                format!(
                    "{} cannot start this round: under these rules {} starts it",
                    self.name(given),
                    self.name(derived)
                ),
            ));
        }
        let hands = self.hands(r, round)?;
        let up_card = parse_card(&round.up_card, at, "the up card")?;
        let source = match &round.shuffle {
            None => DealSource::Explicit { hands, up_card },
            Some(shuffle) => {
                let shuffle_error =
                    |message: String| RecordError::new(Some(r), None, "bad_shuffle", message);
                let seed = Seed::from_hex(&shuffle.seed)
                    .map_err(|e| shuffle_error(format!("the seed is not valid: {e}")))?;
                let commitment = Commitment::from_hex(&shuffle.commitment)
                    .map_err(|e| shuffle_error(format!("the commitment is not valid: {e}")))?;
                if !commitment.matches(&seed) {
                    return Err(shuffle_error(format!(
                        "the seed does not match the commitment: SHA-256 of the seed is {}, the commitment is {commitment}",
                        seed.commitment()
                    )));
                }
                if let Some(entropy) = &shuffle.entropy {
                    self.check_entropy(entropy, &seed, starter)
                        .map_err(shuffle_error)?;
                }
                let mut dealt = self.game.clone();
                let command = Command::Deal {
                    starter,
                    source: DealSource::Seeded(seed),
                };
                dealt
                    .execute(&command)
                    .map_err(|e| self.rule_error(at, None, &e))?;
                for seat in 0..self.players.len() as Seat {
                    let from_seed = dealt.hand(seat).as_cards().unwrap_or_default();
                    if from_seed.sorted() != hands[seat as usize].sorted() {
                        return Err(shuffle_error(format!(
                            "{}'s hand is not the one the seed deals: the seed deals [{from_seed}], the record says [{}]",
                            self.name(seat),
                            hands[seat as usize]
                        )));
                    }
                }
                let turned = dealt.top_throw();
                if turned.as_slice() != [up_card] {
                    return Err(shuffle_error(format!(
                        "the up card is not the one the seed turns up: the seed turns up {turned}, the record says {up_card}"
                    )));
                }
                DealSource::Seeded(seed)
            }
        };
        self.execute(&Command::Deal { starter, source }, at, None)
    }

    /// That a round's seed is the mix of the server's committed seed and the
    /// contributions (`yaniv-player-entropy/1`), and round 1's starter the one drawn
    /// from it; or why not.
    fn check_entropy(
        &self,
        entropy: &EntropyRecord,
        seed: &Seed,
        starter: Option<Seat>,
    ) -> Result<(), String> {
        if entropy.procedure != ENTROPY_PROCEDURE {
            return Err(format!(
                "the entropy procedure {:?} is not {ENTROPY_PROCEDURE}",
                entropy.procedure
            ));
        }
        let server = Seed::from_hex(&entropy.seed)
            .map_err(|e| format!("the server's seed is not valid: {e}"))?;
        let commitment = Commitment::from_hex(&entropy.commitment)
            .map_err(|e| format!("the server's commitment is not valid: {e}"))?;
        if !commitment.matches(&server) {
            return Err("the server's seed does not match its commitment".into());
        }
        let mut values = vec![None; self.players.len()];
        for (name, value) in entropy.contributions.iter() {
            let seat = self
                .players
                .iter()
                .position(|p| p == name)
                .ok_or_else(|| format!("{name:?} contributes but is not a player"))?;
            if let Some(hex) = value {
                let value = Contribution::from_hex(hex)
                    .map_err(|e| format!("{name}'s contribution is not valid: {e}"))?;
                values[seat] = Some(value);
            }
        }
        if mix(&server, &values) != *seed {
            return Err(
                "the seed is not the mix of the server's seed and the contributions".into(),
            );
        }
        if self.game.round_number() == 0 && starter != Some(first_starter(seed, self.players.len()))
        {
            return Err(format!(
                "round 1's starter is not the one the mixed seed draws ({})",
                self.name(first_starter(seed, self.players.len()))
            ));
        }
        Ok(())
    }

    /// The hands of a round, per seat (empty for players out of the game).
    fn hands(&self, r: usize, round: &RoundRecord) -> Result<Vec<Cards>, RecordError> {
        let at = (Some(r), None);
        let bad_deal = |message: String| RecordError::new(Some(r), None, "bad_deal", message);
        let hand_size = self
            .game
            .rules()
            .map_or(0, |rules| rules.hand_size as usize);
        let mut hands = vec![None; self.players.len()];
        for (name, cards) in round.hands.iter() {
            let seat = self.seat(name, at, "the hands")?;
            if self.game.is_eliminated(seat) {
                return Err(bad_deal(format!(
                    "{name} is out of the game and is dealt no hand"
                )));
            }
            let cards = parse_cards(cards, at, &format!("{name}'s hand"))?;
            if cards.len() != hand_size {
                return Err(bad_deal(format!(
                    "{name} is dealt {} cards: each player is dealt {hand_size}",
                    cards.len()
                )));
            }
            if hands[seat as usize].replace(cards).is_some() {
                return Err(RecordError::bad_record(
                    Some(r),
                    None,
                    format!("the hands name {name} twice"),
                ));
            }
        }
        for (seat, hand) in hands.iter().enumerate() {
            if hand.is_none() && !self.game.is_eliminated(seat as Seat) {
                return Err(bad_deal(format!(
                    "the hands do not give {}'s hand",
                    self.players[seat]
                )));
            }
        }
        Ok(hands.into_iter().map(Option::unwrap_or_default).collect())
    }

    fn action(&mut self, at: At, action: &ActionRecord) -> Result<(), RecordError> {
        let seat = self.seat(&action.player, at, "the action")?;
        let command = match &action.act {
            Act::Play { throw, draw, bonus } => {
                let throw = parse_cards(throw, at, "the throw")?;
                let named = self.named(at, bonus)?;
                Command::Play {
                    seat,
                    throw,
                    forced: named.forced,
                    pinata: named.pinata,
                    redealt: named.redealt,
                    queen: named.queen,
                    queen_taken: named.queen_taken,
                    draw: match draw {
                        DrawRecord::Stock(card) => {
                            DrawChoice::StockCard(parse_card(card, at, "the card drawn")?)
                        }
                        DrawRecord::Discard(card) => {
                            DrawChoice::Discard(parse_card(card, at, "the card drawn")?)
                        }
                    },
                }
            }
            Act::Slap { card, bonus } => {
                if self.slaps_set_off_nothing && *bonus != TurnBonus::default() {
                    return Err(RecordError::bad_record(
                        at.0,
                        at.1,
                        "in a yaniv-record/1 record a slapped card sets off nothing: what a \
                         slap-down moved is written in yaniv-record/2",
                    ));
                }
                let named = self.named(at, bonus)?;
                Command::Slap {
                    seat,
                    card: parse_card(card, at, "the slap-down")?,
                    forced: named.forced,
                    pinata: named.pinata,
                    redealt: named.redealt,
                    queen: named.queen,
                    queen_taken: named.queen_taken,
                }
            }
            Act::Add(cards) => Command::AddOn {
                seat,
                cards: parse_cards(cards, at, "the add-on")?,
            },
            Act::Call(call) => Command::Call { seat, call: *call },
            Act::GoAlong(going) => Command::GoAlong {
                seat,
                going: *going,
            },
            Act::Onderkluft(challenge) => Command::Onderkluft {
                seat,
                challenge: *challenge,
            },
            Act::Waterfall(cards) => Command::Waterfall {
                seat,
                cards: parse_cards(cards, at, "the waterfall")?,
            },
            Act::WaterfallPick(card) => Command::WaterfallPick {
                seat,
                card: parse_card(card, at, "the card kept of the waterfall")?,
            },
            Act::KillPile(size) => Command::KillPile { seat, size: *size },
        };
        self.execute(&command, at, Some(seat))
    }

    fn execute(
        &mut self,
        command: &Command,
        at: At,
        actor: Option<Seat>,
    ) -> Result<(), RecordError> {
        let events = self
            .game
            .execute(command)
            .map_err(|e| self.rule_error(at, actor, &e))?;
        self.events.extend(events);
        Ok(())
    }

    /// What a turn's or a slap-down's bonus fields name, as the engine takes it.
    fn named(&self, at: At, bonus: &TurnBonus) -> Result<Named, RecordError> {
        Ok(Named {
            forced: bonus
                .forced
                .iter()
                .map(|card| parse_card(card, at, "a forced draw"))
                .collect::<Result<_, _>>()?,
            pinata: bonus
                .pinata
                .as_ref()
                .map(|card| parse_card(card, at, "the piñata"))
                .transpose()?,
            redealt: match &bonus.redealt {
                None => Vec::new(),
                Some(hands) => {
                    let mut per_seat = vec![Hand::new(); self.players.len()];
                    for (name, cards) in &hands.0 {
                        let owner = self.seat(name, at, "the re-deal")?;
                        per_seat[owner as usize] = parse_hand(cards, at, "a re-dealt hand")?;
                    }
                    per_seat
                }
            },
            queen: match &bonus.queen {
                None => None,
                Some(queen) => Some(QueenSwap {
                    target: self.seat(&queen.target, at, "the queen's target")?,
                    give: parse_card(&queen.give, at, "the card the queen gives")?,
                }),
            },
            queen_taken: bonus
                .queen
                .as_ref()
                .and_then(|queen| queen.take.as_ref())
                .map(|card| parse_card(card, at, "the card the queen takes"))
                .transpose()?,
        })
    }

    fn seat(&self, name: &str, at: At, role: &str) -> Result<Seat, RecordError> {
        self.players
            .iter()
            .position(|p| p == name)
            .map(|s| s as Seat)
            .ok_or_else(|| {
                let shown: String = name.chars().take(64).collect();
                RecordError::new(
                    at.0,
                    at.1,
                    "unknown_player",
                    format!(
                        "{shown:?} in {role} is not one of the players ({})",
                        self.players.join(", ")
                    ),
                )
            })
    }

    fn name(&self, seat: Seat) -> &str {
        self.players.get(seat as usize).map_or("?", String::as_str)
    }

    /// A refusal by the rules, in words naming players.
    fn rule_error(&self, at: At, actor: Option<Seat>, e: &GameError) -> RecordError {
        let who = actor.map(|s| self.name(s));
        let message = match (e, who) {
            (GameError::NotYourTurn { expected }, Some(who)) => {
                format!("it is not {who}'s turn: {} is to act", self.name(*expected))
            }
            (GameError::CardNotInHand { card }, Some(who)) => format!("{who} does not hold {card}"),
            (GameError::SeatEliminated(seat), _) => {
                format!("{} is out of the game", self.name(*seat))
            }
            (_, Some(who)) => format!("{who}: {}", self.with_names(&e.to_string())),
            (_, None) => self.with_names(&e.to_string()),
        };
        RecordError::new(at.0, at.1, e.code(), message)
    }

    /// Replaces the engine's "seat N" by the player's name.
    fn with_names(&self, text: &str) -> String {
        let mut text = text.to_owned();
        for (seat, name) in self.players.iter().enumerate().rev() {
            text = text.replace(&format!("seat {seat}"), name);
        }
        text
    }
}

fn parse_card(text: &str, at: At, what: &str) -> Result<Card, RecordError> {
    text.parse()
        .map_err(|e| RecordError::new(at.0, at.1, "unknown_card", format!("{what}: {e}")))
}

/// A hand a record names: as many cards as the deck holds (a re-deal of hands grown by
/// forced draws).
fn parse_hand(texts: &[String], at: At, what: &str) -> Result<Hand, RecordError> {
    if texts.len() > MAX_HAND {
        return Err(RecordError::bad_record(
            at.0,
            at.1,
            format!("{what}: {} cards, more than the deck holds", texts.len()),
        ));
    }
    let mut hand = Hand::new();
    for (i, text) in texts.iter().enumerate() {
        hand.push(parse_card(text, at, &format!("{what}, card {}", i + 1))?);
    }
    Ok(hand)
}

fn parse_cards(texts: &[String], at: At, what: &str) -> Result<Cards, RecordError> {
    let mut cards = Cards::new();
    for (i, text) in texts.iter().enumerate() {
        let card = parse_card(text, at, &format!("{what}, card {}", i + 1))?;
        if cards.try_push(card).is_err() {
            return Err(RecordError::bad_record(
                at.0,
                at.1,
                format!("{what}: more cards than any hand holds"),
            ));
        }
    }
    Ok(cards)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::PlayerMap;
    use crate::rules::RuleSpec;

    fn record(players: &[&str]) -> GameRecord {
        GameRecord {
            format: crate::record::RECORD_FORMAT.to_owned(),
            rules: RuleSpec {
                preset: "israeli".into(),
                overrides: Default::default(),
            },
            players: players.iter().map(|p| p.to_string()).collect(),
            initial_totals: None,
            rounds: Vec::new(),
        }
    }

    #[test]
    fn a_table_is_checked_before_its_totals() {
        let many: Vec<String> = (0..300).map(|i| format!("p{i}")).collect();
        let names: Vec<&str> = many.iter().map(String::as_str).collect();
        let mut big = record(&names);
        big.initial_totals = Some(many.iter().map(|n| (n.clone(), 0)).collect());
        let e = replay(&big).expect_err("too many players");
        assert_eq!((e.code, e.round), ("bad_players", None));

        let mut twice = record(&["ann", "ann"]);
        twice.initial_totals = Some(PlayerMap(vec![("ann".into(), 3)]));
        let e = replay(&twice).expect_err("seated twice");
        assert_eq!(e.code, "bad_players");
        assert_eq!(e.message, "bad players: \"ann\" is seated twice");

        let mut short = record(&["ann", "bob"]);
        short.initial_totals = Some(PlayerMap(vec![("ann".into(), 3)]));
        let e = replay(&short).expect_err("missing total");
        assert_eq!(
            (e.code, e.message.as_str()),
            ("bad_record", "initial_totals has no total for bob")
        );
        short.initial_totals = Some(PlayerMap(vec![
            ("ann".into(), 3),
            ("bob".into(), 0),
            ("cid".into(), 1),
        ]));
        let e = replay(&short).expect_err("unknown name");
        assert_eq!(e.code, "unknown_player");
    }

    #[test]
    fn a_record_built_in_code_must_name_its_format() {
        let mut r = record(&["ann", "bob"]);
        r.format = "yaniv-record/0".into();
        assert_eq!(replay(&r).expect_err("format").code, "bad_record");
        r.format = crate::record::RECORD_FORMAT.into();
        let outcome = replay(&r).expect("an empty table replays");
        assert_eq!(outcome.events.len(), 1);
    }
}

//! Every card a record names, every seed and commitment of its shuffles and every
//! bounded number of its actions, read before anything is replayed: a record with a
//! card that is not one (`""`, `"1H"`), a seed that is not 64 hexadecimal digits or a
//! pile size of 1 is not a record at all, whatever the rules would have said first. Stepping through a record (`record_steps`) shows the steps up
//! to a rule's refusal; what cannot be read is refused before, as the record format's
//! schema refuses it.

use super::error::RecordError;
use super::format::{Act, DrawRecord, GameRecord, TurnBonus};
use crate::cards::Card;
use crate::shuffle::Seed;

/// The first card of `record` that is not one, in record order, as an `unknown_card`
/// problem at its round and action; the first shuffle whose seed or commitment is not
/// 64 hexadecimal digits, as `bad_shuffle` at its round; a `kill_pile` outside 2 to
/// 16, as `bad_record` at its action. (The reader itself refuses the rest of the
/// form: an action of no kind or two, an `event_version` of 0.)
pub fn unreadable(record: &GameRecord) -> Option<RecordError> {
    for (r, round) in record.rounds.iter().enumerate() {
        let shuffle = round.shuffle.iter().flat_map(|shuffle| {
            let entropy = shuffle
                .entropy
                .iter()
                .flat_map(|e| [&e.commitment, &e.seed]);
            [&shuffle.commitment, &shuffle.seed]
                .into_iter()
                .chain(entropy)
        });
        for text in shuffle {
            // A commitment has the form of a seed: 32 bytes in hexadecimal.
            if let Err(e) = Seed::from_hex(text) {
                return Some(RecordError::new(
                    Some(r),
                    None,
                    "bad_shuffle",
                    format!("the shuffle: {text:?}: {e}"),
                ));
            }
        }
        let dealt = round
            .hands
            .iter()
            .flat_map(|(_, cards)| cards.iter())
            .chain([&round.up_card]);
        if let Some(problem) = first_bad(dealt, Some(r), None, "the deal") {
            return Some(problem);
        }
        for (a, action) in round.actions.iter().enumerate() {
            if let Some(problem) = first_bad(cards_of(&action.act), Some(r), Some(a), "the action")
            {
                return Some(problem);
            }
            if let Act::KillPile(size) = action.act
                && !(2..=16).contains(&size)
            {
                let message = "\"kill_pile\" names the size of a pile's throws: 2 to 16";
                return Some(RecordError::bad_record(Some(r), Some(a), message));
            }
        }
    }
    None
}

fn first_bad<'a>(
    texts: impl IntoIterator<Item = &'a String>,
    round: Option<usize>,
    action: Option<usize>,
    what: &str,
) -> Option<RecordError> {
    texts.into_iter().find_map(|text| {
        text.parse::<Card>().err().map(|e| {
            RecordError::new(
                round,
                action,
                "unknown_card",
                format!("{what}: {text:?}: {e}"),
            )
        })
    })
}

/// Every card an action names.
fn cards_of(act: &Act) -> Vec<&String> {
    match act {
        Act::Play { throw, draw, bonus } => {
            let drawn = match draw {
                DrawRecord::Stock(card) | DrawRecord::Discard(card) => card,
            };
            let mut cards: Vec<&String> = throw.iter().chain([drawn]).collect();
            cards.extend(bonus_cards(bonus));
            cards
        }
        Act::Slap { card, bonus } => {
            let mut cards = vec![card];
            cards.extend(bonus_cards(bonus));
            cards
        }
        Act::WaterfallPick(card) => vec![card],
        Act::Add(cards) | Act::Waterfall(cards) => cards.iter().collect(),
        Act::Call(_) | Act::GoAlong(_) | Act::Onderkluft(_) | Act::KillPile(_) => Vec::new(),
    }
}

/// Every card a turn's or a slap-down's bonus fields name.
fn bonus_cards(bonus: &TurnBonus) -> impl Iterator<Item = &String> {
    let queen = bonus
        .queen
        .iter()
        .flat_map(|q| [Some(&q.give), q.take.as_ref()]);
    bonus
        .forced
        .iter()
        .chain(&bonus.pinata)
        .chain(
            bonus
                .redealt
                .iter()
                .flat_map(|hands| hands.iter().flat_map(|(_, c)| c)),
        )
        .chain(queen.flatten())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::examples::example_record;
    use crate::record::parse_record;

    #[test]
    fn a_record_of_cards_has_none_unreadable() {
        let record = parse_record(example_record().to_string().as_bytes()).unwrap();
        assert_eq!(unreadable(&record), None);
    }

    #[test]
    fn the_first_card_that_is_not_one_is_named_where_it_is() {
        let mut record = parse_record(example_record().to_string().as_bytes()).unwrap();
        record.rounds[0].up_card = String::new();
        let problem = unreadable(&record).unwrap();
        assert_eq!(
            (problem.code, problem.round, problem.action),
            ("unknown_card", Some(0), None)
        );
        let mut record = parse_record(example_record().to_string().as_bytes()).unwrap();
        record.rounds[0].actions[0].act = Act::Slap {
            card: "1H".into(),
            bonus: TurnBonus::default(),
        };
        let problem = unreadable(&record).unwrap();
        assert_eq!(problem.action, Some(0));
        record.rounds[0].actions[0].act = Act::KillPile(1);
        let problem = unreadable(&record).unwrap();
        assert_eq!((problem.code, problem.action), ("bad_record", Some(0)));
    }
}

#[cfg(test)]
mod shuffle_tests {
    use super::*;
    use crate::record::examples::example_record;
    use crate::record::format::ShuffleRecord;
    use crate::record::parse_record;

    #[test]
    fn a_seed_that_is_not_hexadecimal_is_named_at_its_round() {
        let mut record = parse_record(example_record().to_string().as_bytes()).unwrap();
        record.rounds[0].shuffle = Some(ShuffleRecord {
            commitment: "0".repeat(64),
            seed: "zz".repeat(32),
            entropy: None,
        });
        let problem = unreadable(&record).unwrap();
        assert_eq!((problem.code, problem.round), ("bad_shuffle", Some(0)));
    }
}

//! Random legal play through the public API for every preset: never panics, conserves
//! every card, and the checked replay of the produced events reproduces the same state.

use yaniv_domain::cards::Cards;
use yaniv_domain::game::{Command, DealSource, DrawChoice, Event, Game};
use yaniv_domain::rules::Preset;
use yaniv_domain::shuffle::Seed;

/// A tiny deterministic generator so the test needs no dependency.
struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn play_one(preset: Preset, players: usize, seed: u64) -> Vec<Event> {
    let mut rng = Lcg(seed);
    let mut game = Game::new();
    let mut log = Vec::new();
    let names = (0..players).map(|i| format!("p{i}")).collect();
    log.extend(game.execute(&Command::Create { rules: preset.rules(), players: names, initial_totals: vec![] }).expect("create"));
    let deck = game.deck().expect("deck").counts();
    for _step in 0..20_000 {
        if game.is_finished() {
            return log;
        }
        if game.needs_deal() {
            let mut bytes = [0u8; 32];
            bytes[..8].copy_from_slice(&rng.next().to_le_bytes());
            let starter = if game.round_number() == 0 { Some(rng.below(players) as u8) } else { None };
            log.extend(game.execute(&Command::Deal { starter, source: DealSource::Seeded(Seed(bytes)) }).expect("deal"));
            continue;
        }
        assert_eq!(game.cards_in_play(), deck, "cards conserved");
        // Out-of-turn actions now and then.
        let mut acted = false;
        for seat in 0..players as u8 {
            let legal = game.legal_actions(seat);
            if let Some(card) = legal.slap {
                if rng.below(2) == 0 {
                    log.extend(game.execute(&Command::Slap { seat, card }).expect("listed slap is legal"));
                    acted = true;
                    break;
                }
            }
            if !legal.add_ons.is_empty() && rng.below(2) == 0 {
                let cards = legal.add_ons[rng.below(legal.add_ons.len())];
                log.extend(game.execute(&Command::AddOn { seat, cards }).expect("listed add-on is legal"));
                acted = true;
                break;
            }
        }
        if acted || !game.round_in_progress() {
            continue;
        }
        let seat = game.to_act().expect("someone acts");
        let legal = game.legal_actions(seat);
        let command = if legal.go_along {
            Command::GoAlong { seat, going: rng.below(2) == 0 }
        } else if legal.onderkluft {
            Command::Onderkluft { seat, challenge: rng.below(3) == 0 }
        } else if legal.call && (legal.throws.is_empty() || rng.below(3) == 0) {
            Command::Call { seat, call: game.rules().expect("rules").call_resolution_kind() }
        } else {
            let throw: Cards = legal.throws[rng.below(legal.throws.len())];
            let discard: Vec<_> = legal.draw_from_discard.iter().filter(|c| !throw.contains(*c) || true).collect();
            let draw = if legal.draw_from_stock && (discard.is_empty() || rng.below(2) == 0) {
                DrawChoice::Stock
            } else {
                DrawChoice::Discard(discard[rng.below(discard.len())])
            };
            Command::Play { seat, throw, draw }
        };
        match game.execute(&command) {
            Ok(events) => log.extend(events),
            Err(e) => panic!("{preset} legal command {command:?} refused: {e}"),
        }
    }
    panic!("{preset}: game did not finish in 20000 steps");
}

#[test]
fn random_legal_play_finishes_conserves_cards_and_replays() {
    for preset in Preset::ALL {
        for players in 2..=8 {
            for seed in 0..6u64 {
                let log = play_one(preset, players, seed * 31 + players as u64);
                let replayed = Game::replay_checked(&log).unwrap_or_else(|(at, e)| panic!("{preset} {players}p: event {at}: {e}"));
                assert!(replayed.is_finished());
                let json = serde_json::to_string(&log).expect("serialize");
                let back: Vec<Event> = serde_json::from_str(&json).expect("deserialize");
                for (a, b) in back.iter().zip(&log) {
                    assert_eq!(a, b, "{}", serde_json::to_string(b).unwrap_or_default());
                }
            }
        }
    }
}

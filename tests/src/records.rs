//! Game records for the tests and benchmarks of `POST /v1/records/replay` and
//! `POST /v1/records/steps`.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use yaniv_domain::bots::BotKind;
use yaniv_domain::record::{self, GameRecord};
use yaniv_domain::rules::{GameEnd, Preset};
use yaniv_domain::sim::{SimOptions, Simulator, make_bots};

/// A long game of random bots (8 players, Israeli rules, elimination above
/// `limit` points, from `seed`) exported as a `yaniv-record/1` record, cut after
/// the last round that keeps it within `max_bytes` of JSON. A higher `limit`
/// plays more rounds (about 75 rounds make 1 MiB at `limit` 1500).
pub fn bot_game_record(max_bytes: usize, limit: u32, seed: u64) -> GameRecord {
    let mut rules = Preset::Israeli.rules();
    rules.game_end = GameEnd::Elimination {
        limit,
        at_limit: false,
    };
    let players = rules.max_players as usize;
    let mut simulator = Simulator::new(SimOptions {
        record: true,
        ..SimOptions::default()
    });
    let mut bots = make_bots(BotKind::Random, players, seed);
    let game = simulator
        .play(&rules, players, seed, &mut bots)
        .expect("a bot game");
    let mut exported = record::export(&game.log.unwrap_or_default()).expect("export");
    // Drop whole rounds from the end (a record may stop after any finished round).
    let size = |r: &GameRecord| serde_json::to_vec(r).map_or(usize::MAX, |b| b.len());
    let (mut low, mut high) = (0, exported.rounds.len());
    let all = exported.rounds.clone();
    while low < high {
        let mid = (low + high).div_ceil(2);
        exported.rounds = all[..mid].to_vec();
        if size(&exported) <= max_bytes {
            low = mid;
        } else {
            high = mid - 1;
        }
    }
    exported.rounds = all[..low].to_vec();
    exported
}

/// A two-player record whose second action takes 6S, the middle card of ann's run
/// 5S 6S 7S: only a run's ends may be taken, so the rules refuse it (`illegal_draw`
/// at round 0, action 1, counted from 0) after ann's turn.
pub fn illegal_draw_record() -> Value {
    json!({
        "format": "yaniv-record/1",
        "rules": { "preset": "israeli" },
        "players": ["ann", "bob"],
        "rounds": [{
            "starter": "ann",
            "hands": {
                "ann": ["5S", "6S", "7S", "9C", "KS"],
                "bob": ["4D", "5D", "6D", "10C", "QH"]
            },
            "up_card": "7C",
            "actions": [
                { "player": "ann", "throw": ["5S", "6S", "7S"], "draw": { "stock": "2C" } },
                { "player": "bob", "throw": ["QH"], "draw": { "discard": "6S" } }
            ]
        }]
    })
}

/// The conformance fixtures of the rules engine: `NAME.json` and `NAME.expected.json`.
pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../domain/tests/fixtures/records")
}

/// The fixtures' names (without `.json`), sorted.
pub fn fixture_names() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(fixtures())
        .expect("the fixtures")
        .filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            let stem = name.strip_suffix(".json")?;
            (!stem.ends_with(".expected")).then(|| stem.to_owned())
        })
        .collect();
    names.sort();
    names
}

/// A JSON file, read and parsed (the test fails naming it otherwise).
pub fn read_json(path: &Path) -> Value {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_slice(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

//! The championship archive (issue 15): `GET /v1/tournaments/{id}/archive` gives the
//! tournament's stream, its games' streams and the checkpoints in one file, and
//! `yaniv verify` checks that file offline, as a referee without the server would. A
//! clean archive verifies; archives changed as a forger would change them fail at the
//! stream and version where they were changed: a card of a game, a draw, a deleted
//! result, a truncated tail, and a hash that no longer matches.

use std::process::Output;

use reqwest::StatusCode;
use serde_json::{Value, json};
use yaniv_api::checkpoints;
use yaniv_e2e_tests::cli::{keep_archive, reference_verify, verify_offline, yaniv_verify};
use yaniv_e2e_tests::tables::{Api, Player};
use yaniv_e2e_tests::tamper::delete_checkpoint_head;
use yaniv_e2e_tests::tournaments::{cup_with_a_finished_online_game_and, short_belgian_rules};
use yaniv_e2e_tests::{TestApp, expect_problem, spawn_app};
use yaniv_verify::archive::decode_hash;
use yaniv_verify::chain::{GENESIS_HASH, HashInput};

/// The four-player cup of [`cup_with_a_finished_online_game`], its final drawn on
/// paper, entered and the tournament finished; a checkpoint taken. The tournament, its
/// organizer, the game table and a player.
async fn finished_cup(app: &TestApp) -> (Api, i64, Player, i64, Player) {
    finished_cup_and(app, &short_belgian_rules(), false).await
}

/// [`finished_cup`] under `rules`, its online table with player entropy or not.
async fn finished_cup_and(
    app: &TestApp,
    rules: &Value,
    player_entropy: bool,
) -> (Api, i64, Player, i64, Player) {
    let (api, id, org, game_table) =
        cup_with_a_finished_online_game_and(app, rules, player_entropy).await;
    let player = app.new_player("outsider").await;
    let archive = fetch(&api, id, Some(&org.token)).await;
    assert_eq!(
        archive.status(),
        StatusCode::OK,
        "an official may export it early"
    );
    // Written as it is sent, one stream at a time: still one archive that verifies.
    assert_eq!(archive.headers()["cache-control"], "no-store");
    let early: Value = archive.json().await.expect("the early archive is JSON");
    let (status, verdict) = verify_offline(&early);
    assert_eq!(status, 0, "the early archive verifies: {verdict:#}");
    expect_problem(
        fetch(&api, id, None).await,
        StatusCode::UNAUTHORIZED,
        "unauthenticated",
    )
    .await;
    expect_problem(
        fetch(&api, id, Some(&player.token)).await,
        StatusCode::FORBIDDEN,
        "forbidden",
    )
    .await;

    api.finish_with_a_paper_final(id, &org.token).await;
    checkpoints::write(&app.db).await.expect("a checkpoint");
    (api, id, org, game_table, player)
}

async fn fetch(api: &Api, id: i64, token: Option<&str>) -> reqwest::Response {
    let request = reqwest::Client::new().get(api.url(&format!("/v1/tournaments/{id}/archive")));
    match token {
        Some(token) => request.bearer_auth(token),
        None => request,
    }
    .send()
    .await
    .expect("GET the archive")
}

fn stream<'a>(archive: &'a mut Value, id: &str) -> &'a mut Vec<Value> {
    archive["streams"]
        .as_array_mut()
        .expect("streams")
        .iter_mut()
        .find(|s| s["stream_id"] == id)
        .unwrap_or_else(|| panic!("{id} is archived"))["events"]
        .as_array_mut()
        .expect("events")
}

fn hash_of(event: &Value, field: &str) -> [u8; 32] {
    decode_hash(event[field].as_str().expect("hex")).expect("a hash")
}

/// Changes the payload of event `version` of `stream_id` with `edit`, and recomputes
/// the hash of that event and every later one, as a forger who knows the format does:
/// the chain holds, only what the events mean can tell.
fn forge(archive: &mut Value, stream_id: &str, version: u64, edit: impl FnOnce(&mut Value)) {
    let events = stream(archive, stream_id);
    let at = usize::try_from(version - 1).expect("a version");
    let event = &mut events[at];
    let mut payload: Value =
        serde_json::from_str(event["payload"].as_str().expect("text")).expect("JSON");
    edit(&mut payload);
    event["payload"] = json!(payload.to_string());
    let mut prev = match at {
        0 => GENESIS_HASH,
        _ => hash_of(&events[at - 1], "hash"),
    };
    for event in &mut events[at..] {
        let hash = HashInput {
            stream_id,
            version: event["version"].as_u64().expect("version"),
            event_type: event["type"].as_str().expect("type"),
            payload: event["payload"].as_str().expect("payload"),
            actor: event["actor"].as_str().expect("actor"),
            request_id: event["request_id"].as_str(),
            idempotency_key: event["idempotency_key"].as_str(),
            recorded_at_micros: event["recorded_at_micros"].as_i64().expect("micros"),
            prev_hash: &prev,
        }
        .digest();
        event["prev_hash"] = json!(hex::encode(prev));
        event["hash"] = json!(hex::encode(hash));
        prev = hash;
    }
}

fn version_of(archive: &mut Value, stream_id: &str, event_type: &str, last: bool) -> u64 {
    let events = stream(archive, stream_id);
    let mut matching = events.iter().filter(|e| e["type"] == event_type);
    let found = if last {
        matching.next_back()
    } else {
        matching.next()
    };
    found.unwrap_or_else(|| panic!("{stream_id} has a {event_type}"))["version"]
        .as_u64()
        .expect("a version")
}

fn assert_first_failure(verdict: &Value, stream_id: &str, version: u64, code: &str) {
    let first = &verdict["first_failure"];
    assert_eq!(verdict["ok"], false, "{verdict:#}");
    assert_eq!(first["stream"], stream_id, "{verdict:#}");
    assert_eq!(first["version"], version, "{verdict:#}");
    assert_eq!(first["code"], code, "{verdict:#}");
}

#[tokio::test]
async fn a_finished_cups_archive_verifies_offline_and_names_every_forgery() {
    let app = spawn_app().await;
    let (api, id, _org, game_table, player) = finished_cup(&app).await;
    let tournament = format!("tournament-{id}");
    let game = format!("table-{game_table}");

    // Public once finished: no token needed, and any account may have it.
    let anonymous = fetch(&api, id, None).await;
    assert_eq!(anonymous.status(), StatusCode::OK);
    assert!(
        anonymous
            .headers()
            .get("content-disposition")
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.contains(&format!("tournament-{id}.yaniv-archive.json")))
    );
    let archive: Value = anonymous.json().await.expect("JSON");
    assert_eq!(
        fetch(&api, id, Some(&player.token)).await.status(),
        StatusCode::OK
    );
    assert_eq!(archive["format"], "yaniv-archive/1");
    let ids: Vec<&str> = archive["streams"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["stream_id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, [tournament.as_str(), game.as_str()]);
    let checkpoint = archive["checkpoints"].as_array().unwrap().last().cloned();
    let heads = checkpoint.expect("the checkpoint taken after the finish")["heads"].clone();
    assert_eq!(heads.as_array().unwrap().len(), 2, "{heads}");
    keep_archive(&archive, "cup.yaniv-archive.json");

    let (status, verdict) = verify_offline(&archive);
    assert_eq!(status, 0, "{verdict:#}");
    assert_eq!(verdict["ok"], true, "{verdict:#}");
    assert_eq!(verdict["streams"], 2);
    assert_eq!(
        verdict["games_checked"], 1,
        "the online result against its game"
    );
    assert!(verdict["first_failure"].is_null());

    // Cards of the game: a throw no hand may make (a two and a nine are neither a set
    // nor a run, whether or not the hand held them), the chain recomputed.
    let mut changed_card = archive.clone();
    let turn = version_of(&mut changed_card, &game, "turn_played.v1", true);
    forge(&mut changed_card, &game, turn, |payload| {
        payload["thrown"] = json!(["2C", "9H"]);
    });
    let (status, verdict) = verify_offline(&changed_card);
    assert_eq!(status, 1);
    let code = verdict["first_failure"]["code"]
        .as_str()
        .unwrap_or_default();
    assert!(
        ["card_not_in_hand", "illegal_throw"].contains(&code),
        "{verdict:#}"
    );
    assert_first_failure(&verdict, &game, turn, code);
    assert!(
        verdict["failures"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["stream"] == tournament.as_str() && f["code"] == "game_stream_invalid"),
        "the result that stands on the game falls with it: {verdict:#}"
    );

    // A draw: two seats of the first round swapped, the chain recomputed.
    let mut changed_draw = archive.clone();
    let drawn = version_of(&mut changed_draw, &tournament, "round_drawn.v1", false);
    forge(&mut changed_draw, &tournament, drawn, |payload| {
        let first = payload["tables"][0][0].clone();
        payload["tables"][0][0] = payload["tables"][0][1].clone();
        payload["tables"][0][1] = first;
    });
    let (status, verdict) = verify_offline(&changed_draw);
    assert_eq!(status, 1);
    assert_first_failure(&verdict, &tournament, drawn, "draw_mismatch");

    // A deleted result: the tournament's stream cut just before the online game's
    // result, as a forger who wants the game forgotten would cut it; the chain holds,
    // but the finished game still says it was played.
    let mut deleted_result = archive.clone();
    let result = version_of(
        &mut deleted_result,
        &tournament,
        "result_recorded.v1",
        false,
    );
    {
        let events = stream(&mut deleted_result, &tournament);
        events.truncate(usize::try_from(result - 1).unwrap());
    }
    let (status, verdict) = verify_offline(&deleted_result);
    assert_eq!(status, 1);
    // At the first version gone, where the missing result shows too; at one version
    // the archive's own checkpoint is named first (verification.md 1.3 and 20.3, "A
    // cut tail").
    assert_first_failure(&verdict, &tournament, result, "truncated_since_checkpoint");

    // A truncated tail of the game: the checkpoint taken after the finish remembers it.
    let mut truncated = archive.clone();
    let first_gone = {
        let events = stream(&mut truncated, &game);
        events.truncate(events.len() - 3);
        events.len() as u64 + 1
    };
    let (status, verdict) = verify_offline(&truncated);
    assert_eq!(status, 1);
    assert_first_failure(&verdict, &game, first_gone, "truncated_since_checkpoint");

    // A payload changed without the hashes: the chain breaks there.
    let mut edited = archive.clone();
    let event = &mut stream(&mut edited, &game)[4];
    event["payload"] = json!(event["payload"].as_str().unwrap().replacen('1', "2", 1));
    let (status, verdict) = verify_offline(&edited);
    assert_eq!(status, 1);
    assert_first_failure(&verdict, &game, 5, "hash_mismatch");

    // A head whose path no longer leads to the published root.
    let mut moved_head = archive.clone();
    let last_checkpoint = moved_head["checkpoints"].as_array_mut().unwrap().last_mut();
    let head = &mut last_checkpoint.unwrap()["heads"][0];
    head["version"] = json!(head["version"].as_u64().unwrap() + 1);
    let (status, verdict) = verify_offline(&moved_head);
    assert_eq!(status, 1, "{verdict:#}");
    assert!(
        verdict["failures"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["code"] == "checkpoint_path_mismatch"),
        "{verdict:#}"
    );
}

/// Player entropy (part 4): the cup's online table mixes the players' contributions
/// into every deal. Both verifiers re-derive every mixed seed and the round-1 starter;
/// a server that swaps its seed after the commitment, or deals from a seed of its own
/// choosing after seeing the contributions, is named where it did so.
#[tokio::test]
async fn with_player_entropy_both_verifiers_catch_a_seed_changed_after_the_commitment() {
    let app = spawn_app().await;
    let (api, id, _org, game_table, _) = finished_cup_and(&app, &short_belgian_rules(), true).await;
    let game = format!("table-{game_table}");
    let archive: Value = fetch(&api, id, None).await.json().await.expect("JSON");
    let mut clean = archive.clone();
    let rounds = stream(&mut clean, &game)
        .iter()
        .filter(|e| e["type"] == "deal_seed_committed.v1")
        .count();
    assert!(rounds >= 1, "a commitment per round");
    keep_archive(&archive, "cup-player-entropy.yaniv-archive.json");
    let (status, verdict) = verify_offline(&archive);
    assert_eq!(status, 0, "{verdict:#}");

    // The seed behind the commitment swapped: it no longer hashes to it.
    let mut swapped = archive.clone();
    let committed = version_of(&mut swapped, &game, "deal_seed_committed.v1", true);
    forge(&mut swapped, &game, committed, |payload| {
        payload["seed"] = json!("77".repeat(32));
    });
    let (status, verdict) = verify_offline(&swapped);
    assert_eq!(status, 1);
    assert_first_failure(&verdict, &game, committed, "commitment_mismatch");

    // The deal made from another seed with its own fresh commitment, as a server that
    // chose the deal after the contributions would: not the mix of what was committed.
    let mut chosen = archive.clone();
    let dealt = version_of(&mut chosen, &game, "round_dealt.v1", true);
    forge(&mut chosen, &game, dealt, |payload| {
        let seed = [0x55u8; 32];
        payload["deal"]["seed"] = json!(hex::encode(seed));
        payload["deal"]["commitment"] =
            json!(hex::encode(<sha2::Sha256 as sha2::Digest>::digest(seed)));
    });
    let (status, verdict) = verify_offline(&chosen);
    assert_eq!(status, 1);
    assert_first_failure(&verdict, &game, dealt, "entropy_mismatch");
}

/// The bonus rules change the shown totals, show and move hands and keep several
/// discard piles (docs/verification.md 6 and 10.2): a cup under the house rules with
/// every bonus rule, Osmosis's open piles included (6.1), short games, is checked the
/// same by both verifiers.
#[tokio::test]
async fn under_the_modelled_bonus_rules_both_verifiers_agree() {
    let app = spawn_app().await;
    let rules = json!({"preset": "house", "overrides": {
        "bonus_rules": ["cell_division", "crazy_queens", "double_edged_sword", "fifths_disease", "landmine", "mathematician", "osmosis", "pinata", "sevens", "southern_hemisphere", "spy", "waterfall", "wormhole"],
        "game_end": {"lowest_wins": {"limit": 100, "at_limit": false}},
    }});
    let (api, id, _org, game_table, _) = finished_cup_and(&app, &rules, false).await;
    let archive: Value = fetch(&api, id, None).await.json().await.expect("JSON");
    let mut copy = archive.clone();
    let game = format!("table-{game_table}");
    let rounds = stream(&mut copy, &game)
        .iter()
        .filter(|e| e["type"] == "round_ended.v1")
        .count();
    assert!(rounds >= 2, "several rounds to score");
    keep_archive(&archive, "cup-house-bonus.yaniv-archive.json");
    let (status, verdict) = verify_offline(&archive);
    assert_eq!(status, 0, "{verdict:#}");

    // Where a queen of diamonds showed the hands (the deals are random, so not in every
    // run), a forger who changes what was shown is named there by both verifiers.
    let shown = stream(&mut copy, &game)
        .iter()
        .find(|e| e["type"] == "hands_shown.v1")
        .and_then(|e| e["version"].as_u64());
    if let Some(version) = shown {
        let mut forged = archive.clone();
        forge(&mut forged, &game, version, |payload| {
            let to = payload["to"].as_u64().unwrap_or(0);
            let other = usize::from(to == 0);
            payload["hands"][other] = json!(["KS", "KS", "KS", "KS", "KS"]);
        });
        let (status, verdict) = verify_offline(&forged);
        assert_eq!(status, 1, "{verdict:#}");
        assert_eq!(verdict["first_failure"]["version"], version, "{verdict:#}");
    }

    // Where a seven forced draws, or a three set a piñata aside, a forger who puts
    // another card there than the stock's next one is named there by both verifiers.
    let events = stream(&mut copy, &game).clone();
    let first_of = |kind: &str| {
        events
            .iter()
            .find(|e| e["type"] == kind)
            .and_then(|e| e["version"].as_u64())
    };
    let stock_taken = [
        first_of("forced_to_draw.v1"),
        first_of("pinata_set_aside.v1"),
    ];
    for version in stock_taken.into_iter().flatten() {
        let mut forged = archive.clone();
        forge(&mut forged, &game, version, |payload| {
            let other = if payload["card"] == "KS" { "KH" } else { "KS" };
            payload["card"] = json!(other);
        });
        let (status, verdict) = verify_offline(&forged);
        assert_eq!(status, 1, "{verdict:#}");
        assert_eq!(verdict["first_failure"]["version"], version, "{verdict:#}");
    }

    // Osmosis (6.1): a discard draw comes from the live pile whose top offers it. A
    // forger who makes a turn draw the card it just threw (one deck: no pile holds
    // another copy) is named there by both verifiers.
    let discard_draw = events.iter().find_map(|e| {
        let payload: Value = serde_json::from_str(e["payload"].as_str()?).ok()?;
        let natural = payload["thrown"]
            .as_array()?
            .iter()
            .find(|c| *c != "JK")?
            .clone();
        payload["draw"].get("discard")?;
        Some((e["version"].as_u64()?, natural))
    });
    if let Some((version, natural)) = discard_draw {
        let mut forged = archive.clone();
        forge(&mut forged, &game, version, |payload| {
            payload["draw"] = json!({"discard": natural});
        });
        let (status, verdict) = verify_offline(&forged);
        assert_eq!(status, 1, "{verdict:#}");
        assert_eq!(verdict["first_failure"]["version"], version, "{verdict:#}");
    }

    // Where a queen swapped, a forger who changes the blind pick is named there.
    if let Some(version) = first_of("queen_swapped.v1") {
        let mut forged = archive.clone();
        forge(&mut forged, &game, version, |payload| {
            let other = if payload["taken"] == "KS" { "KH" } else { "KS" };
            payload["taken"] = json!(other);
        });
        let (status, verdict) = verify_offline(&forged);
        assert_eq!(status, 1, "{verdict:#}");
        assert_eq!(verdict["first_failure"]["version"], version, "{verdict:#}");
    }
}

/// Issue 32: a game's head row deleted from the checkpoint an archive carries. The
/// checkpoint's root says which head is missing, so the archive puts it back: every
/// path leads to the published root again, and neither verifier blames the streams the
/// checkpoint still listed (the table's own verification names the deletion).
#[tokio::test]
async fn an_archive_puts_back_a_head_row_deleted_from_its_checkpoint() {
    let app = spawn_app().await;
    let (api, id, _org, game_table, _) = finished_cup(&app).await;
    let game = format!("table-{game_table}");
    let latest = checkpoints::latest(&app.db)
        .await
        .expect("read")
        .expect("a checkpoint");
    let recorded = latest
        .heads
        .iter()
        .find(|h| h.stream_id == game)
        .expect("the game's head")
        .clone();
    delete_checkpoint_head(&app, latest.id, &game).await;

    let archive: Value = fetch(&api, id, None).await.json().await.expect("JSON");
    let carried = archive["checkpoints"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == latest.id)
        .expect("the latest checkpoint")
        .clone();
    assert_eq!(carried["streams"], latest.heads.len(), "{carried:#}");
    let head = carried["heads"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["stream_id"] == game.as_str())
        .expect("the game's head, put back");
    assert_eq!(head["version"], recorded.version);
    assert_eq!(head["head_hash"], hex::encode(recorded.head_hash));
    let (status, verdict) = verify_offline(&archive);
    assert_eq!(status, 0, "{verdict:#}");
}

#[tokio::test]
async fn what_is_not_an_archive_is_refused_with_exit_status_2() {
    let Output { status, stderr, .. } = yaniv_verify(&json!({"format": "yaniv-record/1"}));
    assert_eq!(status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&stderr).contains("is not a yaniv-archive/1 document"),
        "{}",
        String::from_utf8_lossy(&stderr)
    );
    // A later format is not this tool's to judge: both verifiers say so and stop.
    let later = json!({
        "format": "yaniv-archive/9", "tournament_id": 1,
        "exported_at": "2026-11-26T00:00:00Z", "streams": [], "checkpoints": [],
    });
    for output in [yaniv_verify(&later), reference_verify(&later)] {
        assert_eq!(
            output.status.code(),
            Some(2),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
}

/// The reference verifier's own unit tests (its ChaCha20, shuffle, scoring and draw
/// vectors, and forgeries of its fixture) run with the suite.
#[test]
fn the_reference_verifiers_own_tests_pass() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tools/reference-verifier");
    let output = std::process::Command::new("python3")
        .args(["-m", "unittest", "discover", "-s"])
        .arg(&dir)
        .output()
        .expect("run python3 (deploy/test.sh installs it)");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// Issue #27: a redraw records the seating it replaced, and an archive taken before the
/// finish cuts each game before its round in play. A forger who changes what a redraw
/// says it replaced, or claims a cut where there is none, is named by both verifiers.
#[tokio::test]
async fn forged_redraws_and_false_cuts_are_named_by_both_verifiers() {
    let app = spawn_app().await;
    let (api, id, org, game_table, _) = finished_cup(&app).await;
    let whole = fetch(&api, id, Some(&org.token)).await;
    let whole: Value = Api::json_ok(whole, StatusCode::OK, "the archive").await;
    let table_stream = format!("table-{game_table}");
    let length = stream(&mut whole.clone(), &table_stream).len() as u64;

    // A finished game has no round in play: a cut in it is a forgery.
    let mut cut = whole.clone();
    for archived in cut["streams"].as_array_mut().unwrap() {
        if archived["stream_id"] == table_stream.as_str() {
            archived["sealed_from"] = json!(length + 1);
        }
    }
    let (status, verdict) = verify_offline(&cut);
    assert_eq!(status, 1);
    assert_first_failure(&verdict, &table_stream, length + 1, "sealed_mismatch");
    // A cut that does not fall where the stream ends.
    for archived in cut["streams"].as_array_mut().unwrap() {
        if archived["stream_id"] == table_stream.as_str() {
            archived["sealed_from"] = json!(3);
        }
    }
    let (status, verdict) = verify_offline(&cut);
    assert_eq!(status, 1);
    assert_first_failure(&verdict, &table_stream, 3, "sealed_mismatch");
    // Two forgeries in one stream: both verifiers name the earlier one first.
    for archived in cut["streams"].as_array_mut().unwrap() {
        if archived["stream_id"] == table_stream.as_str() {
            archived["sealed_from"] = json!(length + 1);
        }
    }
    stream(&mut cut, &table_stream)[4]["actor"] = json!("account:999");
    let (status, verdict) = verify_offline(&cut);
    assert_eq!(status, 1);
    assert_first_failure(&verdict, &table_stream, 5, "hash_mismatch");

    // A paper round drawn, then redrawn: the redraw names the seating it replaced.
    let players: Vec<Player> = {
        let mut all = Vec::new();
        for i in 1..=8 {
            all.push(app.new_player(&format!("rd{i}")).await);
        }
        all
    };
    let body = json!({"name": "Redrawn cup", "rules": short_belgian_rules(), "capacity": 8,
                      "config": {"qualification_rounds": 1, "table_min": 4, "table_max": 4}});
    let cup = api.started_tournament(&org, &players, &body).await;
    api.draw(cup, &org.token, &json!({"paper_tables": [1, 2]}))
        .await;
    let redraw = json!({"redraw": {"stage": 1, "round": 1, "reason": "a late arrival"},
                        "paper_tables": [1, 2]});
    api.draw(cup, &org.token, &redraw).await;
    let archive = fetch(&api, cup, Some(&org.token)).await;
    let mut archive: Value = Api::json_ok(archive, StatusCode::OK, "the archive").await;
    let (status, verdict) = verify_offline(&archive);
    assert_eq!(status, 0, "{verdict:#}");
    let tournament_stream = format!("tournament-{cup}");
    let at = version_of(&mut archive, &tournament_stream, "round_redrawn.v1", true);
    let mut swapped = archive.clone();
    forge(&mut swapped, &tournament_stream, at, |payload| {
        let tables = payload["replaced"]["tables"].as_array_mut().unwrap();
        tables.swap(0, 1);
    });
    let (status, verdict) = verify_offline(&swapped);
    assert_eq!(status, 1);
    assert_first_failure(&verdict, &tournament_stream, at, "replaced_mismatch");
    // Nor may a redraw be said to come from a player.
    let mut by_a_player = archive.clone();
    forge(&mut by_a_player, &tournament_stream, at, |payload| {
        payload["by"] = json!({"account": players[0].id});
    });
    let (status, verdict) = verify_offline(&by_a_player);
    assert_eq!(status, 1);
    assert_first_failure(&verdict, &tournament_stream, at, "forbidden");
}

/// Reads the archive of `id` anonymously as a stream, keeping only its length and its
/// SHA-256 (a reader need not hold it whole); with the answer's status, `ETag` and
/// `Content-Length`.
async fn read_streamed(api: &Api, id: i64) -> (StatusCode, String, u64, usize, [u8; 32]) {
    use sha2::{Digest, Sha256};
    let mut response = fetch(api, id, None).await;
    let status = response.status();
    let etag = response.headers()["etag"]
        .to_str()
        .expect("ETag")
        .to_owned();
    let announced = response.content_length().expect("a Content-Length");
    let mut hasher = Sha256::new();
    let mut length = 0;
    while let Some(chunk) = response.chunk().await.expect("the archive's bytes") {
        length += chunk.len();
        hasher.update(&chunk);
    }
    (status, etag, announced, length, hasher.finalize().into())
}

/// #30: "a finished tournament's archive is built once and served from storage (with
/// its hash and `ETag`)". Eight anonymous readers at once get the same bytes, built
/// once (each build would stamp its own `exported_at`); the `ETag` is the body's
/// SHA-256 and answers 304; the stored copy is what was sent; a new checkpoint, which
/// the archive must carry, has it built again.
#[tokio::test]
async fn a_finished_cups_archive_is_built_once_and_served_from_storage() {
    let app = spawn_app().await;
    let (api, id, ..) = finished_cup(&app).await;
    let reads = futures_util::future::join_all((0..8).map(|_| read_streamed(&api, id))).await;
    let (_, etag, announced, length, sha256) = reads[0].clone();
    for read in &reads {
        assert_eq!(read.0, StatusCode::OK);
        assert_eq!(read, &reads[0], "every reader got the one build");
    }
    assert_eq!(length as u64, announced, "the whole archive arrived");
    assert_eq!(etag, format!("\"{}\"", hex::encode(sha256)));
    let (builds, stored): (i64, Vec<u8>) = sqlx::query_as(
        "SELECT count(*) OVER (), body FROM tournament_archives WHERE tournament_id = $1",
    )
    .bind(id)
    .fetch_one(&app.db)
    .await
    .expect("the stored archive");
    assert_eq!(builds, 1);
    assert_eq!(
        <sha2::Sha256 as sha2::Digest>::digest(&stored).as_slice(),
        sha256,
        "what was sent is the stored copy"
    );

    let again = reqwest::Client::new()
        .get(api.url(&format!("/v1/tournaments/{id}/archive")))
        .header("If-None-Match", &etag)
        .send()
        .await
        .expect("GET");
    assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
    assert_eq!(again.headers()["etag"], etag.as_str());

    // A new checkpoint records the cup's streams: the next reader gets it in a new build.
    let before: Value = serde_json::from_slice(&stored).expect("JSON");
    checkpoints::write(&app.db).await.expect("a checkpoint");
    let fresh = fetch(&api, id, None).await;
    assert_ne!(fresh.headers()["etag"], etag.as_str());
    let fresh: Value = fresh.json().await.expect("the archive");
    assert_eq!(
        fresh["checkpoints"].as_array().map(Vec::len),
        before["checkpoints"].as_array().map(|c| c.len() + 1),
        "the new checkpoint is in it"
    );
    let (status, verdict) = verify_offline(&fresh);
    assert_eq!(status, 0, "{verdict:#}");
}

/// Resident memory of this process (the server runs in it), in bytes.
fn resident_bytes() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|kib| kib.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .expect("VmRSS")
        * 1024
}

/// #30: "8 concurrent archive reads of a large tournament within a memory bound the
/// test asserts". A 160-player championship's archive is about 50 MB; building one
/// that large takes minutes, so the stored copy of a real cup is replaced, inside
/// PostgreSQL, by 48 MiB of the same stamp (what is read is what is stored, whatever
/// its bytes). Eight anonymous readers at once then get all of it while the process,
/// server and readers together, grows by less than half of one copy: a reader holds
/// a slice or two, where building or buffering the archive per request would hold eight
/// copies (384 MiB).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn eight_readers_of_a_large_archive_hold_a_few_slices_each() {
    const LARGE: i64 = 48 * 1024 * 1024;
    let app = spawn_app().await;
    let (api, id, ..) = finished_cup(&app).await;
    assert_eq!(fetch(&api, id, None).await.status(), StatusCode::OK);
    let replaced = sqlx::query(
        "UPDATE tournament_archives SET body = body_large, sha256 = sha256(body_large), \
                bytes = length(body_large) \
         FROM (SELECT convert_to(repeat('archive ', ($2 / 8)::int), 'UTF8') AS body_large) AS large \
         WHERE tournament_id = $1",
    )
    .bind(id)
    .bind(LARGE)
    .execute(&app.db)
    .await
    .expect("a large stored archive");
    assert_eq!(replaced.rows_affected(), 1);
    let expected_sha: Vec<u8> =
        sqlx::query_scalar("SELECT sha256 FROM tournament_archives WHERE tournament_id = $1")
            .bind(id)
            .fetch_one(&app.db)
            .await
            .expect("its hash");

    let before = resident_bytes();
    let sampling = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let sampler = std::thread::spawn({
        let sampling = std::sync::Arc::clone(&sampling);
        move || {
            let mut peak = 0;
            while sampling.load(std::sync::atomic::Ordering::Relaxed) {
                peak = peak.max(resident_bytes());
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
            peak
        }
    });
    let reads = futures_util::future::join_all((0..8).map(|_| read_streamed(&api, id))).await;
    sampling.store(false, std::sync::atomic::Ordering::Relaxed);
    let peak = sampler.join().expect("the sampler");

    for (status, etag, announced, length, sha256) in &reads {
        assert_eq!(*status, StatusCode::OK);
        assert_eq!(*announced, LARGE as u64);
        assert_eq!(*length as i64, LARGE, "the whole archive arrived");
        assert_eq!(sha256.as_slice(), expected_sha.as_slice());
        assert_eq!(etag, &format!("\"{}\"", hex::encode(sha256)));
    }
    let grown = peak.saturating_sub(before);
    assert!(
        grown < LARGE as u64 / 2,
        "eight readers of a {} MiB archive grew the process by {} MiB",
        LARGE >> 20,
        grown >> 20
    );
    eprintln!(
        "eight readers of {} MiB: the process grew by {:.1} MiB at its peak",
        LARGE >> 20,
        grown as f64 / 1_048_576.0
    );
}

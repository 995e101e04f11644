//! Issue 35, item 2: an archive proves its own completeness. Every archive carries a
//! checkpoint that records each of its streams at the head it exports, taken for it
//! when none did (the tests run no periodic checkpoint task: `checkpoint_interval:
//! None`), so that a tail deleted later, the tournament's last event included, is
//! named offline by both verifiers; an archive without one fails both; and readers at
//! once take a bounded number of checkpoints between them.

use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::{Value, json};
use yaniv_api::audit::archive_cut::checkpoint_for;
use yaniv_api::checkpoints::CheckpointGap;
use yaniv_api::store::{EventMetadata, NewEvent};
use yaniv_e2e_tests::cli::{reference_verify, verify_offline};
use yaniv_e2e_tests::tables::{Api, Player};
use yaniv_e2e_tests::tamper::delete_tail;
use yaniv_e2e_tests::tournaments::{cup_with_a_finished_online_game_and, short_belgian_rules};
use yaniv_e2e_tests::{TestApp, spawn_app, spawn_app_with};

/// The four-player cup with one finished online game, its final entered on paper and
/// the tournament finished, and no checkpoint taken since: the tournament, its
/// organizer and its game table.
async fn just_finished_cup(app: &TestApp) -> (Api, i64, Player, i64) {
    let (api, id, org, game_table) =
        cup_with_a_finished_online_game_and(app, &short_belgian_rules(), false).await;
    api.finish_with_a_paper_final(id, &org.token).await;
    (api, id, org, game_table)
}

async fn fetch(api: &Api, id: i64, token: Option<&str>) -> Value {
    let request = reqwest::Client::new().get(api.url(&format!("/v1/tournaments/{id}/archive")));
    let request = match token {
        Some(token) => request.bearer_auth(token),
        None => request,
    };
    let response = request.send().await.expect("GET the archive");
    Api::json_ok(response, StatusCode::OK, "the archive").await
}

async fn checkpoint_count(app: &TestApp) -> i64 {
    sqlx::query_scalar("SELECT count(*) FROM checkpoints")
        .fetch_one(&app.db)
        .await
        .expect("count the checkpoints")
}

fn events<'a>(archive: &'a mut Value, stream_id: &str) -> &'a mut Vec<Value> {
    archive["streams"]
        .as_array_mut()
        .expect("streams")
        .iter_mut()
        .find(|s| s["stream_id"] == stream_id)
        .unwrap_or_else(|| panic!("{stream_id} is archived"))["events"]
        .as_array_mut()
        .expect("events")
}

fn last_version(archive: &mut Value, stream_id: &str) -> u64 {
    events(archive, stream_id)
        .last()
        .and_then(|e| e["version"].as_u64())
        .expect("a last event")
}

fn assert_first_failure(verdict: &Value, stream_id: &str, version: u64, code: &str) {
    let first = &verdict["first_failure"];
    assert_eq!(verdict["ok"], false, "{verdict:#}");
    assert_eq!(
        (
            first["stream"].as_str(),
            first["version"].as_u64(),
            first["code"].as_str()
        ),
        (Some(stream_id), Some(version), Some(code)),
        "{verdict:#}"
    );
}

/// The forger deletes the kept copy of the archive too: it still holds what was
/// deleted, and the server would go on sending it.
async fn drop_kept_archive(app: &TestApp, id: i64) {
    sqlx::query("DELETE FROM tournament_archives WHERE tournament_id = $1")
        .bind(id)
        .execute(&app.db)
        .await
        .expect("DELETE the kept archive");
}

/// verification.md 1.3: "the last of them records each stream at the version it ends
/// at", and "the archive's own checkpoint names the lost head
/// (`truncated_since_checkpoint`, 20.3), the tournament's last event included".
#[tokio::test]
async fn an_archive_fetched_right_after_the_finish_names_the_finish_deleted_later() {
    let app = spawn_app().await;
    let (api, id, org, game_table) = just_finished_cup(&app).await;
    let tournament = format!("tournament-{id}");
    let game = format!("table-{game_table}");

    let mut archive = fetch(&api, id, None).await;
    let finish = last_version(&mut archive, &tournament);
    assert_eq!(
        events(&mut archive, &tournament).last().unwrap()["type"],
        "tournament_finished.v1"
    );
    let game_head = last_version(&mut archive, &game);
    let cut = archive["checkpoints"]
        .as_array()
        .and_then(|all| all.last())
        .expect("the archive carries its checkpoint");
    let recorded: Vec<(String, u64)> = cut["heads"]
        .as_array()
        .expect("heads")
        .iter()
        .map(|h| {
            (
                h["stream_id"].as_str().unwrap().to_owned(),
                h["version"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        recorded,
        [(tournament.clone(), finish), (game.clone(), game_head)],
        "its last checkpoint records every stream at the head it exports"
    );
    let (status, verdict) = verify_offline(&archive);
    assert_eq!(status, 0, "{verdict:#}");

    // The file itself with its last event cut off.
    let mut cut_file = archive.clone();
    events(&mut cut_file, &tournament).pop();
    let (status, verdict) = verify_offline(&cut_file);
    assert_eq!(status, 1);
    assert_first_failure(&verdict, &tournament, finish, "truncated_since_checkpoint");

    // The store: a superuser deletes the finish and recomputes nothing. The next
    // archive, cut at a checkpoint of its own, still carries the one that saw the finish.
    delete_tail(&app, &tournament, finish).await;
    drop_kept_archive(&app, id).await;
    let mut later = fetch(&api, id, Some(&org.token)).await;
    assert_eq!(last_version(&mut later, &tournament), finish - 1);
    let (status, verdict) = verify_offline(&later);
    assert_eq!(status, 1);
    assert_first_failure(&verdict, &tournament, finish, "truncated_since_checkpoint");
}

/// Issue 35: "An archive fetched right after a game ends, with its tournament's last
/// event deleted, fails both verifiers with the code for truncation". The online game
/// has just finished and its result is the tournament's last event; no checkpoint was
/// taken but the one the archive takes for itself. Both verifiers name the same
/// finding, code included, whether the file or the store lost the event.
#[tokio::test]
async fn an_archive_fetched_right_after_a_game_ends_names_its_result_deleted_later() {
    let app = spawn_app().await;
    let (api, id, org, _) =
        cup_with_a_finished_online_game_and(&app, &short_belgian_rules(), false).await;
    let tournament = format!("tournament-{id}");
    assert_eq!(
        checkpoint_count(&app).await,
        0,
        "no checkpoint before the archive"
    );

    // The tournament goes on: its organizer fetches the archive.
    let mut archive = fetch(&api, id, Some(&org.token)).await;
    let result = last_version(&mut archive, &tournament);
    assert_eq!(
        events(&mut archive, &tournament).last().unwrap()["type"],
        "result_recorded.v1",
        "the game's result is the tournament's last event"
    );
    let (status, verdict) = verify_offline(&archive);
    assert_eq!(status, 0, "{verdict:#}");

    let mut cut_file = archive.clone();
    events(&mut cut_file, &tournament).pop();
    assert_both_name(&cut_file, &tournament, result, "truncated_since_checkpoint");

    delete_tail(&app, &tournament, result).await;
    drop_kept_archive(&app, id).await;
    let mut later = fetch(&api, id, Some(&org.token)).await;
    assert_eq!(last_version(&mut later, &tournament), result - 1);
    assert_both_name(&later, &tournament, result, "truncated_since_checkpoint");
}

/// Both verifiers fail `archive` with the first finding (`stream_id`, `version`, `code`).
fn assert_both_name(archive: &Value, stream_id: &str, version: u64, code: &str) {
    let (status, verdict) = verify_offline(archive);
    assert_eq!(status, 1, "{verdict:#}");
    assert_first_failure(&verdict, stream_id, version, code);
    let reference: Value = serde_json::from_slice(&reference_verify(archive).stdout)
        .expect("the reference verifier's verdict is JSON");
    assert_first_failure(&reference, stream_id, version, code);
}

/// verification.md 1.3: "the archive's own checkpoint names the lost head
/// (`truncated_since_checkpoint`, 20.3)", for a game's stream as for the
/// tournament's.
#[tokio::test]
async fn an_archive_fetched_right_after_the_finish_names_a_games_tail_deleted_later() {
    let app = spawn_app().await;
    let (api, id, _org, game_table) = just_finished_cup(&app).await;
    let game = format!("table-{game_table}");
    let mut archive = fetch(&api, id, None).await;
    let head = last_version(&mut archive, &game);
    let finished = events(&mut archive, &game)
        .iter()
        .find(|e| e["type"] == "game_finished.v1")
        .and_then(|e| e["version"].as_u64())
        .expect("the game finished");

    delete_tail(&app, &game, finished).await;
    drop_kept_archive(&app, id).await;
    let mut later = fetch(&api, id, None).await;
    assert_eq!(last_version(&mut later, &game), finished - 1);
    let (status, verdict) = verify_offline(&later);
    assert_eq!(status, 1);
    assert_first_failure(&verdict, &game, head, "truncated_since_checkpoint");
}

/// verification.md 1.3: "An archive in which no checkpoint records a stream at its
/// last version or later fails with `archive_head_not_checkpointed`, at that last
/// version".
#[tokio::test]
async fn an_archive_without_its_checkpoints_fails_both_verifiers() {
    let app = spawn_app().await;
    let (api, id, _org, game_table) = just_finished_cup(&app).await;
    let game = format!("table-{game_table}");
    let tournament = format!("tournament-{id}");
    let mut archive = fetch(&api, id, None).await;
    let game_head = last_version(&mut archive, &game);

    let mut stripped = archive.clone();
    stripped["checkpoints"] = json!([]);
    let (status, verdict) = verify_offline(&stripped);
    assert_eq!(status, 1);
    // The game streams come first (1.3), then the tournament's, which fails alike.
    assert_first_failure(&verdict, &game, game_head, "archive_head_not_checkpointed");
    assert!(
        verdict["failures"].as_array().unwrap().iter().any(|f| {
            f["stream"] == tournament.as_str() && f["code"] == "archive_head_not_checkpointed"
        }),
        "{verdict:#}"
    );
}

/// docs/checkpoints.md: "at most one per `YANIV_ARCHIVE_CHECKPOINT_GAP_SECS` (10 s)
/// after the latest checkpoint of any origin, and one at a time for all the readers of
/// an instance. A reader that arrives while one is due waits for it and is cut at it".
/// Sixteen anonymous readers of a just finished cup take one checkpoint between them.
#[tokio::test]
async fn sixteen_anonymous_readers_at_once_take_one_checkpoint() {
    let app = spawn_app_with(
        |settings| settings.archive_checkpoint_gap = Duration::from_secs(2),
        Vec::new(),
    )
    .await;
    let (api, id, ..) = just_finished_cup(&app).await;
    let before = checkpoint_count(&app).await;
    let reads = futures_util::future::join_all((0..16).map(|_| fetch(&api, id, None))).await;
    assert_eq!(
        checkpoint_count(&app).await,
        before + 1,
        "one checkpoint for all"
    );
    for archive in &reads {
        assert_eq!(archive, &reads[0], "the one kept archive");
    }
    let (status, verdict) = verify_offline(&reads[0]);
    assert_eq!(status, 0, "{verdict:#}");
}

/// docs/checkpoints.md: "at most one per `YANIV_ARCHIVE_CHECKPOINT_GAP_SECS` ...
/// A reader that arrives while one is due waits for it and is cut at it, even if its
/// streams moved again meanwhile". Readers asking all the time while a stream moves
/// all the time get checkpoints no closer together than the gap, each one no older
/// than its request.
#[tokio::test]
async fn readers_of_a_moving_stream_get_at_most_one_checkpoint_per_gap() {
    const GAP: Duration = Duration::from_millis(500);
    const RUN: Duration = Duration::from_millis(2500);
    let app = spawn_app().await;
    let gap = std::sync::Arc::new(CheckpointGap::new(GAP));
    let stream = "table-999000";
    let meta = EventMetadata {
        actor: "system".into(),
        request_id: None,
        idempotency_key: None,
    };
    let moved = |n: u64| vec![NewEvent::from_json("Tested", &json!({ "n": n }))];
    app.store
        .append(stream, 0, &moved(1), &meta)
        .await
        .expect("a first event");
    let started = Instant::now();
    let writer = {
        let store = app.store.clone();
        let meta = meta.clone();
        tokio::spawn(async move {
            let mut version = 1;
            while started.elapsed() < RUN {
                store
                    .append(stream, version, &moved(version + 1), &meta)
                    .await
                    .expect("the stream moves");
                version += 1;
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        })
    };
    let readers = (0..8).map(|_| {
        let pool = app.db.clone();
        let gap = std::sync::Arc::clone(&gap);
        tokio::spawn(async move {
            let mut cuts = 0;
            while started.elapsed() < RUN {
                let before: Option<i64> = sqlx::query_scalar("SELECT max(id) FROM checkpoints")
                    .fetch_one(&pool)
                    .await
                    .expect("the latest checkpoint");
                let id = checkpoint_for(&pool, &gap, &[stream]).await.expect("a cut");
                assert!(id >= before.unwrap_or(0), "a cut older than its request");
                cuts += 1;
            }
            cuts
        })
    });
    let cuts: u32 = futures_util::future::join_all(readers)
        .await
        .into_iter()
        .map(|r| r.expect("a reader"))
        .sum();
    writer.await.expect("the writer");
    // The nearest two checkpoints, apart by how many milliseconds.
    let (written, nearest_ms): (i64, f64) = sqlx::query_as(
        "SELECT count(*), coalesce(min(apart_ms), 1e9)::float8 FROM ( \
             SELECT extract(epoch FROM created_at - lag(created_at) OVER (ORDER BY id)) \
                    * 1000 AS apart_ms FROM checkpoints) AS gaps",
    )
    .fetch_one(&app.db)
    .await
    .expect("the checkpoints");
    let elapsed = started.elapsed();
    let bound = elapsed.as_millis() / GAP.as_millis() + 1;
    eprintln!(
        "{cuts} cuts by 8 readers in {elapsed:?} of a stream moving every 20 ms: \
         {written} checkpoints (bound {bound}), the nearest two {nearest_ms:.0} ms apart"
    );
    assert!(i64::from(cuts) > written, "readers shared checkpoints");
    assert!(written as u128 <= bound, "{written} > {bound}");
    assert!(
        nearest_ms >= GAP.as_millis() as f64 - 5.0,
        "two checkpoints {nearest_ms} ms apart"
    );
}

/// The hole item 2 left: an archive taken while a game's round is in play cuts that
/// game before the round's first secret, and withholds the head its own checkpoint
/// recorded for it (verification.md 1.3, "What a cut stream proves, and why no more":
/// two heads over a round in play would let a reader try a hidden card value by value).
/// What the early archive cannot prove, the next one does: once the game is over, the
/// archive carries the early archive's checkpoint as the first witness of the head it
/// withheld, so a forger who deletes the game's events from there on is named offline.
#[tokio::test]
async fn a_game_cut_in_an_early_archive_is_proven_whole_by_the_next_archive() {
    use std::sync::{Arc, Mutex};
    use yaniv_e2e_tests::tables::play_to_end;
    use yaniv_e2e_tests::tournaments::tables_of;

    let app = spawn_app().await;
    let api = app.api();
    let org = app.new_organizer("olga").await;
    let mut players = Vec::new();
    for i in 1..=4 {
        players.push(app.new_player(&format!("cp{i}")).await);
    }
    let body = json!({
        "name": "Cut cup", "rules": short_belgian_rules(), "capacity": 4,
        "config": {"qualification_rounds": 1, "table_min": 4, "table_max": 4},
    });
    let id = api.started_tournament(&org, &players, &body).await;
    let drawn = api.draw(id, &org.token, &json!({})).await;
    let game_table = drawn["online_tables"][0]["game_table"]
        .as_i64()
        .expect("an online game");
    let game = format!("table-{game_table}");
    let stages = api.tournament_read(id, "/stages", &org.token).await;
    let seated: Vec<Player> = tables_of(&stages, 1, 1)[0]
        .1
        .iter()
        .map(|id| players.iter().find(|p| p.id == *id).cloned().unwrap())
        .collect();
    // The official's archive, taken a few moves into the game.
    let early: Arc<Mutex<Option<Value>>> = Arc::default();
    play_to_end(&api, game_table, &seated, 5_000, 6, |_| {
        let (api, token, early) = (api.clone(), org.token.clone(), early.clone());
        async move {
            if early.lock().unwrap().is_none() {
                let archive = fetch(&api, id, Some(&token)).await;
                *early.lock().unwrap() = Some(archive);
            }
        }
    })
    .await;
    let early = early
        .lock()
        .unwrap()
        .clone()
        .expect("an archive taken during play");
    let archived = early["streams"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["stream_id"] == game.as_str())
        .expect("the game is archived")
        .clone();
    let cut = archived["sealed_from"]
        .as_u64()
        .expect("a round was in play: the game is cut");
    let cut_checkpoint = early["checkpoints"].as_array().unwrap().last().unwrap()["id"].clone();
    let game_heads = |archive: &Value| -> Vec<(Value, u64)> {
        archive["checkpoints"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|c| {
                c["heads"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|h| h["stream_id"] == game.as_str())
                    .map(|h| (c["id"].clone(), h["version"].as_u64().unwrap()))
                    .collect::<Vec<_>>()
            })
            .collect()
    };
    assert!(
        game_heads(&early).iter().all(|(_, version)| *version < cut),
        "no head past the cut: {early:#}"
    );
    let (status, verdict) = verify_offline(&early);
    assert_eq!(status, 0, "{verdict:#}");

    api.finish_with_a_paper_final(id, &org.token).await;
    let after = fetch(&api, id, None).await;
    let withheld = game_heads(&after)
        .into_iter()
        .find(|(checkpoint, _)| *checkpoint == cut_checkpoint)
        .map(|(_, version)| version)
        .expect("the next archive carries the early cut's checkpoint of the game");
    assert!(withheld >= cut, "{withheld} < {cut}");
    let (status, verdict) = verify_offline(&after);
    assert_eq!(status, 0, "{verdict:#}");

    // The forger deletes what the early archive did not show, from the store and the
    // next archive alike: the early cut's own checkpoint names the first version gone.
    let mut forged = after.clone();
    events(&mut forged, &game).truncate(usize::try_from(cut - 1).unwrap());
    let (status, verdict) = verify_offline(&forged);
    assert_eq!(status, 1, "{verdict:#}");
    assert_first_failure(&verdict, &game, cut, "truncated_since_checkpoint");
}

//! Issue 34, seasons (`docs/seasons.md`): three rated tournaments of one season, the
//! rating list after each equal to the reference recomputation from the archives, a
//! correction in the first re-rating the later games the same way in both; then the
//! season's standings equal to `tools/reference-verifier/seasons.py`'s from the same
//! archives, and a final seeded by them: its recorded order is the standings', round 1
//! snakes it, both verifiers accept the archive and `seasons.py --seeding` agrees,
//! while a forged order is caught.

use std::process::Command;

use reqwest::StatusCode;
use serde_json::{Value, json};
use yaniv_e2e_tests::cli::verify_offline;
use yaniv_e2e_tests::tables::Api;
use yaniv_e2e_tests::tournaments::{paper_tournament, tables_of};
use yaniv_e2e_tests::{expect_problem, spawn_app};

use super::ratings::{
    archive, as_seated, assert_same, assert_snaked, eight_players, mu_by_player, recomputed,
    reversed, rotated, scratch_archives, server_list, tournament_payload, with_first_seeds_swapped,
};

const POINTS: [u32; 6] = [10, 7, 5, 3, 2, 1];
const BEST: u32 = 2;

/// `seasons.py` with `args` over `archives`: whether it exited 0, and what it printed.
fn seasons_py(args: &[String], archives: &[&Value]) -> (bool, Value) {
    let (dir, paths) = scratch_archives("seasons", archives);
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tools/reference-verifier/seasons.py");
    let mut command = Command::new("python3");
    command.arg(&script);
    // `--seeding` takes the first archive as the final.
    let mut paths = paths.into_iter();
    for arg in args {
        command.arg(arg);
        if arg == "--seeding" {
            command.arg(paths.next().expect("the final's archive"));
        }
    }
    let output = command.args(paths).output().expect("run python3");
    let _ = std::fs::remove_dir_all(&dir);
    let printed = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "seasons.py prints JSON ({e}): {}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    });
    (output.status.success(), printed)
}

/// The standings as both sides give them: place, player, total and every result.
fn comparable(standings: &Value) -> Vec<Value> {
    standings
        .as_array()
        .expect("standings")
        .iter()
        .map(|row| {
            json!({"place": row["place"], "player": row["player"], "total": row["total"],
                   "results": row["results"]})
        })
        .collect()
}

#[tokio::test]
async fn a_season_of_three_rated_tournaments_seeds_its_final() {
    let app = spawn_app().await;
    let api = app.api();
    let org = app.new_organizer("season_org").await;
    let players = eight_players(&app, "season").await;

    // Only an organizer creates a season, and only a scale that never rises.
    let body = json!({"name": "Club series", "points": POINTS, "best": BEST});
    let refused = api
        .post("/v1/seasons", &players[0].token, Some(&body))
        .await;
    expect_problem(refused, StatusCode::FORBIDDEN, "forbidden").await;
    let rising = json!({"name": "Club series", "points": [1, 2]});
    let refused = api.post("/v1/seasons", &org.token, Some(&rising)).await;
    expect_problem(
        refused,
        StatusCode::UNPROCESSABLE_ENTITY,
        "validation_failed",
    )
    .await;
    let created = api.post("/v1/seasons", &org.token, Some(&body)).await;
    let season = Api::json_ok(created, StatusCode::CREATED, "a season").await["id"]
        .as_i64()
        .expect("an id");
    let add = |tournament: i64| json!({"command": "add_tournament", "tournament": tournament});
    let commands = format!("/v1/seasons/{season}/commands");
    let refused = api.post(&commands, &org.token, Some(&add(987_654))).await;
    expect_problem(
        refused,
        StatusCode::UNPROCESSABLE_ENTITY,
        "unknown_tournament",
    )
    .await;

    // Three rated tournaments; the first is left open for a correction at the end.
    let mut archives = Vec::new();
    let mut first_tables = Vec::new();
    let mut members = Vec::new();
    for (k, (name, order)) in [
        ("Spring cup", as_seated as fn(&[i64]) -> Vec<i64>),
        ("Summer cup", reversed),
        ("Autumn cup", rotated),
    ]
    .into_iter()
    .enumerate()
    {
        let (id, tables) =
            paper_tournament(&api, &org, &players, name, json!({}), order, k > 0).await;
        let added = api.post(&commands, &org.token, Some(&add(id))).await;
        Api::json_ok(added, StatusCode::OK, "a member added").await;
        if k == 0 {
            first_tables = tables;
        }
        members.push(id);
        archives.push(archive(&api, id, &org.token).await);
        let list = server_list(&app, "").await;
        assert_eq!(list["games"], json!(3 * (k + 1)));
        assert_same(&list, &recomputed(&archives, &[]));
    }
    let refused = api
        .post(&commands, &org.token, Some(&add(members[1])))
        .await;
    expect_problem(refused, StatusCode::CONFLICT, "already_in_season").await;

    // An unfinished member does not count yet.
    let response = app.get(&format!("/v1/seasons/{season}"), None).await;
    let shown = Api::json_ok(response, StatusCode::OK, "the season").await;
    let counts: Vec<Value> = shown["tournaments"]
        .as_array()
        .expect("members")
        .iter()
        .map(|m| m["counts"].clone())
        .collect();
    assert_eq!(counts, vec![json!(false), json!(true), json!(true)]);

    // The correction: the first tournament's first table finished the other way round;
    // every later game is re-rated, the same way on both sides.
    let before = server_list(&app, "").await;
    let (table, seats) = &first_tables[0];
    let standings: Vec<Value> = reversed(seats)
        .iter()
        .enumerate()
        .map(|(i, p)| json!({"player": p, "total": 20 * i + 10, "place": i + 1}))
        .collect();
    api.accepted(
        members[0],
        &org.token,
        &json!({"command": "correct_result", "table": table, "reason": "sheet read upside down",
                "input": {"source": "game", "standings": standings}}),
    )
    .await;
    api.accepted(members[0], &org.token, &json!({"command": "finish"}))
        .await;
    archives[0] = archive(&api, members[0], &org.token).await;
    let corrected = server_list(&app, "").await;
    assert_same(&corrected, &recomputed(&archives, &[]));
    for ((player, was), (_, is)) in mu_by_player(&before)
        .into_iter()
        .zip(mu_by_player(&corrected))
    {
        assert!((was - is).abs() > 1e-6, "player {player}: {was} then {is}");
    }

    // The standings, from the server and from the archives alone.
    let response = app
        .get(&format!("/v1/seasons/{season}/standings"), None)
        .await;
    let server = Api::json_ok(response, StatusCode::OK, "the standings").await;
    assert_eq!(server["counted_tournaments"], json!(members));
    let points: Vec<String> = POINTS.iter().map(u32::to_string).collect();
    let (ok, python) = seasons_py(
        &[
            "--points".into(),
            points.join(","),
            "--best".into(),
            BEST.to_string(),
        ],
        &archives.iter().collect::<Vec<_>>(),
    );
    assert!(ok, "{python:#}");
    assert_eq!(
        comparable(&server["standings"]),
        comparable(&python["standings"]),
        "server {server:#}\nseasons.py {python:#}"
    );
    let best_first: Vec<i64> = server["standings"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| r["player"].as_i64().expect("id"))
        .collect();
    assert_eq!(best_first.len(), 8, "everyone played");
    let csv = app
        .get(&format!("/v1/seasons/{season}/standings?format=csv"), None)
        .await;
    assert_eq!(csv.status(), StatusCode::OK);
    let csv = csv.text().await.expect("CSV");
    assert!(
        csv.starts_with(&format!(
            "place,player,username,total,t{}_place",
            members[0]
        )),
        "{csv}"
    );
    assert_eq!(csv.lines().count(), 9, "{csv}");

    // The final: a season that does not exist is refused, and the final cannot join
    // the season that seeds it.
    let final_config = |season: i64| {
        json!({"name": "Season final", "rules": {"preset": "belgian"}, "capacity": 8,
               "config": {"qualification_rounds": 1, "table_min": 4, "table_max": 4,
                          "seeding": "season", "season": season}})
    };
    let refused = api
        .post(
            "/v1/tournaments",
            &org.token,
            Some(&final_config(season + 1000)),
        )
        .await;
    expect_problem(refused, StatusCode::UNPROCESSABLE_ENTITY, "unknown_season").await;
    let final_id = api
        .checked_in_tournament(&org, &[], &players, &final_config(season))
        .await;
    let refused = api.post(&commands, &org.token, Some(&add(final_id))).await;
    expect_problem(refused, StatusCode::CONFLICT, "final_in_its_season").await;
    api.accepted(
        final_id,
        &org.token,
        &json!({"command": "start_qualification"}),
    )
    .await;
    api.draw(final_id, &org.token, &json!({"paper_tables": [1, 2]}))
        .await;
    let stages = api.tournament_read(final_id, "/stages", &org.token).await;
    assert_snaked(&stages, &best_first);
    for (table, seats) in tables_of(&stages, 1, 1) {
        api.record_order(final_id, &org.token, &table, &seats).await;
    }
    api.finish_with_a_paper_final(final_id, &org.token).await;

    let seeded = archive(&api, final_id, &org.token).await;
    let started = tournament_payload(&seeded, "stage_started.v1");
    assert_eq!(started["seeding"]["procedure"], "yaniv-season/1");
    assert_eq!(started["seeding"]["order"], json!(best_first));
    assert_eq!(
        started["seeding"]["season"],
        json!({"season": season, "points": POINTS, "best": BEST, "tournaments": members})
    );
    let (status, verdict) = verify_offline(&seeded);
    assert_eq!(status, 0, "{verdict:#}");
    let mut with_members: Vec<&Value> = vec![&seeded];
    with_members.extend(archives.iter());
    let (ok, verdict) = seasons_py(&["--seeding".into()], &with_members);
    assert!(ok, "{verdict:#}");

    // Two seeds swapped: the standings disagree (judged without the chain check, which
    // would stop at the edit first) and the Rust verifier finds the draw no longer
    // follows.
    let forged = with_first_seeds_swapped(&seeded, final_id);
    let mut forged_members: Vec<&Value> = vec![&forged];
    forged_members.extend(archives.iter());
    let (ok, verdict) = seasons_py(&["--no-verify".into(), "--seeding".into()], &forged_members);
    assert!(!ok, "{verdict:#}");
    assert_eq!(verdict["ok"], false, "{verdict:#}");
    let (status, _) = verify_offline(&forged);
    assert_ne!(status, 0);

    // The season's stream says who did what.
    let response = app.get(&format!("/v1/seasons/{season}/events"), None).await;
    let events = Api::json_ok(response, StatusCode::OK, "the season's events").await;
    let types: Vec<&str> = events["events"]
        .as_array()
        .expect("events")
        .iter()
        .map(|e| e["type"].as_str().expect("a type"))
        .collect();
    assert_eq!(
        types,
        vec![
            "season_created.v1",
            "season_tournament_added.v1",
            "season_tournament_added.v1",
            "season_tournament_added.v1"
        ]
    );
}

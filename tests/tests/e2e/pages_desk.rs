//! The organizer's desk in a real browser: an 8-player event run end to end from the
//! desk pages only. The organizer logs in through the page, checks players in at the
//! door (a search, then one click each), registers a walk-in by name, starts the
//! qualification, draws a round on paper, types in both score sheets (the rules
//! scoring each line), corrects one, advances to the final, enters it and finishes; a
//! refused step shows the server's reason, and a spectator's public standings take
//! each result within a second. Every change goes through the REST API from the
//! page's script; the test reads the results through the API.

use std::time::Duration;

use serde_json::json;
use yaniv_domain::rules::Preset;
use yaniv_e2e_tests::browser::Browser;
use yaniv_e2e_tests::desk::{clear_status, desk_done, enter_sheet, js};
use yaniv_e2e_tests::spawn_app;

const WAIT: Duration = Duration::from_secs(10);

/// The visible rows of the registration list as (name, state).
async fn rows(browser: &Browser) -> Vec<(String, String)> {
    let rows = browser
        .eval(
            "Array.from(document.querySelectorAll('[data-desk-players] tbody tr'))\
             .filter(r => !r.hidden).map(r => [r.cells[1].innerText, r.cells[2].innerText])",
        )
        .await;
    rows.as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r[0].as_str().unwrap().to_owned(),
                r[1].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

#[tokio::test]
async fn an_organizer_checks_players_in_and_draws_from_the_desk() {
    let app = spawn_app().await;
    let api = app.api();
    let org = app.new_organizer("desk_org").await;
    let mut players = Vec::new();
    for name in [
        "ans_k", "bert_v", "carla_d", "daan_m", "eva_s", "frank_t", "greet_l",
    ] {
        players.push(app.new_player(name).await);
    }
    let walk_in = app.new_player("walkin_w").await;
    let rules = Preset::Belgian.rules();
    // The desk asks for a log-in first, then comes back.
    let browser = Browser::launch(1280, 900).await;
    browser.goto(&app.url("/desk")).await;
    browser
        .wait_until("location.pathname === '/desk/login'", WAIT)
        .await;
    browser.check_page("desk-login").await;
    browser.log_in("desk_org", "/desk").await;
    browser
        .wait_until(
            "document.querySelector('[data-desk-user]').innerText.includes('desk_org')",
            WAIT,
        )
        .await;
    browser.check_page("desk-home").await;

    // A tournament from a preset, then its desk page.
    browser.type_into("#t-name", "Desk cup").await;
    browser
        .eval("(() => { document.querySelector('#t-preset').value = 'belgian'; })()")
        .await;
    for (field, value) in [
        ("#t-capacity", "12"),
        ("#t-rounds", "1"),
        ("#t-min", "4"),
        ("#t-max", "4"),
    ] {
        browser
            .eval(&format!("document.querySelector('{field}').value = ''"))
            .await;
        browser.type_into(field, value).await;
    }
    // An official championship: paper results round by round, never totals alone.
    browser.click("#t-rounds-required").await;
    // Its first round seeded by the rating list, the rest of the day as usual.
    browser.click("#t-seeded").await;
    browser.click("form[data-desk-create] button").await;
    browser
        .wait_until(
            "location.pathname.startsWith('/desk/t/') && document.readyState === 'complete'",
            WAIT,
        )
        .await;
    let id: i64 = browser
        .eval("Number(location.pathname.split('/').pop())")
        .await
        .as_i64()
        .unwrap();
    let created = api.tournament_read(id, "", &org.token).await;
    assert_eq!(created["tournament"]["name"], "Desk cup");
    assert_eq!(created["tournament"]["rules"]["preset"], "belgian");
    assert_eq!(created["tournament"]["config"]["table_max"], 4);
    assert_eq!(created["tournament"]["config"]["rounds_required"], true);
    assert_eq!(created["tournament"]["config"]["seeding"], "rating");
    // Rated, as every tournament is unless made a friendly (left out when true).
    assert_eq!(created["tournament"]["config"].get("rated"), None);

    // The club's players, registered by name.
    for p in &players {
        browser.type_into("#register", &p.name).await;
        browser.click("form[data-desk-register] button").await;
        browser
            .wait_until(
                &format!(
                    "Array.from(document.querySelectorAll('[data-desk-players] tbody th')).some(t => t.innerText === {})",
                    js(&p.name)
                ),
                WAIT,
            )
            .await;
    }
    assert_eq!(rows(&browser).await.len(), 7);
    browser.check_page("desk-registration").await;

    // At the door: the search narrows the list as one types; one click checks in.
    browser.type_into("#q", "CARL").await;
    assert_eq!(
        rows(&browser).await,
        [("carla_d".to_owned(), "not checked in".to_owned())]
    );
    browser
        .click("[data-desk-players] tbody tr:not([hidden]) button[data-command*='check_in']:not([data-command*='undo'])")
        .await;
    browser
        .wait_until(
            "Array.from(document.querySelectorAll('[data-desk-players] tbody tr'))\
             .some(r => !r.hidden && r.innerText.includes('carla_d') && r.innerText.includes('checked in') && !r.innerText.includes('not'))",
            WAIT,
        )
        .await;
    // The search survives the refresh; clear it and check everyone else in.
    browser
        .eval("(() => { const q = document.querySelector('#q'); q.value = ''; q.dispatchEvent(new Event('input')); })()")
        .await;
    for _ in 0..6 {
        let left = browser
            .eval("document.querySelectorAll(\"button[data-command*='check_in']:not([data-command*='undo'])\").length")
            .await
            .as_u64()
            .unwrap();
        browser
            .click("button[data-command*='check_in']:not([data-command*='undo'])")
            .await;
        browser
            .wait_until(
                &format!(
                    "document.querySelectorAll(\"button[data-command*='check_in']:not([data-command*='undo'])\").length === {}",
                    left - 1
                ),
                WAIT,
            )
            .await;
    }

    // A walk-in, registered by name, then checked in.
    browser.type_into("#register", "walkin_w").await;
    browser.click("form[data-desk-register] button").await;
    browser
        .wait_until(
            &format!("document.body.innerText.includes({})", js("walkin_w")),
            WAIT,
        )
        .await;
    browser
        .click("button[data-command*='check_in']:not([data-command*='undo'])")
        .await;
    browser
        .wait_until(
            "document.querySelectorAll(\"button[data-command*='check_in']:not([data-command*='undo'])\").length === 0",
            WAIT,
        )
        .await;
    let listed = api.tournament_read(id, "/players", &org.token).await;
    let listed = listed["players"].as_array().unwrap();
    assert_eq!(listed.len(), 8);
    assert!(listed.iter().all(|p| p["checked_in"] == true), "{listed:?}");
    assert!(listed.iter().any(|p| p["player"] == walk_in.id));

    // A step the server refuses shows its reason, and changes nothing.
    let version = api.tournament_read(id, "", &org.token).await["version"].clone();
    clear_status(&browser).await;
    browser
        .click("button[data-command*='start_qualification']")
        .await;
    browser
        .wait_until(
            "document.querySelector('[data-desk-status]').innerText !== ''",
            WAIT,
        )
        .await;
    let started = api.tournament_read(id, "", &org.token).await;
    assert_eq!(started["tournament"]["phase"], "qualification");
    assert_ne!(started["version"], version);
    browser
        .wait_until("document.querySelector('[data-desk-draw]') !== null", WAIT)
        .await;
    clear_status(&browser).await;
    browser.click("button[data-command*='finish']").await;
    browser
        .wait_until(
            "document.querySelector('[data-desk-status].problem') !== null",
            WAIT,
        )
        .await;
    let shown = browser
        .eval("document.querySelector('[data-desk-status]').innerText")
        .await;
    assert!(
        shown.as_str().unwrap().contains("final"),
        "the server's reason: {shown}"
    );
    // Finishing asks first (it cannot be undone); the browser logs the refused request
    // itself; nothing else went wrong.
    assert!(
        browser
            .dialogs()
            .iter()
            .any(|d| d.contains("publish the final ranking")),
        "{:?}",
        browser.dialogs()
    );
    let logged = browser.take_errors();
    assert!(
        logged.len() == 1 && logged[0].contains("409"),
        "{logged:#?}"
    );

    // The draw: both tables on paper.
    clear_status(&browser).await;
    browser.type_into("#paper", "1, 2").await;
    browser.click("form[data-desk-draw] button").await;
    desk_done(&browser).await;
    let stages = api.tournament_read(id, "/stages", &org.token).await;
    let tables: Vec<Vec<i64>> = stages["stages"][0]["rounds"][0]["tables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            assert!(t["game"].is_null(), "on paper: {t}");
            t["players"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p.as_i64().unwrap())
                .collect()
        })
        .collect();
    assert_eq!(tables.len(), 2);
    browser.check_page("desk-drawn").await;

    // A spectator follows the standings on the public page while the sheets come in.
    let spectator = Browser::launch(1280, 900).await;
    spectator
        .goto(&app.url(&format!("/t/{id}/standings")))
        .await;
    spectator
        .wait_until(
            "document.documentElement.dataset.following === 'true'",
            WAIT,
        )
        .await;
    spectator.eval("window.stayed = true").await;

    // Both sheets typed in at the desk; the spectator sees each result within a second.
    let desk_url = app.url(&format!("/desk/t/{id}"));
    let mut orders = Vec::new();
    for (k, seats) in tables.iter().enumerate() {
        let link = format!("a[data-sheet-link][href$='/{}']", k + 1);
        let order = enter_sheet(&browser, &desk_url, Some(&link), seats, None, &rules).await;
        let winner = players_name(&players, &walk_in, order[0]);
        let took = spectator
            .wait_until(
                &format!(
                    "window.stayed === true && Array.from(document.querySelectorAll('tbody tr'))\
                     .some(r => r.innerText.includes({}) && r.innerText.includes('100.00'))",
                    js(&winner)
                ),
                WAIT,
            )
            .await;
        assert!(took < Duration::from_secs(1), "table {}: {took:?}", k + 1);
        orders.push(order);
    }
    assert_eq!(
        browser
            .eval("document.querySelector('[data-totals-form]') === null")
            .await,
        json!(true),
        "no totals-only entry where the rounds are required"
    );
    browser.check_page("desk-sheet").await;

    // The final: the next stage, its table drawn on paper, its sheet, the finish.
    browser.goto(&desk_url).await;
    clear_status(&browser).await;
    browser.click("button[data-command*='advance_stage']").await;
    desk_done(&browser).await;
    // The page takes the new phase before anything else is clicked.
    browser
        .wait_until(
            "document.querySelector('[data-live]').innerText.includes('knockout')",
            WAIT,
        )
        .await;
    clear_status(&browser).await;
    browser.type_into("#paper", "1").await;
    browser.click("form[data-desk-draw] button").await;
    desk_done(&browser).await;
    let stages = api.tournament_read(id, "/stages", &org.token).await;
    let final_round = &stages["stages"][1]["rounds"][0];
    assert_eq!(final_round["final_table"], true);
    let first_finalists: Vec<i64> = final_round["tables"][0]["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_i64().unwrap())
        .collect();
    assert!(
        first_finalists.contains(&orders[0][0]),
        "table 1's first winner made the cut"
    );
    // A correction of round 1 after the final was drawn: table 1's sheet entered
    // again, another way round, with a reason. It changes who made the cut, so the
    // desk shows the final's draw to review, and the organizer draws it again.
    let mut turned = tables[0].clone();
    turned.rotate_left(1);
    let sheet_one = app.url(&format!("/desk/t/{id}/tables/1/1/1"));
    let corrected = enter_sheet(
        &browser,
        &sheet_one,
        None,
        &turned,
        Some("seats swapped on the sheet"),
        &rules,
    )
    .await;
    assert_ne!(corrected, orders[0]);
    let stages = api.tournament_read(id, "/stages", &org.token).await;
    let table_one = &stages["stages"][0]["rounds"][0]["tables"][0];
    assert_eq!(table_one["corrections"], 1);
    let first: Vec<i64> = table_one["result"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["player"].as_i64().unwrap())
        .collect();
    assert_eq!(first, corrected);
    let interventions = api.tournament_read(id, "/interventions", &org.token).await;
    assert!(
        interventions
            .to_string()
            .contains("seats swapped on the sheet"),
        "{interventions}"
    );

    let flagged =
        api.tournament_read(id, "", &org.token).await["tournament"]["flagged_rounds"].clone();
    assert_eq!(flagged, json!([{"stage": 2, "round": 1}]));
    browser.goto(&desk_url).await;
    browser
        .wait_until(
            "document.querySelector('section.flagged form[data-desk-redraw]') !== null",
            WAIT,
        )
        .await;
    browser.check_page("desk-flagged").await;
    clear_status(&browser).await;
    browser
        .type_into(
            "section.flagged input[name='reason']",
            "the cut changed after a correction",
        )
        .await;
    browser
        .type_into("section.flagged input[name='paper']", "1")
        .await;
    browser.click("section.flagged button").await;
    desk_done(&browser).await;
    let stages = api.tournament_read(id, "/stages", &org.token).await;
    let redrawn = &stages["stages"][1]["rounds"][0];
    assert_eq!(redrawn["redraws"], 1);
    assert_eq!(redrawn["flagged"], false);
    let finalists: Vec<i64> = redrawn["tables"][0]["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_i64().unwrap())
        .collect();
    assert!(finalists.contains(&corrected[0]) && !finalists.contains(&corrected[3]));

    let final_order = enter_sheet(
        &browser,
        &desk_url,
        Some("a[data-sheet-link][href$='/1']"),
        &finalists,
        None,
        &rules,
    )
    .await;
    browser.goto(&desk_url).await;
    clear_status(&browser).await;
    browser.click("button[data-command*='finish']").await;
    desk_done(&browser).await;
    let ranking = api.tournament_read(id, "/ranking", &org.token).await;
    assert_eq!(ranking["published"], true);
    assert_eq!(ranking["ranking"]["ranking"][0]["player"], final_order[0]);
    let champion = players_name(&players, &walk_in, final_order[0]);
    spectator.goto(&app.url(&format!("/t/{id}/ranking"))).await;
    let shown = spectator.text().await;
    assert!(
        shown.contains(&format!("1\t{champion}")),
        "the champion first: {shown}"
    );
    spectator.check_page("tournament-ranking-final").await;
    browser.check_page("desk-finished").await;
}

/// The name of account `id` among the test's players.
fn players_name(
    players: &[yaniv_e2e_tests::tables::Player],
    walk_in: &yaniv_e2e_tests::tables::Player,
    id: i64,
) -> String {
    players
        .iter()
        .chain([walk_in])
        .find(|p| p.id == id)
        .map(|p| p.name.clone())
        .expect("a player of the test")
}

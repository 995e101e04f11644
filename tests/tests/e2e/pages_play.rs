//! The reference game client in a real browser, phone-sized: a player logs in, starts
//! a table against two bots from `/play`, and plays the game to its end by clicking
//! cards and moves on the page. Each move is one the rules list as legal in the
//! player's view; the page must mark those cards, send the move through the REST API,
//! and follow the table's stream to the next turn.

use std::time::Duration;

use serde_json::json;
use yaniv_e2e_tests::browser::Browser;
use yaniv_e2e_tests::spawn_app;
use yaniv_e2e_tests::tables::choose;

const WAIT: Duration = Duration::from_secs(15);

#[tokio::test]
async fn a_player_plays_bots_to_the_end_on_a_phone() {
    let app = spawn_app().await;
    let api = app.api();
    let player = app.new_player("pia_play").await;
    let browser = Browser::launch(390, 844).await;

    // /play asks for a log-in, then comes back.
    browser.goto(&app.url("/play")).await;
    browser.log_in("pia_play", "/play").await;
    // The player's own tables are drawn above the form: wait until nothing moves.
    browser
        .wait_until(
            "document.querySelector('[data-play-mine]').dataset.loaded === 'true'",
            WAIT,
        )
        .await;
    browser.check_page("play-new-table").await;
    browser
        .eval("(() => { const p = document.querySelector('#preset'); p.value = 'israeli'; })()")
        .await;
    browser.click("form[data-play-create] button").await;
    browser
        .wait_until(
            "location.pathname.startsWith('/play/tables/') && document.querySelectorAll('[data-play-hand] button').length > 0",
            WAIT,
        )
        .await;
    let id: i64 = browser
        .eval("Number(location.pathname.split('/').pop())")
        .await
        .as_i64()
        .unwrap();
    browser.check_page("play-table").await;
    // The bots are named in words, not by their stored names (`greedy#2`).
    let seats = browser
        .eval("Array.from(document.querySelectorAll('[data-play-seats] li')).map(li => li.innerText.split(' — ')[0])")
        .await;
    assert_eq!(
        seats,
        json!(["pia_play", "Bot 2 (greedy)", "Bot 3 (greedy)"]),
        "{seats}"
    );
    assert_eq!(
        browser
            .eval("document.documentElement.scrollWidth <= window.innerWidth")
            .await,
        json!(true),
        "nothing wider than the phone"
    );

    // The game, move by move through the page.
    let mut moves = 0;
    loop {
        let view = api.view(id, &player.token).await;
        let version = view["table"]["version"].as_u64().unwrap();
        browser
            .wait_until(
                &format!(
                    "document.querySelector('[data-play-table]').dataset.version === '{version}'"
                ),
                WAIT,
            )
            .await;
        if view["table"]["status"] == "finished" {
            break;
        }
        let Some(action) = choose(&view) else {
            // Not our turn: the stream brings the next one.
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        };
        match action["type"].as_str().unwrap() {
            "call" => browser.click("button[data-action='call']").await,
            "go_along" => {
                let which = if action["going"] == true {
                    "go_along"
                } else {
                    "stay_out"
                };
                browser
                    .click(&format!("button[data-action='{which}']"))
                    .await;
            }
            "onderkluft" => {
                let which = if action["challenge"] == true {
                    "challenge"
                } else {
                    "no_challenge"
                };
                browser
                    .click(&format!("button[data-action='{which}']"))
                    .await;
            }
            "play" => browser.play_turn(&view, &action).await,
            other => panic!("unexpected move {other}"),
        }
        moves += 1;
        assert!(moves < 1000, "the game does not end");
        // The move is stored before the next view is read.
        let deadline = tokio::time::Instant::now() + WAIT;
        while api.view(id, &player.token).await["table"]["version"]
            .as_u64()
            .unwrap()
            == version
        {
            if tokio::time::Instant::now() >= deadline {
                let shown = browser
                    .eval("document.querySelector('[data-desk-status]').innerText + ' | ' + document.querySelector('[data-play-actions]').innerHTML")
                    .await;
                panic!(
                    "the move {action} was not sent: {shown} {:?}",
                    browser.take_errors()
                );
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
    }
    assert!(moves > 3, "{moves} moves");
    browser
        .wait_until(
            "document.querySelector('[data-play-status]').innerText.includes('over')",
            WAIT,
        )
        .await;
    browser.check_page("play-finished").await;
    let summary = api.summary(id, &player.token).await;
    assert_eq!(summary["status"], "finished");
}

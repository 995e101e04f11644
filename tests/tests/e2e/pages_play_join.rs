//! The reference game client between humans, in real browsers, phone-sized: a table
//! created on `/play` for two players is listed to another player, who joins it (and
//! leaves, and joins again from the table's own page); the creator's page follows
//! without a reload and starts the game. Then a game under house rules is played to
//! its end on the page, with the out-of-turn moves (slap-downs, add-ons) clicked
//! whenever the view lists them; a window the clock holds open is passed; and a call
//! the rules penalise is asked first.

use std::time::Duration;

use serde_json::{Value, json};
use yaniv_e2e_tests::browser::Browser;
use yaniv_e2e_tests::tables::{Api, Player, choose};
use yaniv_e2e_tests::{TestApp, spawn_app};

const WAIT: Duration = Duration::from_secs(15);

/// A phone-sized browser logged in as `name` (whose password is the test app's
/// `password-of-<name>`), on `path`.
async fn logged_in(app: &TestApp, name: &str, path: &str) -> Browser {
    let browser = Browser::launch(390, 844).await;
    browser.goto(&app.url(path)).await;
    browser.log_in(name, path).await;
    if path == "/play" {
        settled(&browser).await;
    }
    browser
}

/// Waits until `/play` has drawn the player's own tables, above the rest of the page,
/// so that nothing moves under a click.
async fn settled(browser: &Browser) {
    browser
        .wait_until(
            "document.querySelector('[data-play-mine]').dataset.loaded === 'true'",
            WAIT,
        )
        .await;
}

async fn fits_the_phone(browser: &Browser, what: &str) {
    assert_eq!(
        browser
            .eval("document.documentElement.scrollWidth <= window.innerWidth")
            .await,
        json!(true),
        "{what}: nothing wider than the phone"
    );
}

/// Fills in `/play`'s form and sends it; the new table's id, once its page is open.
async fn create_on_page(browser: &Browser, preset: &str, humans: u8, bots: u8) -> i64 {
    browser
        .eval(&format!(
            "(() => {{ document.querySelector('#preset').value = '{preset}'; \
             document.querySelector('#humans').value = '{humans}'; \
             document.querySelector('#bots').value = '{bots}'; }})()"
        ))
        .await;
    browser.click("form[data-play-create] button").await;
    browser
        .wait_until(
            "location.pathname.startsWith('/play/tables/') && \
             document.querySelector('[data-play-table]').dataset.status === 'open'",
            WAIT,
        )
        .await;
    browser
        .eval("Number(location.pathname.split('/').pop())")
        .await
        .as_i64()
        .expect("the table's id in the address")
}

fn seat_line(seat: usize) -> String {
    format!(
        "((document.querySelector(\"[data-play-seats] li[data-seat='{seat}']\") || {{}}).textContent || '')"
    )
}

#[tokio::test]
async fn two_players_meet_at_a_table_through_the_pages() {
    let app = spawn_app().await;
    let api = app.api();
    let pia = app.new_player("pia_host").await;
    let bob = app.new_player("bob_guest").await;

    // Pia opens a table for two humans, without bots; it waits for a player.
    let host = logged_in(&app, "pia_host", "/play").await;
    host.wait_until(
        "document.querySelector('[data-play-open-none]').hidden === false",
        WAIT,
    )
    .await;
    host.check_page("play-home-empty").await;
    let id = create_on_page(&host, "israeli", 2, 0).await;
    host.wait_until("!!document.querySelector(\"[data-lobby='start']\")", WAIT)
        .await;
    assert_eq!(
        host.eval("document.querySelector(\"[data-lobby='start']\").disabled")
            .await,
        json!(true),
        "no start while a seat is free"
    );
    assert!(host.text().await.contains("pia_host (you)"));
    host.check_page("play-lobby-waiting").await;
    fits_the_phone(&host, "the lobby").await;

    // Bob finds it on /play and joins it.
    let guest = logged_in(&app, "bob_guest", "/play").await;
    let join = format!("[data-open-table='{id}'] button[data-join]");
    guest
        .wait_until(&format!("!!document.querySelector(\"{join}\")"), WAIT)
        .await;
    let listed = guest
        .eval(&format!(
            "document.querySelector(\"[data-open-table='{id}']\").innerText"
        ))
        .await;
    let listed = listed.as_str().unwrap_or_default();
    assert!(
        listed.contains("Israeli") && listed.contains("pia_host") && listed.contains("1/2"),
        "{listed}"
    );
    guest.check_page("play-home-listed").await;
    fits_the_phone(&guest, "the list").await;
    guest.click(&join).await;
    guest
        .wait_until(
            &format!(
                "location.pathname === '/play/tables/{id}' && !!document.querySelector(\"[data-lobby='leave']\")"
            ),
            WAIT,
        )
        .await;
    assert_eq!(
        guest
            .eval("!!document.querySelector(\"[data-lobby='start']\")")
            .await,
        json!(false),
        "only the creator (or an organizer) may start"
    );
    guest.check_page("play-lobby-joined").await;

    // Pia's page shows Bob without a reload, and lets her start.
    host.wait_until(&format!("{}.includes('bob_guest')", seat_line(1)), WAIT)
        .await;
    host.wait_until(
        "document.querySelector(\"[data-lobby='start']\").disabled === false",
        WAIT,
    )
    .await;

    // Bob leaves (back to /play), and Pia's page frees the seat again.
    guest.click("[data-lobby='leave']").await;
    guest
        .wait_until(
            "location.pathname === '/play' && document.readyState === 'complete'",
            WAIT,
        )
        .await;
    host.wait_until(&format!("!{}.includes('bob_guest')", seat_line(1)), WAIT)
        .await;
    assert_eq!(api.summary(id, &pia.token).await["free_seats"], 1);

    // Opened by someone not seated, the table's page offers to join.
    guest.goto(&app.url(&format!("/play/tables/{id}"))).await;
    guest
        .wait_until("!!document.querySelector(\"[data-lobby='join']\")", WAIT)
        .await;
    assert_eq!(
        guest
            .eval("!!document.querySelector(\"[data-lobby='leave']\")")
            .await,
        json!(false)
    );
    guest.check_page("play-lobby-visitor").await;
    guest.click("[data-lobby='join']").await;
    guest
        .wait_until("!!document.querySelector(\"[data-lobby='leave']\")", WAIT)
        .await;
    host.wait_until(&format!("{}.includes('bob_guest')", seat_line(1)), WAIT)
        .await;

    // Pia starts; both pages turn into the game.
    host.wait_until(
        "document.querySelector(\"[data-lobby='start']\").disabled === false",
        WAIT,
    )
    .await;
    host.click("[data-lobby='start']").await;
    for (browser, name) in [(&host, "play-joined-host"), (&guest, "play-joined-guest")] {
        browser
            .wait_until(
                "document.querySelector('[data-play-table]').dataset.status === 'playing' && \
                 document.querySelectorAll('[data-play-hand] button').length === 5 && \
                 document.querySelector('[data-play-lobby]').hidden",
                WAIT,
            )
            .await;
        browser.check_page(name).await;
        fits_the_phone(browser, name).await;
    }
    let summary = api.summary(id, &bob.token).await;
    assert_eq!(summary["status"], "playing");
    assert_eq!(summary["seats"][1]["username"], "bob_guest");
}

/// Waits until the page shows `version`.
async fn shows_version(browser: &Browser, version: u64) {
    browser
        .wait_until(
            &format!("document.querySelector('[data-play-table]').dataset.version === '{version}'"),
            WAIT,
        )
        .await;
}

/// Waits until the table has moved past `version` (the click was sent and stored).
async fn moved_past(
    api: &Api,
    browser: &Browser,
    id: i64,
    player: &Player,
    what: &Value,
    version: u64,
) {
    let deadline = tokio::time::Instant::now() + WAIT;
    while api.view(id, &player.token).await["table"]["version"]
        .as_u64()
        .unwrap_or_default()
        == version
    {
        if tokio::time::Instant::now() >= deadline {
            let shown = browser
                .eval("document.querySelector('[data-desk-status]').innerText + ' | ' + document.querySelector('[data-play-actions]').innerHTML")
                .await;
            panic!(
                "the move {what} was not sent: {shown} {:?}",
                browser.take_errors()
            );
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
}

/// Plays `player`'s moves through the API (`choose`) until `found` finds in their view
/// what the test waits for; answers that view and what was found. The game must not
/// end first.
async fn play_until<T>(
    api: &Api,
    id: i64,
    player: &Player,
    what: &str,
    mut found: impl FnMut(&Value) -> Option<T>,
) -> (Value, T) {
    for _ in 0..2_000 {
        let view = api.view(id, &player.token).await;
        if let Some(it) = found(&view) {
            return (view, it);
        }
        assert!(
            view["table"]["status"] != "finished",
            "no {what} came: {view}"
        );
        match choose(&view) {
            Some(action) => {
                let response = api.act(id, &player.token, &action, None).await;
                Api::json_ok(response, reqwest::StatusCode::OK, "a move").await;
            }
            None => tokio::time::sleep(Duration::from_millis(25)).await,
        }
    }
    panic!("no {what} came in 2,000 moves");
}

/// Clicks on the page the move `action` chose from `view`.
async fn click_move(browser: &Browser, view: &Value, action: &Value) {
    match action["type"].as_str().unwrap_or_default() {
        "call" => browser.click("button[data-action='call']").await,
        "play" => browser.play_turn(view, action).await,
        other => panic!("unexpected move {other}"),
    }
}

#[tokio::test]
async fn slap_downs_and_add_ons_are_played_on_the_page() {
    let app = spawn_app().await;
    let api = app.api();
    let pia = app.new_player("pia_house").await;
    let bob = app.new_player("bob_house").await;

    // House rules: slap-downs after a stock draw, add-ons to sets and runs, in one's
    // own turn too. Pia sits first, Bob (played here through the API) next, a bot
    // last: a slap-down is open to Pia until Bob throws, and the bot's throw is on the
    // pile at each of her turns, to add on to.
    let browser = logged_in(&app, "pia_house", "/play").await;
    let id = create_on_page(&browser, "house", 2, 1).await;
    api.join(id, &bob.token).await;
    browser
        .wait_until(
            "!!document.querySelector(\"[data-lobby='start']\") && \
             document.querySelector(\"[data-lobby='start']\").disabled === false",
            WAIT,
        )
        .await;
    browser.click("[data-lobby='start']").await;
    browser
        .wait_until(
            "document.querySelector('[data-play-table]').dataset.status === 'playing'",
            WAIT,
        )
        .await;

    let mut out_of_turn = std::collections::BTreeMap::<&str, usize>::new();
    let mut moves = 0;
    let mut checked = false;
    loop {
        let view = api.view(id, &pia.token).await;
        let version = view["table"]["version"].as_u64().expect("a version");
        shows_version(&browser, version).await;
        if view["table"]["status"] == "finished" {
            break;
        }
        moves += 1;
        assert!(moves < 3000, "the game does not end");
        let legal = &view["legal"];
        // Out of turn first, whenever the view lists a card to lay.
        if let Some(card) = legal["slap"].as_str() {
            let button = format!("button[data-action='slap'][data-card='{card}']");
            browser.click(&button).await;
            moved_past(&api, &browser, id, &pia, &json!({"slap": card}), version).await;
            *out_of_turn.entry("slap").or_default() += 1;
            continue;
        }
        if let Some(cards) = legal["add_ons"].as_array().and_then(|a| a.first()) {
            let cards: Vec<&str> = cards
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect();
            if !checked {
                browser.check_page("play-add-on").await;
                fits_the_phone(&browser, "an add-on").await;
                checked = true;
            }
            let button = format!(
                "button[data-action='add_on'][data-cards='{}']",
                cards.join(" ")
            );
            browser.click(&button).await;
            moved_past(&api, &browser, id, &pia, &json!({"add_on": cards}), version).await;
            *out_of_turn.entry("add_on").or_default() += 1;
            continue;
        }
        let to_act = view["game"]["to_act"].as_u64();
        if to_act == view["seat"].as_u64() {
            let action = choose(&view).expect("a legal move for Pia");
            click_move(&browser, &view, &action).await;
            moved_past(&api, &browser, id, &pia, &action, version).await;
        } else if to_act == Some(1) {
            let bobs = api.view(id, &bob.token).await;
            let action = choose(&bobs).expect("a legal move for Bob");
            let response = api.act(id, &bob.token, &action, None).await;
            Api::json_ok(response, reqwest::StatusCode::OK, "Bob's move").await;
        } else {
            // The bot moves with the move before it; a stale view: read again.
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
    }
    eprintln!("out-of-turn moves on the page: {out_of_turn:?} in {moves} steps");
    assert!(
        out_of_turn.values().sum::<usize>() > 0,
        "no slap-down or add-on was made on the page"
    );
    browser
        .wait_until(
            "document.querySelector('[data-play-status]').innerText.includes('over')",
            WAIT,
        )
        .await;
    browser.check_page("play-house-finished").await;
    // The server's record has them too.
    let events = api.events(id, &pia.token, 0).await;
    let laid = events
        .iter()
        .filter(|e| e["type"] == "slapped_down.v1" || e["type"] == "added_on.v1")
        .count();
    assert!(laid >= out_of_turn.values().sum::<usize>(), "{laid} laid");
}

#[tokio::test]
async fn a_penalised_call_is_asked_before_it_is_sent() {
    let app = spawn_app().await;
    let api = app.api();
    let pia = app.new_player("pia_belgian").await;
    // Belgian rules accept a call above the threshold, with a penalty.
    let body = json!({"preset": "belgian", "seats": 2, "bots": [{"seat": 1, "kind": "greedy"}]});
    let id = api.started_table(&body, std::slice::from_ref(&pia)).await;
    let browser = logged_in(&app, "pia_belgian", &format!("/play/tables/{id}")).await;
    // Pia's turn with a hand above the threshold (the deal nearly always gives one;
    // else she plays on through the API until it comes).
    let mut turns = 0;
    let view = loop {
        let view = api.view(id, &pia.token).await;
        let mine = view["game"]["to_act"] == view["seat"];
        if mine && view["legal"]["call_penalised"] == true {
            break view;
        }
        turns += 1;
        assert!(turns < 100, "no penalised call came up: {view}");
        if mine {
            let mut action = choose(&view).expect("a legal move");
            if action["type"] == "call" {
                // Throw rather than call: the test wants a call above the threshold.
                let throw = view["legal"]["throws"][0].clone();
                action = json!({"type": "play", "throw": throw, "draw": "stock"});
            }
            let response = api.act(id, &pia.token, &action, None).await;
            Api::json_ok(response, reqwest::StatusCode::OK, "Pia's move").await;
        } else {
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
    };
    let version = view["table"]["version"].as_u64().expect("a version");
    shows_version(&browser, version).await;
    browser.check_page("play-belgian-turn").await;
    browser.click("button[data-action='call']").await;
    // The browser accepts the question, as a player who means it would.
    moved_past(&api, &browser, id, &pia, &json!({"type": "call"}), version).await;
    let dialogs = browser.dialogs();
    assert_eq!(dialogs.len(), 1, "{dialogs:?}");
    assert!(dialogs[0].contains("penalty"), "{dialogs:?}");
    let events = api.events(id, &pia.token, version).await;
    assert!(
        events.iter().any(|e| e["type"] == "called.v1"),
        "{events:?}"
    );
}

#[tokio::test]
async fn a_held_window_is_passed_on_the_page() {
    let app = spawn_app().await;
    let api = app.api();
    let pia = app.new_player("pia_window").await;
    // A clock that holds the out-of-turn window after each throw for a minute: after
    // the bot's throw the table waits for Pia, who may add on, or pass.
    let body = json!({
        "preset": "house",
        "seats": 2,
        "bots": [{"seat": 1, "kind": "greedy"}],
        "clock": {"turn_ms": 600000, "decision_ms": 600000, "window_ms": 60000, "absent_after": 2},
    });
    let id = api.started_table(&body, std::slice::from_ref(&pia)).await;
    let browser = logged_in(&app, "pia_window", &format!("/play/tables/{id}")).await;
    let mut steps = 0;
    let view = loop {
        let view = api.view(id, &pia.token).await;
        if view["legal"]["pass"] == true {
            break view;
        }
        steps += 1;
        assert!(steps < 200, "no window was held for Pia: {view}");
        let legal = &view["legal"];
        let action = if let Some(card) = legal["slap"].as_str() {
            Some(json!({"type": "slap", "card": card}))
        } else if view["game"]["to_act"] == view["seat"] && view["clock"]["waiting_for"] != "window"
        {
            choose(&view)
        } else {
            None
        };
        match action {
            Some(action) => {
                let response = api.act(id, &pia.token, &action, None).await;
                Api::json_ok(response, reqwest::StatusCode::OK, "Pia's move").await;
            }
            None => tokio::time::sleep(Duration::from_millis(25)).await,
        }
    };
    let version = view["table"]["version"].as_u64().expect("a version");
    shows_version(&browser, version).await;
    browser.check_page("play-window-held").await;
    fits_the_phone(&browser, "a held window").await;
    browser.click("button[data-action='pass']").await;
    moved_past(&api, &browser, id, &pia, &json!({"type": "pass"}), version).await;
    // (The bot's next throw may hold a new window for her at once: the pass is
    // checked in the table's events, not in her view.)
    let events = api.events(id, &pia.token, version).await;
    assert!(
        events.iter().any(|e| e["type"] == "window_passed.v1"),
        "{events:?}"
    );
}

/// Player entropy on the page: a table that waits for its players' randomness says so,
/// and one click adds 32 bytes from the browser's generator; the deal follows.
#[tokio::test]
async fn the_page_adds_the_players_randomness_to_the_shuffle() {
    let app = spawn_app().await;
    let api = app.api();
    let eve = app.new_player("eve_fair").await;
    let body = json!({
        "preset": "israeli", "seats": 2, "player_entropy": true,
        "bots": [{"seat": 1, "kind": "greedy"}],
    });
    let table = api.started_table(&body, std::slice::from_ref(&eve)).await;
    let page = logged_in(&app, "eve_fair", &format!("/play/tables/{table}")).await;
    page.wait_until(
        "!!document.querySelector(\"[data-action='contribute']\")",
        WAIT,
    )
    .await;
    page.check_page("play-contribute").await;
    page.click("[data-action='contribute']").await;
    page.wait_until("document.querySelectorAll('[data-card]').length > 0", WAIT)
        .await;
    let events = api.events(table, &eve.token, 0).await;
    let mine = events
        .iter()
        .find(|e| e["type"] == "entropy_contributed.v1")
        .expect("the page contributed");
    let value = mine["payload"]["value"].as_str().expect("a value");
    assert_eq!(value.len(), 64);
    assert_ne!(
        value,
        "0".repeat(64),
        "the browser's random bytes, not the default"
    );
    fits_the_phone(&page, "the table after the deal").await;
}

/// The House Rules' bonus rules on the page: the status line says when a nine reversed
/// the turns (Southern hemisphere) and when a card lies aside for the next three
/// (Piñata), as the view does.
#[tokio::test]
async fn the_status_line_tells_a_reversed_turn_and_a_pinata_aside() {
    let app = spawn_app().await;
    let api = app.api();
    let pia = app.new_player("pia_bonus").await;
    let body = json!({
        "preset": "house",
        "overrides": {"bonus_rules": ["southern_hemisphere", "pinata"]},
        "seats": 4,
        "bots": [
            {"seat": 1, "kind": "greedy"},
            {"seat": 2, "kind": "greedy"},
            {"seat": 3, "kind": "greedy"},
        ],
    });
    let id = api.started_table(&body, std::slice::from_ref(&pia)).await;
    let browser = logged_in(&app, "pia_bonus", &format!("/play/tables/{id}")).await;
    // Pia plays through the API until a nine or a three left its mark on the table
    // (the bots throw them too); a whole game nearly always holds both.
    let (view, ()) = play_until(&api, id, &pia, "a nine or a three", |view| {
        let game = &view["game"];
        (game["reversed"] == true || game["pinata_aside"] == true).then_some(())
    })
    .await;
    let version = view["table"]["version"].as_u64().expect("a version");
    shows_version(&browser, version).await;
    browser.check_page("play-bonus-status").await;
    let status = browser
        .eval("document.querySelector('[data-play-status]').textContent")
        .await;
    let status = status.as_str().unwrap_or_default();
    if view["game"]["reversed"] == true {
        assert!(
            status.contains("A nine reversed the direction of play"),
            "{status}"
        );
    }
    if view["game"]["pinata_aside"] == true {
        assert!(
            status.contains("A card lies aside for the next three"),
            "{status}"
        );
    }
}

/// Crazy queens on the page: a throw holding a queen shows which card to give and to
/// whom (the seats the view lists), and the move sends that choice; the server then
/// takes one of that player's cards for the thrower, blindly.
#[tokio::test]
async fn a_crazy_queen_is_thrown_from_the_page_with_the_card_it_gives() {
    let app = spawn_app().await;
    let api = app.api();
    let pia = app.new_player("pia_queen").await;
    let body = json!({
        "preset": "house",
        "overrides": {"bonus_rules": ["crazy_queens"]},
        "seats": 3,
        "bots": [{"seat": 1, "kind": "greedy"}, {"seat": 2, "kind": "greedy"}],
    });
    let id = api.started_table(&body, std::slice::from_ref(&pia)).await;
    let browser = logged_in(&app, "pia_queen", &format!("/play/tables/{id}")).await;
    // Pia plays through the API until, at her turn, a throw with a queen leaves her
    // cards to give.
    let (view, throw) = play_until(&api, id, &pia, "a queen", |view| {
        let hand = view["hand"].as_array().map_or(0, Vec::len);
        let targets = view["legal"]["queen_targets"]
            .as_array()
            .map_or(0, Vec::len);
        view["legal"]["throws"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|t| {
                let cards = t.as_array().map(Vec::as_slice).unwrap_or_default();
                targets > 0
                    && cards.len() < hand
                    && cards
                        .iter()
                        .any(|c| c.as_str().is_some_and(|c| c.starts_with('Q')))
            })
            .cloned()
    })
    .await;
    let version = view["table"]["version"].as_u64().expect("a version");
    shows_version(&browser, version).await;
    // Choosing the throw's cards shows the swap's choices.
    let hand: Vec<String> = serde_json::from_value(view["hand"].clone()).expect("a hand");
    let throw: Vec<String> = serde_json::from_value(throw).expect("cards");
    let mut used = Vec::new();
    for card in &throw {
        let index = (0..hand.len())
            .find(|&i| hand[i] == *card && !used.contains(&i))
            .expect("in the hand");
        used.push(index);
        browser
            .click(&format!("[data-play-hand] button[data-index='{index}']"))
            .await;
    }
    browser
        .wait_until("!!document.querySelector('[data-queen-give]')", WAIT)
        .await;
    let give = (0..hand.len())
        .filter(|i| !used.contains(i))
        .map(|i| hand[i].clone())
        .next_back()
        .expect("a card left");
    let target = view["legal"]["queen_targets"]
        .as_array()
        .and_then(|t| t.last())
        .and_then(Value::as_u64)
        .expect("a target");
    browser
        .eval(&format!(
            "(function () {{ var g = document.querySelector('[data-queen-give]'); g.value = '{give}'; \
             g.dispatchEvent(new Event('change')); var t = document.querySelector('[data-queen-target]'); \
             t.value = '{target}'; t.dispatchEvent(new Event('change')); return true; }})()"
        ))
        .await;
    browser.check_page("play-crazy-queen").await;
    browser.click("button[data-action='throw-stock']").await;
    let action = json!({"throw": throw, "queen": {"target": target, "give": give}});
    moved_past(&api, &browser, id, &pia, &action, version).await;

    // Her stream shows the swap, with both cards: the one she chose to give, and the
    // one she received.
    let events = api.events(id, &pia.token, version).await;
    let swapped = events
        .iter()
        .find(|e| e["type"] == "queen_swapped.v1")
        .unwrap_or_else(|| panic!("no swap after version {version}: {events:?}"));
    let payload = &swapped["payload"];
    assert_eq!(payload["given"], json!(give), "{payload}");
    assert_eq!(payload["target"], json!(target), "{payload}");
    assert!(payload["taken"].is_string(), "{payload}");
}

/// Waterfall on the page: at the start of her turn the player may pass a straight to
/// her left with one click, and when one comes round to her she keeps a card with one
/// click; the page lists exactly what the view's `legal` offers. Deals are random, so
/// the test plays tables (at most five) until both came up.
#[tokio::test]
async fn a_waterfall_is_passed_and_a_card_kept_from_the_page() {
    let app = spawn_app().await;
    let api = app.api();
    let pia = app.new_player("pia_falls").await;
    let body = json!({
        "preset": "house",
        "overrides": {"bonus_rules": ["waterfall"]},
        "seats": 3,
        "bots": [{"seat": 1, "kind": "greedy"}, {"seat": 2, "kind": "greedy"}],
    });
    let (mut passed, mut kept) = (false, false);
    for _ in 0..5 {
        let id = api.started_table(&body, std::slice::from_ref(&pia)).await;
        let browser = logged_in(&app, "pia_falls", &format!("/play/tables/{id}")).await;
        let mut moves = 0;
        while !(passed && kept) && moves < 2_000 {
            moves += 1;
            let view = api.view(id, &pia.token).await;
            if view["table"]["status"] == "finished" {
                break;
            }
            let version = view["table"]["version"].as_u64().expect("a version");
            let legal = &view["legal"];
            let offer = legal["waterfall_pick"]
                .as_array()
                .cloned()
                .unwrap_or_default();
            let straights = legal["waterfalls"].as_array().cloned().unwrap_or_default();
            if !offer.is_empty() && !kept {
                shows_version(&browser, version).await;
                browser.check_page("play-waterfall-keep").await;
                let card = offer[0].as_str().expect("a card");
                let button = format!("button[data-action='waterfall_pick'][data-card='{card}']");
                browser.click(&button).await;
                moved_past(&api, &browser, id, &pia, &json!({"keep": card}), version).await;
                // Her stream records the card she kept (her hand may already be a new
                // round's: a bot may call as soon as the waterfall is over).
                let seat = view["seat"].clone();
                let events = api.events(id, &pia.token, version).await;
                assert!(
                    events.iter().any(|e| e["type"] == "waterfall_picked.v1"
                        && e["payload"]["seat"] == seat
                        && e["payload"]["card"] == card),
                    "{events:?}"
                );
                kept = true;
                continue;
            }
            if !straights.is_empty() && !passed {
                shows_version(&browser, version).await;
                browser.check_page("play-waterfall-pass").await;
                let before = view["hand"].as_array().map_or(0, Vec::len);
                browser.click("button[data-action='waterfall']").await;
                moved_past(&api, &browser, id, &pia, &straights[0], version).await;
                // The bots keep their cards at once: the last card is back, and her
                // turn begins with a hand of all but the straight and one card.
                let after = api.view(id, &pia.token).await;
                assert_eq!(after["game"]["to_act"], view["game"]["to_act"]);
                let cards = straights[0].as_array().map_or(0, Vec::len);
                assert_eq!(
                    after["hand"].as_array().map_or(0, Vec::len),
                    before - cards + 1
                );
                passed = true;
                continue;
            }
            // Otherwise Pia plays through the API, passing no straight of her own.
            let mut plain = view.clone();
            plain["legal"]["waterfalls"] = json!([]);
            match choose(&plain) {
                Some(action) => {
                    let response = api.act(id, &pia.token, &action, None).await;
                    Api::json_ok(response, reqwest::StatusCode::OK, "Pia's move").await;
                }
                None => tokio::time::sleep(Duration::from_millis(25)).await,
            }
        }
        if passed && kept {
            return;
        }
    }
    panic!("in five tables, a waterfall passed: {passed}, a card kept: {kept}");
}

/// Cell Division and Fifths Disease on the play page: the piles are shown by size, a
/// throw's draw buttons offer what its own pile may give, and the five of diamonds
/// kills a pile from a button.
#[tokio::test]
async fn cell_division_piles_and_a_killed_pile_on_the_page() {
    let app = spawn_app().await;
    let api = app.api();
    let pia = app.new_player("pia_piles").await;
    let body = json!({
        "preset": "house",
        "overrides": {"bonus_rules": ["cell_division", "fifths_disease"]},
        "seats": 3,
        "bots": [{"seat": 1, "kind": "greedy"}, {"seat": 2, "kind": "greedy"}],
    });
    let (mut drew_from_pile, mut killed) = (false, false);
    for _ in 0..8 {
        let id = api.started_table(&body, std::slice::from_ref(&pia)).await;
        let browser = logged_in(&app, "pia_piles", &format!("/play/tables/{id}")).await;
        let mut moves = 0;
        while !(drew_from_pile && killed) && moves < 2_000 {
            moves += 1;
            let view = api.view(id, &pia.token).await;
            if view["table"]["status"] == "finished" {
                break;
            }
            let version = view["table"]["version"].as_u64().expect("a version");
            let legal = &view["legal"];
            let kills = legal["kill_piles"].as_array().cloned().unwrap_or_default();
            if !kills.is_empty() && !killed {
                shows_version(&browser, version).await;
                let size = kills[0].as_u64().expect("a size");
                browser.check_page("play-kill-pile").await;
                browser
                    .click(&format!(
                        "button[data-action='kill_pile'][data-size='{size}']"
                    ))
                    .await;
                moved_past(&api, &browser, id, &pia, &json!({"kill": size}), version).await;
                let after = api.view(id, &pia.token).await;
                let pile = after["game"]["piles"]
                    .as_array()
                    .and_then(|p| p.iter().find(|p| p["size"] == size))
                    .cloned();
                assert!(
                    after["game"]["round"] != view["game"]["round"]
                        || pile.is_some_and(|p| p["dead"] == true && p["top"] == json!(["5D"])),
                    "{after}"
                );
                killed = true;
                continue;
            }
            // A pair (or longer) throw that may take a card from its own pile.
            let mine = view["game"]["to_act"] == view["seat"];
            let throws = match legal["throws"].as_array() {
                Some(throws) if mine => throws.clone(),
                _ => Vec::new(),
            };
            let pile_draw = throws
                .into_iter()
                .filter(|t| t.as_array().is_some_and(|t| t.len() > 1))
                .find_map(|t| {
                    let size = t.as_array().map_or(0, Vec::len);
                    let card = yaniv_e2e_tests::tables::draws_for(legal, size)
                        .into_iter()
                        .find(|c| !t.as_array().is_some_and(|t| t.contains(&json!(c))))?;
                    Some(json!({"type": "play", "throw": t, "draw": {"discard": card}}))
                });
            if let Some(action) = pile_draw.filter(|_| !drew_from_pile) {
                shows_version(&browser, version).await;
                let piles = browser
                    .eval("document.querySelectorAll('[data-play-pile] .pile').length")
                    .await;
                assert!(piles.as_u64().is_some_and(|n| n >= 2), "{piles}");
                browser.check_page("play-cell-division").await;
                browser.play_turn(&view, &action).await;
                moved_past(&api, &browser, id, &pia, &action, version).await;
                drew_from_pile = true;
                continue;
            }
            match choose(&view) {
                Some(action) => {
                    let response = api.act(id, &pia.token, &action, None).await;
                    Api::json_ok(response, reqwest::StatusCode::OK, "Pia's move").await;
                }
                None => tokio::time::sleep(Duration::from_millis(25)).await,
            }
        }
        if drew_from_pile && killed {
            return;
        }
    }
    panic!("in eight tables, a draw from a pile: {drew_from_pile}, a pile killed: {killed}");
}

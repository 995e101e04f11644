//! The referee's replay viewer in a real browser: a table with two players and a bot
//! is played for a while through the API; the referee logs in on the desk, opens the
//! table at a version, and the page must show exactly the hands, totals, stock and
//! event the audit gives at that version; a step forward, back, a jump and the
//! verification follow. Histories changed behind the server's back show their first
//! failure highlighted: a forged move is visited from the verdict and marked there; a
//! broken hash chain, which the server no longer reads, gets the server's reason.

use std::time::Duration;

use reqwest::StatusCode;
use serde_json::{Value, json};
use yaniv_e2e_tests::browser::Browser;
use yaniv_e2e_tests::tables::{Api, Player, choose};
use yaniv_e2e_tests::tamper::{Hashes, tamper};
use yaniv_e2e_tests::{TestApp, spawn_app};

const WAIT: Duration = Duration::from_secs(10);

async fn check_page(browser: &Browser, name: &str) {
    browser.screenshot(name).await;
    let violations = browser.accessibility_violations().await;
    assert!(violations.is_empty(), "{name}: {violations:#?}");
    let errors = browser.take_errors();
    assert!(errors.is_empty(), "{name}: {errors:#?}");
}

async fn audit(api: &Api, id: i64, token: &str, as_of: u64) -> Value {
    let response = api
        .get(&format!("/v1/tables/{id}/audit?as_of={as_of}"), token)
        .await;
    Api::json_ok(response, StatusCode::OK, "audit").await
}

/// Plays `actions` moves of the humans (the bot plays its own turns on the server).
async fn play(api: &Api, id: i64, humans: &[Player], actions: usize) {
    let mut played = 0;
    let mut waited = 0;
    while played < actions {
        let summary = api.summary(id, &humans[0].token).await;
        let Some(seat) = summary["to_act"].as_u64().map(|s| s as usize) else {
            panic!("nobody to act: {summary}");
        };
        let Some(player) = humans.get(seat) else {
            // The bot's turn: the server plays it.
            waited += 1;
            assert!(waited < 200, "the bot did not play");
            tokio::time::sleep(Duration::from_millis(25)).await;
            continue;
        };
        let view = api.view(id, &player.token).await;
        let action = choose(&view).expect("a legal action");
        Api::json_ok(
            api.act(id, &player.token, &action, None).await,
            StatusCode::OK,
            "act",
        )
        .await;
        played += 1;
    }
    // Until the bot has played too: the table stands still while the page is read.
    for _ in 0..200 {
        let summary = api.summary(id, &humans[0].token).await;
        let seat = summary["to_act"].as_u64().unwrap_or(0) as usize;
        if seat < humans.len() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("the bot did not play");
}

/// The hands on the page, seat by seat, each card by its record notation.
async fn shown_hands(browser: &Browser) -> Value {
    browser
        .eval(
            "Array.from(document.querySelectorAll('[data-replay-seats] tr')).map(tr => \
             Array.from(tr.querySelectorAll('[data-hand] svg')).map(c => c.getAttribute('data-card')))",
        )
        .await
}

/// Checks the page shows the audit at `as_of`: hands, names, totals, stock, event.
async fn expect_shown(browser: &Browser, api: &Api, id: i64, token: &str, as_of: u64) -> Value {
    browser
        .wait_until(
            &format!(
                "document.querySelector('[data-replay]').getAttribute('data-shown') === '{as_of}'"
            ),
            WAIT,
        )
        .await;
    let expected = audit(api, id, token, as_of).await;
    let seats = expected["view"]["table"]["seats"].as_array().unwrap().len();
    // Before the deal the audit has no hands: the page shows the seats without cards.
    let hands = match &expected["view"]["hands"] {
        Value::Null => json!(vec![Vec::<String>::new(); seats]),
        hands => hands.clone(),
    };
    assert_eq!(shown_hands(browser).await, hands, "hands at {as_of}");
    let totals = match &expected["hand_totals"] {
        Value::Null => json!(vec![Value::Null; seats]),
        totals => totals.clone(),
    };
    let shown_totals = browser
        .eval(
            "Array.from(document.querySelectorAll('[data-replay-seats] [data-hand-total]'))\
             .map(c => c.innerText === '' ? null : Number(c.innerText))",
        )
        .await;
    assert_eq!(shown_totals, totals, "hand totals at {as_of}");
    let stock = browser
        .eval("document.querySelector('[data-replay-stock]').getAttribute('data-stock')")
        .await;
    let stock_size = &expected["view"]["game"]["stock_size"];
    let stock_size = if stock_size.is_null() {
        String::new()
    } else {
        stock_size.to_string()
    };
    assert_eq!(stock, json!(stock_size), "stock at {as_of}");
    let position = browser
        .eval("document.querySelector('[data-replay-position]').innerText")
        .await;
    let position = position.as_str().unwrap();
    let version = expected["version"].as_u64().unwrap();
    assert!(
        position.contains(&format!("Version {as_of} of {version}")),
        "{position}"
    );
    // The event in words for people, its stored type for programs.
    assert_eq!(
        browser
            .eval("document.querySelector('[data-replay-position]').getAttribute('data-event')")
            .await,
        expected["last_event"],
        "{position}"
    );
    assert!(!position.contains(".v1"), "{position}");
    let search = browser.eval("location.search").await;
    assert_eq!(search, json!(format!("?as_of={as_of}")));
    // Every card has its name for screen readers.
    let unnamed = browser
        .eval("Array.from(document.querySelectorAll('svg.playing-card')).filter(c => !c.getAttribute('aria-label')).length")
        .await;
    assert_eq!(unnamed, json!(0));
    expected
}

/// A table with two players and a bot, six of the players' moves in; its id and a
/// referee.
async fn played_table(app: &TestApp) -> (i64, Player) {
    let api = app.api();
    let humans = vec![app.new_player("ann").await, app.new_player("bob").await];
    let referee = app.new_referee("rita_ref").await;
    let body = json!({"preset": "israeli", "seats": 3, "bots": [{"seat": 2, "kind": "greedy"}]});
    let id = api.started_table(&body, &humans).await;
    play(&api, id, &humans, 6).await;
    (id, referee)
}

/// Opens `path` on the desk, logging in as the referee first.
async fn open_as_referee(app: &TestApp, path: &str) -> Browser {
    let browser = Browser::launch(1280, 900).await;
    browser.goto(&app.url(path)).await;
    let back = path.split('?').next().unwrap_or(path);
    browser.log_in("rita_ref", back).await;
    browser
}

#[tokio::test]
async fn a_referee_replays_a_table_version_by_version() {
    let app = spawn_app().await;
    let api = app.api();
    let (id, referee) = played_table(&app).await;

    // A version whose next event is a turn, after the deal: stepping over it must
    // change a hand.
    let events = api.events(id, &referee.token, 0).await;
    let dealt_at = events
        .iter()
        .position(|e| e["type"] == "round_dealt.v1")
        .expect("a deal") as u64
        + 1;
    let k = (dealt_at as usize..events.len())
        .rev()
        .find(|&i| events[i]["type"] == "turn_played.v1")
        .expect("a turn after the deal") as u64;
    assert!(k >= dealt_at);

    // The desk asks for a log-in first, then comes back to the same version.
    let browser = Browser::launch(1280, 900).await;
    browser
        .goto(&app.url(&format!("/desk/tables/{id}?as_of={k}")))
        .await;
    browser
        .log_in("rita_ref", &format!("/desk/tables/{id}"))
        .await;
    let at_k = expect_shown(&browser, &api, id, &referee.token, k).await;
    assert_eq!(
        browser
            .eval("document.querySelectorAll('[data-replay-pile] li').length")
            .await,
        json!(at_k["discard_pile"]["throws"].as_array().unwrap().len())
    );
    check_page(&browser, "replay-at-version").await;

    // One step forward: the turn's hand changes as the audit says.
    browser.click("button[data-step='forward']").await;
    let next = expect_shown(&browser, &api, id, &referee.token, k + 1).await;
    assert_eq!(next["last_event"], "turn_played.v1");
    assert_ne!(next["view"]["hands"], at_k["view"]["hands"]);
    check_page(&browser, "replay-stepped").await;

    // Back one, then a jump to the deal.
    browser.click("button[data-step='back']").await;
    expect_shown(&browser, &api, id, &referee.token, k).await;
    browser
        .eval("document.querySelector('#as-of').value = ''")
        .await;
    browser.type_into("#as-of", &dealt_at.to_string()).await;
    browser.click("form[data-replay-jump] button").await;
    let dealt = expect_shown(&browser, &api, id, &referee.token, dealt_at).await;
    assert_eq!(dealt["last_event"], "round_dealt.v1");
    check_page(&browser, "replay-jumped").await;

    // The last version, then the verdict on the stored history.
    browser.click("button[data-step='last']").await;
    let version = api.summary(id, &referee.token).await["version"]
        .as_u64()
        .unwrap();
    expect_shown(&browser, &api, id, &referee.token, version).await;
    browser.click("button[data-replay-verify]").await;
    browser
        .wait_until(
            "document.querySelector('[data-replay-verdict]').hasAttribute('data-ok')",
            WAIT,
        )
        .await;
    let verdict = browser
        .eval("[document.querySelector('[data-replay-verdict]').getAttribute('data-ok'), document.querySelector('[data-replay-verdict]').innerText]")
        .await;
    assert_eq!(verdict[0], "true", "{verdict}");
    assert!(verdict[1].as_str().unwrap().starts_with("ok"), "{verdict}");
    check_page(&browser, "replay-verified").await;

    // Every event is listed in words, the one shown marked; a click goes to it.
    let listed = browser
        .eval(
            "Array.from(document.querySelectorAll('[data-replay-events] li')).map(li => \
             [Number(li.getAttribute('data-version')), li.innerText])",
        )
        .await;
    let listed = listed.as_array().unwrap();
    assert_eq!(listed.len() as u64, version, "{listed:?}");
    // Every event is in words, the table's own too (no type names, nothing undefined).
    for (line, event) in listed.iter().zip(&events).skip(1) {
        let shown = line[1].as_str().unwrap();
        assert!(
            !shown.contains("undefined") && !shown.contains(".v1") && !shown.trim().is_empty(),
            "{shown} for {event}"
        );
    }
    assert_eq!(events[1]["type"], "seat_taken.v1");
    let taken = format!(
        "{} takes seat {}",
        events[1]["payload"]["username"].as_str().unwrap(),
        events[1]["payload"]["seat"]
    );
    assert!(
        listed[1][1].as_str().unwrap().contains(&taken),
        "{taken}: {listed:?}"
    );
    let turn = events
        .iter()
        .position(|e| e["type"] == "turn_played.v1")
        .expect("a turn") as u64
        + 1;
    let line = listed[turn as usize - 1][1].as_str().unwrap();
    assert!(
        line.contains(" threw ") && (line.contains(" drew ") || line.contains(" took ")),
        "{line}"
    );
    assert_eq!(
        browser
            .eval("document.querySelector('[data-replay-events] [aria-current=step]').getAttribute('data-go')")
            .await,
        json!(version.to_string())
    );
    browser
        .click(&format!("[data-replay-events] button[data-go='{turn}']"))
        .await;
    expect_shown(&browser, &api, id, &referee.token, turn).await;

    // In Dutch: the same table, the cards named in Dutch for screen readers.
    browser
        .goto(&app.url(&format!("/desk/tables/{id}?as_of={k}&lang=nl")))
        .await;
    browser
        .wait_until(
            &format!(
                "document.querySelector('[data-replay]').getAttribute('data-shown') === '{k}'"
            ),
            WAIT,
        )
        .await;
    assert_eq!(shown_hands(&browser).await, at_k["view"]["hands"]);
    let dutch = browser
        .eval(
            "[document.querySelector('[data-replay-position]').innerText, \
             Array.from(document.querySelectorAll('[data-hand] svg')).every(c => \
             /^(harten|ruiten|klaveren|schoppen) |^joker$/.test(c.getAttribute('aria-label'))), \
             location.search]",
        )
        .await;
    assert!(
        dutch[0]
            .as_str()
            .unwrap()
            .starts_with(&format!("Versie {k} van")),
        "{dutch}"
    );
    assert_eq!(dutch[1], true, "{dutch}");
    assert_eq!(dutch[2], json!(format!("?as_of={k}&lang=nl")), "{dutch}");
    check_page(&browser, "replay-nl").await;
}

#[tokio::test]
async fn a_changed_hash_is_shown_as_the_first_failure_with_the_servers_reason() {
    let app = spawn_app().await;
    let api = app.api();
    let (id, referee) = played_table(&app).await;
    // A player's name changed in the stored history behind the server's back (its
    // hash kept): the chain breaks there, and the page shows the forged name.
    let events = api.events(id, &referee.token, 0).await;
    let changed = events
        .iter()
        .position(|e| e["type"] == "seat_taken.v1")
        .expect("a seat taken") as u64
        + 1;
    tamper(
        &app,
        &format!("table-{id}"),
        changed,
        Hashes::Kept,
        |payload| {
            payload["username"] = json!("mallory");
        },
    )
    .await;

    // The first event still reads: the history is cut before the changed one.
    let first = audit(&api, id, &referee.token, 1).await;
    assert_eq!(first["last_event"], "table_created.v1");

    let browser = open_as_referee(&app, &format!("/desk/tables/{id}?as_of=1")).await;
    browser
        .wait_until(
            "document.querySelector('[data-replay]').getAttribute('data-shown') === '1'",
            WAIT,
        )
        .await;
    // The list of events reads the whole history: the server refuses it, and the page
    // says why before anyone asks for the verdict.
    let reason = refused_with_reason(&browser).await;
    assert!(
        reason.contains("does not read back as written"),
        "the server's reason: {reason}"
    );
    expect_one_refused_read(&browser);
    browser.click("button[data-replay-verify]").await;
    browser
        .wait_until(
            "document.querySelector('[data-replay-verdict]').hasAttribute('data-ok')",
            WAIT,
        )
        .await;
    let verdict = browser
        .eval(
            "(() => { const v = document.querySelector('[data-replay-verdict]'); \
             return [v.getAttribute('data-ok'), v.className, v.innerText, \
             v.querySelector('[data-failure-version]').getAttribute('data-failure-version')]; })()",
        )
        .await;
    assert_eq!(verdict[0], "false", "{verdict}");
    assert!(
        verdict[1].as_str().unwrap().contains("failure"),
        "{verdict}"
    );
    assert_eq!(verdict[3], json!(changed.to_string()), "{verdict}");
    assert!(
        verdict[2].as_str().unwrap().contains("hash_mismatch"),
        "{verdict}"
    );
    check_page(&browser, "replay-failure").await;

    // The server serves nothing more from a stream whose hashes do not match: the
    // link to the failing version gets the server's reason too.
    browser
        .eval("(() => { const s = document.querySelector('[data-desk-status]'); s.textContent = ''; s.className = ''; })()")
        .await;
    browser.click("[data-failure-link]").await;
    let reason = refused_with_reason(&browser).await;
    assert!(
        reason.contains("does not read back as written"),
        "the server's reason: {reason}"
    );
    assert_eq!(
        browser
            .eval("document.querySelector('[data-replay]').getAttribute('data-shown')")
            .await,
        "1",
        "the page keeps what it showed"
    );
    expect_one_refused_read(&browser);
    check_page(&browser, "replay-failure-refused").await;
}

/// The refused read is the one error the browser reports.
fn expect_one_refused_read(browser: &Browser) {
    let errors = browser.take_errors();
    assert!(
        errors.len() == 1 && errors[0].contains("500"),
        "{errors:#?}"
    );
}

/// Waits for the desk's status line to show a refusal, and returns its text.
async fn refused_with_reason(browser: &Browser) -> String {
    browser
        .wait_until(
            "document.querySelector('[data-desk-status].problem') !== null",
            WAIT,
        )
        .await;
    let status = browser
        .eval("document.querySelector('[data-desk-status].problem').innerText")
        .await;
    status.as_str().unwrap_or_default().to_owned()
}

#[tokio::test]
async fn a_forged_move_is_visited_from_the_verdict_and_marked() {
    let app = spawn_app().await;
    let api = app.api();
    let (id, referee) = played_table(&app).await;
    // The last turn rewritten to throw a card its player did not hold, the chain
    // recomputed by the forger: only the replay by the rules notices.
    let events = api.events(id, &referee.token, 0).await;
    let index = events
        .iter()
        .rposition(|e| e["type"] == "turn_played.v1")
        .expect("a turn");
    let changed = index as u64 + 1;
    let seat = events[index]["payload"]["seat"].as_u64().unwrap() as usize;
    let before = audit(&api, id, &referee.token, changed - 1).await;
    let hands = before["view"]["hands"].as_array().unwrap();
    let own = hands[seat].as_array().unwrap();
    let forged = hands
        .iter()
        .flat_map(|h| h.as_array().unwrap())
        .find(|c| !own.contains(c))
        .expect("a card the thrower does not hold")
        .clone();
    tamper(
        &app,
        &format!("table-{id}"),
        changed,
        Hashes::Recomputed,
        |payload| {
            payload["thrown"][0] = forged;
        },
    )
    .await;

    let browser = open_as_referee(&app, &format!("/desk/tables/{id}?as_of={}", changed - 1)).await;
    expect_shown(&browser, &api, id, &referee.token, changed - 1).await;
    browser.click("button[data-replay-verify]").await;
    browser
        .wait_until(
            "document.querySelector('[data-replay-verdict]').getAttribute('data-ok') === 'false'",
            WAIT,
        )
        .await;
    let shown = browser
        .eval("document.querySelector('[data-replay-verdict] [data-failure-version]').getAttribute('data-failure-version')")
        .await;
    assert_eq!(shown, json!(changed.to_string()));
    browser.click("[data-failure-link]").await;
    expect_shown(&browser, &api, id, &referee.token, changed).await;
    let marked = browser
        .eval(
            "[!document.querySelector('[data-replay-failure-here]').hidden, \
             document.querySelector('[data-replay-position]').classList.contains('failure')]",
        )
        .await;
    assert_eq!(marked, json!([true, true]));
    check_page(&browser, "replay-at-failure").await;
}

#[tokio::test]
async fn the_desk_links_a_rounds_online_table_to_its_replay() {
    let app = spawn_app().await;
    let api = app.api();
    let org = app.new_organizer("cup_org").await;
    let mut players = Vec::new();
    for name in ["ans_k", "bert_v", "carla_d", "daan_m"] {
        players.push(app.new_player(name).await);
    }
    // A referee of this tournament: a referee role alone names nobody (#27).
    let referee = app.new_referee("rita_ref").await;
    let body = json!({"name": "Replay cup", "rules": {"preset": "belgian"}, "capacity": 8,
                      "config": {"qualification_rounds": 1, "table_min": 4, "table_max": 4}});
    let id = api
        .started_tournament_refereed(&org, &[&referee], &players, &body)
        .await;
    api.draw(id, &org.token, &json!({"paper_tables": []})).await;

    let browser = open_as_referee(&app, &format!("/desk/t/{id}")).await;
    browser
        .wait_until(
            "document.querySelector(\"a[href^='/desk/tables/']\") !== null",
            WAIT,
        )
        .await;
    check_page(&browser, "replay-desk-link").await;
    browser.click("a[href^='/desk/tables/']").await;
    browser
        .wait_until(
            "location.pathname.startsWith('/desk/tables/') && \
             document.querySelector('[data-replay]') !== null && \
             document.querySelector('[data-replay]').hasAttribute('data-shown')",
            WAIT,
        )
        .await;
    let shown = browser
        .eval("[location.pathname, document.querySelector('[data-replay]').getAttribute('data-shown')]")
        .await;
    let table: i64 = shown[0]
        .as_str()
        .unwrap()
        .trim_start_matches("/desk/tables/")
        .parse()
        .unwrap();
    let as_of: u64 = shown[1].as_str().unwrap().parse().unwrap();
    // Without `as_of` the page shows the latest version: the table as dealt.
    let now = expect_shown(&browser, &api, table, &referee.token, as_of).await;
    assert_eq!(now["version"], as_of);
    assert_eq!(now["view"]["hands"].as_array().unwrap().len(), 4);
    check_page(&browser, "replay-from-desk").await;
}

//! A championship day run from the pages alone, as a venue runs it: the test starts the
//! server (which makes the first admin) and from then on only clicks and types in
//! browsers. The admin gives two accounts made on their owners' phones the organizer
//! and referee roles; the organizer creates a tournament with shorter games, opens
//! registration and names the referee; a club list (CSV) is registered at the desk and
//! its players choose their passwords from their slips' links, walk-ins sign up on
//! their phones; the door checks players in (one click taken back); the start drops
//! the one who did not come; round 1 is drawn with an online and a paper table; the
//! online table's players find it from the seating page and play it out on their
//! phones; the paper sheet is typed, a wrong hand caught as it is typed, then corrected
//! from the kept sheet; the final is drawn, its totals alone entered (the tournament
//! allows it) and the ranking published; the
//! projector and the printables show the day; the referee replays the online table of
//! the earlier round and opens the paper one. Every step leaves a screenshot,
//! `target/screenshots/day-*.png`, checked for accessibility and console errors.

use std::time::Duration;

use serde_json::{Value, json};
use yaniv_domain::rules::{GameEnd, Preset, Rules};
use yaniv_e2e_tests::browser::Browser;
use yaniv_e2e_tests::desk::{clear_status, desk_done, enter_sheet, js};
use yaniv_e2e_tests::{ADMIN_USERNAME, TestApp, spawn_app};

const WAIT: Duration = Duration::from_secs(15);
const PHONE: (u32, u32) = (390, 844);
const DESK: (u32, u32) = (1280, 900);

/// The players of the club's list; the last one never comes.
const LISTED: [&str; 6] = ["lisa_l", "marc_m", "nina_n", "omar_o", "pia_p", "quinten_q"];
const ABSENT: &str = "pia_p";
/// The players who walk in and sign up on their phones.
const WALK_INS: [&str; 3] = ["wim_w", "xena_x", "yves_y"];

fn password(name: &str) -> String {
    format!("password-of-{name}")
}

/// The tournament's rules: Belgian, games to 40 (the limit typed on the desk).
fn short_belgian() -> Rules {
    let mut rules = Preset::Belgian.rules();
    rules.game_end = GameEnd::LowestWins {
        limit: 40,
        at_limit: false,
    };
    rules
}

#[tokio::test]
async fn a_championship_day_runs_from_the_pages_alone() {
    let app = spawn_app().await;

    // Officials: two accounts made on their owners' phones, given their roles by the
    // admin on the accounts page.
    for name in ["olga_org", "rik_ref"] {
        let phone = Browser::launch(PHONE.0, PHONE.1).await;
        sign_up(&app, &phone, name).await;
    }
    let admin = Browser::launch(DESK.0, DESK.1).await;
    admin.goto(&app.url("/desk/accounts")).await;
    admin
        .wait_until("location.pathname === '/desk/login'", WAIT)
        .await;
    admin.type_into("#username", ADMIN_USERNAME).await;
    admin.type_into("#password", &app.admin_password).await;
    admin.click("form[data-desk-login] button").await;
    // The address changes before the page is read: wait for the page itself.
    admin
        .wait_until(
            "location.pathname === '/desk/accounts' && document.readyState === 'complete' \
             && document.querySelector('#account-prefix') !== null",
            WAIT,
        )
        .await;
    for (name, role) in [("olga_org", "organizer"), ("rik_ref", "referee")] {
        admin
            .eval("document.querySelector('#account-prefix').value = ''")
            .await;
        admin.type_into("#account-prefix", name).await;
        admin.click("form[data-desk-accounts] button").await;
        let row = format!("[data-account='{name}']");
        admin
            .wait_until(
                &format!("document.querySelector({}) !== null", js(&row)),
                WAIT,
            )
            .await;
        admin.click(&format!("{row} input[value='{role}']")).await;
        clear_status(&admin).await;
        admin.click(&format!("{row} button")).await;
        desk_done(&admin).await;
    }
    admin.check_page("day-01-officials").await;
    drop(admin);

    // The organizer creates the tournament: Belgian rules, games to 40 for the day's
    // schedule, one qualification round at tables of four.
    let desk = Browser::launch(DESK.0, DESK.1).await;
    desk.goto(&app.url("/desk")).await;
    desk.log_in("olga_org", "/desk").await;
    desk.wait_until(
        "document.querySelector('[data-desk-create]').closest('section').hidden === false",
        WAIT,
    )
    .await;
    desk.type_into("#t-name", "Venue day cup").await;
    desk.eval(
        "(() => { const s = document.querySelector('#t-preset'); s.value = 'belgian'; \
         s.dispatchEvent(new Event('change')); })()",
    )
    .await;
    assert_eq!(
        desk.eval("document.querySelector('#t-limit').placeholder")
            .await,
        json!("150"),
        "the preset's own limit is shown"
    );
    for (field, value) in [
        ("#t-limit", "40"),
        ("#t-capacity", "12"),
        ("#t-rounds", "1"),
        ("#t-min", "4"),
        ("#t-max", "4"),
    ] {
        desk.eval(&format!("document.querySelector('{field}').value = ''"))
            .await;
        desk.type_into(field, value).await;
    }
    desk.check_page("day-02-new-tournament").await;
    desk.click("form[data-desk-create] button").await;
    desk.wait_until(
        "location.pathname.startsWith('/desk/t/') && document.readyState === 'complete'",
        WAIT,
    )
    .await;
    let id = desk
        .eval("Number(location.pathname.split('/').pop())")
        .await
        .as_i64()
        .expect("the tournament's id");
    let desk_url = app.url(&format!("/desk/t/{id}"));
    command(&desk, "open_registration").await;

    // The referee of the day, named on the desk.
    desk.type_into("#referee", "rik_ref").await;
    desk.click("form[data-desk-referee] button").await;
    desk.wait_until(
        "document.querySelector('[data-desk-referees]').innerText.includes('rik_ref')",
        WAIT,
    )
    .await;

    // The club's list, registered in one go; each new player gets a slip.
    desk.click("details.door summary").await;
    let list: String = std::iter::once("username,check_in".to_owned())
        .chain(LISTED.iter().map(|name| format!("{name},no")))
        .collect::<Vec<_>>()
        .join("\n");
    desk.type_into("#door-list", &list).await;
    desk.click("form[data-desk-door] button").await;
    desk.wait_until(
        "document.querySelector('[data-desk-slips]').hidden === false",
        WAIT,
    )
    .await;
    desk.check_page("day-03-slips").await;
    let links: Vec<String> = serde_json::from_value(
        desk.eval("Array.from(document.querySelectorAll('[data-slip] a')).map(a => a.href)")
            .await,
    )
    .expect("the slips' links");
    assert_eq!(links.len(), LISTED.len(), "one set-up link per new player");

    // The listed players who come follow their slip's link on a phone and choose a
    // password there.
    let door = Browser::launch(PHONE.0, PHONE.1).await;
    for (name, link) in LISTED.iter().zip(&links) {
        assert!(link.contains(&format!("username={name}&code=")), "{link}");
        if *name == ABSENT {
            continue;
        }
        door.goto(link).await;
        door.type_into("#password", &password(name)).await;
        door.type_into("#confirm", &password(name)).await;
        door.click("form[data-desk-login] button").await;
        door.wait_until(
            &format!(
                "location.pathname === '/play' && document.querySelector('[data-desk-user]').innerText.includes({})",
                js(name)
            ),
            WAIT,
        )
        .await;
    }
    door.check_page("day-04-set-up-done").await;
    drop(door);
    // The slips were printed and handed out: off the screen.
    desk.click("[data-slips-done]").await;
    desk.wait_until(
        "document.querySelector('[data-desk-slips]').hidden && document.querySelectorAll('[data-slip]').length === 0",
        WAIT,
    )
    .await;

    // Walk-ins sign up on their phones and give the desk their name.
    for name in WALK_INS {
        let phone = Browser::launch(PHONE.0, PHONE.1).await;
        sign_up(&app, &phone, name).await;
        desk.eval("document.querySelector('#register').value = ''")
            .await;
        desk.type_into("#register", name).await;
        desk.click("form[data-desk-register] button").await;
        desk.wait_until(
            &format!("document.querySelector(\"[data-desk-players] tr[data-player-name='{name}']\") !== null"),
            WAIT,
        )
        .await;
    }

    // At the door: one click per player. A wrong name clicked is taken back.
    check_in(&desk, ABSENT).await;
    desk.click(&format!(
        "[data-desk-players] tr[data-player-name='{ABSENT}'] button[data-command*='undo_check_in']"
    ))
    .await;
    desk.wait_until(
        &format!(
            "document.querySelector(\"[data-desk-players] tr[data-player-name='{ABSENT}']\").cells[2].innerText === 'not checked in'"
        ),
        WAIT,
    )
    .await;
    for name in LISTED.iter().chain(&WALK_INS).filter(|n| **n != ABSENT) {
        check_in(&desk, name).await;
    }
    desk.check_page("day-05-checked-in").await;

    // The start asks first and names who it drops.
    command(&desk, "close_registration").await;
    command(&desk, "start_qualification").await;
    assert!(
        desk.dialogs()
            .iter()
            .any(|d| d.contains(ABSENT) && !d.contains("lisa_l")),
        "the start names the player it drops: {:?}",
        desk.dialogs()
    );

    desk.wait_until(
        &format!(
            "document.querySelector(\"[data-desk-players] tr[data-player-name='{ABSENT}']\").cells[2].innerText === 'dropped: did not check in'"
        ),
        WAIT,
    )
    .await;

    // Round 1: table 1 online, table 2 on paper.
    desk.wait_until("document.querySelector('[data-desk-draw]') !== null", WAIT)
        .await;
    clear_status(&desk).await;
    desk.type_into("#paper", "2").await;
    desk.click("form[data-desk-draw] button").await;
    desk_done(&desk).await;
    desk.goto(&desk_url).await;
    let tables = desk_tables(&desk).await;
    assert_eq!(tables.len(), 2, "{tables:?}");
    assert!(
        tables.iter().flatten().all(|n| *n != ABSENT),
        "the absent player is not seated: {tables:?}"
    );
    desk.check_page("day-06-round-drawn").await;

    // The printables of the round, from the desk's links.
    // Sheets are printed for the paper tables, cards for every table.
    for (link, shot, seated) in [
        ("score sheets", "day-07-print-sheets", &tables[1..]),
        ("table cards", "day-07-print-cards", &tables[..]),
    ] {
        let href = desk
            .eval(&format!(
                "Array.from(document.querySelectorAll('.print-links a')).find(a => a.innerText.toLowerCase() === {}).href",
                js(link)
            ))
            .await;
        let printed = Browser::launch(DESK.0, DESK.1).await;
        printed.goto(href.as_str().expect("a printable")).await;
        let shown = printed.text().await;
        for name in seated.iter().flatten() {
            assert!(shown.contains(name.as_str()), "{link} name {name}");
        }
        printed.check_page(shot).await;
    }

    // The projector on the wall shows where everyone sits; the desk starts the
    // round's clock and puts up an announcement, which the screen takes live.
    let projector = Browser::launch(1920, 1080).await;
    projector
        .goto(&app.url(&format!("/t/{id}/projector")))
        .await;
    projector
        .wait_until(
            &format!(
                "document.body.innerText.includes({}) && document.documentElement.dataset.following === 'true'",
                js(&tables[0][0])
            ),
            WAIT,
        )
        .await;
    desk.type_into("#clock-minutes", "25").await;
    clear_status(&desk).await;
    desk.click("form[data-desk-clock] button[type='submit']")
        .await;
    desk_done(&desk).await;
    desk.wait_until(
        "document.querySelector('[data-desk-clock-state]').innerText.includes('25 min left')",
        WAIT,
    )
    .await;
    let words = "Round 1: find your table on the seating page";
    desk.type_into("#announcement", words).await;
    clear_status(&desk).await;
    desk.click("form[data-desk-announce] button[type='submit']")
        .await;
    desk_done(&desk).await;
    projector
        .wait_until(
            &format!(
                "(document.querySelector('[data-announcement]') || {{}}).innerText === {}                  && /^2[45]:[0-5][0-9]$/.test(document.querySelector('[data-clock-remaining]').innerText)",
                js(words)
            ),
            WAIT,
        )
        .await;
    projector.check_page("day-08-projector-seating").await;

    // The online table's players find it on the seating page, log in on their
    // phones and play the game out there.
    let mut phones = Vec::new();
    for (k, name) in tables[0].iter().enumerate() {
        let phone = Browser::launch(PHONE.0, PHONE.1).await;
        phone.goto(&app.url("/play")).await;
        phone.log_in(name, "/play").await;
        phone
            .goto(&app.url(&format!("/t/{id}/seating?q={name}")))
            .await;
        if k == 0 {
            phone.check_page("day-09-seating-found").await;
        }
        phone.click("a[data-play-link]").await;
        phone
            .wait_until(
                "location.pathname.startsWith('/play/tables/') && document.querySelector('[data-play-table]').dataset.version !== undefined",
                WAIT,
            )
            .await;
        phones.push(phone);
    }
    let game = phones[0]
        .eval("document.querySelector('[data-play-table]').getAttribute('data-play-table')")
        .await;
    phones[0].check_page("day-10-online-table").await;
    // While it is played, the desk says whose move it waits for.
    desk.goto(&desk_url).await;
    let status = desk
        .eval("document.querySelector('section.round .table-card .status').innerText")
        .await;
    assert!(
        status.as_str().unwrap_or_default().contains(" to play · "),
        "{status}"
    );
    play_out(&phones).await;
    phones[0].check_page("day-11-online-game-over").await;
    drop(phones);

    // The paper table: a hand no five cards can make is caught as it is typed ...
    let sheet_url = app.url(&format!("/desk/t/{id}/tables/1/1/2"));
    desk.goto(&sheet_url).await;
    desk.wait_until(
        "document.querySelector('[data-sheet-rounds] tr') !== null",
        WAIT,
    )
    .await;
    // The first line: the first column called with nothing, the second's 57 typed
    // as 75.
    for (column, hand) in ["0", "75", "17", "23"].iter().enumerate() {
        desk.type_into(
            &format!(
                "[data-sheet-rounds] tr:nth-child(1) td[data-seat='{column}'] input[data-hand]"
            ),
            hand,
        )
        .await;
    }
    desk.wait_until(
        "document.querySelector('[data-sheet-rounds] tr:nth-child(1) [data-problem]').innerText !== ''",
        WAIT,
    )
    .await;
    let caught = desk
        .eval("document.querySelector('[data-sheet-rounds] tr:nth-child(1) [data-problem]').innerText")
        .await;
    assert!(
        caught.as_str().unwrap_or_default().contains("75"),
        "the line says what is wrong: {caught}"
    );
    assert_eq!(
        desk.eval("document.querySelector('[data-sheet-record]').disabled")
            .await,
        json!(true),
        "a sheet with a wrong line cannot be recorded"
    );
    desk.check_page("day-12-sheet-mistake").await;
    // ... then the sheet is typed as the table played it.
    let columns: Vec<i64> = serde_json::from_value(
        desk.eval("JSON.parse(document.querySelector('[data-sheet]').dataset.seats)")
            .await,
    )
    .expect("the sheet's seats");
    let rules = short_belgian();
    enter_sheet(&desk, &sheet_url, None, &columns, None, &rules).await;
    let recorded = sheet_result(&desk).await;

    // A correction, from the sheet as it was recorded: one hand of the first line was
    // misread. Only that field is typed again.
    desk.goto(&sheet_url).await;
    desk.wait_until(
        "document.querySelectorAll('[data-sheet-rounds] tr').length > 1",
        WAIT,
    )
    .await;
    let hand = "[data-sheet-rounds] tr:nth-child(1) td[data-seat='1'] input[data-hand]";
    let kept = desk
        .eval(&format!(
            "Number(document.querySelector({}).value)",
            js(hand)
        ))
        .await
        .as_u64()
        .expect("the kept sheet's hand");
    desk.eval(&format!("document.querySelector({}).value = ''", js(hand)))
        .await;
    desk.type_into(hand, &(kept + 1).to_string()).await;
    assert_eq!(
        desk.eval(&format!("document.querySelector({}).value", js(hand)))
            .await,
        json!((kept + 1).to_string()),
        "the hand as typed again"
    );
    desk.type_into("#reason", "a 9 read as an 8 on the sheet")
        .await;
    desk.wait_until(
        "document.querySelector('[data-sheet-record]').disabled === false",
        WAIT,
    )
    .await;
    clear_status(&desk).await;
    desk.click("[data-sheet-record]").await;
    desk_done(&desk).await;
    let corrected = sheet_result(&desk).await;
    let lines = desk
        .eval("Array.from(document.querySelectorAll('[data-sheet-rounds] tr')).map(tr => Array.from(tr.querySelectorAll('[data-hand]')).map(i => i.value).join(','))")
        .await;
    assert_ne!(
        corrected, recorded,
        "the correction shows at once; the sheet's lines: {lines}"
    );
    desk.check_page("day-13-sheet-corrected").await;

    // The standings on the projector take both results.
    projector
        .goto(&app.url(&format!("/t/{id}/standings")))
        .await;
    projector.check_page("day-14-standings").await;

    // The final: the next stage, its table on paper, its sheet, the finish.
    desk.goto(&desk_url).await;
    desk.wait_until(
        "document.querySelector('[data-desk-missing]').innerText.length > 0",
        WAIT,
    )
    .await;
    command(&desk, "advance_stage").await;
    desk.wait_until(
        "document.querySelector('[data-live]').innerText.includes('knockout')",
        WAIT,
    )
    .await;
    clear_status(&desk).await;
    desk.type_into("#paper", "1").await;
    desk.click("form[data-desk-draw] button").await;
    desk_done(&desk).await;
    // The final table kept only its totals (the tournament allows it): each player's
    // final total, the places following from them.
    let final_url = app.url(&format!("/desk/t/{id}/tables/2/1/1"));
    desk.goto(&final_url).await;
    let finalists: Vec<i64> = serde_json::from_value(
        desk.eval("JSON.parse(document.querySelector('[data-sheet]').dataset.seats)")
            .await,
    )
    .expect("the final's seats");
    desk.click("details.totals summary").await;
    for (k, player) in finalists.iter().enumerate() {
        desk.type_into(
            &format!("[data-total-of='{player}']"),
            &(10 * (k + 1)).to_string(),
        )
        .await;
    }
    assert_eq!(
        desk.eval("Array.from(document.querySelectorAll('[data-place-of]')).map(i => i.value)")
            .await,
        json!(["1", "2", "3", "4"]),
        "the places follow the totals"
    );
    desk.check_page("day-15-final-totals").await;
    desk.click("form[data-totals-form] button[type='submit']")
        .await;
    desk.wait_until(
        "document.querySelector('[data-totals-only]') !== null",
        WAIT,
    )
    .await;
    desk.goto(&desk_url).await;
    command(&desk, "finish").await;
    // Over: the desk offers nothing the server would now refuse.
    desk.goto(&desk_url).await;
    assert_eq!(
        desk.eval(
            "document.querySelectorAll('[data-desk-register], [data-desk-door], [data-desk-referee],              [data-desk-clock], button[data-command]').length"
        )
        .await,
        json!(0)
    );
    desk.check_page("day-16-finished").await;
    projector.goto(&app.url(&format!("/t/{id}/ranking"))).await;
    projector
        .wait_until("document.body.innerText.includes('1\\t')", WAIT)
        .await;
    projector.check_page("day-17-ranking").await;

    // The referee replays the earlier round's online table and opens its paper one.
    let referee = Browser::launch(DESK.0, DESK.1).await;
    referee.goto(&desk_url).await;
    referee.log_in("rik_ref", &format!("/desk/t/{id}")).await;
    referee.click("details.earlier summary").await;
    let game = game.as_str().expect("the online table's id");
    referee
        .click(&format!("details.earlier a[href='/desk/tables/{game}']"))
        .await;
    referee
        .wait_until(
            "document.querySelector('[data-replay]') !== null && document.querySelector('[data-replay]').hasAttribute('data-shown')",
            WAIT,
        )
        .await;
    referee.click("[data-replay-verify]").await;
    referee
        .wait_until(
            "document.querySelector('[data-replay-verdict]').hasAttribute('data-ok')",
            WAIT,
        )
        .await;
    // The record of the game, saved for another verifier.
    referee.click("[data-replay-download]").await;
    referee
        .wait_until(
            "Number(document.querySelector('[data-replay-download]').dataset.downloaded) > 0",
            WAIT,
        )
        .await;
    referee.check_page("day-18-referee-replay").await;
    referee.goto(&desk_url).await;
    referee.click("details.earlier summary").await;
    referee
        .click("details.earlier a[data-sheet-link][href$='/1/1/2']")
        .await;
    referee
        .wait_until(
            "document.querySelectorAll('[data-sheet-rounds] tr').length > 1",
            WAIT,
        )
        .await;
    assert_eq!(
        sheet_result(&referee).await,
        corrected,
        "the referee sees the paper table as corrected"
    );
    referee.check_page("day-19-referee-paper-table").await;
}

/// Creates the account `name` on the sign-up page, on `phone`.
async fn sign_up(app: &TestApp, phone: &Browser, name: &str) {
    phone.goto(&app.url("/desk/signup?next=/play")).await;
    phone.type_into("#username", name).await;
    phone.type_into("#password", &password(name)).await;
    phone.type_into("#confirm", &password(name)).await;
    phone.click("form[data-desk-login] button").await;
    phone
        .wait_until(
            &format!(
                "location.pathname === '/play' && document.querySelector('[data-desk-user]').innerText.includes({})",
                js(name)
            ),
            WAIT,
        )
        .await;
}

/// Clicks the desk's button for `command` (which may ask first) and waits for the
/// server's yes.
async fn command(desk: &Browser, command: &str) {
    // The button may come with the live refresh of the step before.
    let button = format!("button[data-command^='{{\"command\":\"{command}\"']");
    desk.wait_until(
        &format!("document.querySelector({}) !== null", js(&button)),
        WAIT,
    )
    .await;
    clear_status(desk).await;
    desk.click(&button).await;
    desk_done(desk).await;
}

/// Checks `name` in with one click on their line and waits for the list to say so.
async fn check_in(desk: &Browser, name: &str) {
    let row = format!("[data-desk-players] tr[data-player-name='{name}']");
    desk.click(&format!(
        "{row} button[data-command*='check_in']:not([data-command*='undo'])"
    ))
    .await;
    desk.wait_until(
        &format!(
            "document.querySelector({}).cells[2].innerText === 'checked in'",
            js(&row)
        ),
        WAIT,
    )
    .await;
}

/// The current round's tables on the desk, each as its players' names.
async fn desk_tables(desk: &Browser) -> Vec<Vec<String>> {
    serde_json::from_value(
        desk.eval(
            "Array.from(document.querySelectorAll('section.round')[0].querySelectorAll('.table-card'))\
             .map(card => Array.from(card.querySelectorAll('ol li')).map(li => li.innerText))",
        )
        .await,
    )
    .expect("the tables")
}

/// What the sheet page says the recorded result is.
async fn sheet_result(browser: &Browser) -> String {
    browser
        .wait_until(
            "(document.querySelector('[data-sheet-result]') || {}).innerText > ''",
            WAIT,
        )
        .await;
    browser
        .eval("document.querySelector('[data-sheet-result]').innerText")
        .await
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

/// What the player whose page this is should click now, read from the page alone:
/// stay out after another's call, pass a window held for them, call with 5 or less,
/// else throw the set worth most (or the highest card) and draw from the stock.
const NEXT_MOVE: &str = r#"(() => {
  const root = document.querySelector('[data-play-table]');
  if (!root || root.dataset.status === 'finished') return {kind: 'over'};
  const here = s => { const b = document.querySelector(s); return b && !b.disabled ? s : null; };
  const out = here("button[data-action='stay_out']") || here("button[data-action='pass']");
  if (out) return {kind: 'click', clicks: [out], version: root.dataset.version};
  const call = document.querySelector("button[data-action='call']");
  if (!call) return {kind: 'wait'};
  const value = code => code === 'JK' ? 0 : code[0] === 'A' ? 1 : 'JQK'.includes(code[0]) ? 10 : parseInt(code, 10);
  const cards = Array.from(document.querySelectorAll('[data-play-hand] button[data-card]'));
  const total = cards.reduce((sum, b) => sum + value(b.dataset.card), 0);
  if (!call.disabled && total <= 5) return {kind: 'click', clicks: ["button[data-action='call']"], version: root.dataset.version};
  const playable = cards.filter(b => b.classList.contains('playable') && !b.disabled);
  if (playable.length === 0) return {kind: 'wait'};
  const ranks = {};
  playable.forEach(b => { const rank = b.dataset.card.slice(0, -1); (ranks[rank] = ranks[rank] || []).push(b); });
  const worth = set => set.reduce((sum, b) => sum + value(b.dataset.card), 0);
  let best = Object.values(ranks).filter(set => set.length > 1 && set[0].dataset.card !== 'JK')
    .sort((a, b) => worth(b) - worth(a))[0];
  const single = playable.slice().sort((a, b) => value(b.dataset.card) - value(a.dataset.card))[0];
  if (!best || worth(best) < value(single.dataset.card)) best = [single];
  return {kind: 'throw', clicks: best.map(b => "[data-play-hand] button[data-index='" + b.dataset.index + "']"),
          version: root.dataset.version};
})()"#;

/// Plays the online game to its end through its players' pages.
async fn play_out(phones: &[Browser]) {
    for _ in 0..3_000 {
        let mut over = 0;
        for phone in phones {
            let next: Value = phone.eval(NEXT_MOVE).await;
            let clicks: Vec<String> =
                serde_json::from_value(next["clicks"].clone()).unwrap_or_default();
            match next["kind"].as_str() {
                Some("over") => over += 1,
                Some("click") => {
                    phone.click(&clicks[0]).await;
                    moved(phone, &next["version"]).await;
                }
                Some("throw") => {
                    for card in &clicks {
                        phone.click(card).await;
                    }
                    let stock = "button[data-action='throw-stock']";
                    let ready = phone
                        .eval(&format!("document.querySelector({}).disabled", js(stock)))
                        .await;
                    if ready == json!(true) {
                        // Not a throw the rules allow after all: the highest card alone.
                        for card in &clicks[1..] {
                            phone.click(card).await;
                        }
                    }
                    phone.click(stock).await;
                    moved(phone, &next["version"]).await;
                }
                _ => {}
            }
        }
        if over == phones.len() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let mut pages = Vec::new();
    for phone in phones {
        pages.push(json!({"page": phone.eval(PAGE_STATE).await, "next": phone.eval(NEXT_MOVE).await}));
    }
    panic!("the online game did not end in 3,000 passes; the pages: {pages:#?}");
}

/// What a game page shows, for a failure's message: a hand card is marked `+` when
/// playable, `!` when disabled and `*` when selected.
const PAGE_STATE: &str = r#"(() => {
  const root = document.querySelector('[data-play-table]');
  if (!root) return {page: location.pathname, text: document.body.innerText.slice(0, 400)};
  return {
    page: location.pathname,
    status: root.dataset.status,
    version: root.dataset.version,
    following: document.documentElement.getAttribute('data-following'),
    enabled: Array.from(document.querySelectorAll('button')).filter(b => !b.disabled).map(b => b.dataset.action || b.dataset.card || b.textContent.trim()),
    hand: Array.from(document.querySelectorAll('[data-play-hand] button[data-card]')).map(b => b.dataset.card + (b.classList.contains('playable') ? '+' : '') + (b.disabled ? '!' : '') + (b.getAttribute('aria-pressed') === 'true' ? '*' : '')),
    call: (b => b ? (b.disabled ? 'disabled' : 'enabled') : 'absent')(document.querySelector("button[data-action='call']")),
    status_line: (document.querySelector('[data-play-status]') || {}).innerText,
    alerts: Array.from(document.querySelectorAll('[role=alert]')).map(a => a.innerText),
    text: root.innerText.slice(0, 600),
  };
})()"#;

/// Waits until the page shows a version after `version`.
async fn moved(phone: &Browser, version: &Value) {
    let version = version.as_str().unwrap_or_default();
    phone
        .wait_until(
            &format!(
                "document.querySelector('[data-play-table]').dataset.version !== {}",
                js(version)
            ),
            WAIT,
        )
        .await;
}

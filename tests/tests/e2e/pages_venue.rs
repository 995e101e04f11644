//! A player at a venue reaches their online tournament table from the pages alone, on a
//! phone: the seating links it, `/play` lists it under "my tables", and the game page
//! names the tournament, the round and the table, shows how each round ended and leads
//! back to the tournament at game over. The desk shows every table's state with who
//! won, and links the game and its replay. The public pages speak French too.

use std::time::Duration;

use serde_json::json;
use yaniv_e2e_tests::browser::Browser;
use yaniv_e2e_tests::spawn_app;
use yaniv_e2e_tests::tables::play_to_end;
use yaniv_e2e_tests::tournaments::{CUP_PLAYERS, short_belgian_rules, tables_of};

const WAIT: Duration = Duration::from_secs(15);

#[tokio::test]
async fn a_player_finds_and_follows_their_online_table_from_the_seating() {
    let app = spawn_app().await;
    let api = app.api();
    let org = app.new_organizer("venue_org").await;
    let mut players = Vec::new();
    for name in CUP_PLAYERS {
        players.push(app.new_player(name).await);
    }
    let id = api
        .started_tournament(
            &org,
            &players,
            &json!({
                "name": "Venue cup",
                "rules": short_belgian_rules(),
                "capacity": 8,
                "config": {"qualification_rounds": 1, "table_min": 4, "table_max": 4},
            }),
        )
        .await;
    // Table 1 online, table 2 on paper.
    let drawn = api
        .draw(id, &org.token, &json!({"paper_tables": [2]}))
        .await;
    let game = drawn["online_tables"][0]["game_table"]
        .as_i64()
        .expect("an online table");
    let stages = api.tournament_read(id, "/stages", &org.token).await;
    let seated: Vec<_> = tables_of(&stages, 1, 1)[0]
        .1
        .iter()
        .map(|seat| players.iter().find(|p| p.id == *seat).cloned().unwrap())
        .collect();
    let me = &seated[0];

    // The player logs in on a phone; /play lists the tournament table under "my tables".
    let phone = Browser::launch(390, 844).await;
    phone.goto(&app.url("/play")).await;
    phone.log_in(&me.name, "/play").await;
    phone
        .wait_until(
            &format!("document.querySelector(\"[data-my-table='{game}'] a\") !== null"),
            WAIT,
        )
        .await;
    let listed = phone
        .eval(&format!(
            "document.querySelector(\"[data-my-table='{game}']\").innerText"
        ))
        .await;
    let listed = listed.as_str().unwrap();
    assert!(
        listed.contains("Venue cup") && listed.contains("Table 1"),
        "named as its tournament names it: {listed}"
    );
    phone.check_page("venue-my-tables").await;

    // The seating: find my table, and one tap to it.
    phone
        .goto(&app.url(&format!("/t/{id}/seating?q={}", me.name.to_uppercase())))
        .await;
    phone.check_page("venue-seating-found").await;
    let cards = phone
        .eval("document.querySelectorAll('.table-card').length")
        .await;
    assert_eq!(cards, json!(1), "only the table where the name is found");
    phone.click("a[data-play-link]").await;
    phone
        .wait_until(
            &format!(
                "location.pathname === '/play/tables/{game}' && document.querySelector('[data-play-table]').dataset.version !== undefined"
            ),
            WAIT,
        )
        .await;
    let heading = phone
        .eval("document.querySelector('h1').innerText + ' | ' + document.querySelector('p.context').innerText")
        .await;
    assert_eq!(
        heading,
        json!("Table 1 | Venue cup · Qualification · Round 1"),
        "the game page says where it is played"
    );
    assert_eq!(
        phone
            .eval("document.querySelector('[data-play-after]').hidden")
            .await,
        json!(true),
        "no way out offered while the game is on"
    );
    phone.check_page("venue-table").await;

    // The desk, while the game is on: the online table says how long since its last
    // move, so a stalled table shows.
    let desk = Browser::launch(1280, 900).await;
    desk.goto(&app.url(&format!("/desk/t/{id}"))).await;
    desk.log_in("venue_org", &format!("/desk/t/{id}")).await;
    let playing = desk
        .eval("document.querySelector('section.round .table-card .status').innerText")
        .await;
    let playing = playing.as_str().unwrap();
    // ... and whose move it waits for, by name.
    let view = api.view(game, &me.token).await;
    let to_act = view["game"]["to_act"].as_u64().expect("a seat to act") as usize;
    let waited = view["table"]["seats"][to_act]["name"].as_str().unwrap();
    assert!(
        playing.starts_with(&format!("playing · {waited} to play · last move "))
            && playing.ends_with(" min ago"),
        "{playing}"
    );

    // The game is played (through the API, for every seat); the page follows it.
    let played = play_to_end(&api, game, &seated, 5_000, 0, |_| async {}).await;
    let rounds: serde_json::Value = api
        .get(&format!("/v1/tables/{game}/rounds"), &me.token)
        .await
        .json()
        .await
        .expect("the rounds");
    let rounds = rounds["rounds"].as_array().expect("the rounds").clone();
    assert!(!rounds.is_empty());
    let last = rounds.last().unwrap();
    phone
        .wait_until(
            "document.querySelector('[data-play-after]').hidden === false",
            WAIT,
        )
        .await;
    phone
        .wait_until(
            &format!(
                "!document.querySelector('[data-play-last-round]').hidden && document.querySelector('[data-play-last-round] h2').innerText.includes('Round {}')",
                last["round"]
            ),
            WAIT,
        )
        .await;
    let summary = phone
        .eval("document.querySelector('[data-play-last-round]').innerText")
        .await;
    let summary = summary.as_str().unwrap();
    for (seat, total) in last["totals"].as_array().unwrap().iter().enumerate() {
        let name = played.summary["seats"][seat]["name"].as_str().unwrap();
        assert!(
            summary.contains(&format!("{name}: ")) && summary.contains(&format!("total {total}")),
            "seat {seat} in the summary: {summary}"
        );
    }
    let back = phone
        .eval("document.querySelector('[data-play-after] a').getAttribute('href')")
        .await;
    assert_eq!(back, json!(format!("/t/{id}/standings")));
    phone.check_page("venue-game-over").await;

    // The seating card says who won; the desk shows it too, with the game and replay.
    let winner = played.summary["standings"][0]["name"]
        .as_str()
        .unwrap()
        .to_owned();
    phone.goto(&app.url(&format!("/t/{id}/seating"))).await;
    let card = phone
        .eval("document.querySelector('.table-card').innerText")
        .await;
    assert!(
        card.as_str().unwrap().contains(&format!("won by {winner}")),
        "{card}"
    );
    desk.goto(&app.url(&format!("/desk/t/{id}"))).await;
    let desk_card = desk
        .eval("document.querySelector('section.round .table-card').innerText")
        .await;
    let desk_card = desk_card.as_str().unwrap();
    assert!(
        desk_card.contains("online") && desk_card.contains(&format!("won by {winner}")),
        "{desk_card}"
    );
    let links = desk
        .eval("Array.from(document.querySelectorAll('section.round .table-card a')).map(a => a.getAttribute('href')).join(' ')")
        .await;
    assert_eq!(
        links,
        json!(format!(
            "/play/tables/{game} /desk/tables/{game} /desk/t/{id}/tables/1/1/2"
        ))
    );
    assert_eq!(
        desk.eval("document.querySelector('[data-desk-missing]').innerText")
            .await,
        json!("Results still missing: Table 2")
    );
    assert!(
        desk.eval("document.querySelector('.print-links').innerText")
            .await
            .as_str()
            .unwrap()
            .contains("Score sheets"),
        "the printables from the desk"
    );
    desk.check_page("venue-desk").await;

    // Table 2's first player did not come: marked from the desk, with a reason.
    let paper_players = tables_of(&stages, 1, 1)[1].1.clone();
    let absent_name = players
        .iter()
        .find(|p| p.id == paper_players[0])
        .unwrap()
        .name
        .clone();
    desk.click("section.round .table-card:nth-child(2) details.no-show summary")
        .await;
    desk.type_into(
        "section.round .table-card:nth-child(2) input[name=reason]",
        "not at the table 15 minutes after the start",
    )
    .await;
    desk.click("section.round .table-card:nth-child(2) form[data-desk-no-show] button")
        .await;
    desk.wait_until(
        "document.querySelector('[data-desk-status].done') !== null",
        WAIT,
    )
    .await;
    assert!(
        desk.dialogs()
            .iter()
            .any(|d| d.starts_with(&format!("Mark {absent_name} as not come?"))),
        "asked first, by name: {:?}",
        desk.dialogs()
    );
    let after = api.tournament_read(id, "/stages", &org.token).await;
    assert_eq!(
        after["stages"][0]["rounds"][0]["tables"][1]["absent"],
        json!([paper_players[0]])
    );

    // Table 2's sheet: a hand the rules refuse is named by its player, as the sheet
    // names its columns, not by a seat counted from 0.
    desk.goto(&app.url(&format!("/desk/t/{id}/tables/1/1/2")))
        .await;
    desk.wait_until(
        "document.querySelector('[data-sheet-rounds] tr') !== null",
        WAIT,
    )
    .await;
    let first_column = desk
        .eval("document.querySelector('thead th[data-seat=\"0\"]').innerText")
        .await;
    let first_column = first_column.as_str().unwrap().to_owned();
    desk.eval(
        "(() => { const s = document.querySelector('[data-sheet-rounds] [data-who]'); s.value = '1'; \
         s.dispatchEvent(new Event('change', {bubbles: true})); })()",
    )
    .await;
    for (column, hand) in ["75", "3", "20"].iter().enumerate() {
        desk.type_into(
            &format!("[data-sheet-rounds] td[data-seat='{column}'] input[data-hand]"),
            hand,
        )
        .await;
    }
    desk.wait_until(
        "document.querySelector('[data-problem]').innerText.includes('cannot total 75')",
        WAIT,
    )
    .await;
    let problem = desk
        .eval("document.querySelector('[data-problem]').innerText")
        .await;
    assert!(
        problem
            .as_str()
            .unwrap()
            .starts_with(&format!("{first_column}: a hand cannot total 75")),
        "{problem}"
    );

    // The projector, on a 1080p wall screen: the round out of how many, names readable
    // from the back of the hall (48 px at least), no registration order.
    let wall = Browser::launch(1920, 1080).await;
    wall.goto(&app.url(&format!("/t/{id}/projector"))).await;
    let seating = wall
        .eval("document.querySelector('#seating').innerText")
        .await;
    assert_eq!(seating, json!("Seating · Round 1 of 1"));
    let name_px = wall
        .eval("parseFloat(getComputedStyle(document.querySelector('.table-card li')).fontSize)")
        .await
        .as_f64()
        .unwrap();
    assert!(name_px >= 48.0, "names at {name_px} px");
    wall.check_page("venue-projector-seating").await;
    wall.eval("document.querySelector('[data-part=seating]').hidden = true; document.querySelector('[data-part=standings]').hidden = false")
        .await;
    let row_px = wall
        .eval("parseFloat(getComputedStyle(document.querySelector('[data-part=standings] tbody th')).fontSize)")
        .await
        .as_f64()
        .unwrap();
    assert!(row_px >= 48.0, "standings names at {row_px} px");
    assert_eq!(
        wall.eval("getComputedStyle(document.querySelector('[data-part=standings] td.registration')).display")
            .await,
        json!("none")
    );
    wall.check_page("venue-projector-standings").await;

    // The table cards: each with a QR code to its table's page (the online game, or
    // the seating for a paper table).
    wall.goto(&app.url(&format!("/t/{id}/print/cards"))).await;
    let codes = wall
        .eval("Array.from(document.querySelectorAll('.card .qr')).map(q => q.querySelector('svg') !== null && q.getAttribute('aria-label'))")
        .await;
    assert_eq!(
        codes,
        json!(["QR code: this table's page", "QR code: this table's page"])
    );
    wall.check_page("venue-cards").await;
    wall.pdf("venue-cards").await;

    // The same pages in French, chosen by the browser's language or the switch.
    phone
        .goto(&app.url(&format!("/t/{id}/seating?lang=fr")))
        .await;
    let french = phone.text().await;
    assert!(
        french.contains(&format!("résultat enregistré · gagnée par {winner}")),
        "the result in French: {french}"
    );
    assert_eq!(
        phone.eval("document.documentElement.lang").await,
        json!("fr")
    );
    phone.check_page("venue-seating-fr").await;
    phone.goto(&app.url(&format!("/play/tables/{game}"))).await;
    phone
        .wait_until(
            &format!(
                "document.querySelector('[data-play-last-round] h2').innerText.includes('Manche {}')",
                last["round"]
            ),
            WAIT,
        )
        .await;
    assert!(
        phone.text().await.contains("Retour au tournoi"),
        "the way back, in French"
    );
    phone.check_page("venue-game-over-fr").await;
}

/// Accounts at the door, from the pages: the organizer registers a list (CSV) on the
/// desk and prints the slips with each new player's set-up code; a listed player
/// follows their slip's link on a phone and chooses a password; a walk-in creates an
/// account on a phone and is registered at the desk under that name.
#[tokio::test]
async fn listed_players_and_walk_ins_get_their_accounts_from_the_pages() {
    let app = spawn_app().await;
    let api = app.api();
    let org = app.new_organizer("door_org").await;
    let known = app.new_player("known_kim").await;
    let id = api
        .create_tournament(
            &org.token,
            &json!({
                "name": "Door cup",
                "rules": {"preset": "belgian"},
                "capacity": 16,
                "config": {"qualification_rounds": 1, "table_min": 4, "table_max": 4},
            }),
        )
        .await["id"]
        .as_i64()
        .unwrap();
    api.accepted(id, &org.token, &json!({"command": "open_registration"}))
        .await;

    let desk = Browser::launch(1280, 900).await;
    desk.goto(&app.url(&format!("/desk/t/{id}"))).await;
    desk.log_in("door_org", &format!("/desk/t/{id}")).await;
    desk.click("details.door summary").await;
    desk.type_into(
        "#door-list",
        "username,check_in\nknown_kim,yes\nlisa_l,yes\nmarc_m,no\n",
    )
    .await;
    desk.click("form[data-desk-door] button").await;
    desk.wait_until(
        "document.querySelector('[data-desk-slips]').hidden === false",
        WAIT,
    )
    .await;
    let slips = desk
        .eval("Array.from(document.querySelectorAll('[data-slip]')).map(s => s.innerText)")
        .await;
    let slips: Vec<String> = serde_json::from_value(slips).unwrap();
    assert_eq!(slips.len(), 3, "{slips:?}");
    assert!(
        slips[0].contains("known_kim") && !slips[0].contains("Set-up code"),
        "an existing account gets no code: {}",
        slips[0]
    );
    assert!(slips[1].contains("lisa_l · registered") && slips[1].contains("Set-up code: "));
    let link = desk
        .eval("document.querySelector(\"[data-slip='lisa_l'] a\").href")
        .await;
    let link = link.as_str().unwrap().to_owned();
    assert!(link.contains("/desk/setup?username=lisa_l&code="), "{link}");
    // The registration list shows them at once.
    desk.wait_until(
        "document.querySelector('[data-desk-players]').innerText.includes('marc_m')",
        WAIT,
    )
    .await;
    // Each new player's slip carries the link as a QR code too, drawn by the server.
    desk.wait_until(
        "Array.from(document.querySelectorAll('[data-slip] img.qr')).every(i => i.complete && i.naturalWidth > 0)",
        WAIT,
    )
    .await;
    assert_eq!(
        desk.eval("document.querySelectorAll('[data-slip] img.qr').length")
            .await,
        json!(2)
    );
    desk.check_page("door-slips").await;
    let players = api.tournament_read(id, "/players", &org.token).await;
    assert_eq!(players["players"].as_array().unwrap().len(), 3);
    let _ = &known;

    // Lisa follows her slip on a phone: name and code filled in, a password twice.
    let lisa = Browser::launch(390, 844).await;
    lisa.goto(&link).await;
    assert_eq!(
        lisa.eval("document.querySelector('#username').value").await,
        json!("lisa_l")
    );
    lisa.check_page("door-setup").await;
    lisa.type_into("#password", "lisa plays yaniv").await;
    lisa.type_into("#confirm", "lisa plays yaniv").await;
    lisa.click("form[data-desk-login] button").await;
    lisa.wait_until(
        "location.pathname === '/play' && document.querySelector('[data-desk-user]').innerText.includes('lisa_l')",
        WAIT,
    )
    .await;
    // Her password works.
    assert_eq!(
        app.login("lisa_l", "lisa plays yaniv").await.status(),
        reqwest::StatusCode::CREATED
    );

    // A walk-in signs up on a phone; two different passwords are caught first.
    let wim = Browser::launch(390, 844).await;
    wim.goto(&app.url("/desk/login?next=/play")).await;
    wim.click("a[href^='/desk/signup']").await;
    wim.wait_until("location.pathname === '/desk/signup'", WAIT)
        .await;
    wim.check_page("door-signup").await;
    wim.type_into("#username", "walk_wim").await;
    wim.type_into("#password", "wim at the door").await;
    wim.type_into("#confirm", "wim at the dour").await;
    wim.click("form[data-desk-login] button").await;
    wim.wait_until(
        "document.querySelector('[data-desk-status].problem') !== null",
        WAIT,
    )
    .await;
    assert_eq!(
        wim.eval("document.querySelector('[data-desk-status]').innerText")
            .await,
        json!("The two passwords differ.")
    );
    wim.eval("document.querySelector('#confirm').value = ''")
        .await;
    wim.type_into("#confirm", "wim at the door").await;
    wim.click("form[data-desk-login] button").await;
    wim.wait_until(
        "location.pathname === '/play' && document.querySelector('[data-desk-user]').innerText.includes('walk_wim')",
        WAIT,
    )
    .await;
    // Registering someone twice is refused in words that name them, not their id,
    // next to the form that asked.
    assert_eq!(
        refused_registration(&desk, "known_kim").await,
        (
            "known_kim is already registered.".to_owned(),
            "known_kim is already registered.".to_owned()
        )
    );
    // A French-speaking desk hears it in French.
    desk.goto(&app.url(&format!("/desk/t/{id}?lang=fr"))).await;
    assert_eq!(
        refused_registration(&desk, "known_kim").await.0,
        "known_kim est déjà inscrit(e)."
    );
    desk.eval("document.querySelector('#register').value = ''")
        .await;
    // The desk registers him by the name he chose.
    desk.type_into("#register", "walk_wim").await;
    desk.click("form[data-desk-register] button").await;
    desk.wait_until(
        "document.querySelector('[data-desk-players]').innerText.includes('walk_wim')",
        WAIT,
    )
    .await;
}

/// The officials of the day, from the pages: an admin gives an account the referee
/// role on the accounts page, and the organizer names that referee for their
/// tournament on its desk (and could remove them there). Someone who is not an admin
/// sees the roles but cannot change them.
#[tokio::test]
async fn an_admin_grants_a_role_and_the_organizer_names_the_referee_of_the_day() {
    let app = spawn_app().await;
    let api = app.api();
    let admin = app.new_player_with_role("ada_admin", "admin").await;
    let org = app.new_organizer("oscar_org").await;
    let rita = app.new_player("rita_r").await;
    let id = api
        .create_tournament(
            &org.token,
            &json!({"name": "Officials cup", "rules": {"preset": "belgian"}, "capacity": 8}),
        )
        .await["id"]
        .as_i64()
        .unwrap();

    // The organizer may look at the accounts page but not change a role.
    let desk = Browser::launch(1280, 900).await;
    desk.goto(&app.url("/desk/accounts")).await;
    desk.log_in("oscar_org", "/desk/accounts").await;
    desk.wait_until(
        "document.querySelector('[data-accounts-not-admin]').hidden === false",
        WAIT,
    )
    .await;

    // The admin finds rita_r and makes her a referee.
    let page = Browser::launch(1280, 900).await;
    page.goto(&app.url("/desk/accounts")).await;
    page.log_in(&admin.name, "/desk/accounts").await;
    page.type_into("#account-prefix", "rita").await;
    page.click("form[data-desk-accounts] button").await;
    page.wait_until(
        "document.querySelector(\"[data-account='rita_r']\") !== null",
        WAIT,
    )
    .await;
    page.click("[data-account='rita_r'] input[value='referee']")
        .await;
    page.click("[data-account='rita_r'] button").await;
    page.wait_until(
        "document.querySelector('[data-desk-status].done') !== null",
        WAIT,
    )
    .await;
    page.check_page("accounts-roles").await;
    let found: serde_json::Value = app
        .get("/v1/accounts?username=rita_r", Some(&org.token))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        found["accounts"][0]["roles"],
        json!(["referee", "player"]),
        "the role is granted, the player role kept"
    );

    // The organizer names her for the tournament on its desk.
    desk.goto(&app.url(&format!("/desk/t/{id}"))).await;
    desk.type_into("#referee", "rita_r").await;
    desk.click("form[data-desk-referee] button").await;
    desk.wait_until(
        "document.querySelector('[data-desk-referees]').innerText.includes('rita_r')",
        WAIT,
    )
    .await;
    let read = api.tournament_read(id, "", &org.token).await;
    assert_eq!(read["tournament"]["referees"], json!([rita.id]));
    desk.check_page("desk-referees").await;
}

/// Registers `name` on the desk, which refuses it: what the status line says, and what
/// is said next to the form.
async fn refused_registration(desk: &Browser, name: &str) -> (String, String) {
    desk.type_into("#register", name).await;
    desk.click("form[data-desk-register] button").await;
    desk.wait_until(
        "document.querySelector('[data-desk-status].problem') !== null",
        WAIT,
    )
    .await;
    let said = desk
        .eval(
            "[document.querySelector('[data-desk-status]').innerText, \
             (document.querySelector('form[data-desk-register] .said.problem') || {}).innerText || '']",
        )
        .await;
    desk.take_errors();
    serde_json::from_value(said).expect("two texts")
}

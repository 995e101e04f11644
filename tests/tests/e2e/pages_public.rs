//! The public pages in a real browser (headless Chromium): a visitor finds the
//! tournament from `/`, looks up their table by name, and watches the standings take a
//! result within a second without reloading; every page in English and Dutch, with no
//! console error and no serious accessibility violation. Screenshots are kept in
//! `target/screenshots/`.

use std::time::Duration;

use serde_json::{Value, json};
use yaniv_e2e_tests::browser::Browser;
use yaniv_e2e_tests::tables::Player;
use yaniv_e2e_tests::tournaments::paper_cup;
use yaniv_e2e_tests::{TestApp, spawn_app};

/// An 8-player cup with its first round drawn on paper; its id, the organizer, the
/// players and the round's tables.
async fn cup(app: &TestApp) -> (i64, Player, Vec<Player>, Vec<(Value, Vec<i64>)>) {
    paper_cup(app, "Pages cup", "page_org", &[1, 2]).await
}

#[tokio::test]
async fn a_visitor_finds_the_tournament_their_table_and_live_standings() {
    let app = spawn_app().await;
    let api = app.api();
    let (id, org, players, tables) = cup(&app).await;
    let name_of = |player: i64| {
        players
            .iter()
            .find(|p| p.id == player)
            .map(|p| p.name.clone())
            .unwrap()
    };
    let browser = Browser::launch(1280, 900).await;

    // The landing page lists the tournament; its link leads to the overview.
    browser.goto(&app.url("/")).await;
    assert!(browser.text().await.contains("Pages cup"));
    browser.check_page("landing").await;
    browser.click(&format!("a[href='/t/{id}']")).await;
    browser
        .wait_until(
            "document.querySelector('h1')?.innerText === 'Pages cup'",
            Duration::from_secs(10),
        )
        .await;
    assert!(browser.text().await.contains("qualification"));
    browser.check_page("tournament-overview").await;

    // Find my table: part of a name, in any case.
    browser.goto(&app.url(&format!("/t/{id}/seating"))).await;
    assert_eq!(
        browser
            .eval("document.querySelectorAll('.table-card').length")
            .await,
        2
    );
    browser.check_page("tournament-seating").await;
    let (_, seated) = &tables[1];
    let wanted = name_of(seated[2]);
    browser.type_into("#q", &wanted[..4].to_uppercase()).await;
    browser.press_enter_and_wait().await;
    let found = browser
        .eval("Array.from(document.querySelectorAll('.table-card')).map(c => c.innerText)")
        .await;
    let found = found.as_array().unwrap();
    assert_eq!(found.len(), 1, "only the table of {wanted}: {found:?}");
    let card = found[0].as_str().unwrap();
    assert!(card.starts_with("Table 2"), "{card}");
    for player in seated {
        assert!(card.contains(&name_of(*player)), "{card}");
    }
    assert_eq!(
        browser
            .eval("document.querySelector('.table-card mark').innerText")
            .await,
        json!(wanted)
    );
    browser.check_page("tournament-seating-found").await;

    // The standings follow the results live: no reload (the page keeps a mark of its
    // own), within a second.
    browser.goto(&app.url(&format!("/t/{id}/standings"))).await;
    assert_eq!(
        browser
            .eval("document.querySelectorAll('tbody tr').length")
            .await,
        8
    );
    browser.check_page("tournament-standings-before").await;
    browser.eval("window.stayed = true").await;
    // Let the stream connect before the change.
    browser
        .wait_until(
            "document.documentElement.dataset.following === 'true'",
            Duration::from_secs(5),
        )
        .await;
    let (first_table, first_players) = &tables[0];
    let mut order = first_players.clone();
    order.sort_unstable();
    let winner = name_of(order[0]);
    api.record_order(id, &org.token, first_table, &order).await;
    let took = browser
        .wait_until(
            &format!(
                "window.stayed === true && Array.from(document.querySelectorAll('tbody tr'))\
                 .some(r => r.innerText.includes({}) && r.innerText.includes('100.00'))",
                serde_json::to_string(&winner).unwrap()
            ),
            Duration::from_secs(5),
        )
        .await;
    assert!(
        took < Duration::from_secs(1),
        "the result showed after {took:?}"
    );
    browser.check_page("tournament-standings").await;

    // The bracket, the (not yet) ranking and the wall screen.
    browser.goto(&app.url(&format!("/t/{id}/stages"))).await;
    let text = browser.text().await;
    assert!(
        text.contains(&format!("{winner} — place 1, 10 points")),
        "{text}"
    );
    browser.check_page("tournament-stages").await;
    browser.goto(&app.url(&format!("/t/{id}/ranking"))).await;
    assert!(
        browser
            .text()
            .await
            .contains("once the final table has its result")
    );
    browser.check_page("tournament-ranking").await;
    browser.goto(&app.url(&format!("/t/{id}/projector"))).await;
    assert_eq!(
        browser.eval("document.body.className").await,
        json!("projector")
    );
    // The script shows one part at a time.
    assert_eq!(
        browser
            .eval(
                "Array.from(document.querySelectorAll('[data-part]')).filter(p => !p.hidden).length"
            )
            .await,
        1
    );
    browser.check_page("tournament-projector").await;

    // In Dutch: the switch sets it, and it sticks on the next page.
    browser
        .goto(&app.url(&format!("/t/{id}/standings?lang=nl")))
        .await;
    assert_eq!(
        browser.eval("document.documentElement.lang").await,
        json!("nl")
    );
    assert!(browser.text().await.contains("Klassement"));
    browser.check_page("tournament-standings-nl").await;
    browser.goto(&app.url(&format!("/t/{id}/seating"))).await;
    assert!(browser.text().await.contains("Zoek mijn tafel"));
    browser.check_page("tournament-seating-nl").await;

    // A tournament that does not exist is a page too, with its status.
    let missing = app.get("/t/999999", None).await;
    assert_eq!(missing.status(), reqwest::StatusCode::NOT_FOUND);
    assert!(
        missing.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/html")
    );
    browser.goto(&app.url("/t/999999")).await;
    assert!(browser.text().await.contains("Dit toernooi bestaat niet"));
    browser.take_errors();
}

#[tokio::test]
async fn the_seating_reads_on_a_phone() {
    let app = spawn_app().await;
    let (id, _, _, _) = cup(&app).await;
    let browser = Browser::launch(390, 844).await;
    browser.goto(&app.url(&format!("/t/{id}/seating"))).await;
    // Nothing wider than the screen.
    assert_eq!(
        browser
            .eval("document.documentElement.scrollWidth <= window.innerWidth")
            .await,
        json!(true)
    );
    browser.check_page("tournament-seating-phone").await;
}

//! Every page in every language, at a phone's width and a desktop's: axe-core finds
//! no violation of WCAG 2.1 A and AA of any impact, no script fails, and the page
//! says which language it is in. The pages are those of a tournament in play (a
//! round drawn, one table online and one on paper), the desk's, the player's and the
//! account pages.

use serde_json::json;
use yaniv_e2e_tests::browser::Browser;
use yaniv_e2e_tests::spawn_app;
use yaniv_e2e_tests::tournaments::paper_cup;

#[tokio::test]
async fn every_page_in_every_language_at_phone_and_desktop_widths() {
    let app = spawn_app().await;
    let (id, org, _players, _tables) = paper_cup(&app, "Language cup", "lang_org", &[2]).await;
    let stages = app.api().tournament_read(id, "/stages", &org.token).await;
    let online = stages["stages"][0]["rounds"][0]["tables"][0]["game"]
        .as_str()
        .and_then(|g| g.strip_prefix("table-"))
        .expect("table 1 online")
        .to_owned();
    let pages = [
        "/".to_owned(),
        format!("/t/{id}"),
        format!("/t/{id}/seating"),
        format!("/t/{id}/standings"),
        format!("/t/{id}/stages"),
        format!("/t/{id}/ranking"),
        format!("/t/{id}/projector"),
        format!("/t/{id}/print/sheets"),
        format!("/t/{id}/print/cards"),
        format!("/t/{id}/print/standings"),
        "/desk/signup".to_owned(),
        "/desk/setup".to_owned(),
        "/replay".to_owned(),
        "/desk".to_owned(),
        format!("/desk/t/{id}"),
        format!("/desk/t/{id}/tables/1/1/2"),
        "/desk/accounts".to_owned(),
        "/play".to_owned(),
        format!("/play/tables/{online}"),
    ];
    let mut problems = Vec::new();
    for (width, height) in [(390, 844), (1280, 900)] {
        let browser = Browser::launch(width, height).await;
        browser.goto(&app.url("/desk/login?next=/desk")).await;
        browser.log_in(&org.name, "/desk").await;
        for lang in ["en", "nl", "fr"] {
            for page in &pages {
                let join = if page.contains('?') { '&' } else { '?' };
                browser
                    .goto(&app.url(&format!("{page}{join}lang={lang}")))
                    .await;
                // The scripts that draw part of the page have drawn it.
                browser.eval("new Promise(r => setTimeout(r, 150))").await;
                assert_eq!(
                    browser.eval("document.documentElement.lang").await,
                    json!(lang),
                    "{page}"
                );
                for v in browser.every_accessibility_violation().await {
                    problems.push(format!("{lang} {width}px {page}: {v}"));
                }
                for e in browser.take_errors() {
                    problems.push(format!("{lang} {width}px {page}: script error {e}"));
                }
            }
            let shot = format!("languages-{lang}-{width}-desk");
            browser
                .goto(&app.url(&format!("/desk/t/{id}?lang={lang}")))
                .await;
            browser.screenshot(&shot).await;
        }
    }
    assert!(problems.is_empty(), "{problems:#?}");
}

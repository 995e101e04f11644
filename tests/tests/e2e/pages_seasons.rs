//! Issue 34, the pages: the season list (`/seasons`), a season's standings
//! (`/seasons/{id}`) and the desk's seasons (`/desk/seasons`, `/desk/seasons/{id}`) in
//! headless Chromium. Two finished paper tournaments and one still running, in a season
//! made through the API where only the best result counts: the page shows the API's
//! places, totals and points, the result that does not count in parentheses and said
//! so; the list pages; an unknown season is a 404 page; the desk creates a season and
//! adds and removes a tournament, which the API then shows, and says a refused scale and
//! a refused final in the page's words. Every page in every language at a phone's and a desktop's width,
//! with axe finding no violation of any impact. Screenshots in
//! `target/screenshots/seasons-*`.

use std::time::Duration;

use reqwest::StatusCode;
use serde_json::{Value, json};
use yaniv_e2e_tests::browser::Browser;
use yaniv_e2e_tests::tables::{Api, Player};
use yaniv_e2e_tests::tournaments::paper_tournament;
use yaniv_e2e_tests::{TestApp, spawn_app};

const WAIT: Duration = Duration::from_secs(15);

const PLAYERS: [&str; 8] = [
    "sea_ann",
    "sea_bram",
    "sea_chloe",
    "sea_dirk",
    "sea_els",
    "sea_femke",
    "sea_geert",
    "sea_hanne",
];

/// A season's scale in these tests: places 1 to 6 earn points, the best result counts.
const POINTS: [u32; 6] = [10, 6, 4, 3, 2, 1];

/// The tournaments of the season: two finished (the second the other way round) and
/// one whose final table has no result yet.
struct Series {
    org: Player,
    tournaments: [i64; 3],
    season: i64,
}

async fn series(app: &TestApp) -> Series {
    let api = app.api();
    let org = app.new_organizer("sea_org").await;
    let mut players = Vec::new();
    for name in PLAYERS {
        players.push(app.new_player(name).await);
    }
    let (spring, _) = paper_tournament(
        &api,
        &org,
        &players,
        "Spring cup",
        json!({}),
        |seats| seats.to_vec(),
        true,
    )
    .await;
    let (summer, _) = paper_tournament(
        &api,
        &org,
        &players,
        "Summer cup",
        json!({}),
        |seats| seats.iter().rev().copied().collect(),
        true,
    )
    .await;
    let (autumn, _) = paper_tournament(
        &api,
        &org,
        &players,
        "Autumn cup",
        json!({}),
        |seats| seats.to_vec(),
        false,
    )
    .await;
    let created = Api::json_ok(
        api.post(
            "/v1/seasons",
            &org.token,
            Some(&json!({"name": "Club series", "points": POINTS, "best": 1})),
        )
        .await,
        StatusCode::CREATED,
        "a season",
    )
    .await;
    let season = created["id"].as_i64().expect("a season id");
    for t in [spring, summer, autumn] {
        Api::json_ok(
            api.post(
                &format!("/v1/seasons/{season}/commands"),
                &org.token,
                Some(&json!({"command": "add_tournament", "tournament": t})),
            )
            .await,
            StatusCode::OK,
            "add_tournament",
        )
        .await;
    }
    Series {
        org,
        tournaments: [spring, summer, autumn],
        season,
    }
}

async fn api_json(app: &TestApp, path: &str) -> Value {
    Api::json_ok(app.get(path, None).await, StatusCode::OK, path).await
}

/// The standings as the page shows them: [place, player, total, then each result
/// column's (counted or not, and its text with what screen readers hear)].
async fn shown_standings(browser: &Browser) -> Vec<Vec<String>> {
    let rows = browser
        .eval(
            "Array.from(document.querySelectorAll('table.season-standings tbody tr'))\
             .map(r => Array.from(r.children).map((c, k) => k < 3 ? c.innerText.trim() \
               : c.dataset.counted + ' ' + c.textContent.trim()))",
        )
        .await;
    serde_json::from_value(rows).expect("rows of text")
}

/// The API's standings as the English page must write them.
fn expected_standings(standings: &Value) -> Vec<Vec<String>> {
    let counted: Vec<i64> = serde_json::from_value(standings["counted_tournaments"].clone())
        .expect("counted tournaments");
    standings["standings"]
        .as_array()
        .expect("standings")
        .iter()
        .map(|row| {
            let mut shown = vec![
                row["place"].to_string(),
                row["username"].as_str().unwrap_or_default().to_owned(),
                row["total"].to_string(),
            ];
            for t in &counted {
                let result = row["results"]
                    .as_array()
                    .expect("results")
                    .iter()
                    .find(|r| r["tournament"] == *t);
                shown.push(match result {
                    Some(r) if r["counted"] == true => format!("true {}", r["points"]),
                    Some(r) => format!("false ({}) not counted", r["points"]),
                    None => "none – no result".to_owned(),
                });
            }
            shown
        })
        .collect()
}

/// What `check_page` asks of a page that answered with a 4xx status, which the browser
/// logs as a failed load (no other console error allowed).
async fn check_refusal_page(browser: &Browser, name: &str) {
    browser.screenshot(name).await;
    let violations = browser.accessibility_violations().await;
    assert!(violations.is_empty(), "{name}: {violations:#?}");
    let errors: Vec<String> = browser
        .take_errors()
        .into_iter()
        .filter(|e| !is_status_log(e))
        .collect();
    assert!(errors.is_empty(), "{name}: {errors:#?}");
}

/// Chromium's log line for a page answered with a 4xx status.
fn is_status_log(error: &str) -> bool {
    error.contains("the server responded with a status of 4")
}

/// Clicks `selector` and waits for the page whose address contains `address`.
async fn follow(browser: &Browser, selector: &str, address: &str) {
    browser.click(selector).await;
    browser
        .wait_until(
            &format!(
                "location.href.includes({}) && document.readyState === 'complete'",
                serde_json::to_string(address).expect("text")
            ),
            WAIT,
        )
        .await;
}

#[tokio::test]
async fn the_season_pages_show_the_apis_standings_and_the_desk_builds_a_season() {
    let app = spawn_app().await;
    let Series {
        org,
        tournaments: [spring, summer, autumn],
        season,
    } = series(&app).await;
    let browser = Browser::launch(1280, 900).await;

    // The landing page leads to the list, the list to the season.
    browser.goto(&app.url("/?lang=en")).await;
    follow(&browser, "a[href^='/seasons']", "/seasons").await;
    let listed = browser
        .eval(
            "Array.from(document.querySelectorAll('table.seasons tbody tr'))\
             .map(r => [r.querySelector('a').getAttribute('href'), r.children[0].innerText, r.children[1].innerText])",
        )
        .await;
    assert_eq!(
        listed,
        json!([[format!("/seasons/{season}"), "Club series", "3"]])
    );
    browser.check_page("seasons-list").await;
    follow(
        &browser,
        &format!("a[href='/seasons/{season}']"),
        &format!("/seasons/{season}"),
    )
    .await;

    // The scale and the count, as the season has them.
    let text = browser.text().await;
    assert!(
        text.contains("1st 10, 2nd 6, 3rd 4, 4th 3, 5th 2, 6th 1; any place further down: 0"),
        "{text}"
    );
    assert!(
        text.contains("Only a player's best result counts"),
        "{text}"
    );

    // The tournaments, each to its public page, the running one not counting yet.
    let members = browser
        .eval(
            "Array.from(document.querySelectorAll('table.members tbody tr'))\
             .map(r => [r.querySelector('a').getAttribute('href'), r.children[2].innerText])",
        )
        .await;
    assert_eq!(
        members,
        json!([
            [format!("/t/{spring}"), "yes"],
            [format!("/t/{summer}"), "yes"],
            [format!("/t/{autumn}"), "not yet: once it has finished"],
        ])
    );

    // The standings are the API's: places, players, totals, and every result, the one
    // outside the best in parentheses and named for screen readers.
    let standings = api_json(&app, &format!("/v1/seasons/{season}/standings")).await;
    assert_eq!(standings["counted_tournaments"], json!([spring, summer]));
    let shown = shown_standings(&browser).await;
    assert_eq!(shown, expected_standings(&standings));
    assert_eq!(shown.len(), PLAYERS.len());
    // Everyone played both finished tournaments and only the best counts: one result
    // of each player is left out.
    for row in &shown {
        assert_eq!(
            row.iter().filter(|c| c.starts_with("false (")).count(),
            1,
            "{row:?}"
        );
    }
    let headers = browser
        .eval(
            "Array.from(document.querySelectorAll('table.season-standings thead th'))\
             .map(h => h.innerText)",
        )
        .await;
    assert_eq!(
        headers,
        json!(["Place", "Player", "Total", "Spring cup", "Summer cup"])
    );
    let linked = browser
        .eval("Array.from(document.querySelectorAll('table.season-standings tbody th a')).map(a => a.getAttribute('href'))")
        .await;
    let first = standings["standings"][0]["username"]
        .as_str()
        .expect("a name");
    assert_eq!(linked[0], json!(format!("/players/{first}")));
    browser.check_page("seasons-season").await;

    // The CSV is the API's.
    let csv_link = browser
        .eval("document.querySelector('a[download]').getAttribute('href')")
        .await;
    assert_eq!(
        csv_link,
        json!(format!("/v1/seasons/{season}/standings?format=csv"))
    );
    let csv = app
        .get(&format!("/v1/seasons/{season}/standings?format=csv"), None)
        .await;
    assert_eq!(csv.status(), StatusCode::OK);
    assert_eq!(
        csv.text().await.unwrap_or_default().lines().count(),
        1 + PLAYERS.len()
    );

    // An unknown season is a 404 page, in the reader's language.
    let missing = app.get("/seasons/999999", None).await;
    assert_eq!(missing.status(), StatusCode::NOT_FOUND);
    assert!(
        missing.headers()["content-type"]
            .to_str()
            .unwrap_or("")
            .starts_with("text/html")
    );
    browser.goto(&app.url("/seasons/999999?lang=nl")).await;
    assert!(browser.text().await.contains("Dit seizoen bestaat niet."));
    check_refusal_page(&browser, "seasons-missing").await;
    let bad_page = app.get("/seasons?before=soon", None).await;
    assert_eq!(bad_page.status(), StatusCode::UNPROCESSABLE_ENTITY);

    // The desk: a season from the form, then a tournament added and removed.
    browser.goto(&app.url("/desk/seasons?lang=en")).await;
    browser.log_in(&org.name, "/desk/seasons").await;
    browser
        .wait_until(
            "document.querySelector('[data-desk-user]').innerText.includes('sea_org')",
            WAIT,
        )
        .await;
    browser.check_page("seasons-desk").await;
    browser.type_into("#s-name", "Desk series").await;
    // Not numbers: said by the page before anything is sent.
    browser.type_into("#s-points", "ten, six").await;
    browser.click("form[data-desk-season-create] button").await;
    browser
        .wait_until(
            "document.querySelector('[data-desk-status]').innerText.includes('whole numbers separated by commas')",
            WAIT,
        )
        .await;
    // A rising scale: the server refuses the field, said in the page's words.
    browser
        .eval("document.querySelector('#s-points').value = ''")
        .await;
    browser.type_into("#s-points", "6, 10").await;
    browser.click("form[data-desk-season-create] button").await;
    browser
        .wait_until(
            "document.querySelector('[data-desk-status]').innerText.includes('never rising from one place to the next')",
            WAIT,
        )
        .await;
    // The refused request is logged by the browser as a failed load.
    check_refusal_page(&browser, "seasons-desk-refused").await;
    browser
        .eval("document.querySelector('#s-points').value = ''")
        .await;
    browser.type_into("#s-points", "25, 18, 15").await;
    browser.type_into("#s-best", "2").await;
    browser.click("form[data-desk-season-create] button").await;
    browser
        .wait_until(
            "location.pathname.startsWith('/desk/seasons/') && document.readyState === 'complete'",
            WAIT,
        )
        .await;
    let made = browser
        .eval("Number(location.pathname.split('/').pop())")
        .await
        .as_i64()
        .expect("the new season's id");
    let shown = api_json(&app, &format!("/v1/seasons/{made}")).await;
    assert_eq!(shown["name"], "Desk series");
    assert_eq!(shown["points"], json!([25, 18, 15]));
    assert_eq!(shown["best"], 2);
    assert_eq!(shown["tournaments"], json!([]));
    browser.check_page("seasons-desk-season-empty").await;

    browser
        .eval(&format!(
            "document.querySelector('#season-tournament').value = '{spring}'; true"
        ))
        .await;
    browser.click("form[data-desk-season-add] button").await;
    browser
        .wait_until(
            &format!(
                "!!document.querySelector('[data-desk-season] tr[data-tournament=\"{spring}\"]')"
            ),
            WAIT,
        )
        .await;
    let shown = api_json(&app, &format!("/v1/seasons/{made}")).await;
    assert_eq!(shown["tournaments"][0]["tournament"], spring);
    assert_eq!(shown["tournaments"][0]["counts"], true);
    // The one just added is no longer offered.
    assert_eq!(
        browser
            .eval(&format!(
                "!!document.querySelector('#season-tournament option[value=\"{spring}\"]')"
            ))
            .await,
        json!(false)
    );
    browser.check_page("seasons-desk-season").await;
    // Its public page counts it.
    let public = api_json(&app, &format!("/v1/seasons/{made}/standings")).await;
    assert_eq!(public["counted_tournaments"], json!([spring]));

    // Removed, after the question naming it.
    browser
        .click(&format!(
            "button[data-season-command*='\"tournament\":{spring}']"
        ))
        .await;
    browser
        .wait_until(
            &format!(
                "!document.querySelector('[data-desk-season] tr[data-tournament=\"{spring}\"]')"
            ),
            WAIT,
        )
        .await;
    assert!(
        browser
            .dialogs()
            .iter()
            .any(|d| d.contains("Spring cup") && d.contains("out of the season")),
        "{:?}",
        browser.dialogs()
    );
    let shown = api_json(&app, &format!("/v1/seasons/{made}")).await;
    assert_eq!(shown["tournaments"], json!([]));

    // The season's own final cannot be one of its tournaments: the server's refusal,
    // said in the page's language beside the form.
    let final_of = Api::json_ok(
        app.api()
            .post(
                "/v1/tournaments",
                &org.token,
                Some(
                    &json!({"name": "Desk final", "rules": {"preset": "belgian"}, "capacity": 8,
                             "config": {"seeding": "season", "season": made}}),
                ),
            )
            .await,
        StatusCode::CREATED,
        "a final seeded by the season",
    )
    .await["id"]
        .as_i64()
        .expect("a tournament id");
    browser
        .goto(&app.url(&format!("/desk/seasons/{made}?lang=fr")))
        .await;
    browser
        .eval(&format!(
            "document.querySelector('#season-tournament').value = '{final_of}'; true"
        ))
        .await;
    browser.click("form[data-desk-season-add] button").await;
    browser
        .wait_until(
            "document.querySelector('[data-desk-status]').innerText.includes('Ce tournoi est la finale de la saison')",
            WAIT,
        )
        .await;
    check_refusal_page(&browser, "seasons-desk-final-refused").await;
    let shown = api_json(&app, &format!("/v1/seasons/{made}")).await;
    assert_eq!(shown["tournaments"], json!([]));

    // Many seasons: the list goes page by page, as the API's listing.
    let api = app.api();
    for k in 0..20 {
        let answer = api
            .post(
                "/v1/seasons",
                &org.token,
                Some(&json!({"name": format!("Series {k}"), "points": [3, 2, 1]})),
            )
            .await;
        assert_eq!(answer.status(), StatusCode::CREATED);
    }
    browser.goto(&app.url("/seasons?lang=en")).await;
    let first_page = api_json(&app, "/v1/seasons").await;
    let names = |list: &Value| -> Vec<Value> {
        list["seasons"]
            .as_array()
            .expect("seasons")
            .iter()
            .map(|s| s["name"].clone())
            .collect()
    };
    let shown_names =
        "Array.from(document.querySelectorAll('table.seasons tbody th')).map(t => t.innerText)";
    assert_eq!(browser.eval(shown_names).await, json!(names(&first_page)));
    let before = first_page["next_before"].as_i64().expect("a second page");
    follow(&browser, "a[rel='next']", &format!("before={before}")).await;
    let second_page = api_json(&app, &format!("/v1/seasons?before={before}")).await;
    assert_eq!(browser.eval(shown_names).await, json!(names(&second_page)));
    assert!(
        browser
            .eval(shown_names)
            .await
            .as_array()
            .is_some_and(|n| n.contains(&json!("Club series")))
    );
    browser.check_page("seasons-list-page-2").await;
    follow(&browser, "a[rel='prev']", "/seasons").await;
    assert_eq!(browser.eval(shown_names).await, json!(names(&first_page)));
}

#[tokio::test]
async fn the_season_pages_in_every_language_at_phone_and_desktop_widths() {
    let app = spawn_app().await;
    let Series { org, season, .. } = series(&app).await;
    let empty = Api::json_ok(
        app.api()
            .post(
                "/v1/seasons",
                &org.token,
                Some(&json!({"name": "Winter series", "points": [5, 3, 1]})),
            )
            .await,
        StatusCode::CREATED,
        "an empty season",
    )
    .await["id"]
        .as_i64()
        .expect("a season id");
    let pages = [
        ("list", "/seasons".to_owned()),
        ("season", format!("/seasons/{season}")),
        ("season-empty", format!("/seasons/{empty}")),
        ("missing", "/seasons/999999".to_owned()),
        ("desk", "/desk/seasons".to_owned()),
        ("desk-season", format!("/desk/seasons/{season}")),
        ("desk-season-empty", format!("/desk/seasons/{empty}")),
    ];
    let mut problems = Vec::new();
    for (width, height) in [(390, 844), (1280, 900)] {
        let browser = Browser::launch(width, height).await;
        // The desk's pages need its log-in, kept for the tab.
        browser.goto(&app.url("/desk/seasons")).await;
        browser.log_in(&org.name, "/desk/seasons").await;
        for lang in ["en", "nl", "fr"] {
            for (name, page) in &pages {
                browser.goto(&app.url(&format!("{page}?lang={lang}"))).await;
                assert_eq!(
                    browser.eval("document.documentElement.lang").await,
                    json!(lang),
                    "{page}"
                );
                if name.starts_with("desk") {
                    // Its script has asked who is logged in.
                    browser
                        .wait_until(
                            "document.querySelector('[data-desk-user]').innerText !== ''",
                            WAIT,
                        )
                        .await;
                }
                if width == 390 {
                    assert_eq!(
                        browser
                            .eval("document.documentElement.scrollWidth <= window.innerWidth")
                            .await,
                        json!(true),
                        "{lang} {page}: nothing wider than the phone"
                    );
                }
                for v in browser.every_accessibility_violation().await {
                    problems.push(format!("{lang} {width}px {page}: {v}"));
                }
                for e in browser.take_errors() {
                    // The missing season answers 404, which the browser logs as a
                    // failed load.
                    if !is_status_log(&e) {
                        problems.push(format!("{lang} {width}px {page}: script error {e}"));
                    }
                }
                browser
                    .screenshot(&format!("seasons-{lang}-{width}-{name}"))
                    .await;
            }
        }
    }
    assert!(problems.is_empty(), "{problems:#?}");
}

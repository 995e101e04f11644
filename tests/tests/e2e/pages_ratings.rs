//! Issue 34, the pages: the rating list (`/ratings`) and a player's profile
//! (`/players/{username}`) in headless Chromium, after two rated tournaments played on
//! paper. The figures shown are the API's; the filter form, the pages of the list and
//! the head-to-head form work as plain GET forms; bad filters and a bad opponent are
//! said on a 422 page; an unknown player is a 404 page; the chart has a point per
//! game. Every page in every language at a phone's and a desktop's width, with axe
//! finding no violation of any impact. Screenshots in `target/screenshots/ratings-*`.

use std::time::Duration;

use reqwest::StatusCode;
use serde_json::{Value, json};
use yaniv_e2e_tests::browser::Browser;
use yaniv_e2e_tests::tables::{Api, Player};
use yaniv_e2e_tests::tournaments::paper_tournament;
use yaniv_e2e_tests::{TestApp, spawn_app};

const PLAYERS: [&str; 8] = [
    "rate_ann",
    "rate_bram",
    "rate_chloe",
    "rate_dirk",
    "rate_els",
    "rate_femke",
    "rate_geert",
    "rate_hanne",
];

/// A rating figure as the pages write it.
fn figure(value: &Value) -> String {
    let value = value
        .as_f64()
        .unwrap_or_else(|| panic!("a number: {value}"));
    format!("{value:.2}").replace('-', "−")
}

/// The players, and two finished rated tournaments of them (the second finishing the
/// other way round); the first tournament's id.
async fn rated_season(app: &TestApp) -> (Vec<Player>, i64) {
    let api = app.api();
    let org = app.new_organizer("rate_org").await;
    let mut players = Vec::new();
    for name in PLAYERS {
        players.push(app.new_player(name).await);
    }
    let (first, _) = paper_tournament(
        &api,
        &org,
        &players,
        "Spring cup",
        json!({}),
        |seats| seats.to_vec(),
        true,
    )
    .await;
    paper_tournament(
        &api,
        &org,
        &players,
        "Summer cup",
        json!({}),
        |seats| seats.iter().rev().copied().collect(),
        true,
    )
    .await;
    (players, first)
}

async fn api_json(app: &TestApp, path: &str) -> Value {
    Api::json_ok(app.get(path, None).await, StatusCode::OK, path).await
}

/// The list page's rows as [rank, player, rating, mu, sigma, games].
async fn shown_rows(browser: &Browser) -> Vec<Vec<String>> {
    let rows = browser
        .eval(
            "Array.from(document.querySelectorAll('table.ratings tbody tr'))\
             .map(r => Array.from(r.children).slice(0, 6).map(c => c.innerText.trim()))",
        )
        .await;
    serde_json::from_value(rows).expect("rows of text")
}

fn api_rows(list: &Value) -> Vec<Vec<String>> {
    list["ratings"]
        .as_array()
        .expect("ratings")
        .iter()
        .map(|r| {
            vec![
                r["rank"].to_string(),
                r["username"].as_str().unwrap_or_default().to_owned(),
                figure(&r["rating"]),
                figure(&r["mu"]),
                figure(&r["sigma"]),
                r["games"].to_string(),
            ]
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
            Duration::from_secs(10),
        )
        .await;
}

#[tokio::test]
async fn the_rating_list_and_profiles_show_the_apis_figures_and_their_forms_work() {
    let app = spawn_app().await;
    let (players, first) = rated_season(&app).await;
    app.new_player("rate_newcomer").await;
    let browser = Browser::launch(1280, 900).await;

    // The landing page leads to the list; the list is the API's, figure for figure.
    browser.goto(&app.url("/?lang=en")).await;
    follow(&browser, "a[href^='/ratings']", "/ratings").await;
    let list = api_json(&app, "/v1/ratings").await;
    assert_eq!(list["total"], 8);
    assert_eq!(
        list["games"], 6,
        "two qualification tables and a final, twice"
    );
    assert_eq!(shown_rows(&browser).await, api_rows(&list));
    let text = browser.text().await;
    assert!(
        text.contains("Players 1 to 8 of 8, from 6 rated games."),
        "{text}"
    );
    browser.check_page("ratings-list").await;

    // The form: at least three games (the players of a final), as the API has it.
    browser.type_into("#min_games", "3").await;
    browser.press_enter_and_wait().await;
    assert!(
        browser
            .eval("location.search")
            .await
            .as_str()
            .unwrap_or("")
            .contains("min_games=3")
    );
    let three = api_json(&app, "/v1/ratings?min_games=3").await;
    let finalists = three["total"].as_u64().unwrap_or(0);
    assert!((4..=8).contains(&finalists), "{three}");
    assert_eq!(shown_rows(&browser).await, api_rows(&three));
    browser.check_page("ratings-list-filtered").await;

    // A period of today's days (UTC): everyone; the CSV link carries the same filters.
    // The day of the games, in UTC (as the API writes its times).
    let last_played = list["ratings"][0]["last_played"].as_str().expect("a time");
    let day = last_played[..10].to_owned();
    browser
        .eval(&format!(
            "document.querySelector('#min_games').value = ''; \
             document.querySelector('#from').value = '{day}'; \
             document.querySelector('#to').value = '{day}'; true"
        ))
        .await;
    browser.type_into("#min_games", "0").await;
    browser.press_enter_and_wait().await;
    let period = format!("from={day}T00%3A00%3A00Z");
    let in_period = api_json(&app, &format!("/v1/ratings?{period}")).await;
    assert_eq!(shown_rows(&browser).await, api_rows(&in_period));
    let csv_link = browser
        .eval("document.querySelector('a[href^=\"/v1/ratings.csv\"]').getAttribute('href')")
        .await;
    let csv_link = csv_link.as_str().expect("a CSV link").to_owned();
    assert!(
        csv_link.starts_with(&format!("/v1/ratings.csv?{period}&to=")),
        "{csv_link}"
    );
    assert!(csv_link.ends_with("&min_games=0"), "{csv_link}");
    let csv = app.get(&csv_link, None).await;
    assert_eq!(csv.status(), StatusCode::OK);
    assert_eq!(csv.text().await.unwrap_or_default().lines().count(), 1 + 8);

    // A period in the future: nobody, and the page says so.
    browser.goto(&app.url("/ratings?from=2999-01-01")).await;
    assert!(
        browser
            .text()
            .await
            .contains("No player matches these filters.")
    );
    assert_eq!(shown_rows(&browser).await.len(), 0);

    // Bad filters: the API's refusals, said on a 422 page with the form to fix them.
    for (query, said) in [
        ("from=yesterday", "The first day is not a date"),
        ("to=soon", "The last day is not a date"),
        (
            "from=2026-06-02&to=2026-06-01",
            "The last day comes before the first day.",
        ),
        (
            "min_games=many",
            "The number of games must be a whole number",
        ),
        ("limit=0", "There is no such page of the list"),
    ] {
        let answer = app.get(&format!("/ratings?{query}"), None).await;
        assert_eq!(answer.status(), StatusCode::UNPROCESSABLE_ENTITY, "{query}");
        let page = answer.text().await.unwrap_or_default();
        assert!(page.contains(said), "{query}: {page}");
        assert!(
            page.contains("id=\"min_games\""),
            "{query}: the form is there"
        );
    }
    browser
        .goto(&app.url("/ratings?from=2026-06-02&to=2026-06-01"))
        .await;
    check_refusal_page(&browser, "ratings-list-refused").await;

    // The pages of the list: three at a time, the next three as the API's offset.
    browser.goto(&app.url("/ratings?limit=3")).await;
    follow(&browser, "a[rel='next']", "offset=3").await;
    let second_page = api_json(&app, "/v1/ratings?limit=3&offset=3").await;
    assert_eq!(shown_rows(&browser).await, api_rows(&second_page));
    assert!(browser.text().await.contains("Players 4 to 6 of 8"));
    browser.check_page("ratings-list-page-2").await;
    follow(&browser, "a[rel='prev']", "offset=0").await;
    assert_eq!(shown_rows(&browser).await[0][0], "1");

    // The best player's profile, from the list: the API's figures, a point per game.
    browser.goto(&app.url("/ratings")).await;
    let best = list["ratings"][0]["username"]
        .as_str()
        .expect("a name")
        .to_owned();
    follow(
        &browser,
        &format!("table.ratings a[href='/players/{best}']"),
        &format!("/players/{best}"),
    )
    .await;
    let profile = api_json(&app, &format!("/v1/players/{best}/rating")).await;
    assert_eq!(
        browser.eval("document.querySelector('h1').innerText").await,
        json!(best)
    );
    let facts = browser
        .eval("Array.from(document.querySelectorAll('dl.rating dd')).map(d => d.innerText)")
        .await;
    let rating = &profile["rating"];
    assert_eq!(facts[0], json!(rating["rank"].to_string()));
    assert_eq!(facts[1], json!(figure(&rating["rating"])));
    assert_eq!(facts[2], json!(figure(&rating["mu"])));
    assert_eq!(facts[3], json!(figure(&rating["sigma"])));
    assert_eq!(facts[4], json!(rating["games"].to_string()));
    let played = browser
        .eval(
            "Array.from(document.querySelectorAll('table.played tbody tr'))\
             .map(r => [r.querySelector('a').getAttribute('href'), r.children[1].innerText, r.children[2].innerText])",
        )
        .await;
    let expected: Vec<Value> = profile["tournaments"]
        .as_array()
        .expect("tournaments")
        .iter()
        .map(|t| {
            json!([
                format!("/t/{}", t["tournament"]),
                t["place"].to_string(),
                t["games"].to_string()
            ])
        })
        .collect();
    assert_eq!(played, json!(expected));
    let history = profile["history"].as_array().expect("history");
    assert_eq!(json!(history.len()), rating["games"]);
    assert!(
        history.len() >= 2,
        "a qualification game in each tournament"
    );
    assert_eq!(
        browser
            .eval("document.querySelectorAll('svg.chart circle.chart-point').length")
            .await,
        json!(history.len())
    );
    let points = browser
        .eval(
            "Array.from(document.querySelectorAll('table.history tbody tr'))\
             .map(r => r.children[5].textContent)",
        )
        .await;
    let ratings: Vec<String> = history.iter().map(|p| figure(&p["rating"])).collect();
    assert_eq!(points, json!(ratings));
    browser.check_page("ratings-profile").await;

    // Head to head, chosen in the form: the API's count of the games at one table.
    // The form offers the players met at a table: the first of them.
    let other = browser
        .eval("document.querySelector('#opponent option:not([value=\"\"])').value")
        .await;
    let other = other.as_str().expect("a player met").to_owned();
    browser
        .eval(&format!(
            "document.querySelector('#opponent').value = '{other}'; true"
        ))
        .await;
    follow(
        &browser,
        "#head-to-head + form button",
        &format!("opponent={other}"),
    )
    .await;
    let against = api_json(&app, &format!("/v1/players/{best}/rating?opponent={other}")).await;
    let h2h = &against["head_to_head"];
    assert!(h2h["games"].as_u64().unwrap_or(0) >= 1, "{h2h}");
    let record = browser
        .eval("Array.from(document.querySelectorAll('section.head-to-head dd')).map(d => d.innerText)")
        .await;
    assert_eq!(
        record,
        json!([
            h2h["games"].to_string(),
            h2h["ahead"].to_string(),
            h2h["behind"].to_string(),
            h2h["tied"].to_string()
        ])
    );
    assert_eq!(
        browser
            .eval("document.querySelector('#opponent').value")
            .await,
        json!(other)
    );
    browser.check_page("ratings-profile-head-to-head").await;

    // An opponent the API refuses: said, the profile still shown.
    for (opponent, said) in [
        ("nobody_at_all", "No player has this name."),
        (best.as_str(), "Choose another player"),
    ] {
        let answer = app
            .get(&format!("/players/{best}?opponent={opponent}"), None)
            .await;
        assert_eq!(answer.status(), StatusCode::UNPROCESSABLE_ENTITY);
        let page = answer.text().await.unwrap_or_default();
        assert!(
            page.contains(said) && page.contains("svg"),
            "{opponent}: {page}"
        );
    }

    // A player without a rated game, and one who does not exist.
    browser.goto(&app.url("/players/rate_newcomer")).await;
    let text = browser.text().await;
    assert!(text.contains("Not rated yet"), "{text}");
    assert_eq!(
        browser
            .eval("document.querySelectorAll('svg.chart').length")
            .await,
        json!(0)
    );
    browser.check_page("ratings-profile-unrated").await;
    let missing = app.get("/players/nobody_at_all", None).await;
    assert_eq!(missing.status(), StatusCode::NOT_FOUND);
    assert!(
        missing.headers()["content-type"]
            .to_str()
            .unwrap_or("")
            .starts_with("text/html")
    );
    browser
        .goto(&app.url("/players/nobody_at_all?lang=nl"))
        .await;
    assert!(
        browser
            .text()
            .await
            .contains("Er is geen speler met deze naam.")
    );
    check_refusal_page(&browser, "ratings-profile-missing").await;

    // The tournaments' standings and ranking name players with a link to their profile.
    for page in ["standings", "ranking"] {
        browser
            .goto(&app.url(&format!("/t/{first}/{page}?lang=en")))
            .await;
        let linked = browser
            .eval("Array.from(document.querySelectorAll('tbody th a')).map(a => a.getAttribute('href'))")
            .await;
        let linked: Vec<String> = serde_json::from_value(linked).expect("links");
        assert_eq!(linked.len(), players.len(), "{page}: {linked:?}");
        assert!(
            linked.iter().all(|l| l.starts_with("/players/rate_")),
            "{linked:?}"
        );
    }
}

#[tokio::test]
async fn the_rating_pages_in_every_language_at_phone_and_desktop_widths() {
    let app = spawn_app().await;
    rated_season(&app).await;
    app.new_player("rate_newcomer").await;
    let pages = [
        ("list", "/ratings".to_owned()),
        (
            "list-filtered",
            "/ratings?min_games=3&from=2020-01-01".to_owned(),
        ),
        ("list-refused", "/ratings?from=yesterday".to_owned()),
        ("list-empty", "/ratings?from=2999-01-01".to_owned()),
        ("profile", format!("/players/{}", PLAYERS[0])),
        (
            "profile-head-to-head",
            format!("/players/{}?opponent={}", PLAYERS[0], PLAYERS[1]),
        ),
        (
            "profile-refused",
            format!("/players/{}?opponent=nobody_at_all", PLAYERS[0]),
        ),
        ("profile-unrated", "/players/rate_newcomer".to_owned()),
        ("profile-missing", "/players/nobody_at_all".to_owned()),
    ];
    let mut problems = Vec::new();
    for (width, height) in [(390, 844), (1280, 900)] {
        let browser = Browser::launch(width, height).await;
        for lang in ["en", "nl", "fr"] {
            for (name, page) in &pages {
                let join = if page.contains('?') { '&' } else { '?' };
                browser
                    .goto(&app.url(&format!("{page}{join}lang={lang}")))
                    .await;
                assert_eq!(
                    browser.eval("document.documentElement.lang").await,
                    json!(lang),
                    "{page}"
                );
                // The profile's points open, so that axe checks their table too.
                browser
                    .eval("document.querySelectorAll('details').forEach(d => d.open = true); true")
                    .await;
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
                    // The refused and missing pages answer 422 and 404, which the
                    // browser logs as a failed load.
                    if !is_status_log(&e) {
                        problems.push(format!("{lang} {width}px {page}: script error {e}"));
                    }
                }
                if matches!(*name, "list" | "profile" | "profile-head-to-head") || lang == "en" {
                    browser
                        .screenshot(&format!("ratings-{lang}-{width}-{name}"))
                        .await;
                }
            }
        }
    }
    assert!(problems.is_empty(), "{problems:#?}");
}

//! The record viewer (`/replay`) in a real browser, without a log-in: a clean record
//! pasted and stepped through, every hand as `POST /v1/records/steps` gives it; a
//! record the rules refuse, opened from a file, shown up to its problem with the
//! problem marked; a body that is not a record refused with the server's reason.

use std::time::Duration;

use serde_json::{Value, json};
use yaniv_e2e_tests::browser::Browser;
use yaniv_e2e_tests::records::{fixtures, illegal_draw_record};
use yaniv_e2e_tests::{TestApp, spawn_app};

const WAIT: Duration = Duration::from_secs(10);

async fn check_page(browser: &Browser, name: &str) {
    browser.screenshot(name).await;
    let violations = browser.accessibility_violations().await;
    assert!(violations.is_empty(), "{name}: {violations:#?}");
    let errors = browser.take_errors();
    assert!(errors.is_empty(), "{name}: {errors:#?}");
}

async fn steps_of(app: &TestApp, record: &[u8]) -> Value {
    let response = app
        .client
        .post(app.url("/v1/records/steps"))
        .header("content-type", "application/json")
        .body(record.to_vec())
        .send()
        .await
        .unwrap();
    assert!(response.status().is_success(), "{}", response.status());
    response.json().await.unwrap()
}

/// The page's verdict once the record was replayed: `data-ok` and the text.
async fn verdict(browser: &Browser) -> (String, String) {
    browser
        .wait_until(
            "document.querySelector('[data-record-verdict]').hasAttribute('data-ok')",
            WAIT,
        )
        .await;
    let shown = browser
        .eval(
            "(() => { const v = document.querySelector('[data-record-verdict]'); \
             return [v.getAttribute('data-ok'), v.innerText]; })()",
        )
        .await;
    (
        shown[0].as_str().unwrap().to_owned(),
        shown[1].as_str().unwrap().to_owned(),
    )
}

async fn expect_step(browser: &Browser, walked: &Value, step: u64) {
    browser
        .wait_until(
            &format!(
                "document.querySelector('[data-replay-record]').getAttribute('data-shown') === '{step}'"
            ),
            WAIT,
        )
        .await;
    let hands = browser
        .eval(
            "Array.from(document.querySelectorAll('[data-replay-seats] tr')).map(tr => \
             Array.from(tr.querySelectorAll('[data-hand] svg')).map(c => c.getAttribute('data-card')))",
        )
        .await;
    let expected = &walked["steps"][step as usize - 1];
    assert_eq!(hands, expected["hands"], "step {step}");
    let totals = browser
        .eval("Array.from(document.querySelectorAll('[data-replay-seats] [data-score]')).map(td => Number(td.innerText))")
        .await;
    assert_eq!(totals, expected["totals"], "step {step}");
}

async fn paste_and_replay(browser: &Browser, text: &str) {
    let literal = serde_json::to_string(text).unwrap();
    browser
        .eval(&format!(
            "(() => {{ document.querySelector('[data-record-verdict]').removeAttribute('data-ok'); \
             document.querySelector('#record-text').value = {literal}; }})()"
        ))
        .await;
    browser
        .click("form[data-record-form] button[type=submit]")
        .await;
}

#[tokio::test]
async fn a_referee_steps_through_a_pasted_record_and_a_faulty_one_from_a_file() {
    let app = spawn_app().await;
    let browser = Browser::launch(1280, 900).await;
    browser.goto(&app.url("/replay")).await;
    check_page(&browser, "record-empty").await;

    // A clean record, pasted: every step listed, the first one shown, and the verdict
    // that it replays to its end.
    let clean = std::fs::read(fixtures().join("belgian_meegaan.json")).unwrap();
    let walked = steps_of(&app, &clean).await;
    let count = walked["steps"].as_array().unwrap().len() as u64;
    assert!(count > 5);
    paste_and_replay(&browser, std::str::from_utf8(&clean).unwrap()).await;
    let (ok, text) = verdict(&browser).await;
    assert_eq!(ok, "true", "{text}");
    assert!(text.contains(&count.to_string()), "{text}");
    expect_step(&browser, &walked, 1).await;
    let listed = browser
        .eval("document.querySelectorAll('[data-replay-events] li').length")
        .await;
    assert_eq!(listed, json!(count));
    // Forward to the first turn, then to the end from the list of events.
    let dealt = walked["steps"]
        .as_array()
        .unwrap()
        .iter()
        .position(|s| s["event"] == "round_dealt.v1")
        .expect("a deal") as u64
        + 1;
    for _ in 1..dealt {
        browser.click("button[data-step='forward']").await;
    }
    expect_step(&browser, &walked, dealt).await;
    let pile = browser
        .eval("document.querySelectorAll('[data-replay-pile] li').length")
        .await;
    assert_eq!(pile, json!(1), "the up card only");
    browser.click("button[data-step='forward']").await;
    expect_step(&browser, &walked, dealt + 1).await;
    browser
        .click(&format!("[data-replay-events] button[data-go='{count}']"))
        .await;
    expect_step(&browser, &walked, count).await;
    check_page(&browser, "record-stepped").await;

    // A record the rules refuse, opened from a file: shown up to the problem.
    let faulty = illegal_draw_record();
    let faulty_bytes = serde_json::to_vec_pretty(&faulty).unwrap();
    let walked = steps_of(&app, &faulty_bytes).await;
    let file = std::env::temp_dir().join(format!("faulty-record-{}.json", std::process::id()));
    std::fs::write(&file, &faulty_bytes).unwrap();
    browser
        .eval("document.querySelector('[data-record-verdict]').removeAttribute('data-ok')")
        .await;
    browser.choose_file("#record-file", &file).await;
    let (ok, text) = verdict(&browser).await;
    assert_eq!(ok, "false", "{text}");
    assert!(
        text.contains("round 1, action 2") && text.contains("illegal_draw"),
        "counted from 1 for people: {text}"
    );
    expect_step(&browser, &walked, 3).await;
    let marked = browser
        .eval(
            "[!document.querySelector('[data-replay-failure-here]').hidden, \
             document.querySelector('[data-replay-position]').classList.contains('failure'), \
             document.querySelector('[data-replay-events] li.failure').getAttribute('data-version'), \
             document.querySelector('#record-text').value.includes('\"bob\"')]",
        )
        .await;
    assert_eq!(marked, json!([true, true, "3", true]));
    browser.click("button[data-step='first']").await;
    expect_step(&browser, &walked, 1).await;
    browser
        .click("[data-record-verdict] [data-failure-link]")
        .await;
    expect_step(&browser, &walked, 3).await;
    check_page(&browser, "record-problem").await;
    std::fs::remove_file(&file).ok();

    // Not a record: the server's reason, and nothing to step through.
    paste_and_replay(&browser, r#"{"format": "yaniv-record/1"}"#).await;
    let (ok, text) = verdict(&browser).await;
    assert_eq!(ok, "false");
    assert!(!text.is_empty());
    let refused = browser
        .eval(
            "[document.querySelector('[data-record-refused]').getAttribute('data-record-refused'), \
             document.querySelector('[data-replay-record]').hidden]",
        )
        .await;
    assert_eq!(refused, json!(["bad_record", true]));
    // The refused answer is the one error the browser reports.
    let errors = browser.take_errors();
    assert!(
        errors.len() == 1 && errors[0].contains("422"),
        "{errors:#?}"
    );
    check_page(&browser, "record-refused").await;

    // Not even JSON: the line where it breaks is shown, marked under the column.
    paste_and_replay(
        &browser,
        "{\n  \"format\": \"yaniv-record/1\"\n  \"rules\": {}\n}",
    )
    .await;
    let (ok, text) = verdict(&browser).await;
    assert_eq!(ok, "false");
    assert!(
        text.contains("Line 3, column 3: a comma (,) or a closing brace (}) is missing here."),
        "{text}"
    );
    let excerpt = browser
        .eval("document.querySelector('[data-record-excerpt]').innerText")
        .await;
    assert_eq!(excerpt, json!("  \"rules\": {}\n  ^"));
    browser.take_errors();
    check_page(&browser, "record-not-json").await;
}

#[tokio::test]
async fn the_record_viewer_speaks_dutch() {
    let app = spawn_app().await;
    let browser = Browser::launch(390, 844).await;
    browser.goto(&app.url("/replay?lang=nl")).await;
    let heading = browser.eval("document.querySelector('h1').innerText").await;
    assert_eq!(heading, "Een spelverslag herspelen");
    let clean = std::fs::read(fixtures().join("belgian_meegaan.json")).unwrap();
    paste_and_replay(&browser, std::str::from_utf8(&clean).unwrap()).await;
    let (ok, text) = verdict(&browser).await;
    assert_eq!(ok, "true");
    assert!(text.starts_with("ok: het verslag"), "{text}");
    assert_eq!(
        browser
            .eval("document.documentElement.scrollWidth <= window.innerWidth")
            .await,
        json!(true),
        "nothing wider than the phone"
    );
    check_page(&browser, "record-nl").await;
}

//! Steps on the organizer's desk pages that several page tests take: a score sheet
//! typed in, and waiting for the desk to say what the server answered.

use std::time::Duration;

use yaniv_domain::rules::Rules;

use crate::browser::Browser;
use crate::tournaments::paper_sheet;

const WAIT: Duration = Duration::from_secs(10);

/// `value` as a JavaScript string literal.
pub fn js(value: &str) -> String {
    serde_json::to_string(value).expect("a string")
}

/// Opens `url` (a desk page) and follows `link` on it to a sheet (or `url` is the sheet
/// when `link` is `None`), types in a sheet where `seats` (the players in the direction
/// of play) finish as `paper_sheet` makes them under `rules`, and records it (a correction when
/// `reason` is given). Returns the finishing order.
pub async fn enter_sheet(
    browser: &Browser,
    url: &str,
    link: Option<&str>,
    seats: &[i64],
    reason: Option<&str>,
    rules: &Rules,
) -> Vec<i64> {
    browser.goto(url).await;
    if let Some(link) = link {
        browser
            .wait_until(
                &format!("document.querySelector({}) !== null", js(link)),
                WAIT,
            )
            .await;
        browser.click(link).await;
    }
    browser
        .wait_until(
            "document.querySelector('[data-sheet-rounds] tr') !== null",
            WAIT,
        )
        .await;
    if reason.is_some() {
        // A correction starts from the sheet as it was recorded: every line filled in.
        let kept = browser
            .eval("Array.from(document.querySelectorAll('[data-sheet-rounds] tr')).filter(tr => Array.from(tr.querySelectorAll('[data-hand]')).every(i => i.value !== '')).length")
            .await;
        assert!(kept.as_u64().unwrap() > 0, "the kept sheet is shown");
    }
    // This sheet is typed afresh, from one empty line.
    browser
        .eval("(() => { document.querySelector('[data-sheet-rounds]').textContent = ''; })()")
        .await;
    browser.click("[data-sheet-add]").await;
    // The sheet's columns are the table's seats; `seats` may list them another way
    // round (a correction that swaps them): the hands follow the columns.
    let columns: Vec<i64> = serde_json::from_value(
        browser
            .eval("JSON.parse(document.querySelector('[data-sheet]').dataset.seats)")
            .await,
    )
    .unwrap();
    let (sheet, order) = paper_sheet(rules, seats);
    let rounds = sheet["rounds"].as_array().unwrap();
    for (i, round) in rounds.iter().enumerate() {
        if i > 0 {
            browser.click("[data-sheet-add]").await;
        }
        let row = format!("[data-sheet-rounds] tr:nth-child({})", i + 1);
        let caller = round["ending"]["caller"].as_u64().expect("a caller") as usize;
        let caller_column = columns.iter().position(|&p| p == seats[caller]).unwrap();
        browser
            .eval(&format!(
                "(() => {{ const s = document.querySelector('{row} [data-who]'); s.value = '{caller_column}'; \
                 s.dispatchEvent(new Event('change', {{bubbles: true}})); }})()"
            ))
            .await;
        let hands = round["hand_totals"].as_array().unwrap();
        for (column, player) in columns.iter().enumerate() {
            let seat = seats.iter().position(|p| p == player).unwrap();
            browser
                .type_into(
                    &format!("{row} td[data-seat='{column}'] input[data-hand]"),
                    &hands[seat].to_string(),
                )
                .await;
        }
    }
    if let Some(reason) = reason {
        browser.type_into("#reason", reason).await;
    }
    // The sheet may be recorded, and each line shows its totals: the latest check is on
    // the page (an earlier one, of a sheet typed halfway, may have enabled the button).
    browser
        .wait_until(
            "document.querySelector('[data-sheet-record]').disabled === false && \
             Array.from(document.querySelectorAll('[data-total]')).every(t => t.innerText.startsWith('= '))",
            WAIT,
        )
        .await;
    browser
        .eval("(() => { const s = document.querySelector('[data-desk-status]'); s.textContent = ''; s.className = ''; })()")
        .await;
    browser.click("[data-sheet-record]").await;
    browser
        .wait_until(
            "document.querySelector('[data-desk-status]').innerText !== ''",
            WAIT,
        )
        .await;
    let recorded = browser
        .eval("document.querySelector('[data-desk-status]').className + ': ' + document.querySelector('[data-desk-status]').innerText")
        .await;
    assert!(recorded.as_str().unwrap().starts_with("done"), "{recorded}");
    order
}

/// Empties the desk's status line, so the next answer is the one waited for.
pub async fn clear_status(browser: &Browser) {
    browser
        .eval(
            "(() => { const s = document.querySelector('[data-desk-status]'); \
             s.textContent = ''; s.className = ''; })()",
        )
        .await;
}

/// Waits for the desk to say the API accepted the last change.
pub async fn desk_done(browser: &Browser) {
    browser
        .wait_until(
            "document.querySelector('[data-desk-status].done') !== null",
            WAIT,
        )
        .await;
}

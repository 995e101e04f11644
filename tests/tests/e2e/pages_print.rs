//! The printables in a real browser (headless Chromium), printed to A4 PDFs by it: the
//! score sheets have one page per table played on paper, with the table's number, its
//! players in seat order and the reminders of the tournament's own rules, read back
//! from the PDF with poppler's `pdftotext`; the table cards and the printed standings
//! too. Every printable in English and Dutch, with no console error and no serious
//! accessibility violation. Screenshots and PDFs are kept in `target/screenshots/`.

use std::path::{Path, PathBuf};
use std::process::Command;

use reqwest::StatusCode;
use serde_json::Value;
use yaniv_domain::rules::{GameEnd, Preset, Reductions};
use yaniv_e2e_tests::browser::{Browser, screenshots_dir};
use yaniv_e2e_tests::tables::Player;
use yaniv_e2e_tests::tournaments::paper_cup;
use yaniv_e2e_tests::{TestApp, spawn_app};

/// Prints the page now open to `target/screenshots/NAME.pdf`; its path.
async fn print(browser: &Browser, name: &str) -> PathBuf {
    let bytes = browser.pdf(name).await;
    assert!(bytes.starts_with(b"%PDF"), "{name} is not a PDF");
    screenshots_dir().join(format!("{name}.pdf"))
}

fn run(program: &str, args: &[&str]) -> String {
    let out = Command::new(program)
        .args(args)
        .output()
        .unwrap_or_else(|e| {
            panic!("cannot run {program} ({e}): deploy/browser.sh installs poppler-utils")
        });
    assert!(out.status.success(), "{program} {args:?}: {out:?}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The number of pages of a PDF, as `pdfinfo` counts them.
fn pages(pdf: &Path) -> usize {
    let info = run("pdfinfo", &[&pdf.to_string_lossy()]);
    info.lines()
        .find_map(|l| l.strip_prefix("Pages:"))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("no page count in {info}"))
}

/// Page `page` of a PDF as text, laid out as printed (a table's row on one line),
/// every run of blanks made one space.
fn page_text(pdf: &Path, page: usize) -> String {
    let page = page.to_string();
    let text = run(
        "pdftotext",
        &[
            "-layout",
            "-f",
            &page,
            "-l",
            &page,
            &pdf.to_string_lossy(),
            "-",
        ],
    );
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `names` appear in `text` in this order.
fn in_order(text: &str, names: &[String]) {
    let mut from = 0;
    for name in names {
        let at = text[from..]
            .find(name.as_str())
            .unwrap_or_else(|| panic!("{name} after {names:?}'s earlier ones in: {text}"));
        from += at + name.len();
    }
}

/// The reminders a Belgian score sheet must print, from the preset itself.
fn belgian_reminders() -> Vec<String> {
    let rules = Preset::Belgian.rules();
    let Reductions::Exact(pairs) = rules.reductions else {
        panic!(
            "the Belgian rules reduce exact totals: {:?}",
            rules.reductions
        );
    };
    // The 50/100/150: the test reads them from the rules, but they must be there.
    for from in [50, 100, 150] {
        assert!(pairs.iter().any(|[f, _]| *f == from), "{pairs:?}");
    }
    let mut lines: Vec<String> = pairs
        .iter()
        .map(|[from, to]| format!("A total of exactly {from} drops to {to}."))
        .collect();
    let GameEnd::LowestWins {
        limit,
        at_limit: false,
    } = rules.game_end
    else {
        panic!("the Belgian game ends above a limit: {:?}", rules.game_end);
    };
    lines.push(format!(
        "The game ends after the round in which a player goes above {limit}; the lowest total wins."
    ));
    let threshold = rules.call_threshold.expect("a Belgian call threshold");
    lines.push(format!(
        "A call is allowed with {threshold} points or fewer in hand."
    ));
    lines
}

/// An 8-player Belgian cup, tables of four, its first round drawn with `paper` tables on
/// paper; its id, the organizer, the players and the round's tables.
async fn cup(app: &TestApp, paper: &[u32]) -> (i64, Player, Vec<Player>, Vec<(Value, Vec<i64>)>) {
    paper_cup(app, "Print cup", "print_org", paper).await
}

fn names(players: &[Player], seated: &[i64]) -> Vec<String> {
    seated
        .iter()
        .map(|id| {
            players
                .iter()
                .find(|p| p.id == *id)
                .map(|p| p.name.clone())
                .expect("a seated player")
        })
        .collect()
}

#[tokio::test]
async fn score_sheets_print_a_page_per_paper_table_with_its_players_and_rules() {
    let app = spawn_app().await;
    let (id, _, players, tables) = cup(&app, &[1, 2]).await;
    assert_eq!(tables.len(), 2);
    let browser = Browser::launch(1280, 900).await;

    browser
        .goto(&app.url(&format!("/t/{id}/print/sheets")))
        .await;
    assert_eq!(
        browser
            .eval("document.querySelectorAll('section.sheet').length")
            .await,
        2
    );
    browser.check_page("print-sheets").await;
    let pdf = print(&browser, "print-sheets").await;
    assert_eq!(pages(&pdf), 2, "one page per paper table");
    let reminders = belgian_reminders();
    for (k, (_, seated)) in tables.iter().enumerate() {
        let text = page_text(&pdf, k + 1);
        assert!(text.contains("Print cup"), "{text}");
        assert!(
            text.contains(&format!("Table {}", k + 1)),
            "table {}: {text}",
            k + 1
        );
        assert!(text.contains("Qualification · Round 1"), "{text}");
        in_order(&text, &names(&players, seated));
        // Nobody of the other table is on this one's sheet.
        let (_, other) = &tables[1 - k];
        for name in names(&players, other) {
            assert!(!text.contains(&name), "{name} on table {}: {text}", k + 1);
        }
        for line in &reminders {
            assert!(
                text.contains(line.as_str()),
                "{line} on table {}: {text}",
                k + 1
            );
        }
        assert!(text.contains("Final total"), "{text}");
        assert!(text.contains("Signatures"), "{text}");
    }

    // In Dutch, with the same numbers.
    browser
        .goto(&app.url(&format!("/t/{id}/print/sheets?stage=1&round=1&lang=nl")))
        .await;
    browser.check_page("print-sheets-nl").await;
    let pdf = print(&browser, "print-sheets-nl").await;
    assert_eq!(pages(&pdf), 2);
    let text = page_text(&pdf, 1);
    assert!(text.contains("Tafel 1"), "{text}");
    assert!(
        text.contains("Een totaal van precies 100 zakt naar 50."),
        "{text}"
    );

    // A round that is not a number, or that does not exist, is a page that says so.
    let bad = app
        .get(&format!("/t/{id}/print/sheets?stage=one"), None)
        .await;
    assert_eq!(bad.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let missing = app
        .get(&format!("/t/{id}/print/sheets?stage=1&round=9"), None)
        .await;
    assert_eq!(missing.status(), StatusCode::NOT_FOUND);
    browser
        .goto(&app.url(&format!("/t/{id}/print/cards?stage=2&lang=en")))
        .await;
    assert!(browser.text().await.contains("no such round"));
    browser.take_errors();
}

#[tokio::test]
async fn an_online_table_gets_a_card_but_no_score_sheet() {
    let app = spawn_app().await;
    let (id, org, players, tables) = cup(&app, &[2]).await;
    let browser = Browser::launch(1280, 900).await;

    browser
        .goto(&app.url(&format!("/t/{id}/print/sheets")))
        .await;
    let pdf = print(&browser, "print-sheets-one-paper").await;
    assert_eq!(pages(&pdf), 1, "table 1 is online");
    let text = page_text(&pdf, 1);
    assert!(text.contains("Table 2"), "{text}");
    in_order(&text, &names(&players, &tables[1].1));
    for name in names(&players, &tables[0].1) {
        assert!(!text.contains(&name), "{name} plays online: {text}");
    }

    // The cards: both tables, online or on paper, on one A4 page.
    browser
        .goto(&app.url(&format!("/t/{id}/print/cards")))
        .await;
    let cards = browser
        .eval("Array.from(document.querySelectorAll('section.card')).map(c => c.innerText)")
        .await;
    let cards: Vec<&str> = cards
        .as_array()
        .expect("cards")
        .iter()
        .map(|c| c.as_str().unwrap_or_default())
        .collect();
    assert_eq!(cards.len(), 2, "{cards:?}");
    for (k, (card, mode)) in cards.iter().zip(["online", "on paper"]).enumerate() {
        let card = card.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(card.contains(&format!("Table {}", k + 1)), "{card}");
        assert!(card.ends_with(mode), "{card}");
        in_order(&card, &names(&players, &tables[k].1));
    }
    browser.check_page("print-cards").await;
    let pdf = print(&browser, "print-cards").await;
    assert_eq!(pages(&pdf), 1);
    in_order(&page_text(&pdf, 1), &names(&players, &tables[0].1));

    // The standings, with the version they come from.
    let version = app.api().tournament_read(id, "", &org.token).await["version"].clone();
    browser
        .goto(&app.url(&format!("/t/{id}/print/standings")))
        .await;
    assert_eq!(
        browser
            .eval("document.querySelectorAll('tbody tr').length")
            .await,
        8
    );
    browser.check_page("print-standings").await;
    let pdf = print(&browser, "print-standings").await;
    let text = page_text(&pdf, 1);
    assert!(text.contains(&format!("Version {version}")), "{text}");
    assert!(text.contains("Printed 20"), "{text}");
    for player in &players {
        assert!(text.contains(&player.name), "{text}");
    }
    browser
        .goto(&app.url(&format!("/t/{id}/print/standings?lang=nl")))
        .await;
    assert!(browser.text().await.contains("Afgedrukt"));
    browser.check_page("print-standings-nl").await;
}

//! A paper table's result as final totals only, on its sheet page, where the
//! tournament allows it (`config.rounds_required` false): for a table whose sheet of
//! rounds is lost, or that kept only its totals. Each player's final total and place;
//! the places follow the totals (lowest first) until one is typed by hand, for rules
//! whose order the totals alone do not give. `assets/sheet.js` sends it as a `game`
//! input without a game id, so the stored result says it holds totals only.

use std::collections::BTreeMap;

use maud::{Markup, html};

use crate::http::pages::lang::Lang;
use crate::http::pages::text;
use crate::http::pages::tournament::name_of;

pub fn form(
    seated: &[i64],
    names: &BTreeMap<i64, Option<String>>,
    correcting: bool,
    lang: Lang,
) -> Markup {
    html! {
        details.totals {
            summary { (text::TOTALS_ONLY.get(lang)) }
            p.note { (text::TOTALS_ONLY_HELP.get(lang)) }
            form.stack data-totals-form {
                div.scroll {
                    table.grid {
                        caption.vh { (text::TOTALS_ONLY.get(lang)) }
                        thead {
                            tr {
                                th scope="col" { (text::PLAYER.get(lang)) }
                                th scope="col" { (text::FINAL_TOTAL.get(lang)) }
                                th scope="col" { (text::PLACE.get(lang)) }
                            }
                        }
                        tbody {
                            @for player in seated {
                                @let name = name_of(names, *player);
                                tr data-totals-player=(player) {
                                    th scope="row" { (name) }
                                    td { input type="number" min="0" max="100000" required data-total-of=(player)
                                        aria-label={ (text::FINAL_TOTAL.get(lang)) ": " (name) }; }
                                    td { input type="number" min="1" max=(seated.len()) required data-place-of=(player)
                                        aria-label={ (text::PLACE.get(lang)) ": " (name) }; }
                                }
                            }
                        }
                    }
                }
                @if correcting {
                    div {
                        label for="totals-reason" { (text::REASON.get(lang)) }
                        input #totals-reason type="text" maxlength="1000" required;
                    }
                }
                button type="submit" { (text::RECORD_TOTALS.get(lang)) }
            }
        }
    }
}

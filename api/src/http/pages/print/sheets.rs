//! `GET /t/{id}/print/sheets?stage=&round=`: one A4 score sheet per table of the round
//! that is played on paper (no online game): the players in seat order as columns, a
//! row per game round, the running total, room to sign, and the rules to remember.

use std::collections::BTreeMap;

use actix_web::{HttpRequest, HttpResponse, web};
use maud::{Markup, html};
use yaniv_domain::rules::Rules;
use yaniv_domain::tournament::Table;

use super::reminders::{end_limit, reminders};
use super::{Problem, RoundQuery, chosen_round, page, printable};
use crate::app_state::AppState;
use crate::http::pages::lang::Lang;
use crate::http::pages::text;
use crate::http::pages::tournament::round_title;
use crate::http::pages::tournament::{Loaded, name_of, or_failure};
use crate::tournaments::named::usernames_of;

/// Rows for a game to the end score of `rules` (a row holds the totals after a round):
/// one per 7 points of it, so a game to a higher score gets more rounds, between 16 and
/// the 22 that fit on one A4 page with the reminders.
pub fn rows_for(rules: &Rules) -> u32 {
    (end_limit(rules.game_end) / 7).clamp(16, 22)
}

/// What every sheet of the round shares.
struct Sheet<'a> {
    t: &'a Loaded,
    title: String,
    rows: u32,
    reminders: Vec<String>,
    names: &'a BTreeMap<i64, Option<String>>,
    lang: Lang,
}

fn sheet(s: &Sheet, number: usize, table: &Table) -> Markup {
    let lang = s.lang;
    let players: Vec<String> = table
        .players
        .iter()
        .map(|p| {
            let name = name_of(s.names, *p);
            if table.absent.contains(p) {
                format!("{name} ({})", text::ABSENT.get(lang))
            } else {
                name
            }
        })
        .collect();
    html! {
        section.sheet aria-labelledby={ "sheet-" (number) } {
            p.sheet-event { (s.t.view.name) " · " (s.title) }
            h2 #{ "sheet-" (number) } { (text::TABLE.get(lang)) " " (number) }
            p.sheet-hint { (text::SHEET_HINT.get(lang)) }
            table.score {
                caption.vh { (text::SCORE_SHEETS.get(lang)) ", " (text::TABLE.get(lang)) " " (number) }
                // The columns the desk's form asks for, in its order: who ended the
                // round, then each player's hand shown (with a box for going along)
                // and their total after it.
                colgroup {
                    col.round;
                    col.called;
                    @for _ in &players { col.hand; col.total; }
                }
                thead {
                    tr {
                        th.round scope="col" rowspan="2" { (text::ROUND_WORD.get(lang)) }
                        th.called scope="col" rowspan="2" { (text::CALLED_BY_SEAT.get(lang)) }
                        @for (seat, name) in players.iter().enumerate() {
                            th scope="colgroup" colspan="2" {
                                span.seat { (text::SEAT.get(lang)) " " (seat + 1) }
                                br;
                                (name)
                            }
                        }
                    }
                    tr.sub {
                        @for _ in &players {
                            th scope="col" { (text::HAND.get(lang)) }
                            th scope="col" { (text::TOTAL_AFTER.get(lang)) }
                        }
                    }
                }
                tbody {
                    @for row in 1..=s.rows {
                        tr {
                            th.round scope="row" { (row) }
                            td.called {}
                            @for _ in &players {
                                td.hand { span.along aria-hidden="true" { "☐" } }
                                td {}
                            }
                        }
                    }
                }
                tfoot {
                    tr.total {
                        th.round scope="row" colspan="2" { (text::FINAL_TOTAL.get(lang)) }
                        @for _ in &players { td colspan="2" {} }
                    }
                    tr.signatures {
                        th.round scope="row" colspan="2" { (text::SIGNATURES.get(lang)) }
                        @for _ in &players { td colspan="2" {} }
                    }
                }
            }
            h3 { (text::REMINDERS.get(lang)) }
            ul.reminders {
                @for line in &s.reminders { li { (line) } }
            }
        }
    }
}

pub async fn sheets(
    state: web::Data<AppState>,
    req: HttpRequest,
    path: web::Path<i64>,
    query: web::Query<RoundQuery>,
) -> HttpResponse {
    printable(&state, &req, path.into_inner(), async |t, lang| {
        let round = chosen_round(&t, &query)?;
        let paper: Vec<(usize, &Table)> = round
            .iter()
            .flat_map(|(_, _, r)| r.tables.iter().enumerate())
            .filter(|(_, table)| table.game.is_none())
            .map(|(k, table)| (k + 1, table))
            .collect();
        let players = paper
            .iter()
            .flat_map(|(_, table)| table.players.iter().copied());
        let names = or_failure(usernames_of(&state.db, players).await)?;
        let content = match (round, t.tournament.rules()) {
            (Some((_, kind, r)), Some(rules)) if !paper.is_empty() => {
                let shared = Sheet {
                    t: &t,
                    title: round_title(kind, r, lang),
                    rows: rows_for(rules),
                    reminders: reminders(rules, lang),
                    names: &names,
                    lang,
                };
                html! {
                    h1.vh { (text::SCORE_SHEETS.get(lang)) }
                    div.sheets {
                        @for (number, table) in &paper { (sheet(&shared, *number, table)) }
                    }
                }
            }
            (None, _) => html! {
                h1 { (text::SCORE_SHEETS.get(lang)) }
                p { (text::NO_ROUND_YET.get(lang)) }
            },
            _ => html! {
                h1 { (text::SCORE_SHEETS.get(lang)) }
                p { (text::NO_PAPER_TABLES.get(lang)) }
            },
        };
        Ok::<_, Problem>(page(&t, lang, text::SCORE_SHEETS, content))
    })
    .await
}

#[cfg(test)]
mod tests {
    use yaniv_domain::rules::Preset;

    use super::*;

    #[test]
    fn a_longer_game_gets_more_rows_within_one_page() {
        assert_eq!(rows_for(&Preset::Belgian.rules()), 21);
        assert_eq!(rows_for(&Preset::Israeli.rules()), 22);
        assert_eq!(rows_for(&Preset::Nepali.rules()), 16);
    }
}

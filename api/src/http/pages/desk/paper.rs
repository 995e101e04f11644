//! `GET /desk/t/{id}/tables/{stage}/{round}/{table}`: a paper table's score sheet,
//! entered round by round. The page lays out the table (players in seat order, one
//! line per round); `assets/sheet.js` sends the sheet to
//! `POST /v1/tournaments/{id}/paper-check` as it is filled in and shows, on each line,
//! the totals the rules give or why they refuse it. Once the rules say the game is
//! over, the result is recorded (`record_result` with `paper_rounds`), or, for a
//! table that has one, corrected with a reason (`correct_result`). What is typed is
//! kept in the browser as a draft until it is recorded; a recorded sheet is kept by
//! the server (the result's paper rounds), and a correction starts from it. Where the
//! tournament allows it, the final totals alone may be entered instead (`totals.rs`).

use actix_web::{HttpRequest, HttpResponse, web};
use maud::html;
use serde_json::json;
use yaniv_domain::tournament::{ResultInput, TableRef};

use super::frame;
use crate::app_state::AppState;
use crate::http::pages::layout::Page;
use crate::http::pages::text;
use crate::http::pages::tournament::{Failure, name_of, or_failure, round_title, tournament_page};
use crate::tournaments::named::usernames_of;

pub async fn sheet(
    state: web::Data<AppState>,
    req: HttpRequest,
    path: web::Path<(i64, u32, u32, u32)>,
) -> HttpResponse {
    let (id, stage, round, table) = path.into_inner();
    let at = TableRef {
        stage,
        round,
        table,
    };
    tournament_page(&state, &req, id, async |t, lang| {
        let Some(drawn) = t.tournament.state().table(at) else {
            return Err(Failure::NoTable);
        };
        let seated: Vec<i64> = drawn.present().collect();
        let names = or_failure(usernames_of(&state.db, drawn.players.iter().copied()).await)?;
        let table_json = json!({"stage": stage, "round": round, "table": table});
        // A sheet recorded round by round for these players, in this order: the lines
        // a correction starts from.
        let kept = match &drawn.input {
            Some(ResultInput::PaperRounds { seats, rounds }) if *seats == seated => {
                serde_json::to_string(rounds).ok()
            }
            _ => None,
        };
        // "Qualification · Round 1", "Final table": as the desk and the seating say it.
        let state = t.tournament.state();
        let heading = state
            .stages
            .get((stage as usize).saturating_sub(1))
            .and_then(|s| Some((s.kind, s.rounds.get((round as usize).saturating_sub(1))?)))
            .map_or_else(
                || format!("{} {round}", text::ROUND.get(lang)),
                |(kind, r)| round_title(kind, r, lang),
            );
        // A paper game's final totals alone: nothing round by round to show.
        let totals_only = matches!(&drawn.input, Some(ResultInput::Game { game: None, .. }));
        let body = frame(
            lang,
            html! {
                h1 { (t.view.name) }
                p {
                    a href={ "/desk/t/" (id) } { (text::DESK.get(lang)) }
                }
                h2 { (text::TABLE.get(lang)) " " (table) " · " (heading) }
                div data-sheet-result hidden[drawn.result.is_none()] {
                    p { (text::RESULT_IN.get(lang)) }
                    ol {
                        @for line in drawn.result.iter().flatten() {
                            li { (name_of(&names, line.player)) " — " (line.total) }
                        }
                    }
                    @if totals_only {
                        p.note data-totals-only { (text::HOLDS_TOTALS_ONLY.get(lang)) }
                    }
                }
                h3 { (text::SHEET.get(lang)) }
                p.note { (text::SHEET_HELP.get(lang)) }
                div data-desk-tournament=(id) data-sheet
                    data-table=(table_json.to_string())
                    data-seats=(json!(seated).to_string())
                    data-kept=[kept]
                    data-correct[drawn.result.is_some()] {
                    div.scroll {
                        table.grid.sheet {
                            caption.vh { (text::SHEET.get(lang)) }
                            thead {
                                tr {
                                    th scope="col" { (text::ROUND_WORD.get(lang)) }
                                    th scope="col" { (text::ENDING.get(lang)) }
                                    @for (seat, player) in seated.iter().enumerate() {
                                        th scope="col" data-seat=(seat) { (name_of(&names, *player)) }
                                    }
                                }
                            }
                            tbody data-sheet-rounds { }
                        }
                    }
                    div.buttons {
                        button type="button" data-sheet-add { (text::ADD_ROUND.get(lang)) }
                        button type="button" data-sheet-remove class="secondary" { (text::REMOVE_ROUND.get(lang)) }
                    }
                    p data-sheet-summary role="status" aria-live="polite" { }
                    div.stack data-sheet-reason hidden[drawn.result.is_none()] {
                        label for="reason" { (text::REASON.get(lang)) }
                        input #reason type="text" maxlength="1000";
                    }
                    div.buttons {
                        button type="button" data-sheet-record disabled {
                            @if drawn.result.is_some() { (text::CORRECT_SHEET.get(lang)) }
                            @else { (text::RECORD_RESULT.get(lang)) }
                        }
                    }
                    @if !t.view.config.rounds_required {
                        (super::totals::form(&seated, &names, drawn.result.is_some(), lang))
                    }
                    template data-sheet-labels
                        data-called=(text::CALLED_BY.get(lang))
                        data-emptied=(text::EMPTIED_BY.get(lang))
                        data-hand=(text::HAND.get(lang))
                        data-declared=(text::DECLARED.get(lang))
                        data-totals=(text::TOTALS.get(lang))
                        data-correct-label=(text::CORRECT_SHEET.get(lang)) { }
                }
                script src="/assets/sheet.js" defer { }
            },
        );
        Ok(Page {
            lang,
            title: format!("{} · {} {table}", text::SHEET.get(lang), text::TABLE.get(lang)),
            body,
            body_class: Some("desk"),
        })
    })
    .await
}

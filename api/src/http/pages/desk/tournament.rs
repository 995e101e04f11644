//! `GET /desk/t/{id}?q=NAME`: one tournament's desk. The registration list with
//! check-in at the door (search, then one click per player), withdrawal, registering a
//! player by name (a late entry once the qualification has started), and the steps
//! that move the tournament on: registration, the start, draws (choosing the tables
//! played on paper), the next stage, the finish. The buttons carry the REST command
//! they send (`assets/desk.js`); what the server refuses is shown as its problem's
//! detail.

use std::collections::{BTreeMap, HashMap};

use actix_web::{HttpRequest, HttpResponse, web};
use maud::{Markup, html};
use serde::Deserialize;
use serde_json::json;
use time::OffsetDateTime;
use yaniv_domain::table::TableStatus;
use yaniv_domain::tournament::{Phase, PlayerView, Round, StageKind};

use super::frame;
use crate::app_state::AppState;
use crate::http::pages::lang::Lang;
use crate::http::pages::layout::Page;
use crate::http::pages::text;
use crate::http::pages::tournament::seating::status;
use crate::http::pages::tournament::{
    Loaded, live_region, name_of, or_failure, round_title, tournament_page,
};
use crate::tables::listing::{self, ListFilter};
use crate::tables::table_id_of;
use crate::tournaments::named::usernames_of;

/// `?q=`: (part of) a name; other parameters (`lang`) are the frame's.
#[derive(Debug, Deserialize)]
pub struct DeskQuery {
    pub q: Option<String>,
}

/// A button that sends `command` to the tournament (after `confirm`, when given: a
/// step that cannot be undone).
fn command_button(label: &str, command: serde_json::Value, confirm: Option<&str>) -> Markup {
    html! {
        button type="button" data-command=(command.to_string()) data-confirm=[confirm] { (label) }
    }
}

fn steps(t: &Loaded, names: &BTreeMap<i64, Option<String>>, lang: Lang) -> Markup {
    let phase = t.view.phase;
    let before_start = matches!(
        phase,
        Phase::Setup | Phase::RegistrationOpen | Phase::RegistrationClosed
    );
    let playing = matches!(phase, Phase::Qualification | Phase::Knockout);
    html! {
        h2 { (text::ACTIONS.get(lang)) }
        div.buttons {
            @if matches!(phase, Phase::Setup | Phase::RegistrationClosed) {
                (command_button(text::OPEN_REGISTRATION.get(lang), json!({"command": "open_registration"}), None))
            }
            @if phase == Phase::RegistrationOpen {
                (command_button(text::CLOSE_REGISTRATION.get(lang), json!({"command": "close_registration"}), None))
            }
            @if before_start && phase != Phase::RegistrationOpen {
                (command_button(text::START_QUALIFICATION.get(lang), json!({"command": "start_qualification"}), Some(&start_warning(t, names, lang))))
            }
        }
        @if playing {
            form.stack data-desk-draw data-confirm=(text::CONFIRM_DRAW.get(lang)) {
                div {
                    label for="paper" { (text::PAPER_TABLES.get(lang)) }
                    input #paper name="paper" type="text" inputmode="numeric" pattern="[0-9, ]*";
                }
                button type="submit" { (text::DRAW.get(lang)) }
            }
            div.buttons {
                (command_button(text::ADVANCE.get(lang), json!({"command": "advance_stage"}), Some(text::CONFIRM_ADVANCE.get(lang))))
                (command_button(text::FINISH.get(lang), json!({"command": "finish"}), Some(text::CONFIRM_FINISH.get(lang))))
            }
        }
    }
}

/// What starting the qualification will do: whom it drops, by name.
fn start_warning(t: &Loaded, names: &BTreeMap<i64, Option<String>>, lang: Lang) -> String {
    let dropped: Vec<String> = t
        .tournament
        .state()
        .player_views()
        .iter()
        .filter(|p| !p.checked_in && !p.withdrawn && !p.disqualified)
        .map(|p| name_of(names, p.player))
        .collect();
    if dropped.is_empty() {
        text::CONFIRM_START_ALL_IN.get(lang).to_owned()
    } else {
        text::CONFIRM_START
            .get(lang)
            .replace("{names}", &dropped.join(", "))
    }
}

/// The rounds a later result change would have drawn differently (`flags.rs`), with a
/// way to draw the latest of them again.
fn flagged(t: &Loaded, lang: Lang) -> Markup {
    // Only where a redraw would work: the latest round, not started (a round with
    // online tables started when it was drawn), below its redraw limit.
    let state = t.tournament.state();
    let redrawable: Vec<_> = t
        .view
        .flagged_rounds
        .iter()
        .filter(|r| state.redraw_refused(**r).is_none())
        .collect();
    if redrawable.is_empty() {
        return html! {};
    }
    html! {
        section.flagged aria-labelledby="flagged" {
            h2 #flagged { (text::FLAGGED_TITLE.get(lang)) }
            p { (text::FLAGGED.get(lang)) }
            ul {
                @for r in redrawable {
                    li {
                        (text::STAGE.get(lang)) " " (r.stage) ", " (text::ROUND.get(lang)) " " (r.round)
                        form.inline data-desk-redraw data-stage=(r.stage) data-round=(r.round) {
                            label for={ "redraw-" (r.stage) "-" (r.round) } { (text::REASON.get(lang)) }
                            " "
                            input #{ "redraw-" (r.stage) "-" (r.round) } name="reason" type="text" required maxlength="1000";
                            " "
                            label for={ "redraw-paper-" (r.stage) "-" (r.round) } { (text::PAPER_TABLES_SHORT.get(lang)) }
                            " "
                            input #{ "redraw-paper-" (r.stage) "-" (r.round) } name="paper" type="text"
                                inputmode="numeric" pattern="[0-9, ]*";
                            " "
                            button type="submit" { (text::REDRAW.get(lang)) }
                        }
                    }
                }
            }
        }
    }
}

/// The tables of every round, the one being played first and the earlier ones
/// folded: each with where it stands (and who won), and its sheet (paper tables) or its
/// game and replay (online tables).
fn round_tables(
    t: &Loaded,
    names: &BTreeMap<i64, Option<String>>,
    moved: &HashMap<i64, Playing>,
    lang: Lang,
) -> Markup {
    let state = t.tournament.state();
    let mut rounds: Vec<(StageKind, &Round)> = state
        .stages
        .iter()
        .flat_map(|stage| stage.rounds.iter().map(move |round| (stage.kind, round)))
        .collect();
    let Some((kind, current)) = rounds.pop() else {
        return html! {};
    };
    let missing: Vec<usize> = current
        .tables
        .iter()
        .enumerate()
        .filter(|(_, table)| table.result.is_none())
        .map(|(k, _)| k + 1)
        .collect();
    html! {
        (crate::http::pages::print::links(t.id, lang))
        p.missing data-desk-missing {
            @if missing.is_empty() { (text::ALL_RESULTS_IN.get(lang)) }
            @else {
                (text::RESULTS_MISSING.get(lang)) ": "
                @for (i, k) in missing.iter().enumerate() {
                    @if i > 0 { ", " }
                    (text::TABLE.get(lang)) " " (k)
                }
            }
        }
        (round_section(t, kind, current, names, moved, lang))
        @if !rounds.is_empty() {
            details.earlier {
                summary { (text::EARLIER_ROUNDS.get(lang)) }
                @for (kind, round) in rounds.iter().rev() {
                    (round_section(t, *kind, round, names, moved, lang))
                }
            }
        }
    }
}

/// An online game in play, as the desk shows it.
struct Playing {
    last_move: OffsetDateTime,
    /// Whose move the game waits for, by name.
    to_play: Option<String>,
}

fn round_section(
    t: &Loaded,
    kind: StageKind,
    round: &Round,
    names: &BTreeMap<i64, Option<String>>,
    moved: &HashMap<i64, Playing>,
    lang: Lang,
) -> Markup {
    let now = OffsetDateTime::now_utc();
    let at = round.draw.round_ref();
    let id = |k: usize| format!("desk-{}-{}-{}", at.stage, at.round, k + 1);
    html! {
        section.round aria-label=(round_title(kind, round, lang)) {
            h2 { (round_title(kind, round, lang)) }
            div.tables {
                @for (k, table) in round.tables.iter().enumerate() {
                    section.table-card aria-labelledby=(id(k)) {
                        h3 id=(id(k)) {
                            (text::TABLE.get(lang)) " " (k + 1) " "
                            span.tag {
                                @if table.game.is_some() { (text::ONLINE.get(lang)) }
                                @else { (text::PAPER.get(lang)) }
                            }
                        }
                        ol {
                            @for player in &table.players { li { (name_of(names, *player)) } }
                        }
                        p.status {
                            (status(table, names, lang))
                            // A game in play: how long since its last move, so a stalled
                            // table shows from the desk.
                            @if let Some(playing) = table.game.as_deref().and_then(table_id_of).and_then(|g| moved.get(&g)).filter(|_| table.result.is_none()) {
                                @if let Some(name) = &playing.to_play {
                                    " · " span data-to-play { (text::TO_PLAY.get(lang).replace("{name}", name)) }
                                }
                                " · " (text::LAST_MOVE.get(lang).replace("{minutes}", &(now - playing.last_move).whole_minutes().max(0).to_string()))
                            }
                        }
                        @if let Some(game) = table.game.as_deref().and_then(table_id_of) {
                            ul.plain {
                                li {
                                    a href={ "/play/tables/" (game) } {
                                        (text::PLAY_OR_WATCH.get(lang))
                                        span.vh { " (" (text::TABLE.get(lang)) " " (k + 1) ")" }
                                    }
                                }
                                li {
                                    a href={ "/desk/tables/" (game) } {
                                        (text::REPLAY.get(lang)) " " (k + 1)
                                    }
                                }
                            }
                        } @else {
                            p {
                                a data-sheet-link href={ "/desk/t/" (t.id) "/tables/" (at.stage) "/" (at.round) "/" (k + 1) } {
                                    @if table.result.is_some() { (text::CORRECT_SHEET.get(lang)) }
                                    @else { (text::ENTER_SHEET.get(lang)) }
                                    span.vh { " (" (text::TABLE.get(lang)) " " (k + 1) ")" }
                                }
                            }
                        }
                        @if kind == StageKind::Qualification && table.result.is_none() {
                            (no_show(at, k, table, names, lang))
                        }
                    }
                }
            }
        }
    }
}

/// "Did not come": a drawn player marked absent with a reason (`POST
/// .../no-show`); the round counts as missed for them, and an online game is dealt
/// again for those who came.
fn no_show(
    at: yaniv_domain::tournament::RoundRef,
    k: usize,
    table: &yaniv_domain::tournament::Table,
    names: &BTreeMap<i64, Option<String>>,
    lang: Lang,
) -> Markup {
    let id = format!("{}-{}-{}", at.stage, at.round, k + 1);
    html! {
        details.no-show {
            summary { (text::DID_NOT_COME.get(lang)) span.vh { " (" (text::TABLE.get(lang)) " " (k + 1) ")" } }
            form.stack data-desk-no-show data-stage=(at.stage) data-round=(at.round) data-table=(k + 1)
                data-confirm=(text::CONFIRM_NO_SHOW.get(lang)) {
                div {
                    label for={ "absent-" (id) } { (text::PLAYER.get(lang)) }
                    select #{ "absent-" (id) } name="player" {
                        @for player in &table.players {
                            @if !table.absent.contains(player) {
                                option value=(player) { (name_of(names, *player)) }
                            }
                        }
                    }
                }
                div {
                    label for={ "absent-reason-" (id) } { (text::REASON.get(lang)) }
                    input #{ "absent-reason-" (id) } name="reason" type="text" required maxlength="1000";
                }
                button type="submit" { (text::MARK_ABSENT.get(lang)) }
            }
        }
    }
}

/// The tournament's referees, each with a way to remove them, and a way to add one
/// by name: officials are named per tournament, so a referee role alone names nobody.
fn referees(t: &Loaded, names: &BTreeMap<i64, Option<String>>, lang: Lang) -> Markup {
    let finished = t.view.phase == Phase::Finished;
    html! {
        h2 #referees { (text::REFEREES.get(lang)) }
        @if t.view.referees.is_empty() { p.note { (text::NO_REFEREES.get(lang)) } }
        ul.plain data-desk-referees aria-labelledby="referees" {
            @for referee in &t.view.referees {
                @let name = name_of(names, *referee);
                li data-player=(referee) data-player-name=(name) {
                    (name) " "
                    @if !finished {
                        button type="button" class="secondary" aria-label={ (text::REMOVE.get(lang)) ": " (name) }
                            data-command=(json!({"command": "remove_referee", "referee": referee}).to_string()) {
                            (text::REMOVE.get(lang))
                        }
                    }
                }
            }
        }
        @if !finished {
            form.find data-desk-referee {
                div {
                    label for="referee" { (text::ADD_REFEREE.get(lang)) }
                    br;
                    input #referee name="username" type="text" autocomplete="off" required;
                }
                button type="submit" { (text::ADD.get(lang)) }
            }
        }
    }
}

fn player_row(
    p: &PlayerView,
    name: &str,
    lang: Lang,
    before_start: bool,
    hidden: bool,
    finished: bool,
) -> Markup {
    let active = !p.withdrawn && !p.disqualified;
    // The buttons: none once the tournament is over.
    let may_change = active && !finished;
    html! {
        tr data-name=(name.to_lowercase()) data-player=(p.player) data-player-name=(name) hidden[hidden] {
            td.num { (p.registration) }
            th scope="row" { (name) }
            td {
                @if p.disqualified { (text::DISQUALIFIED.get(lang)) }
                @else if p.withdrawn { (text::WITHDRAWN.get(lang)) }
                @else if p.checked_in { (text::CHECKED_IN.get(lang)) }
                @else if !before_start { (text::DROPPED.get(lang)) }
                @else { (text::NOT_CHECKED_IN.get(lang)) }
            }
            td {
                @if may_change && before_start && !p.checked_in {
                    button type="button" aria-label={ (text::CHECK_IN.get(lang)) ": " (name) }
                        data-command=(json!({"command": "check_in", "player": p.player}).to_string()) {
                        (text::CHECK_IN.get(lang))
                    }
                    " "
                }
                @if may_change && before_start && p.checked_in {
                    button type="button" class="secondary" aria-label={ (text::UNDO_CHECK_IN.get(lang)) ": " (name) }
                        data-command=(json!({"command": "undo_check_in", "player": p.player}).to_string()) {
                        (text::UNDO_CHECK_IN.get(lang))
                    }
                    " "
                }
                @if may_change {
                    button type="button" class="secondary"
                        aria-label={ (text::WITHDRAW.get(lang)) ": " (name) }
                        data-confirm={ (text::CONFIRM_WITHDRAW.get(lang)) " " (name) "?" }
                        data-command=(json!({"command": "withdraw", "player": p.player}).to_string()) {
                        (text::WITHDRAW.get(lang))
                    }
                }
            }
        }
    }
}

pub async fn desk(
    state: web::Data<AppState>,
    req: HttpRequest,
    path: web::Path<i64>,
    query: web::Query<DeskQuery>,
) -> HttpResponse {
    let wanted = query
        .q
        .as_deref()
        .map(str::trim)
        .filter(|q| !q.is_empty())
        .map(str::to_lowercase);
    tournament_page(&state, &req, path.into_inner(), async |t, lang| {
        let s = t.tournament.state();
        let players = s.player_views();
        let names = or_failure(usernames_of(&state.db, players.iter().map(|p| p.player)).await)?;
        let before_start = s.stages.is_empty();
        // Once finished, nothing changes any more: no control the server would refuse.
        let finished = t.view.phase == Phase::Finished;
        let playing = ListFilter {
            status: Some(TableStatus::Playing),
            tournament: Some(t.id),
            ..ListFilter::default()
        };
        let moved: HashMap<i64, Playing> =
            or_failure(listing::list(&state.db, playing, None, 1000).await)?
                .into_iter()
                .map(|row| {
                    let playing = Playing {
                        last_move: row.updated_at,
                        to_play: row.waiting_on_username,
                    };
                    (row.id, playing)
                })
                .collect();
        let referee_names =
            or_failure(usernames_of(&state.db, t.view.referees.iter().copied()).await)?;
        let live = html! {
            p {
                (text::PHASE.get(lang)) ": "
                strong { (text::phase(&crate::http::pages::tournament::phase_name(t.view.phase)).get(lang)) }
                " · " (text::REGISTERED.get(lang)) ": " (t.view.registered) " / " (t.view.capacity)
            }
            (steps(&t, &names, lang))
            (flagged(&t, lang))
            (round_tables(&t, &names, &moved, lang))
            (referees(&t, &referee_names, lang))
            @if !finished { (super::screen::controls(&t, lang)) }
            h2 { (text::REGISTRATION.get(lang)) }
            div.scroll {
                table.grid data-desk-players {
                    caption.vh { (text::REGISTRATION.get(lang)) }
                    thead {
                        tr {
                            th.num scope="col" { "#" }
                            th scope="col" { (text::PLAYER.get(lang)) }
                            th scope="col" { (text::STATE.get(lang)) }
                            th scope="col" { span.vh { (text::ACTIONS.get(lang)) } }
                        }
                    }
                    tbody {
                        @for p in &players {
                            @let name = name_of(&names, p.player);
                            @let hidden = wanted.as_deref().is_some_and(|q| !name.to_lowercase().contains(q));
                            (player_row(p, &name, lang, before_start, hidden, finished))
                        }
                    }
                }
            }
        };
        let controls = html! {
            @if !finished {
            form.find data-desk-register {
                div {
                    label for="register" { (text::REGISTER_PLAYER.get(lang)) " (" (text::USERNAME.get(lang)) ")" }
                    br;
                    input #register name="username" type="text" autocomplete="off" required;
                }
                button type="submit" { (text::REGISTER.get(lang)) }
            }
            details.door {
                summary { (text::DOOR_LIST.get(lang)) }
                form.stack data-desk-door {
                    p.note { (text::DOOR_LIST_HELP.get(lang)) }
                    div {
                        label for="door-file" { (text::DOOR_LIST_FILE.get(lang)) }
                        input #door-file type="file" accept=".csv,text/csv,text/plain";
                    }
                    div {
                        label for="door-list" { (text::DOOR_LIST_TEXT.get(lang)) }
                        textarea #door-list name="list" rows="6" required
                            placeholder="username,check_in\nann,yes" { }
                    }
                    button type="submit" { (text::DOOR_LIST_SEND.get(lang)) }
                }
            }
            section.slips data-desk-slips hidden aria-labelledby="slips-title"
                data-code=(text::SETUP_CODE.get(lang))
                data-where=(text::SLIP_WHERE.get(lang))
                data-qr=(text::QR_SLIP.get(lang))
                data-done-confirm=(text::SLIPS_DONE_CONFIRM.get(lang))
                data-outcomes=(text::REGISTRATION_OUTCOMES.get(lang)) {
                h2 #slips-title { (text::SLIPS_TITLE.get(lang)) }
                p.note data-desk-slips-note { (text::SLIPS_ONCE.get(lang)) }
                ol.plain { }
                div.buttons {
                    button type="button" data-slips-print { (text::PRINT_SLIPS.get(lang)) }
                    button type="button" class="secondary" data-slips-done { (text::SLIPS_DONE.get(lang)) }
                }
            }
            }
            form.find method="get" role="search" {
                div {
                    label for="q" { (text::SEARCH_PLAYERS.get(lang)) }
                    br;
                    input #q type="search" name="q" data-desk-filter autocomplete="off"
                        value=[query.q.as_deref()];
                }
            }
        };
        let body = frame(
            lang,
            html! {
                h1 { (t.view.name) }
                ul.plain.no-print {
                    li { a href={ "/t/" (t.id) } { (text::PUBLIC_PAGES.get(lang)) } }
                    li { a href={ "/v1/tournaments/" (t.id) "/standings.csv" } download { (text::STANDINGS_CSV.get(lang)) } }
                    li { a href={ "/v1/tournaments/" (t.id) "/results.csv" } download { (text::RESULTS_CSV.get(lang)) } }
                }
                div data-desk-tournament=(t.id) {
                    (controls)
                    (live_region(&t, live))
                }
            },
        );
        Ok(Page {
            lang,
            title: format!("{} · {}", text::DESK.get(lang), t.view.name),
            body,
            body_class: Some("desk"),
        })
    })
    .await
}

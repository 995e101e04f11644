//! `GET /t/{id}/stages`: every stage as a column of its rounds and tables, results and
//! who goes through: the qualification's rounds, then the knockout as a tree of
//! tables, ending in the final table.

use std::collections::BTreeMap;

use actix_web::{HttpRequest, HttpResponse, web};
use maud::{Markup, html};
use time::OffsetDateTime;
use yaniv_domain::tournament::{
    Actor, Intervention, InterventionKind, RecordedSeeding, RoundView, StageKind, TableView,
};

use super::{Tab, name_of, or_failure, page, tournament_page};
use crate::app_state::AppState;
use crate::http::pages::format::minute_utc;
use crate::http::pages::lang::Lang;
use crate::http::pages::text;
use crate::tournaments::named::usernames_of;

fn table_card(table: &TableView, names: &BTreeMap<i64, Option<String>>, lang: Lang) -> Markup {
    let line = |player: i64| {
        table
            .result
            .as_ref()
            .and_then(|r| r.iter().find(|l| l.player == player))
    };
    html! {
        section.table-card {
            h4 { (text::TABLE.get(lang)) " " (table.table.table) }
            ol {
                @for player in &table.players {
                    li {
                        (name_of(names, *player))
                        @if let Some(l) = line(*player) {
                            " — " (text::PLACE_LOWER.get(lang)) " " (l.place) ", "
                            (l.total) " " (text::POINTS.get(lang))
                        }
                        @if table.absent.contains(player) {
                            " " span.absent { "(" (text::ABSENT.get(lang)) ")" }
                        }
                        @if table.advancing.contains(player) {
                            " " span.advance { "→ " (text::ADVANCES.get(lang)) }
                        }
                    }
                }
            }
        }
    }
}

/// A redraw of a round, said in public: who, why, and the seating it replaced.
fn redraw_note(redraw: &Intervention, names: &BTreeMap<i64, Option<String>>, lang: Lang) -> Markup {
    html! {
        div.redraw {
            p {
                strong { (text::REDRAWN.get(lang)) }
                @if let Actor::Account(by) = redraw.by {
                    " " (text::REDRAWN_BY.get(lang)) " " (name_of(names, by))
                }
                @if let Some(reason) = &redraw.reason { ": " (reason) }
            }
            @if let Some(replaced) = &redraw.replaced {
                p { (text::SEATING_REPLACED.get(lang)) ": "
                    @for (k, table) in replaced.tables.iter().enumerate() {
                        @if k > 0 { "; " }
                        (text::TABLE.get(lang)) " " (k + 1) ": "
                        @for (i, player) in table.iter().enumerate() {
                            @if i > 0 { ", " }
                            (name_of(names, *player))
                        }
                    }
                }
            }
        }
    }
}

/// The order a tournament seeded by rating started from, and the instant of the list.
fn seeding_note(
    seeding: &RecordedSeeding,
    names: &BTreeMap<i64, Option<String>>,
    lang: Lang,
) -> Markup {
    let at = OffsetDateTime::from_unix_timestamp_nanos(i128::from(seeding.as_of_micros) * 1000)
        .map(minute_utc)
        .unwrap_or_default();
    html! {
        details.seeding {
            summary { (text::SEEDED_BY_RATING.get(lang)) " " (at) " UTC" }
            p { (text::SEEDING_ORDER.get(lang)) " (" (seeding.procedure) "):" }
            ol {
                @for player in &seeding.order { li { (name_of(names, *player)) } }
            }
        }
    }
}

fn round_block(
    round: &RoundView,
    redraws: &[&Intervention],
    names: &BTreeMap<i64, Option<String>>,
    lang: Lang,
) -> Markup {
    html! {
        section {
            h3 {
                @if round.final_table { (text::FINAL_TABLE.get(lang)) }
                @else { (text::ROUND.get(lang)) " " (round.round.round) }
            }
            @for redraw in redraws.iter().filter(|r| r.round == Some(round.round)) {
                (redraw_note(redraw, names, lang))
            }
            @for table in &round.tables { (table_card(table, names, lang)) }
            @if !round.byes.is_empty() {
                p { (text::BYES.get(lang)) ": "
                    @for (i, player) in round.byes.iter().enumerate() {
                        @if i > 0 { ", " }
                        (name_of(names, *player))
                    }
                }
            }
        }
    }
}

pub async fn stages(
    state: web::Data<AppState>,
    req: HttpRequest,
    path: web::Path<i64>,
) -> HttpResponse {
    tournament_page(&state, &req, path.into_inner(), async |t, lang| {
        let stages = t.tournament.stages();
        let interventions = t.tournament.interventions();
        let redraws: Vec<&Intervention> = interventions
            .iter()
            .filter(|i| i.kind == InterventionKind::RoundRedrawn)
            .collect();
        let replaced = redraws.iter().flat_map(|r| {
            let by = r.by.account();
            let seated = r.replaced.iter().flat_map(|s| s.tables.iter().flatten());
            by.into_iter().chain(seated.copied())
        });
        let players = stages
            .iter()
            .flat_map(|s| {
                s.rounds.iter().flat_map(|r| {
                    r.byes
                        .iter()
                        .chain(r.tables.iter().flat_map(|t| &t.players))
                        .copied()
                })
            })
            .chain(replaced)
            .chain(
                stages
                    .iter()
                    .flat_map(|s| s.seeding.iter().flat_map(|x| x.order.clone())),
            );
        let names = or_failure(usernames_of(&state.db, players).await)?;
        let live = if stages.is_empty() {
            html! { p { (text::NO_STAGES.get(lang)) } }
        } else {
            html! {
                div.bracket {
                    @for stage in &stages {
                        section aria-labelledby={ "stage-" (stage.stage) } {
                            h2 #{ "stage-" (stage.stage) } {
                                (text::STAGE.get(lang)) " " (stage.stage) ": "
                                @match stage.kind {
                                    StageKind::Qualification => (text::QUALIFICATION.get(lang)),
                                    StageKind::Knockout => (text::KNOCKOUT.get(lang)),
                                }
                            }
                            @if let Some(seeding) = &stage.seeding {
                                (seeding_note(seeding, &names, lang))
                            }
                            @for round in &stage.rounds {
                                (round_block(round, &redraws, &names, lang))
                            }
                        }
                    }
                }
            }
        };
        Ok::<_, super::Failure>(page(&t, lang, Tab::Stages, live))
    })
    .await
}

//! `GET /players/{username}?opponent=`: a player's rating and rank now (or that they
//! have none yet), the rated tournaments they played with their place and games, the
//! rating over time as a chart with every point in a table, and the games they played
//! at one table with a chosen opponent. An unknown player is a 404 page; an opponent
//! the API would refuse is said on the page (a 422), the rest of the profile shown.

use std::collections::BTreeSet;

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use maud::{Markup, html};
use serde::Deserialize;

use super::chart::chart;
use super::player_link;
use crate::app_state::AppState;
use crate::http::pages::format::{figure, minute_utc, query_value, signed_figure};
use crate::http::pages::lang::Lang;
use crate::http::pages::layout::{self, Page};
use crate::http::pages::text;
use crate::ratings::profile::{self as profiles, HeadToHead, ProfileError, RatingProfile};
use crate::ratings::snapshot::Snapshot;
use crate::tournaments::named::usernames_of;

/// `?opponent=`: a username, or empty for none. Other parameters (`lang`) are the
/// frame's.
#[derive(Debug, Default, Deserialize)]
pub struct ProfileQuery {
    pub opponent: Option<String>,
}

pub async fn profile(
    state: web::Data<AppState>,
    req: HttpRequest,
    path: web::Path<String>,
    query: web::Query<ProfileQuery>,
) -> HttpResponse {
    let lang = Lang::of(&req);
    let name = path.into_inner();
    let opponent = query
        .opponent
        .as_deref()
        .map(str::trim)
        .filter(|o| !o.is_empty());
    let (account, against, refused) = match profiles::accounts(&state.db, &name, opponent).await {
        Ok((account, against)) => (account, against, None),
        // An opponent the API refuses leaves the rest of the profile to show.
        Err(refused @ (ProfileError::NoOpponent | ProfileError::SameOpponent)) => {
            match profiles::accounts(&state.db, &name, None).await {
                Ok((account, _)) => (account, None, Some(refused)),
                Err(err) => return failed(&req, lang, err),
            }
        }
        Err(err) => return failed(&req, lang, err),
    };
    let read = async {
        let snapshot = state.ratings.current(&state.db).await?;
        let met = opponents(&state, &snapshot, account.id).await?;
        Ok::<_, crate::error::ApiError>((
            profiles::of(&snapshot, account.id, account.username.clone(), against),
            met,
        ))
    };
    let (shown, met) = match read.await {
        Ok(read) => read,
        Err(err) => return failed(&req, lang, ProfileError::Store(err)),
    };
    let status = if refused.is_some() {
        StatusCode::UNPROCESSABLE_ENTITY
    } else {
        StatusCode::OK
    };
    let body = html! {
        h1 #player { (shown.username) }
        p.no-print { a href="/ratings" { (text::RATING_LIST.get(lang)) } }
        (standing(&shown, lang))
        (tournaments(&shown, lang))
        (history(&shown, lang))
        (head_to_head(&shown, &met, opponent, refused.as_ref(), lang))
        p.no-print {
            a href={ "/v1/players/" (query_value(&shown.username)) "/rating"
                @if let Some(h2h) = &shown.head_to_head { "?opponent=" (query_value(&h2h.username)) } } {
                (text::PROFILE_JSON.get(lang))
            }
        }
    };
    layout::respond(
        &req,
        status,
        Page {
            lang,
            title: format!("{} · {}", shown.username, text::RATING.get(lang)),
            body,
            body_class: None,
        },
    )
}

/// The error page for a profile that cannot be shown.
fn failed(req: &HttpRequest, lang: Lang, err: ProfileError) -> HttpResponse {
    match err {
        ProfileError::NoPlayer(_) => layout::error(
            req,
            lang,
            StatusCode::NOT_FOUND,
            text::NO_SUCH_PLAYER.get(lang),
        ),
        other => {
            tracing::warn!(error = %other, "a player's page could not read the ratings");
            layout::error(
                req,
                lang,
                StatusCode::SERVICE_UNAVAILABLE,
                text::UNAVAILABLE.get(lang),
            )
        }
    }
}

/// The usernames of everyone `player` played a rated game with, in name order: the
/// head-to-head form's choices.
async fn opponents(
    state: &AppState,
    snapshot: &Snapshot,
    player: i64,
) -> Result<Vec<String>, crate::error::ApiError> {
    let met: BTreeSet<i64> = snapshot
        .played(player)
        .flat_map(|(record, _)| record.game.lines.iter().map(|l| l.player))
        .filter(|&other| other != player)
        .collect();
    let names = usernames_of(&state.db, met.into_iter()).await?;
    let mut names: Vec<String> = names.into_values().flatten().collect();
    names.sort_by_key(|n| n.to_lowercase());
    Ok(names)
}

/// Where the player stands now.
fn standing(shown: &RatingProfile, lang: Lang) -> Markup {
    html! {
        @match &shown.rating {
            None => p { (text::NOT_RATED.get(lang)) },
            Some(r) => dl.facts.rating {
                dt { (text::RANK.get(lang)) }
                dd { (r.rank) }
                dt { (text::RATING.get(lang)) }
                dd { (figure(r.rating)) }
                dt { (text::MU.get(lang)) }
                dd { (figure(r.mu)) }
                dt { (text::SIGMA.get(lang)) }
                dd { (figure(r.sigma)) }
                dt { (text::GAMES.get(lang)) }
                dd { (r.games) }
                dt { (text::LAST_PLAYED.get(lang)) }
                dd { (minute_utc(r.last_played)) }
            },
        }
    }
}

fn tournaments(shown: &RatingProfile, lang: Lang) -> Markup {
    html! {
        @if !shown.tournaments.is_empty() {
            h2 #played { (text::PLAYED_TOURNAMENTS.get(lang)) }
            div.scroll {
                table.grid.played aria-labelledby="played" {
                    thead {
                        tr {
                            th scope="col" { (text::TOURNAMENT.get(lang)) }
                            th.num scope="col" { (text::FINAL_PLACE.get(lang)) }
                            th.num scope="col" { (text::GAMES.get(lang)) }
                        }
                    }
                    tbody {
                        @for t in &shown.tournaments {
                            tr {
                                th scope="row" { a href={ "/t/" (t.tournament) } { (t.name) } }
                                td.num {
                                    @match t.place {
                                        Some(place) => (place),
                                        None => span.note { (text::NOT_PUBLISHED.get(lang)) },
                                    }
                                }
                                td.num { (t.games) }
                            }
                        }
                    }
                }
            }
        }
        @if shown.casual_games > 0 {
            p.casual { (text::CASUAL_GAMES.get(lang)) ": " (shown.casual_games) }
        }
    }
}

/// The chart, and every point of it as a table (its text alternative).
fn history(shown: &RatingProfile, lang: Lang) -> Markup {
    let ratings: Vec<f64> = shown.history.iter().map(|p| p.rating).collect();
    let name_of = |id: i64| {
        shown
            .tournaments
            .iter()
            .find(|t| t.tournament == id)
            .map(|t| t.name.clone())
            .unwrap_or_default()
    };
    html! {
        h2 #over-time { (text::RATING_OVER_TIME.get(lang)) }
        @if ratings.is_empty() {
            p { (text::NO_HISTORY.get(lang)) }
        } @else {
            figure.chart {
                (chart(&ratings, lang, "over-time"))
                figcaption { (text::RATED_GAMES.get(lang)) " →" }
            }
            details.points {
                summary { (text::CHART_POINTS.get(lang)) }
                div.scroll tabindex="0" role="region" aria-label=(text::CHART_POINTS.get(lang)) {
                    table.grid.history {
                        caption.vh { (text::CHART_POINTS.get(lang)) }
                        thead {
                            tr {
                                th.num scope="col" { (text::GAME_NUMBER.get(lang)) }
                                th scope="col" { (text::PLAYED_AT.get(lang)) }
                                th scope="col" { (text::TOURNAMENT.get(lang)) }
                                th scope="col" { (text::TABLE.get(lang)) }
                                th.num scope="col" { (text::PLACE.get(lang)) }
                                th.num scope="col" { (text::RATING.get(lang)) }
                                th.num scope="col" { (text::CHANGE.get(lang)) }
                            }
                        }
                        tbody {
                            @for (k, p) in shown.history.iter().enumerate() {
                                tr {
                                    th.num scope="row" { (k + 1) }
                                    td.when { (minute_utc(p.played_at)) }
                                    @match (p.tournament, p.table, p.casual_table) {
                                        (Some(tournament), Some(table), _) => {
                                            td { (name_of(tournament)) }
                                            td.when {
                                                (text::STAGE.get(lang)) " " (table.stage) " · "
                                                (text::ROUND.get(lang)) " " (table.round) " · "
                                                (text::TABLE.get(lang)) " " (table.table)
                                            }
                                        }
                                        (_, _, casual) => {
                                            td { (text::CASUAL_TABLE.get(lang)) }
                                            td.when {
                                                @if let Some(id) = casual {
                                                    (text::TABLE.get(lang)) " " (id)
                                                }
                                            }
                                        }
                                    }
                                    td.num.when {
                                        (text::PLACE_OF.get(lang)
                                            .replace("{place}", &p.place.to_string())
                                            .replace("{players}", &p.players.to_string()))
                                    }
                                    td.num { (figure(p.rating)) }
                                    td.num { (signed_figure(p.change)) }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The head-to-head form, and its answer when an opponent is chosen.
fn head_to_head(
    shown: &RatingProfile,
    met: &[String],
    asked: Option<&str>,
    refused: Option<&ProfileError>,
    lang: Lang,
) -> Markup {
    let chosen = shown.head_to_head.as_ref().map(|h| h.username.as_str());
    // The opponent asked for is a choice even when the two never met.
    let mut choices: Vec<&str> = met.iter().map(String::as_str).collect();
    if let Some(chosen) = chosen
        && !choices.iter().any(|c| c.eq_ignore_ascii_case(chosen))
    {
        choices.push(chosen);
    }
    html! {
        h2 #head-to-head { (text::HEAD_TO_HEAD.get(lang)) }
        form.find method="get" action={ "/players/" (query_value(&shown.username)) } {
            div {
                label for="opponent" { (text::OPPONENT.get(lang)) }
                br;
                select #opponent name="opponent" {
                    option value="" { (text::CHOOSE_PLAYER.get(lang)) }
                    @for name in &choices {
                        option value=(name) selected[chosen == Some(*name)] { (name) }
                    }
                }
            }
            button type="submit" { (text::COMPARE.get(lang)) }
        }
        @if let Some(refused) = refused {
            p.said.problem role="alert" {
                @match refused {
                    ProfileError::SameOpponent => (text::SAME_OPPONENT.get(lang)),
                    _ => (text::NO_SUCH_OPPONENT.get(lang)),
                }
                @if let Some(asked) = asked { " (" (asked) ")" }
            }
        }
        @if let Some(h2h) = &shown.head_to_head {
            (record(h2h, lang))
        }
    }
}

fn record(h2h: &HeadToHead, lang: Lang) -> Markup {
    html! {
        section.head-to-head aria-labelledby="against" {
            @let (before, after) = text::AGAINST.get(lang).split_once("{name}").unwrap_or(("", ""));
            h3 #against {
                (before) (player_link(Some(&h2h.username), h2h.opponent)) (after)
            }
            @if h2h.games == 0 {
                p { (text::NEVER_MET.get(lang)) }
            } @else {
                dl.facts {
                    dt { (text::SAME_TABLE_GAMES.get(lang)) }
                    dd { (h2h.games) }
                    dt { (text::FINISHED_AHEAD.get(lang)) }
                    dd { (h2h.ahead) }
                    dt { (text::FINISHED_BEHIND.get(lang)) }
                    dd { (h2h.behind) }
                    dt { (text::SHARED_PLACE.get(lang)) }
                    dd { (h2h.tied) }
                }
            }
        }
    }
}

//! `GET /ratings?from=&to=&min_games=&offset=&limit=`: the rating list, best first, a
//! page at a time, with a form for the period and the least number of games, and a
//! link to the CSV of the same filters.
//!
//! The form's days (`type="date"`, in UTC) become the API's times: `from` the start of
//! its day, `to` the end of its day (the start of the next), so both days are in the
//! period. Anything else is passed on as written, so an RFC 3339 time works too, and a
//! value the API would refuse is refused here for the same reason: a 422 page that
//! says so, with the form to put it right.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use maud::{Markup, html};
use serde::Deserialize;
use time::{Date, Month};

use super::player_link;
use crate::app_state::AppState;
use crate::http::pages::format::{figure, minute_utc, query_value};
use crate::http::pages::lang::{Lang, Text};
use crate::http::pages::layout::{self, Page};
use crate::http::pages::text;
use crate::ratings::named::{RatingEntry, entries, list_of};
use crate::ratings::period::{FilterError, Period, page_of};

/// The query as typed: a value the page cannot read is the page's to refuse (an
/// extractor would answer with a bare 400). Other parameters (`lang`) are the frame's.
#[derive(Debug, Default, Deserialize)]
pub struct ListQuery {
    pub from: Option<String>,
    pub to: Option<String>,
    pub min_games: Option<String>,
    pub offset: Option<String>,
    pub limit: Option<String>,
}

/// Why the list cannot be shown as asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Refusal {
    Filter(FilterError),
    MinGames,
    Offset,
}

impl Refusal {
    fn message(self) -> Text {
        match self {
            Refusal::Filter(FilterError::Malformed { field: "to" }) => text::BAD_TO,
            Refusal::Filter(FilterError::Malformed { .. }) => text::BAD_FROM,
            Refusal::Filter(FilterError::Reversed) => text::REVERSED_PERIOD,
            Refusal::Filter(FilterError::Limit) | Refusal::Offset => text::BAD_LIST_PAGE,
            Refusal::MinGames => text::BAD_MIN_GAMES,
        }
    }
}

/// Which end of the period a form's day is.
#[derive(Debug, Clone, Copy)]
enum Edge {
    Start,
    End,
}

/// A field's value, or `None` when the form left it empty.
fn filled(value: Option<&String>) -> Option<&str> {
    value.map(|v| v.trim()).filter(|v| !v.is_empty())
}

/// `2026-06-01` (four, two and two digits), if `value` is a day.
fn day(value: &str) -> Option<Date> {
    let mut parts = value.split('-');
    let (year, month, day) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() || year.len() != 4 || month.len() != 2 || day.len() != 2 {
        return None;
    }
    let month = Month::try_from(month.parse::<u8>().ok()?).ok()?;
    Date::from_calendar_date(year.parse().ok()?, month, day.parse().ok()?).ok()
}

/// The API's time for a form's value: a day as the start of that day (`Start`) or of
/// the next (`End`), in UTC; anything else as written, for the API's parser to judge.
fn api_time(value: &str, edge: Edge) -> String {
    let Some(date) = day(value) else {
        return value.to_owned();
    };
    let date = match edge {
        Edge::Start => Some(date),
        Edge::End => date.next_day(),
    };
    match date {
        Some(d) => format!(
            "{:04}-{:02}-{:02}T00:00:00Z",
            d.year(),
            u8::from(d.month()),
            d.day()
        ),
        // The last day there is: nothing comes after it.
        None => value.to_owned(),
    }
}

/// A whole number of the query, absent when empty.
fn whole(value: Option<&String>, refusal: Refusal) -> Result<Option<u32>, Refusal> {
    filled(value)
        .map(|v| v.parse::<u32>().map_err(|_| refusal))
        .transpose()
}

/// The list's filters as the API takes them.
#[derive(Debug, Default)]
struct Filters {
    from: Option<String>,
    to: Option<String>,
    min_games: Option<u32>,
    limit: Option<u32>,
}

impl Filters {
    /// `?from=&to=&min_games=` (and `limit=` when the page was given one), encoded.
    fn query(&self) -> String {
        let mut parts = Vec::new();
        if let Some(from) = &self.from {
            parts.push(format!("from={}", query_value(from)));
        }
        if let Some(to) = &self.to {
            parts.push(format!("to={}", query_value(to)));
        }
        if let Some(min) = self.min_games {
            parts.push(format!("min_games={min}"));
        }
        parts.join("&")
    }

    fn with_page(&self, offset: usize) -> String {
        let mut query = self.query();
        for part in [
            self.limit.map(|l| format!("limit={l}")),
            Some(format!("offset={offset}")),
        ]
        .into_iter()
        .flatten()
        {
            if !query.is_empty() {
                query.push('&');
            }
            query.push_str(&part);
        }
        query
    }
}

/// What the list shows under the form.
enum Shown {
    Refused(Refusal),
    Listed {
        entries: Vec<RatingEntry>,
        first: usize,
        total: usize,
        games: u32,
        next: Option<u32>,
        filters: Filters,
    },
}

pub async fn ratings(
    state: web::Data<AppState>,
    req: HttpRequest,
    query: web::Query<ListQuery>,
) -> HttpResponse {
    let lang = Lang::of(&req);
    let shown = match read(&state, &query).await {
        Ok(shown) => shown,
        Err(err) => {
            tracing::warn!(error = %err, "the rating list page could not read the list");
            return layout::error(
                &req,
                lang,
                StatusCode::SERVICE_UNAVAILABLE,
                text::UNAVAILABLE.get(lang),
            );
        }
    };
    let status = match shown {
        Shown::Refused(_) => StatusCode::UNPROCESSABLE_ENTITY,
        Shown::Listed { .. } => StatusCode::OK,
    };
    let filtering = [&query.from, &query.to, &query.min_games]
        .into_iter()
        .any(|v| filled(v.as_ref()).is_some());
    let body = html! {
        h1 { (text::RATING_LIST.get(lang)) }
        p { (text::RATINGS_INTRO.get(lang)) }
        (form(&query, lang, filtering))
        @match &shown {
            Shown::Refused(refusal) => {
                p.said.problem role="alert" { (refusal.message().get(lang)) }
            }
            Shown::Listed { entries, first, total, games, next, filters } => {
                @if entries.is_empty() {
                    p {
                        @if *total == 0 && !filtering { (text::NO_RATINGS.get(lang)) }
                        @else { (text::NO_RATINGS_MATCH.get(lang)) }
                    }
                } @else {
                    p role="status" {
                        (text::RATINGS_SHOWN.get(lang)
                            .replace("{first}", &(first + 1).to_string())
                            .replace("{last}", &(first + entries.len()).to_string())
                            .replace("{total}", &total.to_string())
                            .replace("{games}", &games.to_string()))
                    }
                    (table(entries, lang))
                    (pager(filters, *first, entries.len(), *next, lang))
                }
                p.no-print {
                    a href={ "/v1/ratings.csv?" (filters.query()) } download { (text::DOWNLOAD_CSV.get(lang)) }
                }
            }
        }
    };
    layout::respond(
        &req,
        status,
        Page {
            lang,
            title: text::RATING_LIST.get(lang).to_owned(),
            body,
            body_class: None,
        },
    )
}

/// The list `query` asks for, or why it cannot be shown.
async fn read(state: &AppState, query: &ListQuery) -> Result<Shown, crate::error::ApiError> {
    let asked = || -> Result<(Filters, Period, Option<u32>), Refusal> {
        let filters = Filters {
            from: filled(query.from.as_ref()).map(|v| api_time(v, Edge::Start)),
            to: filled(query.to.as_ref()).map(|v| api_time(v, Edge::End)),
            min_games: whole(query.min_games.as_ref(), Refusal::MinGames)?,
            limit: whole(query.limit.as_ref(), Refusal::Offset)?,
        };
        let offset = whole(query.offset.as_ref(), Refusal::Offset)?;
        let period = Period::parse(
            filters.from.as_deref(),
            filters.to.as_deref(),
            filters.min_games,
        )
        .map_err(Refusal::Filter)?;
        // The limit is judged before the list is read, as the API does.
        page_of(0, offset, filters.limit).map_err(Refusal::Filter)?;
        Ok((filters, period, offset))
    };
    let (filters, period, offset) = match asked() {
        Ok(asked) => asked,
        Err(refusal) => return Ok(Shown::Refused(refusal)),
    };
    let (rows, games) = list_of(&state.ratings, &state.db, &period).await?;
    let (shown, next) = match page_of(rows.len(), offset, filters.limit) {
        Ok(page) => page,
        Err(refusal) => return Ok(Shown::Refused(Refusal::Filter(refusal))),
    };
    let first = shown.start;
    let entries = entries(
        &state.db,
        &rows[shown],
        u32::try_from(first).unwrap_or(u32::MAX),
    )
    .await?;
    Ok(Shown::Listed {
        entries,
        first,
        total: rows.len(),
        games,
        next,
        filters,
    })
}

/// The filter form, filled in with what was asked.
fn form(query: &ListQuery, lang: Lang, filtering: bool) -> Markup {
    html! {
        form.find method="get" action="/ratings" aria-describedby="period-hint" {
            div {
                label for="from" { (text::FROM_DAY.get(lang)) }
                br;
                input #from type="date" name="from" value=[filled(query.from.as_ref())];
            }
            div {
                label for="to" { (text::TO_DAY.get(lang)) }
                br;
                input #to type="date" name="to" value=[filled(query.to.as_ref())];
            }
            div {
                label for="min_games" { (text::MIN_GAMES.get(lang)) }
                br;
                input #min_games type="number" name="min_games" min="0" step="1"
                    inputmode="numeric" value=[filled(query.min_games.as_ref())];
            }
            button type="submit" { (text::SHOW.get(lang)) }
            @if filtering {
                a href="/ratings" { (text::ALL_PLAYERS.get(lang)) }
            }
        }
        p.note #period-hint { (text::PERIOD_HINT.get(lang)) }
    }
}

fn table(entries: &[RatingEntry], lang: Lang) -> Markup {
    html! {
        // Wider than a phone: the reader scrolls it, so it can take the keyboard's focus.
        div.scroll tabindex="0" role="region" aria-label=(text::RATING_LIST.get(lang)) {
            table.grid.ratings {
                caption.vh { (text::RATING_LIST.get(lang)) }
                thead {
                    tr {
                        th.num scope="col" { (text::RANK.get(lang)) }
                        th scope="col" { (text::PLAYER.get(lang)) }
                        th.num scope="col" { (text::RATING.get(lang)) }
                        th.num scope="col" { (text::MU.get(lang)) }
                        th.num scope="col" { (text::SIGMA.get(lang)) }
                        th.num scope="col" { (text::GAMES.get(lang)) }
                        th scope="col" { (text::LAST_PLAYED.get(lang)) }
                    }
                }
                tbody {
                    @for e in entries {
                        tr {
                            td.num { (e.rank) }
                            th scope="row" { (player_link(e.username.as_deref(), e.player)) }
                            td.num { (figure(e.rating)) }
                            td.num { (figure(e.mu)) }
                            td.num { (figure(e.sigma)) }
                            td.num { (e.games) }
                            td.when { (minute_utc(e.last_played)) }
                        }
                    }
                }
            }
        }
    }
}

/// Links to the pages before and after this one, the filters kept.
fn pager(filters: &Filters, first: usize, shown: usize, next: Option<u32>, lang: Lang) -> Markup {
    let size = filters.limit.map_or(shown, |l| l as usize).max(1);
    html! {
        @if first > 0 || next.is_some() {
            nav.pager.no-print aria-label=(text::LIST_PAGES.get(lang)) {
                @if first > 0 {
                    a rel="prev" href={ "/ratings?" (filters.with_page(first.saturating_sub(size))) } {
                        "← " (text::PREVIOUS_PLAYERS.get(lang))
                    }
                }
                @if let Some(next) = next {
                    a rel="next" href={ "/ratings?" (filters.with_page(next as usize)) } {
                        (text::NEXT_PLAYERS.get(lang)) " →"
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_form_day_covers_the_whole_day_in_utc() {
        assert_eq!(api_time("2026-06-01", Edge::Start), "2026-06-01T00:00:00Z");
        assert_eq!(api_time("2026-06-30", Edge::End), "2026-07-01T00:00:00Z");
        assert_eq!(api_time("2026-12-31", Edge::End), "2027-01-01T00:00:00Z");
        assert_eq!(api_time("2026-02-30", Edge::Start), "2026-02-30");
        assert_eq!(api_time("yesterday", Edge::End), "yesterday");
        assert_eq!(
            api_time("2026-06-01T12:00:00Z", Edge::End),
            "2026-06-01T12:00:00Z"
        );
    }

    #[test]
    fn refusals_are_said_for_the_field_at_fault() {
        let to = Refusal::Filter(FilterError::Malformed { field: "to" });
        let from = Refusal::Filter(FilterError::Malformed { field: "from" });
        assert_eq!(to.message().en, text::BAD_TO.en);
        assert_eq!(from.message().en, text::BAD_FROM.en);
    }
}

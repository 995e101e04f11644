//! `GET /v1/tournaments/{id}/ranking`: the final ranking, with the players' usernames,
//! as JSON or CSV.

use std::collections::BTreeMap;

use actix_web::{HttpRequest, HttpResponse, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use yaniv_domain::tournament::{Reached, TournamentFinished};

use super::read::{AsOfQuery, ReadProblems, load_as_of, usernames_of};
use super::standings::StandingsQuery;
use super::with_etag;
use crate::app_state::AppState;
use crate::error::ApiError;
use crate::http::auth::MaybeAuthenticated;
use crate::http::routes::csv::{self, Csv};

/// The final ranking.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct RankingResponse {
    pub id: i64,
    /// The version read: the tournament's version, or `as_of` when given.
    pub version: u64,
    /// Whether the ranking is published (the tournament is finished); before that,
    /// `ranking` is what the final table's result would give, if it is in.
    pub published: bool,
    /// `null` until the final table has its result; then each player's place and how
    /// far they reached, and who was disqualified.
    #[schema(required = true)]
    pub ranking: Option<TournamentFinished>,
    /// The username of every account the ranking names, by account id (`null` for an
    /// account that is gone).
    #[serde(default)]
    #[schema(value_type = BTreeMap<String, Option<String>>)]
    pub usernames: BTreeMap<i64, Option<String>>,
}

const COLUMNS: [&str; 7] = [
    "place",
    "player",
    "username",
    "reached",
    "stage",
    "place_at_table",
    "withdrawn",
];

/// The final ranking: published once the tournament is finished, as JSON. The same as
/// CSV: `GET /v1/tournaments/{id}/ranking.csv`.
#[utoipa::path(
    get,
    path = "/v1/tournaments/{id}/ranking",
    tag = "tournaments",
    security((), ("bearer" = [])),
    params(("id" = i64, Path, description = "Tournament id"), StandingsQuery),
    responses(
        (status = 200, description = "The ranking (`ranking` is `null` until the final \
                                      table has its result)", body = RankingResponse),
        ReadProblems,
    )
)]
pub async fn ranking(
    state: web::Data<AppState>,
    _auth: MaybeAuthenticated,
    req: HttpRequest,
    path: web::Path<i64>,
    query: web::Query<StandingsQuery>,
) -> Result<HttpResponse, ApiError> {
    let as_csv = csv::wanted(&req, query.format.as_deref())?;
    answer(&state, path.into_inner(), query.as_of, as_csv).await
}

/// The final ranking as CSV for a spreadsheet: a row per player, the disqualified last
/// with `reached` = `disqualified`.
#[utoipa::path(
    get,
    path = "/v1/tournaments/{id}/ranking.csv",
    tag = "tournaments",
    security((), ("bearer" = [])),
    params(("id" = i64, Path, description = "Tournament id"), AsOfQuery),
    responses(
        (status = 200, description = "The ranking, RFC 4180 CSV with a header row (only \
                                      the header until the final table has its result)",
         body = String, content_type = "text/csv"),
        ReadProblems,
    )
)]
pub async fn ranking_csv(
    state: web::Data<AppState>,
    _auth: MaybeAuthenticated,
    path: web::Path<i64>,
    query: web::Query<AsOfQuery>,
) -> Result<HttpResponse, ApiError> {
    answer(&state, path.into_inner(), query.as_of, true).await
}

async fn answer(
    state: &AppState,
    id: i64,
    as_of: Option<u64>,
    as_csv: bool,
) -> Result<HttpResponse, ApiError> {
    let tournament = load_as_of(state, id, as_of).await?;
    let version = tournament.version();
    let ranking = tournament.ranking();
    let named = ranking.iter().flat_map(|r| {
        r.ranking
            .iter()
            .map(|p| p.player)
            .chain(r.disqualified.iter().copied())
    });
    let usernames = usernames_of(&state.db, named).await?;
    let response = if as_csv {
        as_csv_document(ranking.as_ref(), &usernames)
            .respond(&format!("tournament-{id}-ranking-v{version}.csv"))
    } else {
        HttpResponse::Ok().json(RankingResponse {
            id,
            version,
            published: tournament.state().finished.is_some(),
            ranking,
            usernames,
        })
    };
    Ok(with_etag(response, version))
}

fn as_csv_document(
    ranking: Option<&TournamentFinished>,
    usernames: &BTreeMap<i64, Option<String>>,
) -> Csv {
    let mut csv = Csv::with_header(&COLUMNS);
    let Some(ranking) = ranking else {
        return csv;
    };
    let name = |player: i64| {
        usernames
            .get(&player)
            .cloned()
            .flatten()
            .unwrap_or_default()
    };
    for p in &ranking.ranking {
        let (reached, stage, place_at_table) = match p.reached {
            Reached::Final { place_at_table } => {
                ("final", String::new(), place_at_table.to_string())
            }
            Reached::Knockout {
                stage,
                place_at_table,
            } => (
                "knockout",
                stage.to_string(),
                place_at_table.map(|p| p.to_string()).unwrap_or_default(),
            ),
            Reached::Qualification => ("qualification", String::new(), String::new()),
        };
        let fields = [
            p.place.to_string(),
            p.player.to_string(),
            name(p.player),
            reached.to_owned(),
            stage,
            place_at_table,
            p.withdrawn.to_string(),
        ];
        csv.row(fields.iter().map(String::as_str));
    }
    for &player in &ranking.disqualified {
        let fields = [
            String::new(),
            player.to_string(),
            name(player),
            "disqualified".to_owned(),
            String::new(),
            String::new(),
            String::new(),
        ];
        csv.row(fields.iter().map(String::as_str));
    }
    csv
}

//! The OpenAPI 3.1 document, generated from the handlers' `#[utoipa::path]`
//! annotations and served at `/openapi.json` (Swagger UI at `/docs/`, from assets
//! vendored into the binary).
//!
//! `openapi/openapi.json` at the workspace root is the checked-in copy; the test
//! below fails when it differs from what the code generates. Regenerate it with
//!
//! ```text
//! cargo run -p yaniv-api --bin yaniv-server -- openapi > openapi/openapi.json
//! ```
//!
//! or `UPDATE_OPENAPI=1 cargo test -p yaniv-api openapi`. `info.version` is pinned
//! ([`API_VERSION`]) so the document only changes when the API does.

use utoipa::openapi::path::Operation;
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::openapi::{ContentBuilder, Ref, RefOr, Response, ResponseBuilder};
use utoipa::{Modify, OpenApi};

use crate::auth::Role;
use crate::error::{FieldError, PROBLEM_JSON, Problem};
use crate::routes::records::{
    GameRecord, RecordAction, RecordAddOn, RecordCall, RecordCallKind, RecordDraw, RecordGoAlong,
    RecordOnderkluft, RecordProblem, RecordRound, RecordRules, RecordShuffle, RecordSlap,
    RecordTurn, ReplayBonus, ReplayOutcome, ReplayReduction, ReplayResult, ReplayRound,
    ReplayStanding,
};
use crate::routes::{accounts, health, records, sessions, tables, tournaments};

/// Version of the HTTP API (not of the crate); bump it when the API changes.
pub const API_VERSION: &str = "0.1.0";

#[derive(Debug, OpenApi)]
#[openapi(
    info(
        title = "Yaniv championship server",
        version = "0.1.0",
        description = "Accounts, sessions and the event-sourced championship of Yaniv. \
                       Every error is an RFC 9457 problem document (`application/problem+json`) \
                       with a stable `code`.",
        license(name = "MIT", identifier = "MIT"),
    ),
    paths(
        health::healthz,
        health::readyz,
        accounts::register,
        accounts::me,
        accounts::set_roles,
        sessions::login,
        sessions::logout,
        records::replay,
        tables::create::create,
        tables::list::list,
        tables::show::show,
        tables::join::join,
        tables::leave::leave,
        tables::start::start,
        tables::actions::act,
        tables::view::view,
        tables::events::events,
        tables::record::record,
        tables::audit::audit,
        tables::verify::verify,
        tournaments::list::list,
        tournaments::create::create,
        tournaments::read::show,
        tournaments::commands::command,
        tournaments::draws::draw,
        tournaments::draws::start_online,
        tournaments::read::standings,
        tournaments::read::stages,
        tournaments::read::ranking,
        tournaments::players::players,
        tournaments::read::events,
        tournaments::me::me,
        tournaments::verify::verify,
    ),
    components(schemas(
        Problem, FieldError, Role,
        GameRecord, RecordRules, RecordRound, RecordShuffle, RecordAction, RecordTurn, RecordDraw,
        RecordSlap, RecordAddOn, RecordCall, RecordCallKind, RecordGoAlong, RecordOnderkluft,
        ReplayResult, ReplayRound, ReplayOutcome, ReplayReduction, ReplayBonus, ReplayStanding,
        RecordProblem,
    )),
    modifiers(&BearerAuth, &CommonErrors, &TaggedOperationIds),
    tags(
        (name = "health", description = "Liveness and readiness probes"),
        (name = "accounts", description = "Registration and roles"),
        (name = "sessions", description = "Log in and log out (opaque bearer tokens)"),
        (name = "records", description = "Game records (`yaniv-record/1`): replay and check a game; nothing is stored"),
        (name = "tables", description = "Online game tables: seats, the game, per-viewer views and events"),
        (name = "tournaments", description = "Championship tournaments: creation, the domain's commands (registration, draws, results, referee decisions), standings, bracket, ranking and events"),
        (name = "audit", description = "Referees, organizers and admins: a table's full state at any version, and verification of a table's or a tournament's stored history"),
    )
)]
pub struct ApiDoc;

/// Declares the `bearer` security scheme the paths refer to.
struct BearerAuth;

impl Modify for BearerAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .description(Some(
                        "Opaque token from `POST /v1/sessions`, sent as `Authorization: Bearer <token>`",
                    ))
                    .build(),
            ),
        );
    }
}

/// Documents the errors every operation can answer, so handlers list only their
/// own: 500 everywhere, and 400/413/415 wherever a JSON body is read.
struct CommonErrors;

/// A response carrying a problem document.
pub fn problem_response(description: &str) -> Response {
    ResponseBuilder::new()
        .description(description)
        .content(
            PROBLEM_JSON,
            ContentBuilder::new()
                .schema(Some(Ref::from_schema_name("Problem")))
                .build(),
        )
        .build()
}

/// Every operation of the document.
fn operations_mut(openapi: &mut utoipa::openapi::OpenApi) -> impl Iterator<Item = &mut Operation> {
    openapi.paths.paths.values_mut().flat_map(|item| {
        [
            &mut item.get,
            &mut item.put,
            &mut item.post,
            &mut item.delete,
            &mut item.patch,
        ]
        .into_iter()
        .flatten()
    })
}

impl Modify for CommonErrors {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        for op in operations_mut(openapi) {
            let responses = &mut op.responses.responses;
            let mut add = |status: &str, description: &str| {
                responses
                    .entry(status.to_owned())
                    .or_insert_with(|| RefOr::T(problem_response(description)));
            };
            if op.request_body.is_some() {
                add("400", "Malformed JSON body (`malformed_json`)");
                add("413", "Body larger than the limit (`payload_too_large`)");
                add(
                    "415",
                    "Body not sent as `application/json` (`unsupported_media_type`)",
                );
            }
            add(
                "500",
                "Internal error, logged on the server (`internal_error`)",
            );
        }
    }
}

/// Makes every `operationId` `<tag>_<handler>` (`tables_show`, `tournaments_show`):
/// handlers of different resources share names, and OpenAPI requires the ids to be
/// unique (client generators name their methods after them).
struct TaggedOperationIds;

impl Modify for TaggedOperationIds {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        for op in operations_mut(openapi) {
            let tag = op.tags.as_ref().and_then(|t| t.first()).cloned();
            if let (Some(tag), Some(id)) = (tag, op.operation_id.as_mut()) {
                *id = format!("{tag}_{id}");
            }
        }
    }
}

/// The document.
pub fn spec() -> utoipa::openapi::OpenApi {
    ApiDoc::openapi()
}

/// The document as pretty JSON with a final newline: the checked-in form.
pub fn to_pretty_json() -> String {
    let mut json = spec()
        .to_pretty_json()
        .unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
    json.push('\n');
    json
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_is_pinned() {
        assert_eq!(spec().info.version, API_VERSION);
    }

    #[test]
    fn checked_in_document_matches_the_code() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../openapi/openapi.json");
        let generated = to_pretty_json();
        if std::env::var_os("UPDATE_OPENAPI").is_some() {
            std::fs::write(&path, &generated).unwrap();
            return;
        }
        let checked_in = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            checked_in == generated,
            "openapi/openapi.json is out of date: regenerate it with \
             `cargo run -p yaniv-api --bin yaniv-server -- openapi > openapi/openapi.json` \
             (or UPDATE_OPENAPI=1 cargo test -p yaniv-api openapi) and review the diff"
        );
    }

    #[test]
    fn every_operation_is_documented_with_its_errors() {
        let spec = spec();
        let mut operations = 0;
        for (path, item) in &spec.paths.paths {
            for op in [&item.get, &item.put, &item.post, &item.delete]
                .into_iter()
                .flatten()
            {
                operations += 1;
                assert!(op.operation_id.is_some(), "{path}");
                assert!(!op.responses.responses.is_empty(), "{path}");
            }
        }
        assert!(operations >= 7, "only {operations} operations");
        let mut ids: Vec<&str> = spec
            .paths
            .paths
            .values()
            .flat_map(|item| [&item.get, &item.put, &item.post, &item.delete, &item.patch])
            .flatten()
            .filter_map(|op| op.operation_id.as_deref())
            .collect();
        let count = ids.len();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), count, "operationIds must be unique");
        let schemes = &spec.components.as_ref().unwrap().security_schemes;
        assert!(schemes.contains_key("bearer"));
    }
}

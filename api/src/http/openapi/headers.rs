//! The headers the server reads and writes beyond each handler's own, declared where
//! they apply: once in `components` (`headers`, `parameters`), referred to from each
//! operation and response, so a client generator sees one definition of each.
//!
//! - `X-Request-Id`: every answer carries one (the caller's own when it sent a valid
//!   one); the logs name it. It is not declared as a parameter of every operation:
//!   generated clients would grow an argument on every call for a header they rarely
//!   set, and fuzzers that infer links feed it other answers' ids. The header's
//!   description says what a caller may send.
//! - `Retry-After`: on every 429 and 503.
//! - `Idempotent-Replayed: true`: on the success of an operation that takes an
//!   `Idempotency-Key`, when the answer is the stored one.
//! - `ETag` and `If-None-Match` with its `304` on the reads of [`VERSIONED_READS`]:
//!   the tag is the stream's version, quoted.
//! - `If-Match` on every operation whose answers include a `412`.
//! - `Content-Disposition` on the CSV answers and the archive: the file name to save.

use utoipa::openapi::header::{Header, HeaderBuilder};
use utoipa::openapi::path::{Operation, ParameterBuilder, ParameterIn};
use utoipa::openapi::schema::{ObjectBuilder, Type};
use utoipa::openapi::{Ref, RefOr, Required, ResponseBuilder};
use utoipa::{Modify, openapi::OpenApi};

use super::operations::item_operations_mut;
use crate::http::idempotency_key::IDEMPOTENCY_KEY_HEADER;

/// The reads whose answer carries the stream's version as `ETag` and honours
/// `If-None-Match` (`crate::http::response_headers`). The archive has a tag of its own
/// and documents it itself.
pub const VERSIONED_READS: [&str; 19] = [
    "/v1/tables/{id}",
    "/v1/tables/{id}/view",
    "/v1/tables/{id}/rounds",
    "/v1/tables/{id}/record",
    "/v1/tables/{id}/events",
    "/v1/tables/{id}/audit",
    "/v1/tables/{id}/diff",
    "/v1/tournaments/{id}",
    "/v1/tournaments/{id}/players",
    "/v1/tournaments/{id}/stages",
    "/v1/tournaments/{id}/interventions",
    "/v1/tournaments/{id}/events",
    "/v1/tournaments/{id}/standings",
    "/v1/tournaments/{id}/me",
    "/v1/tournaments/{id}/results",
    "/v1/tournaments/{id}/ranking",
    "/v1/tournaments/{id}/standings.csv",
    "/v1/tournaments/{id}/results.csv",
    "/v1/tournaments/{id}/ranking.csv",
];

/// `components.headers` names.
pub const REQUEST_ID: &str = "X-Request-Id";
pub const RETRY_AFTER: &str = "Retry-After";
pub const REPLAYED: &str = "Idempotent-Replayed";
pub const ETAG: &str = "ETag";
pub const CONTENT_DISPOSITION: &str = "Content-Disposition";

/// The answers that are files to save, with the status that carries them.
const DOWNLOADS: [&str; 4] = [
    "/v1/tournaments/{id}/standings.csv",
    "/v1/tournaments/{id}/results.csv",
    "/v1/tournaments/{id}/ranking.csv",
    "/v1/tournaments/{id}/archive",
];

/// The archive's tag is a hash of the kept copy, not a version.
const ARCHIVE: &str = "/v1/tournaments/{id}/archive";

/// The pattern of a version tag: a quoted stream version.
const VERSION_TAG_PATTERN: &str = "^(W/)?\"[0-9]+\"$";

/// What `If-Match` accepts (`crate::http::routes::command::if_match`): a version tag,
/// its quotes and surrounding spaces forgiven.
const IF_MATCH_PATTERN: &str = "^\\s*(W/)?\"*[0-9]+\"*\\s*$";

pub struct Headers;

fn string(description: &str, pattern: Option<&str>) -> utoipa::openapi::schema::Object {
    let mut schema = ObjectBuilder::new()
        .schema_type(Type::String)
        .description(Some(description));
    if let Some(pattern) = pattern {
        schema = schema.pattern(Some(pattern));
    }
    schema.build()
}

fn header(schema: utoipa::openapi::schema::Object, description: &str) -> Header {
    HeaderBuilder::new()
        .schema(Some(schema))
        .description(Some(description))
        .build()
}

fn header_ref(name: &str) -> RefOr<Header> {
    RefOr::Ref(Ref::new(format!("#/components/headers/{name}")))
}

fn has_parameter(op: &Operation, name: &str) -> bool {
    op.parameters
        .iter()
        .flatten()
        .any(|p| matches!(p, RefOr::T(p) if p.name.eq_ignore_ascii_case(name)))
}

/// Declares header `name` on `op`, or gives the one its handler declared the same
/// schema, so that every operation types it alike.
fn add_header_parameter(op: &mut Operation, name: &str, description: &str, pattern: Option<&str>) {
    let declared = op.parameters.iter_mut().flatten().find_map(|p| match p {
        RefOr::T(p) if p.name.eq_ignore_ascii_case(name) => Some(p),
        _ => None,
    });
    if let Some(parameter) = declared {
        parameter.schema = Some(RefOr::T(utoipa::openapi::schema::Schema::Object(string(
            description,
            pattern,
        ))));
        return;
    }
    let parameter = ParameterBuilder::new()
        .name(name)
        .parameter_in(ParameterIn::Header)
        .required(Required::False)
        .description(Some(description))
        .schema(Some(string(description, pattern)))
        .build();
    op.parameters
        .get_or_insert_with(Vec::new)
        .push(RefOr::T(parameter));
}

impl Modify for Headers {
    fn modify(&self, openapi: &mut OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        let integer_seconds = ObjectBuilder::new()
            .schema_type(Type::Integer)
            .minimum(Some(0))
            .build();
        for (name, value) in [
            (
                REQUEST_ID,
                header(
                    string("The request's id", None),
                    "The request's id: the one the caller sent (`X-Request-Id`, visible ASCII, \
                     up to 128 characters) or a new one. The server's log lines name it.",
                ),
            ),
            (
                RETRY_AFTER,
                header(
                    integer_seconds,
                    "Seconds to wait before sending the request again",
                ),
            ),
            (
                REPLAYED,
                header(
                    ObjectBuilder::new()
                        .schema_type(Type::String)
                        .enum_values(Some(["true"]))
                        .build(),
                    "`true` when this is the stored answer to an earlier request with the \
                     same `Idempotency-Key` (nothing was done again); absent otherwise",
                ),
            ),
            (
                ETAG,
                header(
                    string("The version read, quoted", Some(VERSION_TAG_PATTERN)),
                    "The stream's version this answer was read at, quoted (`\"42\"`). Send it \
                     as `If-None-Match` to be answered `304` while nothing changed, or as \
                     `If-Match` on a command to act only at this version",
                ),
            ),
            (
                CONTENT_DISPOSITION,
                header(
                    string("`attachment; filename=\"...\"`", None),
                    "`attachment` with the name to save the file under (`tournament-7-standings-v42.csv`)",
                ),
            ),
        ] {
            components.headers.insert(name.to_owned(), RefOr::T(value));
        }

        for (path, item) in openapi.paths.paths.iter_mut() {
            let versioned = VERSIONED_READS.contains(&path.as_str());
            let download = DOWNLOADS.contains(&path.as_str());
            let archive = path == ARCHIVE;
            if let Some(read) = item.get.as_mut().filter(|_| versioned) {
                conditional_read(read);
            }
            if let Some(read) = item.get.as_mut().filter(|_| archive) {
                add_header_parameter(
                    read,
                    "If-None-Match",
                    "The `ETag` of the archive read before: `304` while the kept copy is \
                     unchanged",
                    None,
                );
            }
            for op in item_operations_mut(item) {
                let idempotent = has_parameter(op, IDEMPOTENCY_KEY_HEADER.as_str());
                if op.responses.responses.contains_key("412") {
                    add_header_parameter(
                        op,
                        "If-Match",
                        "Act only if the stream is at this version: its `ETag` (`\"42\"`). \
                         Another version answers `412 precondition_failed`",
                        Some(IF_MATCH_PATTERN),
                    );
                }
                for (status, response) in op.responses.responses.iter_mut() {
                    let RefOr::T(response) = response else {
                        continue;
                    };
                    let headers = &mut response.headers;
                    headers.insert(REQUEST_ID.to_owned(), header_ref(REQUEST_ID));
                    if status == "429" || status == "503" {
                        headers.insert(RETRY_AFTER.to_owned(), header_ref(RETRY_AFTER));
                    }
                    if idempotent && status.starts_with('2') {
                        headers.insert(REPLAYED.to_owned(), header_ref(REPLAYED));
                    }
                    if versioned && status == "200" {
                        headers.insert(ETAG.to_owned(), header_ref(ETAG));
                    }
                    if archive && (status == "200" || status == "304") {
                        headers.insert(
                            ETAG.to_owned(),
                            RefOr::T(header(
                                string("The kept copy's SHA-256, quoted", None),
                                "Once the tournament is finished (absent before): the SHA-256 \
                                 of its kept archive, quoted. Send it as `If-None-Match` to be \
                                 answered `304` while the copy is unchanged",
                            )),
                        );
                    }
                    if download && status == "200" {
                        headers.insert(
                            CONTENT_DISPOSITION.to_owned(),
                            header_ref(CONTENT_DISPOSITION),
                        );
                    }
                }
            }
        }
    }
}

/// `If-None-Match` and its `304` on a versioned read.
fn conditional_read(op: &mut Operation) {
    add_header_parameter(
        op,
        "If-None-Match",
        "A tag this read answered before (`\"42\"`): `304` with no body while the stream \
         is still at that version",
        None,
    );
    op.responses
        .responses
        .entry("304".to_owned())
        .or_insert_with(|| {
            RefOr::T(
                ResponseBuilder::new()
                    .description(
                        "Not modified: the stream is still at the version of `If-None-Match` \
                         (no body)",
                    )
                    .header_ref(ETAG, Ref::new(format!("#/components/headers/{ETAG}")))
                    .build(),
            )
        });
}

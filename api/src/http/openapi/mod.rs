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

mod codes;
mod discriminators;
mod examples;
mod headers;
mod operations;
mod streams;

use std::collections::{BTreeMap, BTreeSet};

use utoipa::openapi::path::{Operation, ParameterIn};
use utoipa::openapi::schema::{
    AdditionalProperties, ArrayItems, Discriminator, Object, ObjectBuilder, OneOf, Schema,
    SchemaType, Type,
};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::openapi::{Ref, RefOr};
use utoipa::{Modify, OpenApi};
use yaniv_domain::record::{GameRecord, ReplayResult};

use self::operations::operations_mut;
use crate::auth::Role;
use crate::error::{FieldError, Problem};
use crate::http::idempotency_key::IDEMPOTENCY_KEY_HEADER;
use crate::http::routes::RouteDocs;
use crate::http::routes::my_stream::MyTable;
use crate::http::routes::problems::problem_response;
use crate::http::routes::records::RecordProblem;
use crate::store::idempotency::MAX_KEY_LEN;

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
    servers((url = "/", description = "The server this document was read from")),
    components(schemas(Problem, FieldError, Role, GameRecord, ReplayResult, RecordProblem, MyTable)),
    tags(
        (name = "health", description = "Liveness and readiness probes"),
        (name = "accounts", description = "Registration and roles"),
        (name = "sessions", description = "Log in and log out (opaque bearer tokens)"),
        (name = "records", description = "Game records (`yaniv-record/1`): replay and check a game; nothing is stored"),
        (name = "rules", description = "Rule configurations: the random rule generator"),
        (name = "tables", description = "Online game tables: seats, the game, per-viewer views and events"),
        (name = "tournaments", description = "Championship tournaments: creation, the domain's commands (registration, draws, results, referee decisions), standings, bracket, ranking and events"),
        (name = "ratings", description = "Ratings across rated tournaments and rated casual tables (Weng-Lin, Plackett-Luce): the list over a period, each player's profile, folded from the results in force, and the casual tables' input rows"),
        (name = "seasons", description = "Series of tournaments: a points scale per place, the best N results counting, standings folded from the finished rankings, and the final they seed"),
        (name = "audit", description = "Referees, organizers and admins: a table's full state at any version, verification of a table's or a tournament's stored history, and checkpoints of every stream head"),
    )
)]
pub struct ApiDoc;

/// Documents what [`crate::store::idempotency::IdempotencyKey::parse`] accepts on every operation that takes the
/// `Idempotency-Key` header, from the store's own bound: the handlers declare the
/// header, this says once what a valid key is.
struct IdempotencyKeyLimits;

/// Visible ASCII, no spaces: [`crate::store::idempotency::IdempotencyKey::parse`].
const IDEMPOTENCY_KEY_PATTERN: &str = "^[!-~]+$";

impl Modify for IdempotencyKeyLimits {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        for op in operations_mut(openapi) {
            let parameters = op.parameters.iter_mut().flatten();
            let keys = parameters.filter_map(|p| match p {
                RefOr::T(p) if p.name.eq_ignore_ascii_case(IDEMPOTENCY_KEY_HEADER.as_str()) => {
                    Some(p)
                }
                _ => None,
            });
            for parameter in keys {
                parameter.schema = Some(RefOr::T(Schema::Object(
                    ObjectBuilder::new()
                        .schema_type(Type::String)
                        .min_length(Some(1))
                        .max_length(Some(MAX_KEY_LEN))
                        .pattern(Some(IDEMPOTENCY_KEY_PATTERN))
                        .build(),
                )));
            }
        }
    }
}

/// Declares the security schemes the paths refer to: `bearer` (a session) and
/// `metrics_token` (the scraper of `/metrics`).
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
        components.add_security_scheme(
            "metrics_token",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .description(Some(
                        "The scraper's token, `YANIV_METRICS_TOKEN` of the server's \
                         environment, sent as `Authorization: Bearer <token>`. Needed when \
                         the server sets one; without one, `/metrics` is open on a loopback \
                         bind (or with `YANIV_METRICS_OPEN`) and refused elsewhere",
                    ))
                    .build(),
            ),
        );
    }
}

/// Documents the errors every operation can answer, so handlers list only their
/// own: 500 and 503 everywhere, 413/415 wherever a JSON body is read, the 400 of
/// whatever the operation parses (path, query, body), and the 401 of an operation
/// that takes a bearer token (a handler whose 401 says more keeps its own).
///
/// The 400 is written here and nowhere else: a handler that listed it by hand would
/// forget an input, as `leave`, `start` and `online` once forgot their path.
struct CommonErrors;

/// The description of an operation's 400, naming the `code` of each input it parses;
/// `None` when it parses none.
fn bad_request_description(op: &Operation) -> Option<String> {
    let parsed = |place: ParameterIn| {
        op.parameters
            .iter()
            .flatten()
            .any(|p| matches!(p, RefOr::T(p) if p.parameter_in == place))
    };
    let mut causes = Vec::new();
    if parsed(ParameterIn::Path) {
        causes.push("a path parameter does not fit its type (`invalid_path`)");
    }
    if parsed(ParameterIn::Query) {
        causes.push("the query string does not fit (`invalid_query`)");
    }
    if op.request_body.is_some() {
        causes.push("the body is not JSON (`malformed_json`)");
    }
    (!causes.is_empty()).then(|| format!("Malformed request: {}", causes.join(", or ")))
}

/// The 401 of an operation that takes a bearer token: one that requires it refuses a
/// missing one too; one that also answers without a token refuses only a bad one.
fn unauthenticated_description(op: &Operation) -> Option<&'static str> {
    let requirements: Vec<serde_json::Value> = op
        .security
        .iter()
        .flatten()
        .map(|requirement| serde_json::to_value(requirement).unwrap_or_default())
        .collect();
    let bearer = requirements.iter().any(|r| r.get("bearer").is_some());
    let anonymous = requirements
        .iter()
        .any(|r| r.as_object().is_some_and(|fields| fields.is_empty()));
    match (bearer, anonymous) {
        (true, false) => Some(
            "No token (`unauthenticated`), or an unknown, expired or revoked one \
             (`invalid_token`)",
        ),
        (true, true) => {
            Some("A token was sent but is unknown, expired or revoked (`invalid_token`)")
        }
        (false, _) => None,
    }
}

impl Modify for CommonErrors {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        for op in operations_mut(openapi) {
            if let Some(description) = bad_request_description(op) {
                op.responses
                    .responses
                    .insert("400".to_owned(), RefOr::T(problem_response(&description)));
            }
            let unauthenticated = unauthenticated_description(op);
            let responses = &mut op.responses.responses;
            let mut add = |status: &str, description: &str| {
                responses
                    .entry(status.to_owned())
                    .or_insert_with(|| RefOr::T(problem_response(description)));
            };
            if let Some(description) = unauthenticated {
                add("401", description);
            }
            if op.request_body.is_some() {
                add("413", "Body larger than the limit (`payload_too_large`)");
                add(
                    "408",
                    "The body did not arrive within the server's limit (`body_timeout`); the \
                     connection is closed",
                );
                add(
                    "415",
                    "Body not sent as `application/json` (`unsupported_media_type`)",
                );
            }
            add(
                "500",
                "Internal error, logged on the server (`internal_error`)",
            );
            add(
                "503",
                "The database cannot serve now (`database_unavailable`, with `Retry-After`). \
                 For a command the outcome is unknown: send it again with the same \
                 `Idempotency-Key`, which returns the first answer if it was carried out",
            );
        }
    }
}

/// Documents `stream_corrupt` on every operation that reads a table's or a
/// tournament's stream: its 500 then names the stream and version instead of being
/// opaque.
struct CorruptStreams;

impl Modify for CorruptStreams {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let reads_a_stream = |path: &str| {
            path.starts_with("/v1/tables/{id}") || path.starts_with("/v1/tournaments/{id}")
        };
        for (path, item) in openapi.paths.paths.iter_mut() {
            if !reads_a_stream(path) {
                continue;
            }
            for op in [&mut item.get, &mut item.post].into_iter().flatten() {
                op.responses.responses.insert(
                    "500".to_owned(),
                    RefOr::T(problem_response(
                        "A stored event of the stream is missing, was changed behind the \
                         server's back or cannot be read (`stream_corrupt`: `detail` names \
                         the stream and the version; logged once), or an internal error \
                         (`internal_error`, logged)",
                    )),
                );
            }
        }
    }
}

/// The bodies a client may leave out (`join` takes the first free seat, `draws` the next
/// round, `rules/random` a fresh seed): utoipa marks every body required.
struct OptionalBodies;

/// Each answers a request without a body as one with `{}`.
const OPTIONAL_BODIES: [&str; 3] = [
    "/v1/tables/{id}/join",
    "/v1/tournaments/{id}/draws",
    "/v1/rules/random",
];

impl Modify for OptionalBodies {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        for path in OPTIONAL_BODIES {
            let body = openapi
                .paths
                .paths
                .get_mut(path)
                .and_then(|item| item.post.as_mut())
                .and_then(|op| op.request_body.as_mut());
            if let Some(RefOr::T(body)) = body {
                body.required = Some(utoipa::openapi::Required::False);
            }
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

/// Inlines the schemas of primitive types that utoipa files under their Rust names.
///
/// A field typed with an alias of a primitive (`AccountId = i64`, `Seat = u8`) is, to
/// the derive macro, a type with a schema of its own: it refers to `#/components/
/// schemas/i64`, and clients get a model named `i64`. The alias names nothing a client
/// needs, so each such reference becomes the primitive's schema itself.
struct PrimitiveAliases;

/// The names utoipa gives the schemas of Rust's primitive types.
const PRIMITIVES: [&str; 17] = [
    "i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64", "u128", "usize", "f32",
    "f64", "bool", "String", "char",
];

impl Modify for PrimitiveAliases {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let Some(components) = openapi.components.as_mut() else {
            return;
        };
        let primitives: BTreeMap<String, RefOr<Schema>> = PRIMITIVES
            .iter()
            .filter_map(|name| {
                Some((
                    format!("#/components/schemas/{name}"),
                    components.schemas.remove(*name)?,
                ))
            })
            .collect();
        for schema in components.schemas.values_mut() {
            inline_refs(schema, &primitives);
        }
    }
}

/// Replaces, anywhere inside `schema`, each reference found in `inline` by its schema.
fn inline_refs(schema: &mut RefOr<Schema>, inline: &BTreeMap<String, RefOr<Schema>>) {
    let schema = match schema {
        RefOr::Ref(reference) => {
            if let Some(found) = inline.get(&reference.ref_location) {
                let mut found = found.clone();
                // The field's own doc comment rides on the reference.
                if let RefOr::T(Schema::Object(object)) = &mut found
                    && !reference.description.is_empty()
                {
                    object.description = Some(reference.description.clone());
                }
                *schema = found;
            }
            return;
        }
        RefOr::T(schema) => schema,
    };
    match schema {
        Schema::Object(object) => {
            for property in object.properties.values_mut() {
                inline_refs(property, inline);
            }
            if let Some(additional) = object.additional_properties.as_deref_mut()
                && let AdditionalProperties::RefOr(values) = additional
            {
                inline_refs(values, inline);
            }
        }
        Schema::Array(array) => {
            if let ArrayItems::RefOrSchema(items) = &mut array.items {
                inline_refs(items, inline);
            }
        }
        Schema::OneOf(one_of) => one_of.items.iter_mut().for_each(|i| inline_refs(i, inline)),
        Schema::AllOf(all_of) => all_of.items.iter_mut().for_each(|i| inline_refs(i, inline)),
        Schema::AnyOf(any_of) => any_of.items.iter_mut().for_each(|i| inline_refs(i, inline)),
        _ => {}
    }
}

/// Gives every internally tagged union (`#[serde(tag = "...")]`) the shape clients and
/// validators understand: `oneOf` of one named object schema per variant, each holding
/// the tag as a property with a single `enum` value, plus a `discriminator` mapping each
/// tag value to its schema.
///
/// utoipa writes a newtype variant as `allOf` of the payload's schema and an object with
/// the tag; when the payload denies unknown fields (`additionalProperties: false`), no
/// JSON satisfies both parts, so validators refuse every body and client generators
/// skip the operation. It writes struct and unit variants as inline objects with the
/// tag, which validate but leave generators without a discriminator or model names.
///
/// Variant `v` of union `U` becomes the schema `U` + `v` in PascalCase (`type:
/// "round_drawn.v1"` of `TournamentEventPayload` is `TournamentEventPayloadRoundDrawnV1`).
/// Payload schemas that only the rewritten unions referred to are dropped. A union whose
/// variants do not all fit one of the two shapes is left as it is (a test checks that
/// none is).
struct TaggedUnions;

/// Names the payload of every struct variant of an externally tagged union
/// (`{"multiples_of": {"step": 100, "minus": 50}}`): variant `v` of union `U` becomes
/// the schema `U` + `v` in PascalCase (`ReductionsMultiplesOf`).
///
/// utoipa writes such a payload inline, nested in the variant's one-property object;
/// `openapi-python-client` then makes the same model twice and drops it ("duplicate
/// models"), taking the union, and whatever holds it, down with it.
struct ExternallyTaggedPayloads;

impl Modify for ExternallyTaggedPayloads {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let Some(components) = openapi.components.as_mut() else {
            return;
        };
        let taken: BTreeSet<String> = components.schemas.keys().cloned().collect();
        let mut named = Vec::new();
        for (union, schema) in components.schemas.iter_mut() {
            let RefOr::T(Schema::OneOf(one_of)) = schema else {
                continue;
            };
            for item in &mut one_of.items {
                let RefOr::T(Schema::Object(variant)) = item else {
                    continue;
                };
                if variant.properties.len() != 1 {
                    continue;
                }
                for (tag, payload) in variant.properties.iter_mut() {
                    let RefOr::T(Schema::Object(object)) = payload else {
                        continue;
                    };
                    if object.properties.is_empty() {
                        continue;
                    }
                    let name = format!("{union}{}", pascal_case(tag));
                    if taken.contains(&name) {
                        continue;
                    }
                    let object = std::mem::take(object);
                    *payload = RefOr::Ref(Ref::from_schema_name(name.as_str()));
                    named.push((name, object));
                }
            }
        }
        for (name, object) in named {
            components
                .schemas
                .insert(name, RefOr::T(Schema::Object(object)));
        }
    }
}

/// One variant: the tag's value and the object schema that now holds the tag.
struct Variant {
    value: String,
    object: Object,
    /// The payload schema it was made from, for newtype variants.
    payload: Option<String>,
}

impl Modify for TaggedUnions {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let Some(components) = openapi.components.as_mut() else {
            return;
        };
        let schemas = &mut components.schemas;
        let mut payloads = BTreeSet::new();
        let unions: Vec<String> = schemas.keys().cloned().collect();
        for union in unions {
            let Some(RefOr::T(Schema::OneOf(one_of))) = schemas.get(&union) else {
                continue;
            };
            let Some((tag, variants)) = tagged_variants(one_of, schemas) else {
                continue;
            };
            let names: Vec<String> = variants
                .iter()
                .map(|v| format!("{union}{}", pascal_case(&v.value)))
                .collect();
            if names.iter().any(|name| schemas.contains_key(name)) {
                continue;
            }
            let mut rewritten = one_of.clone();
            rewritten.items = names
                .iter()
                .map(|name| RefOr::Ref(Ref::from_schema_name(name.as_str())))
                .collect();
            let mut discriminator = Discriminator::new(tag);
            discriminator.mapping = variants
                .iter()
                .zip(&names)
                .map(|(v, name)| (v.value.clone(), format!("#/components/schemas/{name}")))
                .collect();
            rewritten.discriminator = Some(discriminator);
            schemas.insert(union, RefOr::T(Schema::OneOf(rewritten)));
            for (variant, name) in variants.into_iter().zip(names) {
                payloads.extend(variant.payload);
                schemas.insert(name, RefOr::T(Schema::Object(variant.object)));
            }
        }
        let document = serde_json::to_string(&*openapi).unwrap_or_default();
        let Some(components) = openapi.components.as_mut() else {
            return;
        };
        for payload in payloads {
            if !document.contains(&format!("\"#/components/schemas/{payload}\"")) {
                components.schemas.remove(&payload);
            }
        }
    }
}

/// The tag property and the variants of `one_of`, when it is an internally tagged union.
fn tagged_variants(
    one_of: &OneOf,
    schemas: &BTreeMap<String, RefOr<Schema>>,
) -> Option<(String, Vec<Variant>)> {
    let mut tag: Option<String> = None;
    let mut variants = Vec::with_capacity(one_of.items.len());
    for item in &one_of.items {
        let (name, value, variant) = match item {
            RefOr::T(Schema::AllOf(all_of)) => {
                let [RefOr::Ref(payload), RefOr::T(Schema::Object(tagged))] =
                    all_of.items.as_slice()
                else {
                    return None;
                };
                let (name, value, property) = single_tag(tagged)?;
                let payload_name = payload
                    .ref_location
                    .strip_prefix("#/components/schemas/")?
                    .to_owned();
                let Some(RefOr::T(Schema::Object(payload_schema))) = schemas.get(&payload_name)
                else {
                    return None;
                };
                let mut object = payload_schema.clone();
                object.properties.insert(name.clone(), property);
                if all_of.description.is_some() {
                    object.description = all_of.description.clone();
                }
                (name, value, (object, Some(payload_name)))
            }
            RefOr::T(Schema::Object(object)) => {
                let (name, value, _) = single_tag(object)?;
                (name, value, (object.clone(), None))
            }
            _ => return None,
        };
        if tag.get_or_insert_with(|| name.clone()) != &name {
            return None;
        }
        let (mut object, payload) = variant;
        object.schema_type = SchemaType::Type(Type::Object);
        object.required.retain(|r| *r != name);
        object.required.insert(0, name);
        variants.push(Variant {
            value,
            object,
            payload,
        });
    }
    let tag = tag?;
    let distinct: BTreeSet<&str> = variants.iter().map(|v| v.value.as_str()).collect();
    (distinct.len() == variants.len()).then_some((tag, variants))
}

/// The required property of `object` that holds a single string value: the tag.
fn single_tag(object: &Object) -> Option<(String, String, RefOr<Schema>)> {
    object.required.iter().find_map(|name| {
        let property = object.properties.get(name)?;
        let RefOr::T(Schema::Object(schema)) = property else {
            return None;
        };
        match schema.enum_values.as_deref() {
            Some([serde_json::Value::String(value)]) => {
                Some((name.clone(), value.clone(), property.clone()))
            }
            _ => None,
        }
    })
}

/// `round_drawn.v1` → `RoundDrawnV1`.
fn pascal_case(text: &str) -> String {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|word| !word.is_empty())
        .flat_map(|word| {
            let mut chars = word.chars();
            chars
                .next()
                .map(|first| first.to_ascii_uppercase())
                .into_iter()
                .chain(chars)
        })
        .collect()
}

/// The document: the API's description ([`ApiDoc`]) with the operation of every route
/// ([`RouteDocs`], from the one route list), then the passes that finish it.
pub fn spec() -> utoipa::openapi::OpenApi {
    let mut doc = ApiDoc::openapi();
    doc.merge(RouteDocs::openapi());
    let passes: [&dyn Modify; 14] = [
        &PrimitiveAliases,
        &TaggedUnions,
        &ExternallyTaggedPayloads,
        &discriminators::RefUnionDiscriminators,
        &codes::ProblemCodes,
        &streams::StreamMessages,
        &examples::BodyExamplesPass,
        &OptionalBodies,
        &IdempotencyKeyLimits,
        &BearerAuth,
        &CorruptStreams,
        &CommonErrors,
        &headers::Headers,
        &TaggedOperationIds,
    ];
    for pass in passes {
        pass.modify(&mut doc);
    }
    doc
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

    /// The document as JSON, to look things up by path.
    fn document() -> serde_json::Value {
        serde_json::to_value(spec()).unwrap()
    }

    fn schema<'a>(doc: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
        &doc["components"]["schemas"][name]
    }

    /// How many `allOf` inside `value` have a part that denies unknown properties: no
    /// object satisfies both that part and the other's properties.
    fn closed_all_of(doc: &serde_json::Value, value: &serde_json::Value) -> usize {
        let resolve = |part: &serde_json::Value| match part["$ref"].as_str() {
            Some(reference) => schema(doc, reference.rsplit('/').next().unwrap_or("")).clone(),
            None => part.clone(),
        };
        match value {
            serde_json::Value::Object(map) => {
                let here = map
                    .get("allOf")
                    .and_then(|a| a.as_array())
                    .map_or(0, |parts| {
                        let closed = parts
                            .iter()
                            .any(|p| resolve(p)["additionalProperties"] == false);
                        usize::from(closed && parts.len() > 1)
                    });
                here + map.values().map(|v| closed_all_of(doc, v)).sum::<usize>()
            }
            serde_json::Value::Array(items) => items.iter().map(|v| closed_all_of(doc, v)).sum(),
            _ => 0,
        }
    }

    /// No union is left in the shape validators refuse (`allOf` of a closed payload and
    /// the tag), and every tagged union names its variants with a discriminator.
    #[test]
    fn tagged_unions_are_one_of_with_a_discriminator() {
        let doc = document();
        assert_eq!(
            closed_all_of(&doc, &doc),
            0,
            "an allOf with a closed part is left"
        );
        for (union, tag) in [
            ("TournamentCommand", "command"),
            ("TournamentEventPayload", "type"),
            ("ResultInput", "source"),
            ("PaperEnding", "kind"),
            ("Reached", "kind"),
            ("ActionRequest", "type"),
            ("TableStreamMessage", "kind"),
            ("TournamentStreamMessage", "kind"),
            ("MyTablesStreamMessage", "kind"),
        ] {
            let one_of = schema(&doc, union);
            assert_eq!(one_of["discriminator"]["propertyName"], tag, "{union}");
            let mapping = one_of["discriminator"]["mapping"].as_object().unwrap();
            let items = one_of["oneOf"].as_array().unwrap();
            assert_eq!(mapping.len(), items.len(), "{union}");
            for (value, reference) in mapping {
                let name = reference.as_str().unwrap().rsplit('/').next().unwrap();
                let variant = schema(&doc, name);
                assert_eq!(
                    variant["properties"][tag]["enum"],
                    serde_json::json!([value])
                );
                assert_eq!(variant["required"][0], tag, "{name}");
            }
        }
        let events = schema(&doc, "TournamentEventPayload")["oneOf"]
            .as_array()
            .unwrap()
            .len();
        assert_eq!(events, yaniv_domain::tournament::Event::TYPES.len());
        // Closed payloads stay closed once they carry the tag.
        assert_eq!(
            schema(&doc, "TournamentEventPayloadRoundDrawnV1")["additionalProperties"],
            false
        );
        assert!(schema(&doc, "i64").is_null() && schema(&doc, "u8").is_null());
    }

    /// The limits the server enforces, as the document states them, are the code's.
    #[test]
    fn the_documented_limits_are_the_enforced_ones() {
        use yaniv_domain::rules::PRESET_NAMES;
        use yaniv_domain::tournament::{MAX_CAPACITY, MAX_NAME_LEN};

        let doc = document();
        let create = &schema(&doc, "CreateTournamentRequest")["properties"];
        assert_eq!(create["capacity"]["minimum"], 2);
        assert_eq!(create["capacity"]["maximum"], MAX_CAPACITY);
        assert_eq!(create["name"]["maxLength"], MAX_NAME_LEN);
        let command = &schema(&doc, "TournamentCommandCreate")["properties"];
        assert_eq!(command["capacity"]["maximum"], MAX_CAPACITY);
        assert_eq!(command["name"]["maxLength"], MAX_NAME_LEN);
        let reason = &schema(&doc, "TournamentCommandDisqualify")["properties"]["reason"];
        assert_eq!(reason["maxLength"], yaniv_domain::tournament::MAX_TEXT_LEN);
        assert_eq!(
            schema(&doc, "Preset")["enum"],
            serde_json::json!(PRESET_NAMES)
        );

        let register = &schema(&doc, "RegisterRequest")["properties"];
        assert_eq!(register["username"]["minLength"], 3);
        assert_eq!(register["username"]["maxLength"], 32);
        assert_eq!(register["password"]["minLength"], 8);
        assert_eq!(register["password"]["maxLength"], 128);
        let long = "a".repeat(33);
        assert!(crate::auth::accounts::validate_username(&long).is_err());
        assert!(crate::auth::accounts::validate_username(&long[..32]).is_ok());
        assert!(crate::auth::accounts::validate_password(&long[..7], "ann").is_err());
        assert!(crate::auth::accounts::validate_password(&"ab".repeat(65), "ann").is_err());
        assert!(crate::auth::accounts::validate_password(&"ab".repeat(64), "ann").is_ok());

        let param = |path: &str, method: &str, name: &str| {
            doc["paths"][path][method]["parameters"]
                .as_array()
                .unwrap()
                .iter()
                .find(|p| p["name"] == name)
                .unwrap_or_else(|| panic!("{method} {path} {name}"))["schema"]
                .clone()
        };
        let events = param("/v1/tournaments/{id}/events", "get", "limit");
        assert_eq!(events["maximum"], crate::http::routes::paging::MAX_LIMIT);
        assert_eq!(events["minimum"], 1);
        for path in ["/v1/tournaments/{id}/events", "/v1/tables/{id}/events"] {
            let after = param(path, "get", "after");
            assert_eq!(
                after["maximum"],
                crate::http::routes::paging::MAX_AFTER,
                "{path}"
            );
        }
        let list = param("/v1/tournaments", "get", "limit");
        assert_eq!(
            list["maximum"],
            crate::http::routes::tournaments::list::MAX_LIMIT
        );
        assert_eq!(param("/v1/tournaments/{id}", "get", "as_of")["minimum"], 1);
        let mut keys = 0;
        for (path, item) in doc["paths"].as_object().unwrap() {
            for (method, op) in item.as_object().unwrap() {
                for p in op["parameters"].as_array().into_iter().flatten() {
                    if p["name"] == "Idempotency-Key" {
                        assert_eq!(p["schema"]["maxLength"], MAX_KEY_LEN, "{method} {path}");
                        assert_eq!(p["schema"]["minLength"], 1, "{method} {path}");
                        keys += 1;
                    }
                }
            }
        }
        assert!(keys >= 8, "only {keys} operations take an Idempotency-Key");
        let key = |text: &str| crate::store::idempotency::IdempotencyKey::parse(text).is_ok();
        assert!(key("!~") && key(&"k".repeat(MAX_KEY_LEN)));
        assert!(!key("a b") && !key("") && !key(&"k".repeat(MAX_KEY_LEN + 1)));
    }

    /// Schemathesis found `leave`, `start` and `online` answering an undocumented 400
    /// to an id past `i64` (or a negative stage): every operation that parses a path or
    /// a query lists the 400 with its code.
    #[test]
    fn every_parsed_input_documents_its_400() {
        let doc = document();
        let mut checked = 0;
        for (path, item) in doc["paths"].as_object().unwrap() {
            for (method, op) in item.as_object().unwrap() {
                let parameters = op["parameters"].as_array().cloned().unwrap_or_default();
                let description = op["responses"]["400"]["description"].as_str().unwrap_or("");
                for (place, code) in [("path", "invalid_path"), ("query", "invalid_query")] {
                    if parameters.iter().any(|p| p["in"] == place) {
                        assert!(description.contains(code), "{method} {path}: {code}");
                        checked += 1;
                    }
                }
                if !op["requestBody"].is_null() {
                    assert!(description.contains("malformed_json"), "{method} {path}");
                }
            }
        }
        assert!(checked >= 25, "only {checked} parsed inputs");
        let leave = &doc["paths"]["/v1/tables/{id}/leave"]["post"]["responses"]["400"];
        assert_eq!(
            leave["content"][crate::error::PROBLEM_JSON]["schema"]["$ref"],
            "#/components/schemas/Problem"
        );
    }

    /// Every request body shows an example (its own or its schema's), and the actions
    /// one per kind, named by the kind.
    #[test]
    fn every_body_and_every_action_kind_has_an_example() {
        let doc = document();
        let mut bodies = 0;
        for (path, item) in doc["paths"].as_object().unwrap() {
            for (method, op) in item.as_object().unwrap() {
                for (media, content) in op["requestBody"]["content"]
                    .as_object()
                    .into_iter()
                    .flatten()
                {
                    bodies += 1;
                    let own = content.get("examples").is_some() || content.get("example").is_some();
                    let of_schema = content["schema"]["$ref"]
                        .as_str()
                        .map(|r| schema(&doc, r.rsplit('/').next().unwrap_or("")))
                        .is_some_and(|s| s.get("example").is_some() || s.get("examples").is_some());
                    assert!(own || of_schema, "{method} {path} {media} has no example");
                }
            }
        }
        assert!(bodies >= 17, "only {bodies} request bodies");
        let kinds: BTreeSet<&String> = schema(&doc, "ActionRequest")["discriminator"]["mapping"]
            .as_object()
            .unwrap()
            .keys()
            .collect();
        let shown = &doc["paths"]["/v1/tables/{id}/actions"]["post"]["requestBody"]["content"]["application/json"]
            ["examples"];
        let named: BTreeSet<&String> = shown.as_object().unwrap().keys().collect();
        assert_eq!(kinds, named);
        for (kind, example) in shown.as_object().unwrap() {
            assert_eq!(example["value"]["type"], kind.as_str());
        }
        let answers = [
            ("/v1/sessions", "post", "201"),
            ("/v1/tables/{id}/view", "get", "200"),
            ("/v1/tables/{id}/actions", "post", "200"),
        ];
        for (path, method, status) in answers {
            let content = &doc["paths"][path][method]["responses"][status]["content"];
            assert!(
                content["application/json"]["example"].is_object(),
                "{method} {path} {status} has no example"
            );
        }
    }

    /// `Problem.code` is the enum of every code the server has.
    #[test]
    fn problem_codes_are_one_enum_of_every_code() {
        let doc = document();
        assert_eq!(
            schema(&doc, "Problem")["properties"]["code"]["$ref"],
            "#/components/schemas/ProblemCode"
        );
        let listed: BTreeSet<&str> = schema(&doc, "ProblemCode")["enum"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|c| c.as_str())
            .collect();
        assert_eq!(&listed, crate::problem_codes::all());
        assert!(listed.contains("pile_kill_not_allowed") && listed.contains("not_acceptable"));
    }

    /// Each stream names the union of its messages, and each union's variants carry
    /// `kind`, `id` and `data`.
    #[test]
    fn streams_name_their_messages() {
        let doc = document();
        for (path, union) in [
            ("/v1/tables/{id}/stream", "TableStreamMessage"),
            ("/v1/tournaments/{id}/stream", "TournamentStreamMessage"),
            ("/v1/accounts/me/stream", "MyTablesStreamMessage"),
        ] {
            let content = &doc["paths"][path]["get"]["responses"]["200"]["content"];
            for media in ["text/event-stream", "application/x-ndjson"] {
                assert_eq!(
                    content[media]["x-item-schema"]["$ref"],
                    format!("#/components/schemas/{union}"),
                    "{path} {media}"
                );
            }
            for variant in schema(&doc, union)["oneOf"].as_array().unwrap() {
                let name = variant["$ref"]
                    .as_str()
                    .unwrap()
                    .rsplit('/')
                    .next()
                    .unwrap();
                assert_eq!(
                    schema(&doc, name)["required"],
                    serde_json::json!(["kind", "id", "data"])
                );
            }
        }
        assert!(schema(&doc, "MyTable").is_object());
    }

    /// What a schema says of the JSON it allows, or nothing: no type, no reference,
    /// no composition, no enum.
    fn shapeless(value: &serde_json::Value) -> bool {
        let Some(map) = value.as_object() else {
            return false;
        };
        let says = ["type", "$ref", "oneOf", "allOf", "anyOf", "enum", "const"];
        let open_object = map.get("type") == Some(&serde_json::json!("object"))
            && map.get("properties").is_none()
            && map.get("additionalProperties").is_none_or(|a| a == true);
        open_object || !says.iter().any(|key| map.contains_key(*key))
    }

    /// Every schema property says what it holds.
    #[test]
    fn no_property_is_shapeless() {
        let doc = document();
        let mut found = Vec::new();
        for (name, schema) in doc["components"]["schemas"].as_object().unwrap() {
            for (property, value) in schema["properties"].as_object().into_iter().flatten() {
                if shapeless(value) {
                    found.push(format!("{name}.{property}"));
                }
            }
        }
        assert!(found.is_empty(), "shapeless: {found:?}");
        assert!(shapeless(&serde_json::json!({"description": "anything"})));
        assert!(shapeless(&serde_json::json!({"type": "object"})));
    }

    /// Every problem answer names, in its description, the codes it carries: a
    /// client reads there which `ProblemCode`s an operation can answer with.
    #[test]
    fn every_problem_answer_names_its_codes() {
        let doc = document();
        let codes = crate::problem_codes::all();
        let mut unnamed = Vec::new();
        for (path, item) in doc["paths"].as_object().unwrap() {
            for (method, op) in item.as_object().unwrap() {
                for (status, response) in op["responses"].as_object().unwrap() {
                    if response["content"][crate::error::PROBLEM_JSON].is_null() {
                        continue;
                    }
                    let description = response["description"].as_str().unwrap_or("");
                    let names_one = description
                        .split('`')
                        .skip(1)
                        .step_by(2)
                        .any(|quoted| codes.contains(quoted));
                    if !names_one {
                        unnamed.push(format!("{method} {path} {status}"));
                    }
                }
            }
        }
        assert!(unnamed.is_empty(), "no code named: {unnamed:?}");
    }

    /// Found by Schemathesis: JSON object keys are strings (`usernames` keyed by account
    /// id were documented as integers); a paper sheet's hand totals are read as `u32`,
    /// not the `int32` their format said; `rules/random` takes no body as well as `{}`.
    #[test]
    fn the_document_says_what_the_server_reads_and_writes() {
        fn keys_not_strings(value: &serde_json::Value) -> usize {
            match value {
                serde_json::Value::Object(map) => {
                    let here = map
                        .get("propertyNames")
                        .is_some_and(|names| names["type"] != "string");
                    usize::from(here) + map.values().map(keys_not_strings).sum::<usize>()
                }
                serde_json::Value::Array(items) => items.iter().map(keys_not_strings).sum(),
                _ => 0,
            }
        }
        let doc = document();
        assert_eq!(keys_not_strings(&doc), 0, "a map keyed by something else");
        assert_eq!(
            keys_not_strings(&serde_json::json!({"propertyNames": {"type": "integer"}})),
            1
        );
        let totals = &schema(&doc, "PaperRound")["properties"]["hand_totals"]["items"];
        assert_eq!(totals["maximum"], u32::MAX);
        for path in OPTIONAL_BODIES {
            let body = &doc["paths"][path]["post"]["requestBody"];
            assert_eq!(body["required"], false, "{path}");
        }
    }

    #[test]
    fn pascal_case_names_variants() {
        assert_eq!(pascal_case("round_drawn.v1"), "RoundDrawnV1");
        assert_eq!(pascal_case("add_on"), "AddOn");
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

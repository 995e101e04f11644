//! The messages of the three live streams, as schemas a client generator turns into
//! types: one union per stream, tagged by `kind`, one variant per message kind.
//!
//! A message is `{kind, id, data}` on both wire formats (`crate::http::push::body`):
//! an NDJSON line is exactly that object; a Server-Sent Event carries `kind` as its
//! `event:` field, `id` as its `id:` field (absent when `null`) and `data` as its
//! `data:` line. Each stream's `200` names its union with `x-item-schema` (OpenAPI
//! 3.2's `itemSchema`, which a 3.1 document can only carry as an extension).

use serde_json::json;
use utoipa::Modify;
use utoipa::openapi::extensions::ExtensionsBuilder;
use utoipa::openapi::schema::{
    AdditionalProperties, Discriminator, ObjectBuilder, OneOfBuilder, Schema, SchemaFormat, Type,
};
use utoipa::openapi::{KnownFormat, OpenApi, Ref, RefOr};

/// What `data` holds for one message kind.
enum Data {
    Schema(&'static str),
    ArrayOf(&'static str),
}

/// One stream: its path, the union's name and its message kinds.
struct Stream {
    path: &'static str,
    union: &'static str,
    /// `(kind, data, is the event with the stream version as id, what it is)`.
    kinds: &'static [(&'static str, Data, bool, &'static str)],
}

const ERROR: (&str, Data, bool, &str) = (
    "error",
    Data::Schema("Problem"),
    false,
    "The stream failed on the server's side (the stream's events could not be read, \
     or the caller's session ended): the last message before the server closes it. \
     Reconnect with `Last-Event-ID` once the cause is gone.",
);

const STREAMS: [Stream; 3] = [
    Stream {
        path: "/v1/tables/{id}/stream",
        union: "TableStreamMessage",
        kinds: &[
            (
                "event",
                Data::Schema("VisibleEvent"),
                true,
                "One event of the table, exactly as `/events` gives it to the caller \
                 (redacted the same way).",
            ),
            (
                "view",
                Data::Schema("TableView"),
                false,
                "The caller's view (as `/view`), sent when the stream opens and after each \
                 change.",
            ),
            ERROR,
        ],
    },
    Stream {
        path: "/v1/tournaments/{id}/stream",
        union: "TournamentStreamMessage",
        kinds: &[
            (
                "event",
                Data::Schema("TournamentEvent"),
                true,
                "One event of the tournament, exactly as an item of `/events`.",
            ),
            (
                "tournament",
                Data::Schema("TournamentSummary"),
                false,
                "The tournament (as `GET /v1/tournaments/{id}`) after each change.",
            ),
            (
                "standings",
                Data::Schema("StandingsResponse"),
                false,
                "The standings (as `/standings`) after each change, once the \
                 qualification has started.",
            ),
            ERROR,
        ],
    },
    Stream {
        path: "/v1/accounts/me/stream",
        union: "MyTablesStreamMessage",
        kinds: &[
            (
                "tables",
                Data::ArrayOf("MyTable"),
                false,
                "Every table the caller sits at that is open or in play, sent when the \
                 stream opens and whenever that list or whose turn it is changes.",
            ),
            ERROR,
        ],
    },
];

/// How a browser reads a stream, said once on each stream operation.
const BROWSER_NOTE: &str = "\n\n**Reading it.** Each message is a `{kind, id, data}` object \
    (the schema named by `x-item-schema`): one NDJSON line with `Accept: \
    application/x-ndjson`, else one Server-Sent Event whose `event:` is `kind`, `id:` is \
    `id` (events only) and `data:` is `data`. A heartbeat (an SSE comment, an empty NDJSON \
    line) comes when the stream is quiet. A browser's `EventSource` cannot send an \
    `Authorization` header: read the stream with `fetch()` and its body's `ReadableStream` \
    (both formats), which sends the bearer token like any other request. After a break, \
    send the last event's id as `Last-Event-ID` (or `?after=`): every event after it \
    comes, once, from any instance of the server.";

pub struct StreamMessages;

/// `event` → `Event`: the message kinds are single words.
fn capitalized(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|first| first.to_ascii_uppercase().to_string() + chars.as_str())
        .unwrap_or_default()
}

fn variant(union: &str, kind: &str, data: &Data, versioned: bool, about: &str) -> Schema {
    let data = match data {
        Data::Schema(name) => RefOr::Ref(Ref::from_schema_name(*name)),
        Data::ArrayOf(name) => RefOr::T(Schema::Array(
            utoipa::openapi::schema::ArrayBuilder::new()
                .items(Ref::from_schema_name(*name))
                .build(),
        )),
    };
    let id = if versioned {
        ObjectBuilder::new()
            .schema_type(Type::Integer)
            .format(Some(SchemaFormat::KnownFormat(KnownFormat::Int64)))
            .minimum(Some(1))
            .description(Some(
                "The event's stream version (the SSE `id:`): send the last one received as \
                 `Last-Event-ID` to resume after it",
            ))
            .build()
    } else {
        ObjectBuilder::new()
            .schema_type(Type::Null)
            .description(Some("Only events carry an id"))
            .build()
    };
    Schema::Object(
        ObjectBuilder::new()
            .schema_type(Type::Object)
            .title(Some(format!("{union} `{kind}`")))
            .description(Some(about))
            .property(
                "kind",
                ObjectBuilder::new()
                    .schema_type(Type::String)
                    .enum_values(Some([kind])),
            )
            .required("kind")
            .property("id", id)
            .required("id")
            .property("data", data)
            .required("data")
            .additional_properties(Some(AdditionalProperties::FreeForm(false)))
            .build(),
    )
}

impl Modify for StreamMessages {
    fn modify(&self, openapi: &mut OpenApi) {
        for stream in &STREAMS {
            let components = openapi.components.get_or_insert_with(Default::default);
            let mut union = OneOfBuilder::new().description(Some(format!(
                "One message of `GET {}`, tagged by `kind`.",
                stream.path
            )));
            let mut discriminator = Discriminator::new("kind");
            for (kind, data, versioned, about) in stream.kinds {
                let name = format!("{}{}", stream.union, capitalized(kind));
                components.schemas.insert(
                    name.clone(),
                    RefOr::T(variant(stream.union, kind, data, *versioned, about)),
                );
                union = union.item(Ref::from_schema_name(name.as_str()));
                discriminator
                    .mapping
                    .insert((*kind).to_owned(), format!("#/components/schemas/{name}"));
            }
            let mut union = union.build();
            union.discriminator = Some(discriminator);
            components
                .schemas
                .insert(stream.union.to_owned(), RefOr::T(Schema::OneOf(union)));

            let Some(op) = openapi
                .paths
                .paths
                .get_mut(stream.path)
                .and_then(|item| item.get.as_mut())
            else {
                continue;
            };
            let description = op.description.get_or_insert_with(String::new);
            description.push_str(BROWSER_NOTE);
            let Some(RefOr::T(ok)) = op.responses.responses.get_mut("200") else {
                continue;
            };
            for (media_type, content) in ok.content.iter_mut() {
                let RefOr::T(content) = content else {
                    continue;
                };
                content.schema = Some(RefOr::T(Schema::Object(
                    ObjectBuilder::new()
                        .schema_type(Type::String)
                        .description(Some(format!(
                            "A stream that does not end: {} of `{}` messages",
                            if media_type.contains("ndjson") {
                                "newline-delimited JSON lines"
                            } else {
                                "Server-Sent Events"
                            },
                            stream.union
                        )))
                        .build(),
                )));
                content.extensions = Some(
                    ExtensionsBuilder::new()
                        .add(
                            "x-item-schema",
                            json!({"$ref": format!("#/components/schemas/{}", stream.union)}),
                        )
                        .build(),
                );
            }
        }
    }
}

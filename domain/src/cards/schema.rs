//! OpenAPI schemas of the card notation (feature `openapi`): a card is a string such as
//! `10H` or `JK`, a card list an array of them, so clients see the notation they send.

use std::borrow::Cow;

use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, Schema, Type};
use utoipa::{PartialSchema, ToSchema};

use super::{Card, Cards, Hand, MAX_CARDS, MAX_HAND};

/// Every card in record notation, and nothing else.
pub const CARD_PATTERN: &str = "^((10|[2-9AJQK])[CDHS]|JK)$";

impl PartialSchema for Card {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .pattern(Some(CARD_PATTERN))
            .description(Some(
                "A card in record notation: rank (`A`, `2`…`10`, `J`, `Q`, `K`) then suit \
                 (`C`, `D`, `H`, `S`), or `JK` for a joker",
            ))
            .examples(["7H", "10S", "JK"].map(serde_json::Value::from))
            .into()
    }
}

impl ToSchema for Card {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("Card")
    }
}

impl PartialSchema for Cards {
    fn schema() -> RefOr<Schema> {
        ArrayBuilder::new()
            .items(RefOr::Ref(utoipa::openapi::Ref::from_schema_name("Card")))
            .max_items(Some(MAX_CARDS))
            .into()
    }
}

impl ToSchema for Cards {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("Cards")
    }

    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        schemas.push((Card::name().into_owned(), Card::schema()));
    }
}

impl PartialSchema for Hand {
    fn schema() -> RefOr<Schema> {
        ArrayBuilder::new()
            .items(RefOr::Ref(utoipa::openapi::Ref::from_schema_name("Card")))
            .max_items(Some(MAX_HAND))
            .into()
    }
}

impl ToSchema for Hand {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("Hand")
    }

    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        schemas.push((Card::name().into_owned(), Card::schema()));
    }
}

//! OpenAPI schema of rule overrides (feature `openapi`). Overrides are applied through
//! the serialized form of [`Rules`] (`overrides.rs`), so the parameters a client may
//! override, and the shape of each value, are exactly the fields of `Rules`: the schema
//! is that of `Rules` with nothing required.

use std::borrow::Cow;

use utoipa::openapi::RefOr;
use utoipa::openapi::schema::Schema;
use utoipa::{PartialSchema, ToSchema};

use super::Rules;

/// Stands for [`super::Overrides`] in the OpenAPI document: a map is all the Rust type
/// can say, while the server accepts only the parameters of [`Rules`].
#[derive(Debug)]
pub struct RuleOverrides;

impl PartialSchema for RuleOverrides {
    fn schema() -> RefOr<Schema> {
        let mut schema = Rules::schema();
        if let RefOr::T(Schema::Object(object)) = &mut schema {
            object.required.clear();
            object.description = Some(
                "Rule parameters replaced by name, each with the type it has in `Rules`; \
                 an unknown name or a bad value is refused (`bad_rules`)"
                    .into(),
            );
            object.examples = vec![serde_json::json!({"call_threshold": 7})];
        }
        schema
    }
}

impl ToSchema for RuleOverrides {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("RuleOverrides")
    }

    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        Rules::schemas(schemas);
    }
}

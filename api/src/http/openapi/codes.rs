//! `ProblemCode`: every `code` a problem document can carry, as one string enum made
//! from [`crate::problem_codes`], and `Problem.code` typed with it. A client checks a
//! refusal against the enum; a debug build of the server refuses to send a code the
//! enum lacks.

use utoipa::Modify;
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
use utoipa::openapi::{OpenApi, Ref, RefOr};

use crate::problem_codes;

/// The schema's name.
pub const PROBLEM_CODE: &str = "ProblemCode";

pub struct ProblemCodes;

impl Modify for ProblemCodes {
    fn modify(&self, openapi: &mut OpenApi) {
        let Some(components) = openapi.components.as_mut() else {
            return;
        };
        let codes = ObjectBuilder::new()
            .schema_type(Type::String)
            .description(Some(
                "Stable machine-readable code of a problem (snake_case): what clients match \
                 on. Each operation's responses say which codes they answer with; new codes \
                 may be added in later versions, so a client keeps a default branch.",
            ))
            .enum_values(Some(problem_codes::all().iter().copied()))
            .build();
        components
            .schemas
            .insert(PROBLEM_CODE.to_owned(), RefOr::T(Schema::Object(codes)));
        if let Some(RefOr::T(Schema::Object(problem))) = components.schemas.get_mut("Problem")
            && let Some(code) = problem.properties.get_mut("code")
        {
            let mut reference = Ref::from_schema_name(PROBLEM_CODE);
            reference.description =
                "Stable machine-readable code (snake_case); what clients should match on."
                    .to_owned();
            *code = RefOr::Ref(reference);
        }
    }
}

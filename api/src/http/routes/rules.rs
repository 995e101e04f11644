//! `POST /v1/rules/random`: the yaniv.co random rule generator
//! (`yaniv_domain::rules::random_rules_v4`, procedure `yaniv-random-rules/4`, or an
//! earlier version on request), reproducible from its seed. No authentication: like `POST /v1/records/replay`, it reads and
//! writes nothing and costs microseconds, so a token would protect nothing.

use actix_web::{HttpResponse, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use yaniv_domain::rules::{
    Preset, RANDOM_RULES_PROCEDURE, RANDOM_RULES_PROCEDURE_V2, RANDOM_RULES_PROCEDURE_V3,
    RANDOM_RULES_PROCEDURE_V4, RandomElement, Rules, overrides_between, random_rules,
    random_rules_v2, random_rules_v3, random_rules_v4,
};
use yaniv_domain::shuffle::Seed;

use crate::error::{ApiError, Problem, typed_body};
use crate::tables::os_random::fresh_seed;

/// The seed to draw from; the body may be empty (the server draws a fresh seed).
#[derive(Debug, Default, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RandomRulesRequest {
    /// 32 bytes as 64 hexadecimal digits; the same seed always draws the same rules.
    #[schema(value_type = Option<Seed>)]
    pub seed: Option<Seed>,
    /// `yaniv-random-rules/4` (the default: the nine elements, then all thirteen bonus
    /// rules), `yaniv-random-rules/3` (the nine, then the first ten bonus rules),
    /// `yaniv-random-rules/2` (the nine, then the first eight) or `yaniv-random-rules/1`
    /// (the nine elements only), to draw again what a seed gave under that name.
    #[schema(example = "yaniv-random-rules/4")]
    pub procedure: Option<String>,
}

/// Rules drawn by the generator.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct RandomRulesResponse {
    /// `yaniv-random-rules/4`, `/3`, `/2` or `/1`: what is drawn and how
    /// (`docs/rules.md`).
    #[schema(example = "yaniv-random-rules/4")]
    pub procedure: String,
    /// The seed drawn from (the one sent, or the server's own).
    #[schema(value_type = Seed)]
    pub seed: Seed,
    /// Always `house`: the generator varies the house rules.
    #[schema(value_type = Preset, example = "house")]
    pub preset: String,
    /// What to send with `preset` to create a table or a tournament under these rules.
    #[schema(value_type = yaniv_domain::rules::RuleOverrides)]
    pub overrides: serde_json::Map<String, serde_json::Value>,
    /// The complete rules they resolve to.
    pub rules: Rules,
    /// Each element as drawn and in words: the nine classic ones, then (version 2)
    /// one per bonus rule.
    pub elements: Vec<RandomElement>,
}

/// Draws house rules at random from a seed, as the yaniv.co generator varies them:
/// cards dealt, the call threshold, add-ons to runs and sets, slap-downs on one's own
/// and on others' cards, jokers, the king of hearts, who starts, and (version 2) the
/// bonus rules the engine plays. Stores nothing.
#[utoipa::path(
    post,
    path = "/v1/rules/random",
    tag = "rules",
    security(()),
    request_body(content = RandomRulesRequest, description = "`{\"seed\": \"<64 hex>\"}`; `{}` or no body at all draws from a fresh seed"),
    responses(
        (status = 200, description = "The rules drawn", body = RandomRulesResponse),
        (status = 422, description = "`seed` is not 64 hexadecimal digits, `procedure` is not one of the four, or another field is sent (`validation_failed`)",
         body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn random(body: web::Bytes) -> Result<HttpResponse, ApiError> {
    let request: RandomRulesRequest = if body.iter().all(u8::is_ascii_whitespace) {
        RandomRulesRequest::default()
    } else {
        let value: serde_json::Value =
            serde_json::from_slice(&body).map_err(|e| crate::error::from_serde_json(&e))?;
        // serde reads a struct from an array too (`[null, null]`, field by field): the
        // document says an object, and so does the server.
        if !value.is_object() {
            return Err(ApiError::invalid_field("body", "must be a JSON object"));
        }
        typed_body(value)?
    };
    let seed = match request.seed {
        Some(seed) => seed,
        None => fresh_seed()?,
    };
    let (procedure, drawn) = match request.procedure.as_deref() {
        None | Some(RANDOM_RULES_PROCEDURE_V4) => {
            (RANDOM_RULES_PROCEDURE_V4, random_rules_v4(&seed))
        }
        Some(RANDOM_RULES_PROCEDURE_V3) => (RANDOM_RULES_PROCEDURE_V3, random_rules_v3(&seed)),
        Some(RANDOM_RULES_PROCEDURE_V2) => (RANDOM_RULES_PROCEDURE_V2, random_rules_v2(&seed)),
        Some(RANDOM_RULES_PROCEDURE) => (RANDOM_RULES_PROCEDURE, random_rules(&seed)),
        Some(other) => {
            return Err(ApiError::invalid_field(
                "procedure",
                format!(
                    "{other:?} is not a procedure of this generator: \
                     {RANDOM_RULES_PROCEDURE_V4:?}, {RANDOM_RULES_PROCEDURE_V3:?}, \
                     {RANDOM_RULES_PROCEDURE_V2:?} or \
                     {RANDOM_RULES_PROCEDURE:?}"
                ),
            ));
        }
    };
    Ok(HttpResponse::Ok().json(RandomRulesResponse {
        procedure: procedure.to_owned(),
        seed,
        preset: Preset::House.name().to_owned(),
        overrides: overrides_between(&Preset::House.rules(), &drawn.rules),
        rules: drawn.rules,
        elements: drawn.elements,
    }))
}

//! Rules chosen by name: a preset plus overrides of single parameters. Overrides are
//! applied through the serialized form of [`Rules`], so every parameter is overridable
//! under the same name it has everywhere else, and nothing unknown slips through.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::error::RulesError;
use super::{Preset, Rules};

/// A parameter's name and its value while unset.
type UnsetParameter = (&'static str, fn() -> Value);

/// Parameters that are omitted from serialized rules while unset (see `Rules`), and
/// their unset value.
const LATER_OPTIONAL_PARAMETERS: &[UnsetParameter] = &[
    ("joker_value_when_caught", || Value::Null),
    ("bonus_rules", || Value::Array(Vec::new())),
];

/// Parameter name -> new value, as in a record's `rules.overrides`.
pub type Overrides = Map<String, Value>;

/// The overrides that turn `base` into `rules`: exactly the parameters whose values
/// differ, by name.
pub fn overrides_between(base: &Rules, rules: &Rules) -> Overrides {
    let fields = |rules: &Rules| match serde_json::to_value(rules) {
        Ok(Value::Object(fields)) => fields,
        _ => unreachable!("Rules always serializes to a JSON object"),
    };
    let base = fields(base);
    fields(rules)
        .into_iter()
        .filter(|(name, value)| base.get(name.as_str()) != Some(value))
        .collect()
}

/// The `rules` object of a game record or a table: a preset and overrides.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct RuleSpec {
    /// One of the six presets; any other name is refused (`bad_rules`).
    #[cfg_attr(feature = "openapi", schema(value_type = Preset))]
    pub preset: String,
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    #[cfg_attr(feature = "openapi", schema(value_type = super::RuleOverrides))]
    pub overrides: Overrides,
}

impl RuleSpec {
    /// The effective, validated rules.
    pub fn resolve(&self) -> Result<Rules, RulesError> {
        let preset: Preset = self.preset.parse()?;
        preset.rules().with_overrides(&self.overrides)
    }
}

impl Rules {
    /// A copy with the named parameters replaced, validated. An unknown name or a value
    /// of the wrong shape is an error naming that parameter.
    pub fn with_overrides(&self, overrides: &Overrides) -> Result<Rules, RulesError> {
        let Ok(Value::Object(mut fields)) = serde_json::to_value(self) else {
            unreachable!("Rules always serializes to a JSON object")
        };
        // Parameters added after `.v1` are left out of the serialized form while unset, so
        // games stored before them keep their exact shape; they are overridable all the same.
        for (name, unset) in LATER_OPTIONAL_PARAMETERS {
            fields.entry(*name).or_insert_with(unset);
        }
        for (name, value) in overrides {
            let Some(slot) = fields.get_mut(name) else {
                return Err(RulesError::UnknownParameter {
                    name: name.chars().take(60).collect(),
                });
            };
            *slot = value.clone();
            if let Err(e) = Rules::deserialize(Value::Object(fields.clone())) {
                return Err(RulesError::BadValue {
                    name: name.clone(),
                    message: e.to_string(),
                });
            }
        }
        let rules =
            Rules::deserialize(Value::Object(fields)).map_err(|e| RulesError::BadValue {
                name: "rules".into(),
                message: e.to_string(),
            })?;
        rules.validate()?;
        Ok(rules)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::rules::{DeckCount, Reductions};

    fn spec(preset: &str, overrides: Value) -> RuleSpec {
        let Value::Object(overrides) = overrides else {
            panic!("test overrides must be an object")
        };
        RuleSpec {
            preset: preset.into(),
            overrides,
        }
    }

    #[test]
    fn overrides_replace_single_parameters() {
        // RECORD.md example: { "preset": "belgian", "overrides": { "call_threshold": 7 } }
        let rules = spec("belgian", json!({"call_threshold": 7}))
            .resolve()
            .expect("valid");
        assert_eq!(rules.call_threshold, Some(7));
        assert_eq!(rules.reductions, Preset::Belgian.rules().reductions);

        let rules = spec(
            "israeli",
            json!({"decks": {"two_from_players": 4}, "reductions": "none"}),
        )
        .resolve()
        .expect("valid");
        assert_eq!(rules.decks, DeckCount::TwoFromPlayers(4));
        assert_eq!(rules.reductions, Reductions::None);

        let rules = spec(
            "israeli",
            json!({"call_threshold": null, "call_after_full_lap": true}),
        )
        .resolve()
        .expect("no limit, but not before everyone has had one turn");
        assert_eq!(rules.call_threshold, None);
    }

    #[test]
    fn an_unknown_parameter_is_an_error_never_ignored() {
        let err = spec("israeli", json!({"call_treshold": 7})).resolve();
        assert_eq!(
            err,
            Err(RulesError::UnknownParameter {
                name: "call_treshold".into()
            })
        );
    }

    #[test]
    fn a_bad_value_is_an_error_naming_the_parameter() {
        let err = spec("israeli", json!({"call_threshold": "seven"})).resolve();
        assert!(
            matches!(err, Err(RulesError::BadValue { ref name, .. }) if name == "call_threshold")
        );
        let err = spec("israeli", json!({"ace": "sometimes"})).resolve();
        assert!(matches!(err, Err(RulesError::BadValue { ref name, .. }) if name == "ace"));
        let err = spec("israeli", json!({"add_ons": {"to_sets": true}})).resolve();
        assert!(matches!(err, Err(RulesError::BadValue { ref name, .. }) if name == "add_ons"));
    }

    #[test]
    fn inconsistent_values_are_rejected() {
        let err = spec("israeli", json!({"hand_size": 0})).resolve();
        assert_eq!(
            err.map_err(|e| e.parameter().map(str::to_owned)),
            Err(Some("hand_size".into()))
        );
        let err = spec("israeli", json!({"max_players": 9})).resolve();
        assert!(err.is_err());
        // 8 players x 10 cards cannot be dealt from one 54-card deck.
        let err = spec("israeli", json!({"hand_size": 10})).resolve();
        assert!(matches!(
            err,
            Err(RulesError::Inconsistent {
                name: "hand_size",
                ..
            })
        ));
    }

    #[test]
    fn unknown_fields_in_the_spec_itself_are_rejected() {
        let parsed: Result<RuleSpec, _> =
            serde_json::from_value(json!({"preset": "house", "overide": {}}));
        assert!(parsed.is_err());
    }
}

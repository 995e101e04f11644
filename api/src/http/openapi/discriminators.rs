//! Gives a `discriminator` to every union of named object schemas told apart by one
//! property (`ActionRequest` by `type`): Kotlin, Swift and Dart generators need it to
//! pick the variant, and it names each variant for the others.
//!
//! Such a union comes from an untagged Rust enum of structs whose tag is a one-value
//! enum (utoipa files each as a schema of its own, `ActionRequestPlayType`); the tag's
//! schema is written inline (`enum: ["play"]`) and the one-value schema dropped.

use std::collections::BTreeMap;

use utoipa::Modify;
use utoipa::openapi::schema::{Discriminator, Object, Schema};
use utoipa::openapi::{OpenApi, RefOr};

/// `#/components/schemas/X` → `X`.
fn schema_name(location: &str) -> Option<&str> {
    location.strip_prefix("#/components/schemas/")
}

/// The single string value of `schema` (inline, or a named one-value enum).
fn single_value(
    schema: &RefOr<Schema>,
    schemas: &BTreeMap<String, RefOr<Schema>>,
) -> Option<(String, Object)> {
    let object = match schema {
        RefOr::T(Schema::Object(object)) => object,
        RefOr::Ref(reference) => match schemas.get(schema_name(&reference.ref_location)?)? {
            RefOr::T(Schema::Object(object)) => object,
            _ => return None,
        },
        _ => return None,
    };
    match object.enum_values.as_deref() {
        Some([serde_json::Value::String(value)]) => Some((value.clone(), object.clone())),
        _ => None,
    }
}

pub struct RefUnionDiscriminators;

impl Modify for RefUnionDiscriminators {
    fn modify(&self, openapi: &mut OpenApi) {
        let Some(components) = openapi.components.as_mut() else {
            return;
        };
        let schemas = &mut components.schemas;
        let mut dropped = Vec::new();
        let names: Vec<String> = schemas.keys().cloned().collect();
        for union in names {
            let Some(RefOr::T(Schema::OneOf(one_of))) = schemas.get(&union) else {
                continue;
            };
            if one_of.discriminator.is_some() || one_of.items.is_empty() {
                continue;
            }
            // For each variant: its schema's name, the tag's name and value, and the
            // tag's inline schema.
            let mut variants = Vec::new();
            for item in &one_of.items {
                let RefOr::Ref(reference) = item else {
                    break;
                };
                let Some(name) = schema_name(&reference.ref_location) else {
                    break;
                };
                let Some(RefOr::T(Schema::Object(object))) = schemas.get(name) else {
                    break;
                };
                let tag = object.required.iter().find_map(|property| {
                    let (value, inline) = single_value(object.properties.get(property)?, schemas)?;
                    Some((property.clone(), value, inline))
                });
                let Some((property, value, inline)) = tag else {
                    break;
                };
                variants.push((name.to_owned(), property, value, inline));
            }
            let tags: std::collections::BTreeSet<&str> =
                variants.iter().map(|(_, p, _, _)| p.as_str()).collect();
            let values: std::collections::BTreeSet<&str> =
                variants.iter().map(|(_, _, v, _)| v.as_str()).collect();
            if variants.len() != one_of.items.len()
                || tags.len() != 1
                || values.len() != variants.len()
            {
                continue;
            }
            let Some(tag) = tags.first().map(|t| (*t).to_owned()) else {
                continue;
            };
            let mut discriminator = Discriminator::new(tag.clone());
            for (name, _, value, inline) in &variants {
                discriminator
                    .mapping
                    .insert(value.clone(), format!("#/components/schemas/{name}"));
                if let Some(RefOr::T(Schema::Object(object))) = schemas.get_mut(name)
                    && let Some(property) = object.properties.get_mut(&tag)
                {
                    if let RefOr::Ref(reference) = property
                        && let Some(named) = schema_name(&reference.ref_location)
                    {
                        dropped.push(named.to_owned());
                    }
                    *property = RefOr::T(Schema::Object(inline.clone()));
                }
            }
            if let Some(RefOr::T(Schema::OneOf(one_of))) = schemas.get_mut(&union) {
                one_of.discriminator = Some(discriminator);
            }
        }
        let document = serde_json::to_string(&*openapi).unwrap_or_default();
        let Some(components) = openapi.components.as_mut() else {
            return;
        };
        for name in dropped {
            if !document.contains(&format!("\"#/components/schemas/{name}\"")) {
                components.schemas.remove(&name);
            }
        }
    }
}

//! schemars: `Snowflake`'s JSON Schema is what serde writes, an integer (int64) in
//! `0..=9223372036854775807`, in the definitions as `Snowflake`; `as_string::SnowflakeString`'s
//! is the string `as_string` writes, its digits held by `as_string::PATTERN`.

use std::borrow::Cow;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};

use super::DESCRIPTION;
use crate::snowflake::Snowflake;
use crate::typed::{Id, Kind};

/// An integer, format int64, from `Snowflake::MIN` to `Snowflake::MAX`.
impl JsonSchema for Snowflake {
    fn schema_name() -> Cow<'static, str> {
        Cow::Borrowed("Snowflake")
    }

    fn schema_id() -> Cow<'static, str> {
        Cow::Borrowed("snowflake_kit::Snowflake")
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "integer",
            "format": "int64",
            "minimum": Snowflake::MIN.as_u64(),
            "maximum": Snowflake::MAX.as_u64(),
            "description": DESCRIPTION,
        })
    }
}

/// A typed ID's schema is its `Snowflake`'s, under its kind's name (`UserId` for
/// `Id<User>`) and saying the kind, so that a generated client keeps it apart.
impl<K: Kind> JsonSchema for Id<K> {
    fn schema_name() -> Cow<'static, str> {
        Cow::Owned(std::format!("{}Id", K::NAME))
    }

    fn schema_id() -> Cow<'static, str> {
        // The marker's full path: two kinds may share a name in different modules.
        Cow::Owned(std::format!(
            "snowflake_kit::typed::Id<{}>",
            core::any::type_name::<K>()
        ))
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let mut schema = Snowflake::json_schema(generator);
        schema.insert("title".into(), std::format!("{}Id", K::NAME).into());
        let description = std::format!("The ID of a {}. {DESCRIPTION}", K::NAME);
        schema.insert("description".into(), description.into());
        schema
    }
}

/// A string of decimal digits matching `PATTERN`.
#[cfg(feature = "serde")]
impl JsonSchema for crate::serde_impl::as_string::SnowflakeString {
    fn schema_name() -> Cow<'static, str> {
        Cow::Borrowed("SnowflakeString")
    }

    fn schema_id() -> Cow<'static, str> {
        Cow::Borrowed("snowflake_kit::serde::as_string::SnowflakeString")
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "string",
            "pattern": crate::serde_impl::as_string::PATTERN,
            "description": std::format!("{DESCRIPTION}; as a string of decimal digits"),
        })
    }
}

/// A string of base32 matching `as_base32::PATTERN`.
#[cfg(feature = "serde")]
impl JsonSchema for crate::serde_impl::as_base32::SnowflakeBase32 {
    fn schema_name() -> Cow<'static, str> {
        Cow::Borrowed("SnowflakeBase32")
    }

    fn schema_id() -> Cow<'static, str> {
        Cow::Borrowed("snowflake_kit::serde::as_base32::SnowflakeBase32")
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "string",
            "pattern": crate::serde_impl::as_base32::PATTERN,
            "description": std::format!("{DESCRIPTION}; as 13 characters of base32, sorted as the IDs are"),
        })
    }
}

//! utoipa: `Snowflake`'s OpenAPI schema is what serde writes, an integer (int64) in
//! `0..=9223372036854775807`, under the name `Snowflake`; `as_string::SnowflakeString`'s
//! is the string `as_string` writes, its digits held by `as_string::PATTERN`.

use std::borrow::Cow;

use utoipa::openapi::schema::{KnownFormat, ObjectBuilder, SchemaFormat, Type};
use utoipa::openapi::{RefOr, Schema};
use utoipa::{PartialSchema, ToSchema};

use super::DESCRIPTION;
use crate::snowflake::Snowflake;

/// An integer, format int64, from `Snowflake::MIN` to `Snowflake::MAX`.
impl PartialSchema for Snowflake {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::Integer)
            .format(Some(SchemaFormat::KnownFormat(KnownFormat::Int64)))
            .minimum(Some(Snowflake::MIN.as_u64()))
            .maximum(Some(Snowflake::MAX.as_u64()))
            .description(Some(DESCRIPTION))
            .into()
    }
}

/// A component named `Snowflake`.
impl ToSchema for Snowflake {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("Snowflake")
    }
}

#[cfg(feature = "serde")]
mod as_string {
    use std::borrow::Cow;
    use std::format;

    use utoipa::openapi::schema::{ObjectBuilder, Type};
    use utoipa::openapi::{RefOr, Schema};
    use utoipa::{PartialSchema, ToSchema};

    use super::DESCRIPTION;
    use crate::serde_impl::as_string::{PATTERN, SnowflakeString};

    /// A string of decimal digits matching `PATTERN`.
    impl PartialSchema for SnowflakeString {
        fn schema() -> RefOr<Schema> {
            ObjectBuilder::new()
                .schema_type(Type::String)
                .pattern(Some(PATTERN))
                .description(Some(format!(
                    "{DESCRIPTION}; as a string of decimal digits"
                )))
                .into()
        }
    }

    /// A component named `SnowflakeString`.
    impl ToSchema for SnowflakeString {
        fn name() -> Cow<'static, str> {
            Cow::Borrowed("SnowflakeString")
        }
    }
}

//! utoipa: `Snowflake`'s OpenAPI schema is what serde writes, an integer (int64) in
//! `0..=9223372036854775807`, under the name `Snowflake`; `as_string::SnowflakeString`'s
//! is the string `as_string` writes, its digits held by `as_string::PATTERN`.

use std::borrow::Cow;
use std::vec::Vec;

use utoipa::openapi::schema::{KnownFormat, ObjectBuilder, SchemaFormat, Type};
use utoipa::openapi::{RefOr, Schema};
use utoipa::{PartialSchema, ToSchema};

use super::DESCRIPTION;
use crate::snowflake::Snowflake;
use crate::typed::{Id, Kind};

/// An integer, format int64, from `Snowflake::MIN` to `Snowflake::MAX`: every ID's schema,
/// typed or not.
fn int64_in_range() -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(Type::Integer)
        .format(Some(SchemaFormat::KnownFormat(KnownFormat::Int64)))
        .minimum(Some(Snowflake::MIN.as_u64()))
        .maximum(Some(Snowflake::MAX.as_u64()))
}

/// An integer, format int64, from `Snowflake::MIN` to `Snowflake::MAX`.
impl PartialSchema for Snowflake {
    fn schema() -> RefOr<Schema> {
        int64_in_range().description(Some(DESCRIPTION)).into()
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

    /// A string of base32 matching `as_base32::PATTERN`.
    impl PartialSchema for crate::serde_impl::as_base32::SnowflakeBase32 {
        fn schema() -> RefOr<Schema> {
            ObjectBuilder::new()
                .schema_type(Type::String)
                .pattern(Some(crate::serde_impl::as_base32::PATTERN))
                .description(Some(format!(
                    "{DESCRIPTION}; as 13 characters of base32, sorted as the IDs are"
                )))
                .into()
        }
    }

    /// A component named `SnowflakeBase32`.
    impl ToSchema for crate::serde_impl::as_base32::SnowflakeBase32 {
        fn name() -> Cow<'static, str> {
            Cow::Borrowed("SnowflakeBase32")
        }
    }
}

/// A typed ID's schema is its `Snowflake`'s, titled for its kind (`UserId` for `Id<User>`)
/// and saying the kind, so that a generated client keeps it apart. Through
/// `ComposeSchema`, as utoipa's derive does it for a generic type (its `PartialSchema`
/// follows), so that a derived schema can hold an `Id<K>`; the kind's marker is given the
/// schema of its IDs by `kind!`, since the derive asks the same of a generic's arguments.
/// Hidden, as utoipa hides the trait.
#[doc(hidden)]
impl<K: Kind> utoipa::__dev::ComposeSchema for Id<K> {
    fn compose(_: Vec<RefOr<Schema>>) -> RefOr<Schema> {
        int64_in_range()
            .title(Some(std::format!("{}Id", K::NAME)))
            .description(Some(std::format!("The ID of a {}. {DESCRIPTION}", K::NAME)))
            .into()
    }
}

/// `Id`: utoipa names a generic type's component by it and its arguments', so a derived
/// schema refers to `Id_User`, one component per kind, titled `UserId`.
impl<K: Kind> ToSchema for Id<K> {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("Id")
    }
}

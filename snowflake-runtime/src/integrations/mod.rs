//! `Snowflake` in the libraries of a web service's stack beyond SQL, one file per library:
//! its schema in OpenAPI (utoipa) and JSON Schema (schemars), a GraphQL scalar
//! (async-graphql), and fuzzing inputs (arbitrary). Each describes or reads exactly what
//! the rest of the crate writes and accepts: the number serde writes, the digits of
//! `as_string`, the range `Snowflake::MIN..=Snowflake::MAX`.

#[cfg(feature = "arbitrary")]
mod arbitrary_impl;
#[cfg(feature = "async-graphql")]
mod graphql_impl;
#[cfg(feature = "schemars")]
mod schemars_impl;
#[cfg(feature = "utoipa")]
mod utoipa_impl;

/// What a schema of `Snowflake` says of it, in both forms.
#[cfg(any(feature = "utoipa", feature = "schemars"))]
const DESCRIPTION: &str = "A Snowflake ID (Twitter layout): 41 bits of milliseconds since \
    2010-11-04T01:42:54.657Z, 5 of datacenter, 5 of machine, 12 of sequence; the sign bit \
    is 0, so IDs sort by time";

//! `Snowflake` as a BIGINT in SQL databases, one file per library. Each reads and writes
//! the `i64` of [`Snowflake::as_i64`](crate::Snowflake::as_i64) through the library's own
//! `i64` impls, and reads back through `Snowflake::try_from_i64`, so that a negative value is an
//! error naming it.

#[cfg(feature = "diesel")]
mod diesel_impl;
#[cfg(feature = "postgres")]
mod postgres_impl;
#[cfg(feature = "sea-orm")]
mod sea_orm_impl;
#[cfg(any(feature = "sqlx-postgres", feature = "sqlx-sqlite"))]
mod sqlx_impl;

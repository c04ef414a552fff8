//! sqlx: a `Snowflake` is the `i64` of a BIGINT column (INT8 in `PostgreSQL`, INTEGER in
//! `SQLite`). Generic over sqlx's `Database`, so any driver whose `i64` is a column type
//! serves: only the `PostgreSQL` array type needs a driver of its own.

use sqlx::database::Database;
use sqlx::decode::Decode;
use sqlx::encode::{Encode, IsNull};
use sqlx::error::BoxDynError;
use sqlx::types::Type;

use crate::snowflake::Snowflake;
use crate::typed::{Id, Kind};

/// The column type of `i64`: BIGINT (INT8) in `PostgreSQL`, INTEGER in `SQLite`.
impl<DB: Database> Type<DB> for Snowflake
where
    i64: Type<DB>,
{
    fn type_info() -> DB::TypeInfo {
        <i64 as Type<DB>>::type_info()
    }

    fn compatible(ty: &DB::TypeInfo) -> bool {
        <i64 as Type<DB>>::compatible(ty)
    }
}

/// Binds the ID as its `i64`.
impl<'q, DB: Database> Encode<'q, DB> for Snowflake
where
    i64: Encode<'q, DB>,
{
    fn encode_by_ref(&self, buf: &mut DB::ArgumentBuffer) -> Result<IsNull, BoxDynError> {
        self.as_i64().encode_by_ref(buf)
    }

    fn produces(&self) -> Option<DB::TypeInfo> {
        self.as_i64().produces()
    }

    fn size_hint(&self) -> usize {
        self.as_i64().size_hint()
    }
}

/// Reads an `i64`; a negative one is an error naming the value.
impl<'r, DB: Database> Decode<'r, DB> for Snowflake
where
    i64: Decode<'r, DB>,
{
    fn decode(value: DB::ValueRef<'r>) -> Result<Self, BoxDynError> {
        Ok(Snowflake::try_from_i64(i64::decode(value)?)?)
    }
}

/// `Vec<Snowflake>` and `&[Snowflake]` bind as BIGINT[] (INT8[]).
#[cfg(feature = "sqlx-postgres")]
impl sqlx::postgres::PgHasArrayType for Snowflake {
    fn array_type_info() -> sqlx::postgres::PgTypeInfo {
        <i64 as sqlx::postgres::PgHasArrayType>::array_type_info()
    }

    fn array_compatible(ty: &sqlx::postgres::PgTypeInfo) -> bool {
        <i64 as sqlx::postgres::PgHasArrayType>::array_compatible(ty)
    }
}

/// A typed ID binds and reads as its `Snowflake`: a BIGINT (INTEGER in `SQLite`).
impl<DB: Database, K: Kind> Type<DB> for Id<K>
where
    Snowflake: Type<DB>,
{
    fn type_info() -> DB::TypeInfo {
        <Snowflake as Type<DB>>::type_info()
    }

    fn compatible(ty: &DB::TypeInfo) -> bool {
        <Snowflake as Type<DB>>::compatible(ty)
    }
}

impl<'q, DB: Database, K: Kind> Encode<'q, DB> for Id<K>
where
    Snowflake: Encode<'q, DB>,
{
    fn encode_by_ref(&self, buf: &mut DB::ArgumentBuffer) -> Result<IsNull, BoxDynError> {
        self.snowflake().encode_by_ref(buf)
    }

    fn produces(&self) -> Option<DB::TypeInfo> {
        self.snowflake().produces()
    }

    fn size_hint(&self) -> usize {
        self.snowflake().size_hint()
    }
}

impl<'r, DB: Database, K: Kind> Decode<'r, DB> for Id<K>
where
    Snowflake: Decode<'r, DB>,
{
    fn decode(value: DB::ValueRef<'r>) -> Result<Self, BoxDynError> {
        Snowflake::decode(value).map(Id::from_snowflake)
    }
}

#[cfg(feature = "sqlx-postgres")]
impl<K: Kind> sqlx::postgres::PgHasArrayType for Id<K> {
    fn array_type_info() -> sqlx::postgres::PgTypeInfo {
        <Snowflake as sqlx::postgres::PgHasArrayType>::array_type_info()
    }

    fn array_compatible(ty: &sqlx::postgres::PgTypeInfo) -> bool {
        <Snowflake as sqlx::postgres::PgHasArrayType>::array_compatible(ty)
    }
}

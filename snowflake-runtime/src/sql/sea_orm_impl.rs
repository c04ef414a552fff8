//! SeaORM: a `Snowflake` is the Rust type of a BIGINT column, a primary key included
//! (`find_by_id`), and `Option<Snowflake>` of a nullable one. Values go through
//! sea-query's `Value::BigInt`; reading takes the driver's `i64` and then
//! `Snowflake::try_from_i64`, so that a negative value is an error naming it.

use std::string::{String, ToString};
use std::sync::Arc;

use sea_orm::sea_query::{ArrayType, ColumnType, Nullable, ValueType, ValueTypeErr};
use sea_orm::{
    ActiveValue, ColIdx, DbErr, IntoActiveValue, QueryResult, TryFromU64, TryGetError, TryGetable,
    Value,
};

use crate::error::IdRangeError;
use crate::snowflake::Snowflake;
use crate::typed::{Id, Kind};

/// Binds the ID as a BIGINT.
impl From<Snowflake> for Value {
    fn from(id: Snowflake) -> Value {
        Value::BigInt(Some(id.as_i64()))
    }
}

/// A BIGINT column: reads its `i64`; a negative one is an error naming the value.
impl TryGetable for Snowflake {
    fn try_get_by<I: ColIdx>(res: &QueryResult, index: I) -> Result<Self, TryGetError> {
        let value = i64::try_get_by(res, index)?;
        Snowflake::try_from_i64(value).map_err(|err| TryGetError::DbErr(into_db_err(err)))
    }
}

fn into_db_err(err: IdRangeError) -> DbErr {
    DbErr::TryIntoErr {
        from: "i64",
        into: "Snowflake",
        source: Arc::new(err),
    }
}

/// A `Value::BigInt` back into an ID, as sea-query's own types convert.
impl ValueType for Snowflake {
    fn try_from(value: Value) -> Result<Self, ValueTypeErr> {
        let value = <i64 as ValueType>::try_from(value)?;
        Snowflake::try_from_i64(value).map_err(|_| ValueTypeErr)
    }

    fn type_name() -> String {
        "Snowflake".to_string()
    }

    fn array_type() -> ArrayType {
        ArrayType::BigInt
    }

    fn column_type() -> ColumnType {
        ColumnType::BigInteger
    }
}

/// The NULL of a nullable BIGINT column, for `Option<Snowflake>`.
impl Nullable for Snowflake {
    fn null() -> Value {
        Value::BigInt(None)
    }
}

/// A primary key: the `u64` a database reports for the last insert, if it is an ID.
impl TryFromU64 for Snowflake {
    fn try_from_u64(n: u64) -> Result<Self, DbErr> {
        <Snowflake as TryFrom<u64>>::try_from(n).map_err(into_db_err)
    }
}

/// `Set(id)`, for models turned into active models.
impl IntoActiveValue<Snowflake> for Snowflake {
    fn into_active_value(self) -> ActiveValue<Snowflake> {
        ActiveValue::Set(self)
    }
}

/// A typed ID is its `Snowflake` to SeaORM: a BIGINT column, a primary key.
impl<K: Kind> From<Id<K>> for Value {
    fn from(id: Id<K>) -> Value {
        id.snowflake().into()
    }
}

impl<K: Kind> TryGetable for Id<K> {
    fn try_get_by<I: ColIdx>(res: &QueryResult, index: I) -> Result<Self, TryGetError> {
        Snowflake::try_get_by(res, index).map(Id::from_snowflake)
    }
}

impl<K: Kind> ValueType for Id<K> {
    fn try_from(value: Value) -> Result<Self, ValueTypeErr> {
        <Snowflake as ValueType>::try_from(value).map(Id::from_snowflake)
    }

    /// `UserId` for `Id<User>`.
    fn type_name() -> String {
        std::format!("{}Id", K::NAME)
    }

    fn array_type() -> ArrayType {
        ArrayType::BigInt
    }

    fn column_type() -> ColumnType {
        ColumnType::BigInteger
    }
}

impl<K: Kind> Nullable for Id<K> {
    fn null() -> Value {
        Value::BigInt(None)
    }
}

impl<K: Kind> TryFromU64 for Id<K> {
    fn try_from_u64(n: u64) -> Result<Self, DbErr> {
        <Snowflake as TryFromU64>::try_from_u64(n).map(Id::from_snowflake)
    }
}

impl<K: Kind> IntoActiveValue<Id<K>> for Id<K> {
    fn into_active_value(self) -> ActiveValue<Id<K>> {
        ActiveValue::Set(self)
    }
}

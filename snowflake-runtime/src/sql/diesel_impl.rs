//! diesel: a `Snowflake` is the Rust type of a `BigInt` column, in `table!`, in queries and
//! in `Insertable`/`Queryable` structs. Values are written and read through diesel's own
//! `i64` impls; what diesel derives for a newtype (`AsExpression`, `FromSqlRow`) is written
//! out here, since deriving would need an attribute on the type.

use diesel::backend::Backend;
use diesel::deserialize::{self, FromSql, Queryable};
use diesel::expression::AsExpression;
use diesel::serialize::{self, Output, ToSql};
use diesel::sql_types::{BigInt, Nullable, SingleValue};

use crate::snowflake::Snowflake;
use crate::typed::{Id, Kind};

/// Reads a `BigInt` on every backend whose `i64` reads one; a negative value is an error
/// naming it.
impl<DB: Backend> FromSql<BigInt, DB> for Snowflake
where
    i64: FromSql<BigInt, DB>,
{
    fn from_sql(bytes: DB::RawValue<'_>) -> deserialize::Result<Self> {
        Ok(Snowflake::try_from_i64(i64::from_sql(bytes)?)?)
    }
}

/// A `Snowflake` is a whole row of one column, as `#[derive(FromSqlRow)]` would make it.
impl<DB, ST> Queryable<ST, DB> for Snowflake
where
    DB: Backend,
    ST: SingleValue,
    Snowflake: FromSql<ST, DB>,
{
    type Row = Self;

    fn build(row: Self) -> deserialize::Result<Self> {
        Ok(row)
    }
}

/// Writes a `BigInt` on `PostgreSQL`, through its `i64` impl. Not on `MySQL`, which no test
/// of ours runs.
macro_rules! to_sql_through_i64 {
    ($($backend:ty),+) => {$(
        impl ToSql<BigInt, $backend> for Snowflake {
            fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, $backend>) -> serialize::Result {
                <i64 as ToSql<BigInt, $backend>>::to_sql(&self.as_i64(), &mut out.reborrow())
            }
        }
    )+};
}

to_sql_through_i64!(diesel::pg::Pg);

/// Writes a `BigInt` (an INTEGER) on `SQLite`.
#[cfg(feature = "diesel-sqlite")]
impl ToSql<BigInt, diesel::sqlite::Sqlite> for Snowflake {
    fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, diesel::sqlite::Sqlite>) -> serialize::Result {
        out.set_value(self.as_i64());
        Ok(serialize::IsNull::No)
    }
}

/// An ID, or a reference to one, in a query on a `BigInt` column or a nullable one: its
/// `i64`, bound as diesel binds an `i64`.
macro_rules! as_bigint_expression {
    ($($sql_type:ty),+) => {$(
        impl AsExpression<$sql_type> for Snowflake {
            type Expression = <i64 as AsExpression<$sql_type>>::Expression;

            fn as_expression(self) -> Self::Expression {
                <i64 as AsExpression<$sql_type>>::as_expression(self.as_i64())
            }
        }

        impl AsExpression<$sql_type> for &Snowflake {
            type Expression = <i64 as AsExpression<$sql_type>>::Expression;

            fn as_expression(self) -> Self::Expression {
                <i64 as AsExpression<$sql_type>>::as_expression(self.as_i64())
            }
        }
    )+};
}

as_bigint_expression!(BigInt, Nullable<BigInt>);

/// A typed ID reads as its `Snowflake`: a BIGINT.
impl<DB: Backend, K: Kind> FromSql<BigInt, DB> for Id<K>
where
    Snowflake: FromSql<BigInt, DB>,
{
    fn from_sql(bytes: DB::RawValue<'_>) -> deserialize::Result<Self> {
        Snowflake::from_sql(bytes).map(Id::from_snowflake)
    }
}

impl<DB, ST, K: Kind> Queryable<ST, DB> for Id<K>
where
    DB: Backend,
    ST: SingleValue,
    Id<K>: FromSql<ST, DB>,
{
    type Row = Self;

    fn build(row: Self) -> deserialize::Result<Self> {
        Ok(row)
    }
}

/// A typed ID writes as its `Snowflake`: a BIGINT.
impl<DB: Backend, K: Kind> ToSql<BigInt, DB> for Id<K>
where
    Snowflake: ToSql<BigInt, DB>,
{
    fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, DB>) -> serialize::Result {
        // The `Snowflake` inside, borrowed for as long as the ID is.
        <Snowflake as ToSql<BigInt, DB>>::to_sql(self.as_snowflake(), out)
    }
}

macro_rules! typed_as_bigint_expression {
    ($($sql_type:ty),+) => {$(
        impl<K: Kind> AsExpression<$sql_type> for Id<K> {
            type Expression = <i64 as AsExpression<$sql_type>>::Expression;

            fn as_expression(self) -> Self::Expression {
                <i64 as AsExpression<$sql_type>>::as_expression(self.snowflake().as_i64())
            }
        }

        impl<K: Kind> AsExpression<$sql_type> for &Id<K> {
            type Expression = <i64 as AsExpression<$sql_type>>::Expression;

            fn as_expression(self) -> Self::Expression {
                <i64 as AsExpression<$sql_type>>::as_expression(self.snowflake().as_i64())
            }
        }
    )+};
}

typed_as_bigint_expression!(BigInt, Nullable<BigInt>);

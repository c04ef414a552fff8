//! `postgres-types`, for `tokio-postgres` and `postgres`: a `Snowflake` is an INT8
//! (BIGINT). Arrays (`Vec<Snowflake>`, `&[Snowflake]` as INT8[]) and NULL
//! (`Option<Snowflake>`) come from the library's own generic impls.

use std::boxed::Box;
use std::error::Error;

use bytes::BytesMut;
use postgres_types::{FromSql, IsNull, ToSql, Type, accepts, to_sql_checked};

use crate::snowflake::Snowflake;
use crate::typed::{Id, Kind};

/// Writes the ID as an INT8.
impl ToSql for Snowflake {
    fn to_sql(
        &self,
        ty: &Type,
        out: &mut BytesMut,
    ) -> Result<IsNull, Box<dyn Error + Sync + Send>> {
        self.as_i64().to_sql(ty, out)
    }

    accepts!(INT8);

    to_sql_checked!();
}

/// Reads an INT8; a negative one is an error naming the value.
impl<'a> FromSql<'a> for Snowflake {
    fn from_sql(ty: &Type, raw: &'a [u8]) -> Result<Self, Box<dyn Error + Sync + Send>> {
        Ok(Snowflake::try_from_i64(i64::from_sql(ty, raw)?)?)
    }

    accepts!(INT8);
}

/// A typed ID as its `Snowflake`: an INT8.
impl<K: Kind> ToSql for Id<K> {
    fn to_sql(
        &self,
        ty: &Type,
        out: &mut BytesMut,
    ) -> Result<IsNull, Box<dyn Error + Sync + Send>> {
        self.snowflake().to_sql(ty, out)
    }

    accepts!(INT8);

    to_sql_checked!();
}

impl<'a, K: Kind> FromSql<'a> for Id<K> {
    fn from_sql(ty: &Type, raw: &'a [u8]) -> Result<Self, Box<dyn Error + Sync + Send>> {
        Snowflake::from_sql(ty, raw).map(Id::from_snowflake)
    }

    accepts!(INT8);
}

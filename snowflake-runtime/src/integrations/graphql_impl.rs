//! async-graphql: `Snowflake` is a scalar of its own, written as a string of decimal
//! digits, since GraphQL's `Int` is 32 bits and a JavaScript client's numbers lose
//! precision above 2^53. It reads such a string, or an integer where a client sends one;
//! anything else is an error naming the value and saying what is allowed.

use std::borrow::Cow;
use std::format;
use std::string::ToString;

use async_graphql::{
    InputValueError, InputValueResult, Number, Scalar, ScalarType, TypeName, Value,
};

use crate::snowflake::Snowflake;
use crate::typed::{Id, Kind};

/// A Snowflake ID (Twitter layout), as a string of decimal digits from "0" to
/// "9223372036854775807": 41 bits of milliseconds since 2010-11-04T01:42:54.657Z, 5 of
/// datacenter, 5 of machine, 12 of sequence. Read from such a string, or an integer.
// No `is_valid`: its `false` is reported without the value, where `parse`'s error names it.
#[Scalar(name = "Snowflake")]
impl ScalarType for Snowflake {
    fn parse(value: Value) -> InputValueResult<Self> {
        match &value {
            Value::String(text) => text
                .parse()
                .map_err(|err| InputValueError::custom(format!("invalid ID {text:?}: {err}"))),
            Value::Number(number) => from_number(number).ok_or_else(|| {
                InputValueError::custom(format!(
                    "invalid ID {number}: expected an integer in 0..={}",
                    Snowflake::MAX
                ))
            }),
            _ => Err(InputValueError::expected_type(value)),
        }
    }

    fn to_value(&self) -> Value {
        Value::String(self.to_string())
    }
}

/// An integer in range; a float, a negative number or one past `Snowflake::MAX` is not.
fn from_number(number: &Number) -> Option<Snowflake> {
    number
        .as_u64()
        .and_then(|n| Snowflake::try_from_u64(n).ok())
}

/// A typed ID is a scalar of its own kind's name (`UserId` for `Id<User>`), written and
/// read as `Snowflake` is: a client's generated types keep the kind, as its schema says it.
#[Scalar(name_type)]
impl<K: Kind> ScalarType for Id<K> {
    fn parse(value: Value) -> InputValueResult<Self> {
        Snowflake::parse(value)
            .map(Id::from_snowflake)
            .map_err(InputValueError::propagate)
    }

    fn to_value(&self) -> Value {
        self.snowflake().to_value()
    }
}

impl<K: Kind> TypeName for Id<K> {
    fn type_name() -> Cow<'static, str> {
        Cow::Owned(format!("{}Id", K::NAME))
    }
}

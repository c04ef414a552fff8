use core::fmt;

use serde::de::{self, Deserializer, Unexpected, Visitor};
use serde::{Deserialize, Serialize, Serializer};

use crate::Snowflake;

/// Writes the ID as a JSON number (or the format's `u64`).
impl Serialize for Snowflake {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_u64(self.as_u64())
    }
}

/// Reads the ID from a number or from a string of decimal digits.
impl<'de> Deserialize<'de> for Snowflake {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        // Self-describing formats (JSON...) may carry the ID as a string; the others
        // (bincode...) cannot tell the two apart and only ever wrote a number.
        if deserializer.is_human_readable() {
            deserializer.deserialize_any(SnowflakeVisitor)
        } else {
            deserializer.deserialize_u64(SnowflakeVisitor)
        }
    }
}

struct SnowflakeVisitor;

impl Visitor<'_> for SnowflakeVisitor {
    type Value = Snowflake;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a snowflake id: an integer in 0..=9223372036854775807 or a string of its decimal digits")
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Snowflake, E> {
        Snowflake::from_u64(v).ok_or_else(|| E::invalid_value(Unexpected::Unsigned(v), &self))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Snowflake, E> {
        u64::try_from(v)
            .ok()
            .and_then(Snowflake::from_u64)
            .ok_or_else(|| E::invalid_value(Unexpected::Signed(v), &self))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Snowflake, E> {
        v.parse()
            .map_err(|err| E::custom(format_args!("invalid snowflake id {v:?}: {err}")))
    }
}

/// Writes a [`Snowflake`] as a string of decimal digits, for clients such as
/// JavaScript whose numbers lose precision above 2^53. Reads a string or a number.
///
/// ```
/// use serde::{Deserialize, Serialize};
/// use snowflake_kit::Snowflake;
///
/// #[derive(Serialize, Deserialize, PartialEq, Debug)]
/// struct Tweet {
///     #[serde(with = "snowflake_kit::as_string")]
///     id: Snowflake,
/// }
///
/// let tweet = Tweet { id: "1541815603606036480".parse()? };
/// let json = serde_json::to_string(&tweet)?;
/// assert_eq!(json, r#"{"id":"1541815603606036480"}"#);
/// assert_eq!(serde_json::from_str::<Tweet>(&json)?, tweet);
/// assert_eq!(serde_json::from_str::<Tweet>(r#"{"id":1541815603606036480}"#)?, tweet);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub mod as_string {
    use serde::{Deserialize, Deserializer, Serializer};

    use crate::Snowflake;

    /// Serializes the ID as a string of decimal digits; see [the module](self).
    ///
    /// ```
    /// let id = snowflake_kit::Snowflake::MAX;
    /// let json = snowflake_kit::as_string::serialize(&id, serde_json::value::Serializer)?;
    /// assert_eq!(json, serde_json::json!("9223372036854775807"));
    /// # Ok::<(), serde_json::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// Whatever the serializer reports.
    pub fn serialize<S: Serializer>(id: &Snowflake, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(id)
    }

    /// Deserializes an ID from a string of decimal digits or a number; see [the module](self).
    ///
    /// ```
    /// let id = snowflake_kit::as_string::deserialize(serde_json::json!("4194439168"))?;
    /// assert_eq!(id.as_u64(), 4_194_439_168);
    /// # Ok::<(), serde_json::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// When the input is neither, or not a valid ID.
    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Snowflake, D::Error> {
        Snowflake::deserialize(deserializer)
    }
}

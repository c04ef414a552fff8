use core::fmt;

use serde::de::{self, Deserializer, Unexpected, Visitor};
use serde::{Deserialize, Serialize, Serializer};

use crate::snowflake::Snowflake;
use crate::typed::{Id, Kind};

/// As its `Snowflake`: a number.
impl<K: Kind> Serialize for Id<K> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.snowflake().serialize(serializer)
    }
}

/// As a `Snowflake`: from a number or a string of decimal digits.
impl<'de, K: Kind> Deserialize<'de> for Id<K> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Snowflake::deserialize(deserializer).map(Id::from_snowflake)
    }
}

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
        f.write_str(
            "an ID: an integer in 0..=9223372036854775807 or a string of its decimal digits",
        )
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Snowflake, E> {
        Snowflake::try_from_u64(v).map_err(|_| E::invalid_value(Unexpected::Unsigned(v), &self))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Snowflake, E> {
        Snowflake::try_from_i64(v).map_err(|_| E::invalid_value(Unexpected::Signed(v), &self))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Snowflake, E> {
        v.parse()
            .map_err(|err| E::custom(format_args!("invalid ID {v:?}: {err}")))
    }
}

/// Writes a [`Snowflake`] as a string of decimal digits, for clients such as
/// JavaScript whose numbers lose precision above 2^53. Reads a string or a number.
/// [`as_string::option`](crate::serde::as_string::option) does the same for an
/// `Option<Snowflake>`, and [`as_string::vec`](crate::serde::as_string::vec) (with `std`) for a
/// `Vec<Snowflake>`. Each takes a typed ID ([`typed::Id`](crate::typed::Id)) too.
///
/// ```
/// use serde::{Deserialize, Serialize};
/// use snowflake_kit::Snowflake;
///
/// #[derive(Serialize, Deserialize, PartialEq, Debug)]
/// struct Tweet {
///     #[serde(with = "snowflake_kit::serde::as_string")]
///     id: Snowflake,
/// }
///
/// let tweet = Tweet { id: "1541815603606036480".parse()? };
/// let json = serde_json::to_string(&tweet)?;
/// assert_eq!(json, r#"{"id":"1541815603606036480"}"#);
/// assert_eq!(serde_json::from_str::<Tweet>(&json)?, tweet);
/// assert_eq!(serde_json::from_str::<Tweet>(r#"{"id":1541815603606036480}"#)?, tweet);
///
/// snowflake_kit::typed::kind!(pub User);
/// #[derive(Serialize, Deserialize)]
/// struct Profile {
///     #[serde(with = "snowflake_kit::serde::as_string")]
///     user: snowflake_kit::typed::Id<User>,
/// }
/// let profile: Profile = serde_json::from_str(r#"{"user":"4194439168"}"#)?;
/// assert_eq!(serde_json::to_string(&profile)?, r#"{"user":"4194439168"}"#);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub mod as_string {
    use serde::{Deserialize, Deserializer, Serializer};

    use crate::snowflake::Snowflake;
    use crate::typed::AnyId;
    use crate::typed::sealed::Token;

    /// Serializes the ID as a string of decimal digits; see [the module](self).
    ///
    /// ```
    /// let id = snowflake_kit::Snowflake::MAX;
    /// let json = snowflake_kit::serde::as_string::serialize(&id, serde_json::value::Serializer)?;
    /// assert_eq!(json, serde_json::json!("9223372036854775807"));
    /// # Ok::<(), serde_json::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// Whatever the serializer reports.
    pub fn serialize<T: AnyId, S: Serializer>(id: &T, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(&id.to_snowflake(Token))
    }

    /// Deserializes an ID from a string of decimal digits or a number; see [the module](self).
    ///
    /// ```
    /// let id: snowflake_kit::Snowflake =
    ///     snowflake_kit::serde::as_string::deserialize(serde_json::json!("4194439168"))?;
    /// assert_eq!(id.as_u64(), 4_194_439_168);
    /// # Ok::<(), serde_json::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// When the input is neither, or not a valid ID.
    pub fn deserialize<'de, T: AnyId, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<T, D::Error> {
        Snowflake::deserialize(deserializer).map(|id| T::from_snowflake(id, Token))
    }

    /// What [`serialize`] writes, as a regular expression (ECMA 262, as JSON Schema and
    /// OpenAPI read one): the decimal digits of `0..=9223372036854775807`, with no sign and
    /// no leading zero. Reading takes leading zeros too.
    ///
    /// ```
    /// use snowflake_kit::serde::as_string::PATTERN;
    ///
    /// // 0, up to 18 digits, then 19 digits no larger than 9223372036854775807.
    /// assert!(PATTERN.starts_with("^(?:0|[1-9][0-9]{0,17}|[1-8][0-9]{18}|"));
    /// assert!(PATTERN.ends_with("|922337203685477580[0-7])$"));
    /// ```
    pub const PATTERN: &str = "^(?:0|[1-9][0-9]{0,17}|[1-8][0-9]{18}|9[0-1][0-9]{17}\
        |92[0-1][0-9]{16}|922[0-2][0-9]{15}|9223[0-2][0-9]{14}|92233[0-6][0-9]{13}\
        |922337[0-1][0-9]{12}|92233720[0-2][0-9]{10}|922337203[0-5][0-9]{9}\
        |9223372036[0-7][0-9]{8}|92233720368[0-4][0-9]{7}|922337203685[0-3][0-9]{6}\
        |9223372036854[0-6][0-9]{5}|92233720368547[0-6][0-9]{4}|922337203685477[0-4][0-9]{3}\
        |9223372036854775[0-7][0-9]{2}|922337203685477580[0-7])$";

    /// The schema of an ID written by `as_string`, for a struct that derives one: a string
    /// of decimal digits matching [`PATTERN`]. With feature `utoipa` it is a `ToSchema`,
    /// named `SnowflakeString`; with `schemars`, a `JsonSchema`. Name it beside the serde
    /// attribute, as `Option<SnowflakeString>` or `Vec<SnowflakeString>` for
    /// [`option`] and [`vec`] (utoipa: `#[schema(value_type = ...)]`; schemars:
    /// `#[schemars(with = "...")]`):
    ///
    /// ```text
    /// #[serde(with = "snowflake_kit::serde::as_string")]
    /// #[schema(value_type = snowflake_kit::serde::as_string::SnowflakeString)]
    /// #[schemars(with = "snowflake_kit::serde::as_string::SnowflakeString")]
    /// id: Snowflake,
    /// ```
    ///
    /// It has no values: it only names a schema.
    ///
    /// ```
    /// # #[cfg(feature = "utoipa")] {
    /// use snowflake_kit::serde::as_string::{PATTERN, SnowflakeString};
    /// use utoipa::PartialSchema;
    ///
    /// let schema = serde_json::to_value(SnowflakeString::schema())?;
    /// assert_eq!(schema["type"], "string");
    /// assert_eq!(schema["pattern"], PATTERN);
    /// # }
    /// # Ok::<(), serde_json::Error>(())
    /// ```
    #[cfg(any(feature = "utoipa", feature = "schemars"))]
    #[derive(Debug, Clone, Copy)]
    pub enum SnowflakeString {}

    /// A string of digits inside `serialize`'s callers' containers; reads as `Snowflake` does.
    struct Text(Snowflake);

    impl serde::Serialize for Text {
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            serialize(&self.0, serializer)
        }
    }

    /// `Option<Snowflake>` as a string of decimal digits or `null`; reads a string, a
    /// number or `null`. Give it `#[serde(default)]` too, so that a missing field is `None`.
    ///
    /// ```
    /// use serde::{Deserialize, Serialize};
    /// use snowflake_kit::Snowflake;
    ///
    /// #[derive(Serialize, Deserialize, PartialEq, Debug)]
    /// struct Reply {
    ///     #[serde(with = "snowflake_kit::serde::as_string::option", default)]
    ///     in_reply_to: Option<Snowflake>,
    /// }
    ///
    /// let reply = Reply { in_reply_to: Some("1541815603606036480".parse()?) };
    /// let json = serde_json::to_string(&reply)?;
    /// assert_eq!(json, r#"{"in_reply_to":"1541815603606036480"}"#);
    /// assert_eq!(serde_json::from_str::<Reply>(&json)?, reply);
    /// assert_eq!(serde_json::from_str::<Reply>(r#"{"in_reply_to":1541815603606036480}"#)?, reply);
    /// assert_eq!(serde_json::to_string(&Reply { in_reply_to: None })?, r#"{"in_reply_to":null}"#);
    /// assert_eq!(serde_json::from_str::<Reply>(r#"{"in_reply_to":null}"#)?, Reply { in_reply_to: None });
    /// assert_eq!(serde_json::from_str::<Reply>("{}")?, Reply { in_reply_to: None });
    /// assert!(serde_json::from_str::<Reply>(r#"{"in_reply_to":"-1"}"#).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub mod option {
        use serde::{Deserialize, Deserializer, Serializer};

        use super::Text;
        use crate::snowflake::Snowflake;
        use crate::typed::AnyId;
        use crate::typed::sealed::Token;

        /// Serializes `Some` as a string of decimal digits, `None` as the format's none.
        ///
        /// ```
        /// use snowflake_kit::{serde::as_string, Snowflake};
        ///
        /// let json = as_string::option::serialize(&Some(Snowflake::MAX), serde_json::value::Serializer)?;
        /// assert_eq!(json, serde_json::json!("9223372036854775807"));
        /// let json = as_string::option::serialize(&None::<Snowflake>, serde_json::value::Serializer)?;
        /// assert_eq!(json, serde_json::Value::Null);
        /// # Ok::<(), serde_json::Error>(())
        /// ```
        ///
        /// # Errors
        ///
        /// Whatever the serializer reports.
        pub fn serialize<T: AnyId, S: Serializer>(
            id: &Option<T>,
            serializer: S,
        ) -> Result<S::Ok, S::Error> {
            match id {
                Some(id) => serializer.serialize_some(&Text(id.to_snowflake(Token))),
                None => serializer.serialize_none(),
            }
        }

        /// Deserializes `null` as `None`, a string of decimal digits or a number as `Some`.
        ///
        /// ```
        /// use snowflake_kit::{serde::as_string, Snowflake};
        ///
        /// let id: Option<Snowflake> = as_string::option::deserialize(serde_json::json!("4194439168"))?;
        /// assert_eq!(id.map(|id| id.as_u64()), Some(4_194_439_168));
        /// assert_eq!(as_string::option::deserialize::<Snowflake, _>(serde_json::Value::Null)?, None);
        /// # Ok::<(), serde_json::Error>(())
        /// ```
        ///
        /// # Errors
        ///
        /// When the input is none of these, or not a valid ID.
        pub fn deserialize<'de, T: AnyId, D: Deserializer<'de>>(
            deserializer: D,
        ) -> Result<Option<T>, D::Error> {
            Option::<Snowflake>::deserialize(deserializer)
                .map(|id| id.map(|id| T::from_snowflake(id, Token)))
        }
    }

    /// `Vec<Snowflake>` as a sequence of strings of decimal digits; reads strings or
    /// numbers, in any mix.
    ///
    /// ```
    /// use serde::{Deserialize, Serialize};
    /// use snowflake_kit::Snowflake;
    ///
    /// #[derive(Serialize, Deserialize, PartialEq, Debug)]
    /// struct Thread {
    ///     #[serde(with = "snowflake_kit::serde::as_string::vec")]
    ///     ids: Vec<Snowflake>,
    /// }
    ///
    /// let thread = Thread { ids: vec![Snowflake::MIN, Snowflake::MAX] };
    /// let json = serde_json::to_string(&thread)?;
    /// assert_eq!(json, r#"{"ids":["0","9223372036854775807"]}"#);
    /// assert_eq!(serde_json::from_str::<Thread>(&json)?, thread);
    /// assert_eq!(serde_json::from_str::<Thread>(r#"{"ids":[0,"9223372036854775807"]}"#)?, thread);
    /// assert!(serde_json::from_str::<Thread>(r#"{"ids":["1",-1]}"#).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[cfg(feature = "std")]
    pub mod vec {
        use std::vec::Vec;

        use serde::{Deserialize, Deserializer, Serializer};

        use super::Text;
        use crate::snowflake::Snowflake;
        use crate::typed::AnyId;
        use crate::typed::sealed::Token;

        /// Serializes the IDs as a sequence of strings of decimal digits.
        ///
        /// ```
        /// use snowflake_kit::{serde::as_string, Snowflake};
        ///
        /// let json = as_string::vec::serialize(&[Snowflake::MIN], serde_json::value::Serializer)?;
        /// assert_eq!(json, serde_json::json!(["0"]));
        /// # Ok::<(), serde_json::Error>(())
        /// ```
        ///
        /// # Errors
        ///
        /// Whatever the serializer reports.
        pub fn serialize<T: AnyId, S: Serializer>(
            ids: &[T],
            serializer: S,
        ) -> Result<S::Ok, S::Error> {
            serializer.collect_seq(ids.iter().map(|id| Text(id.to_snowflake(Token))))
        }

        /// Deserializes a sequence of strings of decimal digits or numbers.
        ///
        /// ```
        /// let ids: Vec<snowflake_kit::Snowflake> =
        ///     snowflake_kit::serde::as_string::vec::deserialize(serde_json::json!(["1", 2]))?;
        /// assert_eq!(ids.iter().map(|id| id.as_u64()).collect::<Vec<_>>(), [1, 2]);
        /// # Ok::<(), serde_json::Error>(())
        /// ```
        ///
        /// # Errors
        ///
        /// When the input is not a sequence, or an element is not a valid ID.
        pub fn deserialize<'de, T: AnyId, D: Deserializer<'de>>(
            deserializer: D,
        ) -> Result<Vec<T>, D::Error> {
            let ids = Vec::<Snowflake>::deserialize(deserializer)?;
            Ok(ids
                .into_iter()
                .map(|id| T::from_snowflake(id, Token))
                .collect())
        }
    }
}

/// Writes an ID as its 13 characters of base32 ([`Snowflake::to_base32`]), after its kind's
/// prefix and `_` for a typed ID whose kind has one ([`Id::to_base32`]); reads that text
/// only, in either case ([`Snowflake::from_base32`]): a number, or decimal digits, would be
/// a different ID. Short for a URL, and sorted as the IDs are.
/// [`as_base32::option`](crate::serde::as_base32::option) does the same for an `Option`.
///
/// ```
/// use serde::{Deserialize, Serialize};
/// use snowflake_kit::typed::{Id, kind};
///
/// kind!(pub User, "user");
/// #[derive(Serialize, Deserialize, PartialEq, Debug)]
/// struct Profile {
///     #[serde(with = "snowflake_kit::serde::as_base32")]
///     user: Id<User>,
/// }
///
/// let profile = Profile { user: Id::from_snowflake("1541815603606036480".parse()?) };
/// let json = serde_json::to_string(&profile)?;
/// assert_eq!(json, r#"{"user":"user_1ASD13XH1F800"}"#);
/// assert_eq!(serde_json::from_str::<Profile>(&json)?, profile);
/// assert_eq!(serde_json::from_str::<Profile>(r#"{"user":"user_1asd13xh1f8oo"}"#)?, profile);
/// assert!(serde_json::from_str::<Profile>(r#"{"user":"1ASD13XH1F800"}"#).is_err());
/// assert!(serde_json::from_str::<Profile>(r#"{"user":1541815603606036480}"#).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub mod as_base32 {
    use core::fmt;
    use core::marker::PhantomData;

    use serde::de::{self, Deserializer, Visitor};
    use serde::{Deserialize, Serializer};

    use crate::typed::AnyId;
    use crate::typed::sealed::Token;

    /// Serializes the ID as its base32 text; see [the module](self).
    ///
    /// ```
    /// let id = snowflake_kit::Snowflake::MAX;
    /// let json = snowflake_kit::serde::as_base32::serialize(&id, serde_json::value::Serializer)?;
    /// assert_eq!(json, serde_json::json!("7ZZZZZZZZZZZZ"));
    /// # Ok::<(), serde_json::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// Whatever the serializer reports.
    pub fn serialize<T: AnyId, S: Serializer>(id: &T, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(&id.to_base32(Token))
    }

    /// Deserializes an ID from its base32 text; see [the module](self).
    ///
    /// ```
    /// let id: snowflake_kit::Snowflake =
    ///     snowflake_kit::serde::as_base32::deserialize(serde_json::json!("0000003X04400"))?;
    /// assert_eq!(id.as_u64(), 4_194_439_168);
    /// # Ok::<(), serde_json::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// When the input is not a string, or not an ID in base32 (the message says why).
    pub fn deserialize<'de, T: AnyId, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<T, D::Error> {
        deserializer.deserialize_str(Text(PhantomData))
    }

    /// What [`serialize`] writes for a `Snowflake`, as a regular expression (ECMA 262, as
    /// JSON Schema and OpenAPI read one): 13 digits of Crockford's alphabet, the first no
    /// more than 7. A typed ID's kind's prefix and `_` come before them.
    ///
    /// ```
    /// assert_eq!(snowflake_kit::serde::as_base32::PATTERN, "^[0-7][0-9A-HJKMNP-TV-Z]{12}$");
    /// ```
    pub const PATTERN: &str = "^[0-7][0-9A-HJKMNP-TV-Z]{12}$";

    /// The schema of an ID written by `as_base32`, for a struct that derives one: a string
    /// matching [`PATTERN`], as [`as_string::SnowflakeString`](super::as_string::SnowflakeString)
    /// is for `as_string`. With feature `utoipa` it is a `ToSchema`, named
    /// `SnowflakeBase32`; with `schemars`, a `JsonSchema`. A typed ID's text has its kind's
    /// prefix and `_` before the 13 characters, which this pattern does not allow: describe
    /// such a field with a pattern of its own (`^user_[0-7][0-9A-HJKMNP-TV-Z]{12}$`).
    ///
    /// ```text
    /// #[serde(with = "snowflake_kit::serde::as_base32")]
    /// #[schema(value_type = snowflake_kit::serde::as_base32::SnowflakeBase32)]
    /// #[schemars(with = "snowflake_kit::serde::as_base32::SnowflakeBase32")]
    /// id: Snowflake,
    /// ```
    ///
    /// It has no values: it only names a schema.
    ///
    /// ```
    /// # #[cfg(feature = "utoipa")] {
    /// use snowflake_kit::serde::as_base32::{PATTERN, SnowflakeBase32};
    /// use utoipa::PartialSchema;
    ///
    /// let schema = serde_json::to_value(SnowflakeBase32::schema())?;
    /// assert_eq!(schema["type"], "string");
    /// assert_eq!(schema["pattern"], PATTERN);
    /// # }
    /// # Ok::<(), serde_json::Error>(())
    /// ```
    #[cfg(any(feature = "utoipa", feature = "schemars"))]
    #[derive(Debug, Clone, Copy)]
    pub enum SnowflakeBase32 {}

    struct Text<T>(PhantomData<T>);

    impl<T: AnyId> Visitor<'_> for Text<T> {
        type Value = T;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            match T::prefix(Token) {
                Some(prefix) => write!(
                    f,
                    "an ID in base32: `{prefix}_` and 13 characters of Crockford's alphabet"
                ),
                None => f.write_str("an ID in base32: 13 characters of Crockford's alphabet"),
            }
        }

        fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
            T::from_base32(v, Token)
                .map_err(|err| E::custom(format_args!("invalid ID {v:?}: {err}")))
        }
    }

    /// The ID inside `option`'s `Some`.
    struct Wrapped<T>(T);

    impl<T: AnyId> serde::Serialize for Wrapped<T> {
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            serialize(&self.0, serializer)
        }
    }

    impl<'de, T: AnyId> Deserialize<'de> for Wrapped<T> {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            deserialize(deserializer).map(Wrapped)
        }
    }

    /// `Option<Snowflake>` (or of a typed ID) as its base32 text or `null`. Give it
    /// `#[serde(default)]` too, so that a missing field is `None`.
    ///
    /// ```
    /// use serde::{Deserialize, Serialize};
    /// use snowflake_kit::Snowflake;
    ///
    /// #[derive(Serialize, Deserialize, PartialEq, Debug)]
    /// struct Reply {
    ///     #[serde(with = "snowflake_kit::serde::as_base32::option", default)]
    ///     in_reply_to: Option<Snowflake>,
    /// }
    ///
    /// let reply = Reply { in_reply_to: Some(Snowflake::MAX) };
    /// assert_eq!(serde_json::to_string(&reply)?, r#"{"in_reply_to":"7ZZZZZZZZZZZZ"}"#);
    /// assert_eq!(serde_json::from_str::<Reply>(r#"{"in_reply_to":"7zzzzzzzzzzzz"}"#)?, reply);
    /// assert_eq!(serde_json::from_str::<Reply>("{}")?, Reply { in_reply_to: None });
    /// assert_eq!(serde_json::to_string(&Reply { in_reply_to: None })?, r#"{"in_reply_to":null}"#);
    /// assert!(serde_json::from_str::<Reply>(r#"{"in_reply_to":"8ZZZZZZZZZZZZ"}"#).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub mod option {
        use serde::{Deserialize, Deserializer, Serializer};

        use super::Wrapped;
        use crate::typed::AnyId;

        /// Serializes `Some` as base32 text, `None` as the format's none.
        ///
        /// ```
        /// use snowflake_kit::{serde::as_base32, Snowflake};
        ///
        /// let json = as_base32::option::serialize(&Some(Snowflake::MIN), serde_json::value::Serializer)?;
        /// assert_eq!(json, serde_json::json!("0000000000000"));
        /// # Ok::<(), serde_json::Error>(())
        /// ```
        ///
        /// # Errors
        ///
        /// Whatever the serializer reports.
        pub fn serialize<T: AnyId, S: Serializer>(
            id: &Option<T>,
            serializer: S,
        ) -> Result<S::Ok, S::Error> {
            match id {
                Some(id) => serializer.serialize_some(&Wrapped(*id)),
                None => serializer.serialize_none(),
            }
        }

        /// Deserializes `null` as `None`, base32 text as `Some`.
        ///
        /// ```
        /// use snowflake_kit::{serde::as_base32, Snowflake};
        ///
        /// assert_eq!(as_base32::option::deserialize::<Snowflake, _>(serde_json::Value::Null)?, None);
        /// # Ok::<(), serde_json::Error>(())
        /// ```
        ///
        /// # Errors
        ///
        /// When the input is neither, or not an ID in base32.
        pub fn deserialize<'de, T: AnyId, D: Deserializer<'de>>(
            deserializer: D,
        ) -> Result<Option<T>, D::Error> {
            Option::<Wrapped<T>>::deserialize(deserializer).map(|id| id.map(|Wrapped(id)| id))
        }
    }

    /// `Vec<Snowflake>` (or of a typed ID) as a sequence of base32 texts, as [the
    /// module](crate::serde::as_base32) writes one.
    ///
    /// ```
    /// use serde::{Deserialize, Serialize};
    /// use snowflake_kit::typed::{Id, kind};
    ///
    /// kind!(pub User, "user");
    /// #[derive(Serialize, Deserialize, PartialEq, Debug)]
    /// struct Team {
    ///     #[serde(with = "snowflake_kit::serde::as_base32::vec")]
    ///     members: Vec<Id<User>>,
    /// }
    ///
    /// let team = Team { members: vec![Id::try_from(4_194_439_168_u64)?] };
    /// let json = serde_json::to_string(&team)?;
    /// assert_eq!(json, r#"{"members":["user_0000003X04400"]}"#);
    /// assert_eq!(serde_json::from_str::<Team>(&json)?, team);
    /// let refused = serde_json::from_str::<Team>(r#"{"members":[12345]}"#).unwrap_err();
    /// assert!(refused.to_string().starts_with(
    ///     "invalid type: integer `12345`, expected an ID in base32: `user_` and 13 characters"
    /// ));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[cfg(feature = "std")]
    pub mod vec {
        use std::vec::Vec;

        use serde::{Deserialize, Deserializer, Serializer};

        use super::Wrapped;
        use crate::typed::AnyId;

        /// Serializes the IDs as a sequence of base32 texts.
        ///
        /// ```
        /// use snowflake_kit::{serde::as_base32, Snowflake};
        ///
        /// let json = as_base32::vec::serialize(&[Snowflake::MAX], serde_json::value::Serializer)?;
        /// assert_eq!(json, serde_json::json!(["7ZZZZZZZZZZZZ"]));
        /// # Ok::<(), serde_json::Error>(())
        /// ```
        ///
        /// # Errors
        ///
        /// Whatever the serializer reports.
        pub fn serialize<T: AnyId, S: Serializer>(
            ids: &[T],
            serializer: S,
        ) -> Result<S::Ok, S::Error> {
            serializer.collect_seq(ids.iter().map(|&id| Wrapped(id)))
        }

        /// Deserializes a sequence of base32 texts.
        ///
        /// ```
        /// let ids: Vec<snowflake_kit::Snowflake> =
        ///     snowflake_kit::serde::as_base32::vec::deserialize(serde_json::json!(["0000000000001"]))?;
        /// assert_eq!(ids[0].as_u64(), 1);
        /// # Ok::<(), serde_json::Error>(())
        /// ```
        ///
        /// # Errors
        ///
        /// When the input is not a sequence, or an element is not an ID in base32.
        pub fn deserialize<'de, T: AnyId, D: Deserializer<'de>>(
            deserializer: D,
        ) -> Result<Vec<T>, D::Error> {
            let ids = Vec::<Wrapped<T>>::deserialize(deserializer)?;
            Ok(ids.into_iter().map(|Wrapped(id)| id).collect())
        }
    }
}

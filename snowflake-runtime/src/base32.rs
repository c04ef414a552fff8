//! An ID in 13 characters of Crockford's base32 (ULID's alphabet): [`Base32`]. Fixed width
//! and most significant digit first, so that text order is ID order.

use core::fmt;

use crate::error::ParseSnowflakeError;
use crate::snowflake::Snowflake;
use crate::typed::{Id, Kind};

/// Crockford's alphabet: the digits and the capitals but `I`, `L`, `O` and `U`.
const ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/// A digit's value, upper or lower case, with Crockford's substitutions (`O` for 0, `I` and
/// `L` for 1); `None` for any other byte.
const fn digit(byte: u8) -> Option<u64> {
    let value = match byte.to_ascii_uppercase() {
        b @ b'0'..=b'9' => b - b'0',
        b'O' => 0,
        b'I' | b'L' => 1,
        b @ b'A'..=b'H' => b - b'A' + 10,
        b @ b'J'..=b'K' => b - b'J' + 18,
        b @ b'M'..=b'N' => b - b'M' + 20,
        b @ b'P'..=b'T' => b - b'P' + 22,
        b @ b'V'..=b'Z' => b - b'V' + 27,
        _ => return None,
    };
    Some(value as u64)
}

impl Snowflake {
    /// The ID in 13 characters of Crockford's base32, the alphabet ULID and TypeID write:
    /// `0-9` and `A-Z` without `I`, `L`, `O` and `U`. Always 13 characters, leading zeros
    /// kept, so that sorting the texts sorts the IDs. A [`Display`](fmt::Display) value;
    /// nothing is allocated.
    ///
    /// ```
    /// let id = snowflake_kit::compose(1_288_834_975_657, 1, 1, 0)?;
    /// assert_eq!(id.to_base32().to_string(), "0000003X04400");
    /// assert_eq!(snowflake_kit::Snowflake::MAX.to_base32().digits(), "7ZZZZZZZZZZZZ");
    /// # Ok::<(), snowflake_kit::FieldRangeError>(())
    /// ```
    pub const fn to_base32(self) -> Base32 {
        Base32 {
            prefix: None,
            digits: encode(self.as_u64()),
        }
    }

    /// Reads the 13 characters [`to_base32`](Snowflake::to_base32) writes, in either case,
    /// with Crockford's substitutions: `O` reads as 0, `I` and `L` as 1. Nothing else is
    /// forgiven: no hyphen, no space, no prefix.
    ///
    /// ```
    /// use snowflake_kit::{ParseSnowflakeError, Snowflake};
    ///
    /// assert_eq!(Snowflake::from_base32("0000003X04400")?.as_u64(), 4_194_439_168);
    /// assert_eq!(Snowflake::from_base32("oooooo3xo44oo")?.as_u64(), 4_194_439_168);
    /// assert_eq!(
    ///     Snowflake::from_base32("0000003X0440U").unwrap_err().to_string(),
    ///     "invalid character `U` at byte 12: base32 is 0-9 and A-Z without U",
    /// );
    /// assert_eq!(Snowflake::from_base32("80000000000000"), Err(ParseSnowflakeError::Base32Length { length: 14 }));
    /// assert_eq!(
    ///     Snowflake::from_base32("8000000000000").unwrap_err().to_string(),
    ///     "first digit `8` too large: an ID in base32 is at most 7ZZZZZZZZZZZZ, its first digit 0-7",
    /// );
    /// assert_eq!(
    ///     Snowflake::from_base32("0000003X0440_").unwrap_err().to_string(),
    ///     "invalid character `_` at byte 12: base32 is 0-9 and A-Z without U",
    /// );
    /// # Ok::<(), ParseSnowflakeError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// A [`ParseSnowflakeError`]: the first character that is no digit of base32, with its
    /// position; a length other than 13; a prefix (a text that reads as one: something, `_`,
    /// 13 characters); a first digit past 7.
    pub fn from_base32(text: &str) -> Result<Snowflake, ParseSnowflakeError> {
        decode(text, None)
    }

    /// Reads an ID a person gives in either form: 13 characters, or any text with a `_`, as
    /// base32 (after the prefix of a typed ID, of any kind: the prefix is skipped
    /// unchecked, for a decoder of every kind's IDs; [`Id::read_decimal_or_base32`] reads
    /// one kind's only); anything else as decimal digits. Base32 is fixed width, so 13
    /// characters are base32 even when all are digits: a decimal ID of 13 digits is within
    /// 40 minutes of the epoch, and reads as decimal with a leading zero. What decoders for
    /// people take (the `snowflake` command, the server's API and page).
    ///
    /// ```
    /// use snowflake_kit::Snowflake;
    ///
    /// let tweet = Snowflake::try_from(1541815603606036480)?;
    /// assert_eq!(Snowflake::read_decimal_or_base32("1541815603606036480"), Ok(tweet));
    /// assert_eq!(Snowflake::read_decimal_or_base32("1ASD13XH1F800"), Ok(tweet));
    /// assert_eq!(Snowflake::read_decimal_or_base32("user_1asd13xh1f800"), Ok(tweet));
    /// assert_eq!(Snowflake::read_decimal_or_base32("0000000000033").map(|id| id.as_u64()), Ok(99));
    /// assert_eq!(Snowflake::read_decimal_or_base32("00000000000033").map(|id| id.as_u64()), Ok(33));
    /// assert_eq!(
    ///     Snowflake::read_decimal_or_base32("user_1ASD13XH1F80U").unwrap_err().to_string(),
    ///     "invalid character `U` at byte 17: base32 is 0-9 and A-Z without U",
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`from_base32`](Snowflake::from_base32) or `FromStr`, by the form; positions
    /// count from the start of `text`, prefix included.
    pub fn read_decimal_or_base32(text: &str) -> Result<Snowflake, ParseSnowflakeError> {
        // A plain loop, not `rfind`: the page's module has no room for `memrchr`.
        match text.bytes().rposition(|b| b == b'_') {
            Some(underscore) => digits(text, underscore + 1),
            None if text.len() == Base32::LEN => digits(text, 0),
            None => text.parse(),
        }
    }
}

impl<K: Kind> Id<K> {
    /// The ID in base32, after its kind's prefix and `_` if the kind has one (`user_`), as
    /// TypeID writes them; [`Snowflake::to_base32`] otherwise.
    ///
    /// ```
    /// use snowflake_kit::typed::{Id, kind};
    ///
    /// kind!(pub User, "user");
    /// let user: Id<User> = Id::from_snowflake(snowflake_kit::compose(1_288_834_975_657, 1, 1, 0)?);
    /// assert_eq!(user.to_base32().to_string(), "user_0000003X04400");
    /// # Ok::<(), snowflake_kit::FieldRangeError>(())
    /// ```
    pub const fn to_base32(self) -> Base32 {
        Base32 {
            prefix: K::PREFIX,
            digits: encode(self.snowflake().as_u64()),
        }
    }

    /// Reads an ID a person gives in either form, as
    /// [`Snowflake::read_decimal_or_base32`] does, but for this kind only: a base32 text
    /// with a prefix must have this kind's (`order_...` is no user's ID), one without is
    /// read as the plain 13 characters, and decimal digits as decimal.
    ///
    /// ```
    /// use snowflake_kit::typed::{Id, kind};
    ///
    /// kind!(pub User, "user");
    /// let tweet = Id::<User>::try_from(1_541_815_603_606_036_480_u64)?;
    /// assert_eq!(Id::<User>::read_decimal_or_base32("user_1ASD13XH1F800"), Ok(tweet));
    /// assert_eq!(Id::<User>::read_decimal_or_base32("1ASD13XH1F800"), Ok(tweet));
    /// assert_eq!(Id::<User>::read_decimal_or_base32("1541815603606036480"), Ok(tweet));
    /// assert_eq!(
    ///     Id::<User>::read_decimal_or_base32("order_1ASD13XH1F800").unwrap_err().to_string(),
    ///     "no prefix `user_`: this kind's IDs in base32 are `user_` and 13 characters",
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Snowflake::read_decimal_or_base32`], and a prefix other than the kind's.
    pub fn read_decimal_or_base32(text: &str) -> Result<Id<K>, ParseSnowflakeError> {
        if text.contains('_') {
            Id::from_base32(text)
        } else {
            Snowflake::read_decimal_or_base32(text).map(Id::from_snowflake)
        }
    }

    /// Reads what [`to_base32`](Id::to_base32) writes: the kind's prefix and `_`, exactly,
    /// then 13 characters read as [`Snowflake::from_base32`] reads them.
    ///
    /// ```
    /// use snowflake_kit::typed::{Id, kind};
    ///
    /// kind!(pub User, "user");
    /// assert_eq!(Id::<User>::from_base32("user_0000003x04400")?.snowflake().as_u64(), 4_194_439_168);
    /// assert_eq!(
    ///     Id::<User>::from_base32("order_0000003X04400").unwrap_err().to_string(),
    ///     "no prefix `user_`: this kind's IDs in base32 are `user_` and 13 characters",
    /// );
    /// # Ok::<(), snowflake_kit::ParseSnowflakeError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Snowflake::from_base32`], and a prefix other than the kind's.
    pub fn from_base32(text: &str) -> Result<Id<K>, ParseSnowflakeError> {
        decode(text, K::PREFIX).map(Id::from_snowflake)
    }
}

/// The 13 digits of `id`, most significant first.
pub(crate) const fn encode(id: u64) -> [u8; Base32::LEN] {
    let mut digits = [0; Base32::LEN];
    let mut i = Base32::LEN;
    let mut rest = id;
    while i > 0 {
        i -= 1;
        digits[i] = ALPHABET[(rest & 31) as usize];
        rest >>= 5;
    }
    digits
}

/// Reads `text`: `prefix` and `_` first if given, none otherwise, then 13 digits. Without
/// one, a text is taken for a prefixed one (and refused as such) only where it reads as one:
/// something, `_`, then 13 characters; any other `_` is a character that is no digit.
fn decode(text: &str, prefix: Option<&'static str>) -> Result<Snowflake, ParseSnowflakeError> {
    let wrong_prefix = ParseSnowflakeError::Base32Prefix { expected: prefix };
    let start = match prefix {
        Some(prefix) => match text.strip_prefix(prefix) {
            Some(rest) if rest.starts_with('_') => prefix.len() + 1,
            _ => return Err(wrong_prefix),
        },
        None => match text.bytes().rposition(|b| b == b'_') {
            Some(underscore) if underscore > 0 && text.len() - underscore - 1 == Base32::LEN => {
                return Err(wrong_prefix);
            }
            _ => 0,
        },
    };
    digits(text, start)
}

/// Reads the 13 digits of `text` from byte `start` on, naming a bad one by its byte in
/// `text`.
fn digits(text: &str, start: usize) -> Result<Snowflake, ParseSnowflakeError> {
    let mut value = 0_u64;
    // Every character first: a text with one that is no digit is no ID, however long.
    for (i, &byte) in text.as_bytes()[start..].iter().enumerate() {
        let Some(digit) = digit(byte) else {
            let position = start + i;
            // Every byte before `position` is ASCII, so a character starts here.
            // `get`, not an index: no panic's formatting in the page's module.
            let character = text.get(position..).and_then(|rest| rest.chars().next());
            let character = character.unwrap_or_default();
            return Err(ParseSnowflakeError::InvalidBase32Character {
                character,
                position,
            });
        };
        // Wraps past 64 bits; only a 13-digit value is kept, and its first digit is checked.
        value = value << 5 | digit;
    }
    let length = text.len() - start;
    if length != Base32::LEN {
        return Err(ParseSnowflakeError::Base32Length { length });
    }
    // 13 digits are 65 bits: the first, 0 to 7, keeps the top two clear.
    let first = text.as_bytes()[start];
    match digit(first) {
        Some(0..=7) => Ok(Snowflake::from_valid(value)),
        _ => Err(ParseSnowflakeError::Base32TooLarge {
            first: char::from(first),
        }),
    }
}

/// An ID in base32, from [`Snowflake::to_base32`] or a typed ID's
/// [`Id::to_base32`](crate::typed::Id::to_base32): 13 characters of Crockford's alphabet,
/// after the kind's prefix and `_` if it has one. Displays as that text; nothing is
/// allocated.
///
/// ```
/// use snowflake_kit::Snowflake;
///
/// let text = Snowflake::MIN.to_base32();
/// assert_eq!(text.digits(), "0000000000000");
/// assert_eq!(text.prefix(), None);
/// assert_eq!(format!("{text}"), "0000000000000");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Base32 {
    prefix: Option<&'static str>,
    digits: [u8; Base32::LEN],
}

impl Base32 {
    /// The number of digits: 13, for 64 bits at 5 a digit.
    ///
    /// ```
    /// assert_eq!(snowflake_kit::layout::Base32::LEN, 13);
    /// ```
    pub const LEN: usize = 13;

    /// The 13 digits alone, without a typed ID's prefix (which `Display` writes before
    /// them): what [`Snowflake::from_base32`] reads, where
    /// [`Id::from_base32`](crate::typed::Id::from_base32) reads the whole text.
    ///
    /// ```
    /// snowflake_kit::typed::kind!(pub User, "user");
    /// let user = snowflake_kit::typed::Id::<User>::try_from(4_194_439_168_u64)?;
    /// let text = user.to_base32();
    /// assert_eq!(text.digits(), "0000003X04400");
    /// assert_eq!(text.to_string(), "user_0000003X04400");
    /// assert_eq!(snowflake_kit::Snowflake::MAX.to_base32().digits(), "7ZZZZZZZZZZZZ");
    /// # Ok::<(), snowflake_kit::IdRangeError>(())
    /// ```
    pub const fn digits(&self) -> &str {
        match core::str::from_utf8(&self.digits) {
            Ok(digits) => digits,
            // Every digit is a byte of the ASCII alphabet.
            Err(_) => unreachable!(),
        }
    }

    /// The kind's prefix, without the `_`, for a typed ID whose kind has one.
    ///
    /// ```
    /// snowflake_kit::typed::kind!(pub User, "user");
    /// let user = snowflake_kit::typed::Id::<User>::from_snowflake(snowflake_kit::Snowflake::MIN);
    /// assert_eq!(user.to_base32().prefix(), Some("user"));
    /// ```
    pub const fn prefix(&self) -> Option<&'static str> {
        self.prefix
    }
}

impl fmt::Display for Base32 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(prefix) = self.prefix {
            f.write_str(prefix)?;
            f.write_str("_")?;
        }
        f.write_str(self.digits())
    }
}

impl fmt::Debug for Base32 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Base32(\"{self}\")")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_byte_reads_as_the_alphabet_says() {
        for byte in 0..=u8::MAX {
            let upper = byte.to_ascii_uppercase();
            let expected = match upper {
                b'O' => Some(0),
                b'I' | b'L' => Some(1),
                _ => ALPHABET.iter().position(|&a| a == upper).map(|p| p as u64),
            };
            assert_eq!(digit(byte), expected, "byte {byte}");
        }
    }
}

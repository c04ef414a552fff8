//! The form's rules, shared by the page and the server's `/v1/compose`: text typed by a
//! person -> an ID, or every field's error. The rules are the runtime's ([`Field::parse`]),
//! and so are the errors, kept typed: the API writes them in the runtime's English
//! ([`Refused::message`]), the page in the reader's language. The form adds only what a
//! blank field means, and whether spaces around a value are dropped ([`Spaces`]).

use snowflake_kit::input::ParseFieldError;
use snowflake_kit::{Clock, Field, ParseSnowflakeError, Snowflake};

/// What a front end does with spaces around a field's text.
///
/// ```
/// use snowflake_page::form::{Spaces, decode_text};
///
/// assert!(decode_text(" 4194439168 ", Spaces::Trimmed).is_ok());
/// assert!(decode_text(" 4194439168 ", Spaces::Kept).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spaces {
    /// The page: a person's typing, pasted or not, so spaces around a value are dropped.
    Trimmed,
    /// The API: the text as its contract (`/v1/openapi.json`) describes it, where blank is
    /// the empty text alone and a space is a character like any other, so an error.
    Kept,
}

impl Spaces {
    fn apply(self, text: &str) -> &str {
        match self {
            Spaces::Trimmed => text.trim(),
            Spaces::Kept => text,
        }
    }
}

/// A field's text that the form refused: the field, the text as read, and the runtime's
/// typed error.
///
/// ```
/// use snowflake_kit::{Field, SystemClock};
/// use snowflake_page::form::{Spaces, compose_form};
///
/// let form = [("dc".to_owned(), "32".to_owned())];
/// let refused = compose_form(&form, Spaces::Kept, &SystemClock).unwrap_err();
/// assert_eq!(refused[0].field, Field::Datacenter);
/// assert_eq!(refused[0].text, "32");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused {
    /// The field.
    pub field: Field,
    /// Its text, as read (trimmed or not, as [`Spaces`] says).
    pub text: String,
    /// What is wrong with it, from [`Field::parse`].
    pub error: ParseFieldError,
}

impl Refused {
    /// The runtime's English, with the text quoted, as the API and the logs say it.
    ///
    /// ```
    /// use snowflake_kit::SystemClock;
    /// use snowflake_page::form::{Spaces, compose_form};
    ///
    /// let form = [("dc".to_owned(), "32".to_owned())];
    /// let refused = compose_form(&form, Spaces::Kept, &SystemClock).unwrap_err();
    /// assert_eq!(refused[0].message(), "datacenter 32 is out of range 0..=31 (5 bits)");
    /// ```
    pub fn message(&self) -> String {
        self.error.with_input(&self.text).to_string()
    }
}

/// The four form fields, a query's pairs (of a key given twice, the last: [`value`]) -> an
/// ID, or every field's error. A field left out or blank
/// is: now for `ts` (by `clock`), 0 for `seq`, an error for `dc` and `machine`.
///
/// # Errors
///
/// Every field's [`Refused`], in the order of [`Field::ALL`].
///
/// ```
/// use snowflake_kit::SystemClock;
/// use snowflake_page::form::{Spaces, compose_form};
///
/// let form = [("ts", "1288834975657"), ("dc", "1"), ("machine", "1")]
///     .map(|(k, v)| (k.to_owned(), v.to_owned()));
/// assert_eq!(compose_form(&form, Spaces::Kept, &SystemClock).unwrap().as_u64(), 4_194_439_168);
/// ```
pub fn compose_form(
    params: &[(String, String)],
    spaces: Spaces,
    clock: &impl Clock,
) -> Result<Snowflake, Vec<Refused>> {
    let mut values = [0; 4];
    let mut errors = Vec::new();
    for field in Field::ALL {
        let text = value(params, field.key()).map_or("", |text| spaces.apply(text));
        let value = match (field, text) {
            (Field::Timestamp, "") => Ok(clock.now_ms()),
            (Field::Sequence, "") => Ok(0),
            _ => field.parse(text).map_err(|error| Refused {
                field,
                text: text.to_owned(),
                error,
            }),
        };
        match value {
            Ok(value) => values[field as usize] = value,
            Err(e) => errors.push(e),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let [ts, dc, machine, seq] = values;
    // Every field was checked against its range: the one error left is the clock's, for a
    // blank timestamp.
    snowflake_kit::compose(ts, dc, machine, seq).map_err(|e| {
        vec![Refused {
            field: e.field(),
            text: ts.to_string(),
            error: ParseFieldError::OutOfRange(e),
        }]
    })
}

/// The value of `key` in a query's pairs: of a key given twice, the last, as a query read
/// into a map keeps it.
///
/// ```
/// let query = [("dc", "1"), ("dc", "2")].map(|(k, v)| (k.to_owned(), v.to_owned()));
/// assert_eq!(snowflake_page::form::value(&query, "dc"), Some("2"));
/// assert_eq!(snowflake_page::form::value(&query, "seq"), None);
/// ```
pub fn value<'a>(params: &'a [(String, String)], key: &str) -> Option<&'a str> {
    params
        .iter()
        .rev()
        .find_map(|(k, v)| (k == key).then_some(v.as_str()))
}

/// An ID as typed: decimal digits, or what is wrong with it.
///
/// # Errors
///
/// The runtime's [`ParseSnowflakeError`].
///
/// ```
/// use snowflake_page::form::{Spaces, decode_text};
///
/// assert_eq!(decode_text("4194439168", Spaces::Kept).unwrap().datacenter(), 1);
/// ```
pub fn decode_text(text: &str, spaces: Spaces) -> Result<Snowflake, ParseSnowflakeError> {
    spaces.apply(text).parse()
}

//! The form's rules, shared by the page and the server's `/v1/compose`: text typed by a
//! person -> an ID, or every field's error. The rules are the runtime's ([`Field::parse`]),
//! and so are the errors, kept typed: the API writes them in the runtime's English
//! ([`Refused::message`]), the page in the reader's language. The form adds only what a
//! blank field means, whether spaces around a value are dropped ([`Spaces`]), and, on the
//! page, numbers as the page's language writes them (`4.095` in Indonesian).

use std::borrow::Cow;

use snowflake_kit::input::{NumberError, ParseFieldError};
use snowflake_kit::{Clock, Field, ParseSnowflakeError, Snowflake};

use crate::lang::Lang;

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
    /// Its text, as typed (trimmed or not, as [`Spaces`] says).
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
    compose(params, spaces, None, clock)
}

/// [`compose_form`] as the page reads its form: spaces dropped, and numbers read as `lang`
/// writes them ([`Lang::unmark`]) before the runtime judges them. A number whose group
/// marks are out of place is refused as not digits, with the text as typed.
pub(crate) fn compose_typed(
    params: &[(String, String)],
    lang: Lang,
    clock: &impl Clock,
) -> Result<Snowflake, Vec<Refused>> {
    compose(params, Spaces::Trimmed, Some(lang), clock)
}

fn compose(
    params: &[(String, String)],
    spaces: Spaces,
    lang: Option<Lang>,
    clock: &impl Clock,
) -> Result<Snowflake, Vec<Refused>> {
    let mut values = [0; 4];
    let mut errors = Vec::new();
    for field in Field::ALL {
        let text = value(params, field.key()).map_or("", |text| spaces.apply(text));
        let value = match (field, text) {
            (Field::Timestamp, "") => Ok(clock.now_ms()),
            (Field::Sequence, "") => Ok(0),
            _ => read(field, text, lang).map_err(|error| Refused {
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

/// `field`'s value in `text`: read by the runtime ([`Field::parse`]), after the page has
/// read a number as `lang` writes it ([`Lang::unmark`]), if it is given one.
pub(crate) fn read(field: Field, text: &str, lang: Option<Lang>) -> Result<u64, ParseFieldError> {
    let number = lang.map_or(Ok(Cow::Borrowed(text)), |lang| lang.unmark(text));
    // Marks out of place are not digits, as the runtime says of `1_000`; the page's
    // message says where the marks go.
    let number = number.map_err(|_| ParseFieldError::Number {
        field,
        error: NumberError::NotDigits,
    })?;
    field.parse(&number)
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

/// An ID as typed: decimal digits or base32 (13 characters, after a typed ID's prefix if
/// any), as the runtime's [`Snowflake::read_decimal_or_base32`] reads them; or what is
/// wrong with it.
///
/// # Errors
///
/// The runtime's [`ParseSnowflakeError`].
///
/// ```
/// use snowflake_page::form::{Spaces, decode_text};
///
/// assert_eq!(decode_text("4194439168", Spaces::Kept).unwrap().datacenter(), 1);
/// assert_eq!(decode_text("0000003X04400", Spaces::Kept).unwrap().as_u64(), 4_194_439_168);
/// ```
pub fn decode_text(text: &str, spaces: Spaces) -> Result<Snowflake, ParseSnowflakeError> {
    Snowflake::read_decimal_or_base32(spaces.apply(text))
}

#[cfg(test)]
mod tests {
    use snowflake_kit::input::{NumberError, ParseFieldError};
    use snowflake_kit::{Field, FieldRangeError, SystemClock};

    use super::{Spaces, compose_form, compose_typed, read};
    use crate::lang::Lang;

    /// The page's reading of `text` in `field`, in `lang`.
    fn page(lang: Lang, field: Field, text: &str) -> Result<u64, ParseFieldError> {
        read(field, text, Some(lang))
    }

    fn number_error(field: Field, error: NumberError) -> Result<u64, ParseFieldError> {
        Err(ParseFieldError::Number { field, error })
    }

    #[test]
    fn each_language_reads_its_numbers_up_to_each_end_of_a_range() {
        use FieldRangeError::{SequenceOutOfRange, TimestampAfterMax, TimestampBeforeEpoch};

        let out = |e| Err(ParseFieldError::OutOfRange(e));
        for (lang, mark) in [(Lang::Id, '.'), (Lang::He, ','), (Lang::En, ',')] {
            let g = |text: &str| text.replace('_', &mark.to_string());
            for (field, text, want) in [
                (Field::Sequence, "4_095", Ok(4095)),
                (Field::Sequence, "4_096", out(SequenceOutOfRange(4096))),
                (Field::Sequence, "1_000", Ok(1000)),
                (Field::Sequence, "999", Ok(999)),
                (Field::Datacenter, "31", Ok(31)),
                (Field::Timestamp, "1_288_834_974_657", Ok(1_288_834_974_657)),
                (
                    Field::Timestamp,
                    "1_288_834_974_656",
                    out(TimestampBeforeEpoch(1_288_834_974_656)),
                ),
                (Field::Timestamp, "3_487_858_230_208", Ok(3_487_858_230_208)),
                (
                    Field::Timestamp,
                    "3_487_858_230_209",
                    out(TimestampAfterMax(3_487_858_230_209)),
                ),
                // Plain digits, everywhere.
                (Field::Sequence, "4095", Ok(4095)),
                (Field::Timestamp, "1288834975657", Ok(1_288_834_975_657)),
                // Signs and sizes as the runtime words them, for grouped digits too.
                (
                    Field::Sequence,
                    "-4_095",
                    number_error(Field::Sequence, NumberError::Negative),
                ),
                (
                    Field::Sequence,
                    "+4_095",
                    number_error(Field::Sequence, NumberError::Plus),
                ),
                (
                    Field::Sequence,
                    "18_446_744_073_709_551_616",
                    number_error(Field::Sequence, NumberError::TooLarge),
                ),
                // Marks out of place.
                (
                    Field::Sequence,
                    "40_95",
                    number_error(Field::Sequence, NumberError::NotDigits),
                ),
                (
                    Field::Sequence,
                    "4_0950",
                    number_error(Field::Sequence, NumberError::NotDigits),
                ),
                (
                    Field::Sequence,
                    "_095",
                    number_error(Field::Sequence, NumberError::NotDigits),
                ),
            ] {
                assert_eq!(page(lang, field, &g(text)), want, "{lang:?} {}", g(text));
            }
        }
    }

    #[test]
    fn a_decimal_mark_is_a_fraction_never_a_group_mark() {
        let fraction = number_error(Field::Sequence, NumberError::Fraction);
        for (lang, text) in [
            (Lang::En, "4.095"),
            (Lang::He, "4.095"),
            (Lang::En, "1,000.5"),
            (Lang::Id, "4,095"),
            (Lang::Id, "1.000,5"),
            (Lang::Id, "1,288,834,975,657"),
        ] {
            assert_eq!(
                page(lang, Field::Sequence, text),
                fraction,
                "{lang:?} {text}"
            );
        }
        // The other language's group mark, out of place in this one's.
        let misgrouped = number_error(Field::Sequence, NumberError::NotDigits);
        assert_eq!(page(Lang::Id, Field::Sequence, "1.5"), misgrouped);
        assert_eq!(page(Lang::En, Field::Sequence, "1,5"), misgrouped);
    }

    #[test]
    fn the_page_keeps_what_was_typed_and_the_api_takes_digits_only() {
        let form = [
            ("ts", "1.288.834.975.657"),
            ("dc", "1"),
            ("machine", "4.095"),
        ]
        .map(|(k, v)| (k.to_owned(), format!(" {v} ")));
        let refused = compose_typed(&form, Lang::Id, &SystemClock).unwrap_err();
        assert_eq!(refused.len(), 1);
        assert_eq!(
            (refused[0].field, &*refused[0].text),
            (Field::Machine, "4.095")
        );
        assert_eq!(
            refused[0].error,
            ParseFieldError::OutOfRange(FieldRangeError::MachineOutOfRange(4095))
        );
        let form = [("ts", "1.288.834.975.657"), ("dc", "1"), ("machine", "1")]
            .map(|(k, v)| (k.to_owned(), v.to_owned()));
        let id = compose_typed(&form, Lang::Id, &SystemClock).unwrap();
        assert_eq!(id.as_u64(), 4_194_439_168);
        // On the English page, Indonesian's group marks are decimal points.
        assert_eq!(
            page(Lang::En, Field::Timestamp, "1.288.834.975.657"),
            number_error(Field::Timestamp, NumberError::Fraction)
        );
        // The API has no language: a mark is not a digit there, nor is `.` a group mark.
        let refused = compose_form(&form, Spaces::Kept, &SystemClock).unwrap_err();
        assert_eq!(refused[0].field, Field::Timestamp);
        let form = [
            ("ts", "1288834975657"),
            ("dc", "1"),
            ("machine", "1"),
            ("seq", "4,095"),
        ]
        .map(|(k, v)| (k.to_owned(), v.to_owned()));
        let refused = compose_form(&form, Spaces::Kept, &SystemClock).unwrap_err();
        assert_eq!(refused[0].field, Field::Sequence);
    }
}

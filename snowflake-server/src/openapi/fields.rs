//! How the contract (`GET /v1/openapi.json`) describes an ID's fields, for the handlers
//! and answers that carry them (`api.rs`, `api/identity.rs`): every range is the runtime's
//! ([`Field::min`], [`Field::max`], [`Snowflake::MAX`]), none is written here, and each of
//! `/v1/compose`'s fields is described as the form reads it (`form.rs`): `ts` as
//! [`Field::Timestamp`]'s `parse` reads it, Unix ms or an RFC 3339 date, or blank.

use std::collections::BTreeMap;

use snowflake_kit::layout::{MAX_TIMESTAMP_RFC3339, TWITTER_EPOCH_RFC3339};
use snowflake_kit::{Field, Snowflake};
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{
    KnownFormat, ObjectBuilder, OneOfBuilder, Schema, SchemaFormat, Type,
};
use utoipa::{PartialSchema, ToSchema};

/// An integer from `min` to `max`.
pub(crate) fn integer(min: u64, max: u64) -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(Type::Integer)
        .minimum(Some(min))
        .maximum(Some(max))
}

/// An integer in `field`'s range.
fn in_range(field: Field) -> ObjectBuilder {
    integer(field.min(), field.max())
}

/// A timestamp, Unix ms in the format's range (for `schema_with`).
pub(crate) fn timestamp_ms() -> ObjectBuilder {
    in_range(Field::Timestamp)
}

/// A datacenter id (for `schema_with`).
pub(crate) fn datacenter() -> ObjectBuilder {
    in_range(Field::Datacenter)
}

/// A machine id (for `schema_with`).
pub(crate) fn machine() -> ObjectBuilder {
    in_range(Field::Machine)
}

/// A sequence number (for `schema_with`).
pub(crate) fn sequence() -> ObjectBuilder {
    in_range(Field::Sequence)
}

/// The empty text a form sends for a field left blank, and what the form reads it as.
fn blank(means: &str) -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .max_length(Some(0))
        .description(Some(format!("blank: {means}")))
}

/// `ts` in `/v1/compose`'s query: Unix ms in the format's range, an RFC 3339 date in it,
/// or blank (now).
pub(crate) struct TsQuery;

impl PartialSchema for TsQuery {
    fn schema() -> RefOr<Schema> {
        let dates = Dates::inside();
        OneOfBuilder::new()
            .item(in_range(Field::Timestamp).description(Some("Unix ms")))
            .item(
                ObjectBuilder::new()
                    .schema_type(Type::String)
                    .pattern(Some(dates.pattern()))
                    .description(Some(dates.description())),
            )
            .item(blank("now"))
            .into()
    }
}

impl ToSchema for TsQuery {}

/// `dc` in `/v1/compose`'s query: a datacenter id; there is no default.
pub(crate) struct DcQuery;

impl PartialSchema for DcQuery {
    fn schema() -> RefOr<Schema> {
        datacenter().into()
    }
}

impl ToSchema for DcQuery {}

/// `machine` in `/v1/compose`'s query: a machine id; there is no default.
pub(crate) struct MachineQuery;

impl PartialSchema for MachineQuery {
    fn schema() -> RefOr<Schema> {
        machine().into()
    }
}

impl ToSchema for MachineQuery {}

/// `seq` in `/v1/compose`'s query: a sequence number, or blank (0).
pub(crate) struct SeqQuery;

impl PartialSchema for SeqQuery {
    fn schema() -> RefOr<Schema> {
        OneOfBuilder::new().item(sequence()).item(blank("0")).into()
    }
}

impl ToSchema for SeqQuery {}

/// An ID in a path: decimal digits, from [`Snowflake::MIN`] to [`Snowflake::MAX`].
pub(crate) struct IdPath;

impl PartialSchema for IdPath {
    fn schema() -> RefOr<Schema> {
        integer(Snowflake::MIN.as_u64(), Snowflake::MAX.as_u64())
            .format(Some(SchemaFormat::KnownFormat(KnownFormat::Int64)))
            .into()
    }
}

impl ToSchema for IdPath {}

/// A time of day and its offset, as the runtime's RFC 3339 reader takes them: `T`, `t` or
/// a space before it; no leap second; a fraction whose digits past the third are zeros
/// (whole milliseconds); `Z`, `z` or an offset up to `±23:59`.
const TIME: &str = r"[Tt ](?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\.[0-9]{1,3}0*)?(?:[Zz]|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])";

/// The first and the last instant a date names, whatever its offset: its first
/// millisecond furthest east, its last furthest west.
const ENDS_OF_A_DAY: [&str; 2] = ["T00:00:00+23:59", "T23:59:59.999-23:59"];

/// A year's months that have days inside, by their first and last day inside.
type Months = BTreeMap<(u32, u32), Vec<u32>>;

/// The dates (`YYYY-MM-DD`) every time of which, in every offset, is a timestamp of the
/// format: all but the few days around the ends of its range, where it ends within a day.
/// They are found by the runtime's own reader, which also says which days exist.
struct Dates {
    /// The years, those alike together: whole years of 365 days share one entry, whole
    /// leap years another.
    years: Vec<(Vec<u32>, Months)>,
    /// The first date and the last.
    ends: [String; 2],
}

impl Dates {
    fn inside() -> Dates {
        let year_of = |date: &str| -> u32 {
            date.get(..4)
                .and_then(|year| year.parse().ok())
                .unwrap_or_default()
        };
        let date = |year: u32, month: u32, day: u32| format!("{year:04}-{month:02}-{day:02}");
        let mut years: Vec<(Vec<u32>, Months)> = Vec::new();
        // Chronological order: the first day found is the first, the last is the last.
        let (mut first_day, mut last_day) = (None, String::new());
        for year in year_of(TWITTER_EPOCH_RFC3339)..=year_of(MAX_TIMESTAMP_RFC3339) {
            let mut months = Months::new();
            for month in 1..=12 {
                // The range is one stretch of time: the days inside a month are one too.
                let mut days = (1..=31).filter(|&day| {
                    let day = date(year, month, day);
                    ENDS_OF_A_DAY
                        .iter()
                        .all(|end| Field::Timestamp.parse(&format!("{day}{end}")).is_ok())
                });
                if let Some(first) = days.next() {
                    let last = days.next_back().unwrap_or(first);
                    months.entry((first, last)).or_default().push(month);
                    first_day.get_or_insert_with(|| date(year, month, first));
                    last_day = date(year, month, last);
                }
            }
            if months.is_empty() {
                continue;
            }
            match years.iter_mut().find(|(_, alike)| *alike == months) {
                Some((same, _)) => same.push(year),
                None => years.push((vec![year], months)),
            }
        }
        Dates {
            years,
            ends: [first_day.unwrap_or_default(), last_day],
        }
    }

    /// The dates and times the pattern holds, anchored at both ends.
    fn pattern(&self) -> String {
        let years = self.years.iter().map(|(years, months)| {
            let months = months.iter().map(|(&(first, last), months)| {
                let names = months.iter().map(|month| format!("{month:02}"));
                format!("{}-{}", either(names), two_digits(first, last))
            });
            let names = years.iter().map(|year| format!("{year:04}"));
            format!("{}-{}", either(names), either(months))
        });
        format!("^{}{TIME}$", either(years))
    }

    /// What the pattern holds, and what is read besides it.
    fn description(&self) -> String {
        let [first, last] = &self.ends;
        format!(
            "RFC 3339 text from {TWITTER_EPOCH_RFC3339} to {MAX_TIMESTAMP_RFC3339}, in whole \
             milliseconds (fraction digits past the third are 0): `T`, `t` or a space before \
             the time, `Z`, `z` or an offset after it. The pattern holds the days that lie \
             in that range in every offset, {first} to {last}; on the days around the ends, \
             the times in the range are read too"
        )
    }
}

/// One of `items`, as a pattern (none of which has a `|` outside a group).
fn either(items: impl IntoIterator<Item = String>) -> String {
    let items: Vec<String> = items.into_iter().collect();
    match items.as_slice() {
        [one] => one.clone(),
        _ => format!("(?:{})", items.join("|")),
    }
}

/// The two-digit numbers from `first` to `last`, as a pattern.
fn two_digits(first: u32, last: u32) -> String {
    either((first / 10..=last / 10).map(|tens| {
        let low = if tens == first / 10 { first % 10 } else { 0 };
        let high = if tens == last / 10 { last % 10 } else { 9 };
        if low == high {
            format!("{tens}{low}")
        } else {
            format!("{tens}[{low}-{high}]")
        }
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_digits_are_ranges_of_the_ones_by_the_tens() {
        assert_eq!(two_digits(1, 31), "(?:0[1-9]|1[0-9]|2[0-9]|3[0-1])");
        assert_eq!(two_digits(6, 30), "(?:0[6-9]|1[0-9]|2[0-9]|30)");
        assert_eq!(two_digits(1, 8), "0[1-8]");
    }

    /// The pattern holds the days inside the range in every offset, and stops where a
    /// day's first or last instant in some offset is outside it.
    #[test]
    fn the_dates_stop_where_a_day_leaves_the_range() {
        let dates = Dates::inside();
        let [first, last] = &dates.ends;
        assert_eq!(
            (first.as_str(), last.as_str()),
            ("2010-11-06", "2080-07-08")
        );
        let parse = |text: &str| Field::Timestamp.parse(text).is_ok();
        assert!(parse("2010-11-06T00:00:00+23:59"));
        assert!(!parse("2010-11-05T00:00:00+23:59"));
        assert!(parse("2080-07-08T23:59:59.999-23:59"));
        assert!(!parse("2080-07-09T23:59:59.999-23:59"));
        // Whole years: those of 365 days, those of 366, and the two ends.
        assert_eq!(dates.years.len(), 4, "{:?}", dates.years);
        let leap = |year| {
            dates.years.iter().any(|(years, months)| {
                years.contains(&year) && months.get(&(1, 29)).is_some_and(|m| m.contains(&2))
            })
        };
        assert!(leap(2012) && leap(2080) && !leap(2011) && !leap(2079));
        let pattern = dates.pattern();
        assert!(pattern.starts_with("^(?:2010-(?:"), "{pattern}");
        assert!(pattern.ends_with(&format!("{TIME}$")), "{pattern}");
    }
}

//! How the contract (`GET /v1/openapi.json`) describes an ID's fields, for the handlers
//! and answers that carry them (`api.rs`, `api/identity.rs`): every range is the runtime's
//! ([`Field::min`], [`Field::max`], [`Snowflake::MAX`]), none is written here, and each of
//! `/v1/compose`'s fields is described as the form reads it (`form.rs`): `ts` as
//! [`Field::Timestamp`]'s `parse` reads it, Unix ms or an RFC 3339 date, or blank.

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

/// A type that stands for a value in the contract, described by `$schema`.
macro_rules! described {
    ($(#[$doc:meta])* $name:ident = $schema:expr) => {
        $(#[$doc])*
        pub(crate) struct $name;

        impl PartialSchema for $name {
            fn schema() -> RefOr<Schema> {
                $schema.into()
            }
        }

        impl ToSchema for $name {}
    };
}
pub(crate) use described;

described! {
    /// `ts` in `/v1/compose`'s query: Unix ms in the format's range, an RFC 3339 date in it,
    /// or blank (now).
    TsQuery = OneOfBuilder::new()
        .item(in_range(Field::Timestamp).description(Some("Unix ms")))
        .item(
            ObjectBuilder::new()
                .schema_type(Type::String)
                .pattern(Some(DATE_PATTERN))
                .description(Some(date_words())),
        )
        .item(blank("now"))
}

described! {
    /// `dc` in `/v1/compose`'s query: a datacenter id; there is no default.
    DcQuery = datacenter()
}

described! {
    /// `machine` in `/v1/compose`'s query: a machine id; there is no default.
    MachineQuery = machine()
}

described! {
    /// `seq` in `/v1/compose`'s query: a sequence number, or blank (0).
    SeqQuery = OneOfBuilder::new().item(sequence()).item(blank("0"))
}

described! {
    /// An ID in a path: decimal digits, from [`Snowflake::MIN`] to [`Snowflake::MAX`], or 13
    /// characters of base32 (either case, Crockford's `O`, `I` and `L` too), after a typed
    /// ID's prefix and `_` if any.
    IdPath = OneOfBuilder::new()
        .item(
            integer(Snowflake::MIN.as_u64(), Snowflake::MAX.as_u64())
                .format(Some(SchemaFormat::KnownFormat(KnownFormat::Int64))),
        )
        .item(
            ObjectBuilder::new()
                .schema_type(Type::String)
                .pattern(Some("^(?:[a-z][a-z0-9]*_)?[0-7OoIiLl][0-9A-HJ-NP-TV-Za-hj-np-tv-z]{12}$")),
        )
}

/// RFC 3339 text as the runtime's reader takes it, for the days that lie inside the
/// format's range in every offset (2010-11-06 to 2080-07-08: the epoch's day and the last
/// one end within a day of it), so that every text it holds is read: a client that sends
/// what the document allows is never refused. The calendar by its grammar: a month's days,
/// and February's 29th in the years divisible by 4 (2000 and 2100, the exceptions, are
/// outside). Then `T`, `t` or a space, a time with no leap second, a fraction whose digits
/// past the third are zeros (whole milliseconds), `Z`, `z` or an offset up to `±23:59`.
const DATE_PATTERN: &str = concat!(
    "^(?:",
    // The first days, in November and December 2010.
    "2010-(?:11-(?:0[6-9]|[12][0-9]|30)|12-(?:0[1-9]|[12][0-9]|3[01]))",
    // The whole years between, and the 29th of February of their leap years.
    "|20(?:1[1-9]|[2-7][0-9])-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12][0-9]|3[01])",
    "|(?:0[469]|11)-(?:0[1-9]|[12][0-9]|30)|02-(?:0[1-9]|1[0-9]|2[0-8]))",
    "|20(?:1[26]|[246][048]|[357][26])-02-29",
    // The last days, to the 8th of July 2080, a leap year.
    "|2080-(?:(?:0[135])-(?:0[1-9]|[12][0-9]|3[01])|(?:0[46])-(?:0[1-9]|[12][0-9]|30)",
    "|02-(?:0[1-9]|[12][0-9])|07-0[1-8])",
    ")",
    r"[Tt ](?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\.[0-9]{1,3}0*)?",
    r"(?:[Zz]|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])$",
);

/// What [`DATE_PATTERN`] leaves to words: the range, the precision, and the days at its ends.
fn date_words() -> String {
    format!(
        "RFC 3339 text from {TWITTER_EPOCH_RFC3339} to {MAX_TIMESTAMP_RFC3339}, in whole \
         milliseconds (fraction digits past the third are 0): `T`, `t` or a space before the \
         time, `Z`, `z` or an offset after it. The pattern holds the days that lie in that \
         range in every offset, 2010-11-06 to 2080-07-08; on the days around the ends, the \
         times in the range are read too"
    )
}

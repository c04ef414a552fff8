//! Twitter-layout Snowflake IDs: literals checked at compile time; IDs composed,
//! decoded and generated at run time, with one definition of the format for both.
//!
//! ```
//! use snowflake_kit::{compose, snowflake, Generator, Identity, Snowflake};
//!
//! // Compile time: checked when it builds, a constant at run time.
//! const WELCOME: u64 = snowflake!(ts = 1288834975657, dc = 1, machine = 1, seq = 0).id;
//! const BITS: &str = snowflake!(ts = "2010-11-04T01:42:55.657Z", dc = 1, machine = 1).binary;
//! assert_eq!(WELCOME, 4194439168);
//! assert_eq!(BITS, "0 00000000000000000000000000000001111101000 00001 00001 000000000000");
//!
//! // Run time, the same format: compose, decode, parse.
//! let id = compose(1_288_834_975_657, 1, 1, 0)?;
//! assert_eq!(id.as_u64(), WELCOME);
//! let tweet: Snowflake = "1541815603606036480".parse()?;
//! assert_eq!(tweet.rfc3339().to_string(), "2022-06-28T16:07:40.105Z");
//! assert_eq!((tweet.datacenter(), tweet.machine(), tweet.sequence()), (11, 26, 0));
//!
//! // Live IDs, from any number of threads.
//! static IDS: Generator = match Identity::new(1, 1) {
//!     Ok(identity) => Generator::new(identity),
//!     Err(_) => panic!("datacenter and machine are 0..=31"),
//! };
//! assert!(IDS.next_id() < IDS.next_id());
//! # Ok::<(), Box<dyn core::error::Error>>(())
//! ```
//!
//! # Where to start
//!
//! - **A literal in the source**, checked when it builds: [`snowflake!`]; end it with
//!   `.snowflake()` for a [`Snowflake`] constant. A value out of range is a compile error
//!   under that very token, saying what is allowed.
//! - **An ID from run-time values**: [`compose`], which checks every field and never
//!   truncates; back into fields with [`Snowflake::parts`] or the getters.
//! - **An ID from text or a number**: [`Snowflake`]'s `FromStr` (decimal digits),
//!   [`Snowflake::from_base32`] (13 characters, sorted as the IDs; [`Snowflake::to_base32`]
//!   writes them), `TryFrom<u64>`, [`Snowflake::try_from_i64`] (a BIGINT); dates by
//!   [`rfc3339::parse_rfc3339`].
//! - **Live IDs**: [`Generator`], up to 4,096 a millisecond per identity, lock-free, never a
//!   duplicate or a decreasing ID whatever the clock does; [`Generator::next_id_async`] in
//!   async code (feature `tokio`). A fleet leases its identities with `snowflake-lease`.
//! - **In a database or in JSON**: the features below; [`Snowflake::issued_in`] for the
//!   IDs of a time range, `serde::as_string` (feature `serde`) for JavaScript.
//! - **What went wrong**: every error names the field, the value and what is allowed:
//!   [`FieldRangeError`], [`ParseSnowflakeError`], [`IdRangeError`],
//!   [`input::ParseFieldError`], [`GenerateError`].
//!
//! The modules hold the rest, each for one job: [`layout`], the epoch, the fields' widths,
//! positions and largest values, the segments as data, and an ID written out by them or
//! in base32;
//! [`rfc3339`], the one RFC 3339 reader and writer; [`input`], the parts of
//! [`Field::parse`]'s answers that a front end reading text typed by a person shows;
//! [`sql`], the format as SQL functions; `serde` (feature `serde`), IDs as JSON strings of
//! decimal digits or base32; and [`fence`], the generator that the holder of a leased identity runs, with a
//! ceiling, a floor and a halt (`snowflake-lease`): a plain [`Generator`] has none of them.
//! Items hidden from these docs are internal to the workspace and may change in any release.
//!
//! # The format
//!
//! An ID is a [`Snowflake`], a `u64` of five fields: a sign bit, always 0; milliseconds
//! since [`layout::TWITTER_EPOCH_MS`] (2010-11-04T01:42:54.657Z), up to
//! [`layout::MAX_TIMESTAMP_MS`] (2080-07-10T17:30:30.208Z); datacenter; machine; sequence ([the bit
//! layout](Snowflake#the-bit-layout)). Its [segmented binary](Snowflake::segmented_binary)
//! is the 64 bits split by spaces into these five fields, the same at compile time and at
//! run time.
//!
//! This is Twitter's layout, and the only one this crate reads. IDs of other layouts
//! decode here to wrong times and fields: Discord's count from 2015-01-01, Instagram's and
//! Sonyflake's split their bits otherwise; Discord's example ID `175928847299117063` reads
//! here as 2012-03-03, not its real 2016-04-30.
//!
//! # Features
//!
//! `macros` ([`snowflake!`]) and `std` ([`Generator`], [`SystemClock`],
//! [`Snowflake::system_time`]) by default; without `std` the crate is `no_std` and
//! allocation-free. The optional features (serde, tokio, the SQL crates, the schema and
//! GraphQL crates, arbitrary), each with the version of the crate it is for and the Rust it
//! needs, are in [the README's table](https://github.com/snowflake-kit/snowflake-kit#features).
#![no_std]
#![deny(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

// Each item by name, reviewed one by one: what the runtime makes public next is not
// this crate's API until it is listed here.
#[cfg(feature = "serde")]
#[doc(inline)]
pub use snowflake_runtime::serde;
#[doc(inline)]
pub use snowflake_runtime::{
    BakedSnowflake, Field, FieldRangeError, GenerateError, IdRangeError, Identity,
    ParseSnowflakeError, Snowflake, compose, input, layout, rfc3339, sql,
};
#[cfg(feature = "std")]
#[doc(inline)]
pub use snowflake_runtime::{Clock, Generator, SystemClock, fence};

/// Typed IDs: an [`Id<K>`](typed::Id) per kind of thing (users, orders), so that a user's
/// ID is never taken for an order's.
///
/// ```
/// use snowflake_kit::typed::{Id, kind};
/// use snowflake_kit::{Generator, Identity, snowflake};
///
/// // The markers in a module of their own: `User` stays free for your own type.
/// pub mod kinds {
///     snowflake_kit::typed::kind!(
///         /// A user of the shop; "user": the prefix of a user's ID in text.
///         pub User, "user"
///     );
///     snowflake_kit::typed::kind!(pub Order, "order");
/// }
/// use kinds::{Order, User};
///
/// pub struct UserRow {
///     pub id: Id<User>,
/// }
///
/// let ids = Generator::new(Identity::new(1, 1)?);
/// let user: Id<User> = ids.next_id_of(); // issue
/// const ADMIN: Id<User> = snowflake!(id = "user_1ASD13XH1F800").typed(); // bake, or paste
/// let row = UserRow { id: ADMIN };
/// assert_eq!(row.id.to_base32().to_string(), "user_1ASD13XH1F800"); // text
/// assert_eq!(Id::<User>::from_base32("user_1asd13xh1f800")?, ADMIN);
/// assert_eq!(row.id.to_string(), "1541815603606036480"); // decimal, as `Snowflake`'s
/// assert!(Id::<Order>::from_base32("user_1ASD13XH1F800").is_err()); // another kind's
/// assert!(user > ADMIN && user.snowflake().machine() == 1); // the fields: by name
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Five names
///
/// The common work needs five: [`kind!`](typed::kind) declares a kind (a marker type that
/// no value has, with the prefix of its IDs in text if it has one); [`Id`](typed::Id) is an
/// ID of a kind; [`Generator::next_id_of`] issues one; [`BakedSnowflake::typed`] bakes one
/// (`snowflake!(..).typed()`); and `Id`'s [`to_base32`](typed::Id::to_base32) and
/// [`from_base32`](typed::Id::from_base32) write and read the short text, its `Display`
/// and `FromStr` the decimal. Storing needs no name: with the features on, an `Id<K>` is
/// written and read as a `Snowflake` is (serde: a number, or with `serde::as_string` and
/// `serde::as_base32`; sqlx, postgres-types, diesel, SeaORM: a BIGINT; arbitrary), and
/// utoipa, schemars and async-graphql describe each kind under its own name (`UserId`, a
/// scalar of its own in GraphQL). The rest is for code generic over kinds:
/// [`Kind`](typed::Kind), sealed (only `kind!` declares one), and
/// [`AnyId`](typed::AnyId), a `Snowflake` or any `Id`: the bound of the serde helpers,
/// with nothing to call.
///
/// One generic type with a marker per kind, as twilight's `Id<Marker>` and Oxide's
/// `TypedUuid<T>` are: every trait and integration is written once, here, for every kind,
/// and a kind costs its user one line. In memory an `Id<K>` is its `Snowflake`, a `u64`
/// (`repr(transparent)`). It has no `Deref` to the `Snowflake`: the fields are read
/// through [`snowflake`](typed::Id::snowflake), said by name, so that no `&Snowflake`
/// parameter takes a user's ID unnoticed.
///
/// # Prefixes
///
/// A prefix is 1 to 16 of `a-z`, `0-9` and `_`, starting with a letter and not ending with
/// `_` ([`typed::PREFIX_RULE`]): `user`, `order_item`, `v2`. In text it comes before the ID's
/// 13 characters of base32 and a `_` (`user_1ASD13XH1F800`), as TypeID writes them, and a
/// kind reads only its own. Anything else fails where the kind is declared.
///
/// An `Id<Order>` where an `Id<User>` is expected does not compile, nor does comparing them:
///
/// ```compile_fail
/// use snowflake_kit::typed::{Id, kind};
///
/// kind!(pub User);
/// kind!(pub Order);
///
/// fn greet(_: Id<User>) {}
/// let order: Id<Order> = Id::from_snowflake(snowflake_kit::Snowflake::MIN);
/// greet(order);
/// ```
pub mod typed {
    #[doc(inline)]
    pub use snowflake_runtime::typed::{AnyId, Id, Kind, PREFIX_RULE, kind};
}

/// Builds a Snowflake ID from literal parts at compile time.
///
/// A [`Snowflake`] constant, checked when it builds: end the call with `.snowflake()`.
///
/// ```
/// use snowflake_kit::{snowflake, Snowflake};
///
/// const TWEET: Snowflake = snowflake!(ts = "2022-06-28T16:07:40.105Z", dc = 11, machine = 26).snowflake();
/// assert_eq!(TWEET.to_string(), "1541815603606036480");
/// ```
///
/// The call itself is a [`BakedSnowflake`], `{ id: u64, binary: &'static str }`: the
/// number, its [segmented binary](Snowflake::segmented_binary) as text, and
/// [`.snowflake()`](BakedSnowflake::snowflake) for the typed ID (`.into()` gives it too,
/// but not in a `const`). Every form is usable in `const`, `static` and any expression.
///
/// ```
/// use snowflake_kit::snowflake;
///
/// const WELCOME: u64 = snowflake!(ts = 1288834975657, dc = 1, machine = 1, seq = 0).id;
/// const BITS: &str = snowflake!(ts = 1288834975657, dc = 1, machine = 1, seq = 0).binary;
/// assert_eq!(WELCOME, 4_194_439_168);
/// assert_eq!(BITS, "0 00000000000000000000000000000001111101000 00001 00001 000000000000");
/// ```
///
/// The ID is computed by the same [`compose`] that serves run-time values.
///
/// # Arguments
///
/// `key = value` pairs, in any order, each at most once, separated by commas:
///
/// | key | value | when left out |
/// | --- | --- | --- |
/// | `ts` | Unix time in ms, `1288834974657..=3487858230208`, or an RFC 3339 string (`Z` or an offset, at most millisecond precision) from `"2010-11-04T01:42:54.657Z"` to `"2080-07-10T17:30:30.208Z"` | the build time: `SOURCE_DATE_EPOCH` (seconds) when set, so that builds are reproducible, else the clock |
/// | `dc` | datacenter id, `0..=31` | required |
/// | `machine` | machine id, `0..=31` | required |
/// | `seq` | sequence number, `0..=4095` | `0` |
/// | `id` | a pasted ID, below: then every other key is optional, and held to it | |
///
/// # A pasted ID
///
/// `id = ...` instead reads an ID copied from elsewhere (a log, a URL, a database row), at
/// compile time, by the runtime's own readers: an integer literal as
/// [`Snowflake`]'s `FromStr` reads its digits (any base; no suffix, `u64` or `i64`), or a
/// string of 13 characters of base32 as [`Snowflake::from_base32`] reads it, after a
/// kind's prefix and `_` if it has one (then [`.typed()`](BakedSnowflake::typed) gives an
/// ID of that kind only). Any field stated beside it must be the ID's own, so that a
/// fixture says what it is and cannot lie; and an ID within a day of the epoch (more
/// likely a count from 1, such as a tweet's before 2010-11-04 or an auto-increment key:
/// [`Snowflake::is_near_epoch`]) needs the word `near_epoch`.
///
/// ```
/// use snowflake_kit::{snowflake, Snowflake};
///
/// const TWEET: Snowflake = snowflake!(
///     id = 1541815603606036480,
///     ts = "2022-06-28T16:07:40.105Z",
///     dc = 11,
///     machine = 26,
/// )
/// .snowflake();
/// assert_eq!(snowflake!(id = "1ASD13XH1F800").snowflake(), TWEET);
/// assert_eq!(snowflake!(id = 4194439168, near_epoch).id, 4_194_439_168);
/// ```
///
/// ```compile_fail
/// // error: `dc`: the ID's datacenter is 11, not 12
/// const WRONG: u64 = snowflake_kit::snowflake!(id = 1541815603606036480, dc = 12).id;
/// ```
///
/// An omitted `ts` is read when the calling crate compiles: the ID is then the build
/// time's, a new one with each build unless `SOURCE_DATE_EPOCH` is set, so a fixture
/// that a test compares gives its `ts`. Cargo recompiles the crate when
/// `SOURCE_DATE_EPOCH` changes; a build that does not recompile it, with the variable
/// unset, keeps the earlier time.
///
/// Integers may be written in any base, with `_` separators and an unsigned
/// integer suffix (`0x1F`, `0b1_1111`, `31u8`).
///
/// # Errors
///
/// Every mistake is a compile error under the token at fault, and all of an
/// invocation's mistakes are reported in one build: a value out of range (the
/// message names the field, the value and the range, and for timestamps the
/// dates), a negative number, a float or other literal, a name or expression
/// where a literal belongs, an unknown, repeated or missing key, a date that is
/// not RFC 3339 (read by [`rfc3339::parse_rfc3339`]), a leap second, or finer than a
/// millisecond. A slip of syntax (`dc: 1`, a missing comma) does not hide the
/// other mistakes, and an unknown key suggests the nearest one. The messages read
/// the same in every edition, 2015 to 2024.
///
/// ```compile_fail
/// // error: `dc`: datacenter 32 is out of range 0..=31 (5 bits)
/// const BAD: u64 = snowflake_kit::snowflake!(ts = 1288834975657, dc = 32, machine = 1).id;
/// ```
///
/// For values known only at run time, call [`compose`].
#[cfg(feature = "macros")]
#[macro_export]
macro_rules! snowflake {
    ($($args:tt)*) => {
        $crate::__private::snowflake_impl!([$crate] $($args)*)
    };
}

// What `snowflake!` expansions and the workspace's own crates (the `snowflake` command,
// `snowflake-server`) refer to. Not API; may change in any release.
#[doc(hidden)]
pub mod __private {
    #[cfg(feature = "macros")]
    pub use snowflake_macros::snowflake_impl;
    pub use snowflake_runtime::__private::*;
}

// The README's examples, every one as written there: it is this crate's front page, and
// shows this crate alone, with its default features.
#[cfg(all(doctest, feature = "macros", feature = "std"))]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

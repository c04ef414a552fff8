use core::cmp::Ordering;
use core::fmt;
use core::hash::{Hash, Hasher};

use crate::snowflake::{Parts, Snowflake};
use crate::typed::{Id, Kind};

/// An ID baked into the program by `snowflake!`: the number and its segmented binary text.
/// For a [`Snowflake`] constant, end the call with [`.snowflake()`](BakedSnowflake::snowflake):
///
/// ```
/// use snowflake_kit::{snowflake, Snowflake};
///
/// const WELCOME: Snowflake = snowflake!(ts = 1288834975657, dc = 1, machine = 1).snowflake();
/// assert_eq!(WELCOME.as_u64(), 4_194_439_168);
/// ```
///
/// Only the macro makes these, after checking every field, so `id` is a valid ID and
/// `binary` its [segmented binary](Snowflake::segmented_binary). Both fields are plain
/// constants:
///
/// ```
/// use snowflake_kit::{snowflake, BakedSnowflake};
///
/// const WELCOME: BakedSnowflake = snowflake!(ts = 1288834975657, dc = 1, machine = 1, seq = 0);
/// const ID: u64 = WELCOME.id;
/// static BITS: &str = WELCOME.binary;
///
/// assert_eq!(ID, 4_194_439_168);
/// assert_eq!(BITS, "0 00000000000000000000000000000001111101000 00001 00001 000000000000");
/// assert_eq!(WELCOME.snowflake().machine(), 1);
/// ```
///
/// It behaves as its ID does: it compares, sorts and hashes as the [`Snowflake`] it stands
/// for, compares with a `Snowflake` either way round, and prints as one (in decimal).
///
/// ```
/// use std::collections::HashSet;
/// use snowflake_kit::{compose, snowflake, BakedSnowflake};
///
/// const OLD: BakedSnowflake = snowflake!(ts = "2010-11-04T01:42:55.657Z", dc = 1, machine = 1);
/// const NEW: BakedSnowflake = snowflake!(ts = "2022-06-28T16:07:40.105Z", dc = 11, machine = 26);
///
/// let id = compose(1_288_834_975_657, 1, 1, 0)?;
/// assert!(id == OLD && OLD == id);
/// assert!(OLD < NEW && id < NEW);
/// let mut fixtures = vec![NEW, OLD];
/// fixtures.sort();
/// assert_eq!(fixtures, [OLD, NEW]);
/// assert_eq!(NEW.to_string(), "1541815603606036480");
/// // A set of IDs and a set of baked IDs agree: the two hash alike.
/// let seen: HashSet<_> = [id].into();
/// assert!(seen.contains(&OLD.snowflake()));
/// # Ok::<(), snowflake_kit::FieldRangeError>(())
/// ```
/// # Changed after the macro
///
/// The fields are public, so that a `const` can read them; a copy can be changed like any
/// value. Where it becomes a [`Snowflake`] ([`snowflake`](BakedSnowflake::snowflake),
/// [`parts`](BakedSnowflake::parts), `From`, `Display`) it is checked again: an `id` that
/// is no ID, or a `binary` that is not its `id`'s, stops the build in a `const` and panics
/// at run time, saying so. A panic, not a `Result`: such a value is a bug in the program
/// that changed it, never input, and the `const` uses would have to unwrap a `Result`
/// anyway.
///
/// ```should_panic
/// let mut welcome = snowflake_kit::snowflake!(ts = 1288834975657, dc = 1, machine = 1);
/// welcome.id = u64::MAX;
/// let _ = welcome.snowflake(); // panics: the `id` is no ID
/// ```
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct BakedSnowflake {
    /// The ID as a `u64`.
    pub id: u64,
    /// The ID in segmented binary: 68 characters, fields split by spaces.
    pub binary: &'static str,
    /// The kind's prefix of a pasted base32 text (`snowflake!(id = "user_...")`), which
    /// [`typed`](BakedSnowflake::typed) holds the kind to.
    prefix: Option<&'static str>,
}

impl BakedSnowflake {
    /// What `snowflake!` expands to (through `__private::baked`), after it has checked `id`
    /// and computed `binary`.
    pub(crate) const fn from_checked(
        id: u64,
        binary: &'static str,
        prefix: Option<&'static str>,
    ) -> BakedSnowflake {
        BakedSnowflake { id, binary, prefix }
    }

    /// The ID as a [`Snowflake`], checked: see [above](BakedSnowflake#changed-after-the-macro).
    ///
    /// ```
    /// const ID: snowflake_kit::Snowflake =
    ///     snowflake_kit::snowflake!(ts = 1288834975657, dc = 1, machine = 1).snowflake();
    /// assert_eq!(ID.as_u64(), 4_194_439_168);
    /// ```
    ///
    /// # Panics
    ///
    /// When `id` or `binary` was changed after `snowflake!` made the value, so that `id` is
    /// no ID or `binary` not its segmented binary (in a `const`, the build fails, at the
    /// call).
    // `track_caller`: the error is the caller's line, in a build as at run time, and rustc
    // quotes no source of the standard library beneath it (which it would where `rust-src`
    // is installed, and not elsewhere).
    #[track_caller]
    pub const fn snowflake(&self) -> Snowflake {
        let Ok(id) = Snowflake::try_from_u64(self.id) else {
            panic!(
                "a baked ID was changed after `snowflake!` made it: its `id` is no ID (past i64::MAX)"
            );
        };
        let bits = id.segmented_binary().to_bytes();
        let given = self.binary.as_bytes();
        let mut same = given.len() == bits.len();
        let mut i = 0;
        while same && i < bits.len() {
            same = given[i] == bits[i];
            i += 1;
        }
        assert!(
            same,
            "a baked ID was changed after `snowflake!` made it: its `binary` is not its `id`'s"
        );
        id
    }

    /// The ID as one of kind `K` ([`typed`](crate::typed)), checked as
    /// [`snowflake`](BakedSnowflake::snowflake) is; the kind is the constant's type. A
    /// pasted base32 text with a prefix (`snowflake!(id = "user_0000003X04400")`) is an ID
    /// of the kind with that prefix only.
    ///
    /// ```
    /// use snowflake_kit::snowflake;
    /// use snowflake_kit::typed::{Id, kind};
    ///
    /// kind!(pub User, "user");
    /// const ADMIN: Id<User> = snowflake!(ts = 1288834975657, dc = 1, machine = 1).typed();
    /// const PASTED: Id<User> = snowflake!(id = "user_0000003X04400", near_epoch).typed();
    /// assert_eq!(ADMIN, PASTED);
    /// ```
    ///
    /// # Panics
    ///
    /// As [`snowflake`](BakedSnowflake::snowflake); and for a pasted prefix that is not
    /// `K`'s (in a `const`, the build fails, at the call):
    ///
    /// ```compile_fail
    /// use snowflake_kit::typed::{Id, kind};
    ///
    /// kind!(pub Order, "order");
    /// const NOT_AN_ORDER: Id<Order> =
    ///     snowflake_kit::snowflake!(id = "user_1ASD13XH1F800").typed();
    /// ```
    #[track_caller]
    pub const fn typed<K: Kind>(&self) -> Id<K> {
        if let Some(pasted) = self.prefix {
            let same = match K::PREFIX {
                Some(prefix) => crate::__private::same_text(pasted, prefix),
                None => false,
            };
            assert!(
                same,
                "the pasted ID's prefix is not this kind's: `snowflake!(id = \"PREFIX_...\")` \
                 bakes an ID of the kind declared with that prefix (`kind!(pub User, \"PREFIX\")`)"
            );
        }
        Id::from_snowflake(self.snowflake())
    }

    /// The ID's fields.
    ///
    /// ```
    /// const PARTS: snowflake_kit::layout::Parts =
    ///     snowflake_kit::snowflake!(ts = "2022-06-28T16:07:40.105Z", dc = 11, machine = 26).parts();
    /// assert_eq!(PARTS.timestamp_ms, 1_656_432_460_105);
    /// assert_eq!((PARTS.datacenter, PARTS.machine, PARTS.sequence), (11, 26, 0));
    /// ```
    #[track_caller]
    pub const fn parts(&self) -> Parts {
        self.snowflake().parts()
    }
}

impl From<BakedSnowflake> for Snowflake {
    #[track_caller]
    fn from(baked: BakedSnowflake) -> Snowflake {
        baked.snowflake()
    }
}

impl From<BakedSnowflake> for u64 {
    fn from(baked: BakedSnowflake) -> u64 {
        baked.id
    }
}

// By the ID alone: `binary` is a function of it. Hash as `Snowflake` does (its `u64`), so
// that the two agree wherever both are keys.
impl PartialEq for BakedSnowflake {
    fn eq(&self, other: &BakedSnowflake) -> bool {
        self.id == other.id
    }
}

impl Eq for BakedSnowflake {}

impl Hash for BakedSnowflake {
    fn hash<H: Hasher>(&self, state: &mut H) {
        // As `Snowflake` hashes: its `u64`.
        self.id.hash(state);
    }
}

impl PartialOrd for BakedSnowflake {
    fn partial_cmp(&self, other: &BakedSnowflake) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for BakedSnowflake {
    fn cmp(&self, other: &BakedSnowflake) -> Ordering {
        self.id.cmp(&other.id)
    }
}

impl PartialEq<Snowflake> for BakedSnowflake {
    fn eq(&self, other: &Snowflake) -> bool {
        self.id == other.as_u64()
    }
}

impl PartialEq<BakedSnowflake> for Snowflake {
    fn eq(&self, other: &BakedSnowflake) -> bool {
        self.as_u64() == other.id
    }
}

impl PartialOrd<Snowflake> for BakedSnowflake {
    fn partial_cmp(&self, other: &Snowflake) -> Option<Ordering> {
        Some(self.id.cmp(&other.as_u64()))
    }
}

impl PartialOrd<BakedSnowflake> for Snowflake {
    fn partial_cmp(&self, other: &BakedSnowflake) -> Option<Ordering> {
        Some(self.as_u64().cmp(&other.id))
    }
}

/// The ID in decimal, as [`Snowflake`]'s `Display`.
impl fmt::Display for BakedSnowflake {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.snowflake(), f)
    }
}

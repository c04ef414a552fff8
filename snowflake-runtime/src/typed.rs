//! Typed IDs: an [`Id<K>`] per kind of thing. Documented where users meet them, in
//! `snowflake_kit::typed`; the items are this module's.

use core::cmp::Ordering;
use core::fmt;
use core::hash::{Hash, Hasher};
use core::marker::PhantomData;
use core::str::FromStr;

use crate::__private::Message;
use crate::error::ParseSnowflakeError;
use crate::layout::Base32;
use crate::snowflake::Snowflake;

/// A kind of ID: a marker type, made by [`kind!`], that no value ever has. Sealed: only
/// [`kind!`] declares one, so that every prefix is checked where its kind is declared.
///
/// ```
/// use snowflake_kit::typed::{Kind, kind};
///
/// kind!(pub User, "user");
/// assert_eq!(User::NAME, "User");
/// assert_eq!(User::PREFIX, Some("user"));
/// ```
///
/// A kind written by hand does not compile:
///
/// ```compile_fail
/// enum Sneaky {}
/// impl snowflake_kit::typed::Kind for Sneaky {
///     const NAME: &'static str = "Sneaky";
///     const PREFIX: Option<&'static str> = Some("Bad Prefix");
/// }
/// ```
pub trait Kind: crate::__private::DeclaredByKind + 'static {
    /// The kind's name, as `Debug` and the schemas say it: `User`.
    const NAME: &'static str;
    /// The prefix of the kind's IDs in text (`user`), if it has one: 1 to 16 of `a-z`,
    /// `0-9` and `_`, starting with a letter and not ending with `_` (`user`, `order_item`,
    /// `v2`), as [`PREFIX_RULE`] says.
    const PREFIX: Option<&'static str>;
}

/// What a kind's prefix may be, in the words of the errors that refuse one.
///
/// ```
/// assert!(snowflake_kit::typed::PREFIX_RULE.starts_with("a kind's prefix is 1 to 16"));
/// ```
pub const PREFIX_RULE: &str = "a kind's prefix is 1 to 16 of a-z, 0-9 and `_`, starting with a letter and not ending with `_`";

/// The longest prefix.
const PREFIX_MAX: usize = 16;

/// Why `prefix` is no kind's prefix, or `None` where it is one: a message that quotes it,
/// names the first fault and ends with [`PREFIX_RULE`]. For `kind!` (in a `const`) and
/// `snowflake!` (a pasted prefix).
pub(crate) const fn prefix_refusal(prefix: &str) -> Option<Message> {
    let bytes = prefix.as_bytes();
    let mut message = Message::new();
    if bytes.is_empty() {
        message.push("an empty prefix: ");
        message.push(PREFIX_RULE);
        return Some(message);
    }
    message.push("the prefix \"");
    message.push(prefix);
    message.push("\" ");
    if bytes.len() > PREFIX_MAX {
        message.push("is ");
        message.push_number(bytes.len() as u64);
        message.push(" bytes long");
    } else if !bytes[0].is_ascii_lowercase() {
        message.push("starts with `");
        message.push_char_at(bytes, 0);
        message.push("`");
    } else if bytes[bytes.len() - 1] == b'_' {
        message.push("ends with `_`");
    } else {
        let mut i = 1;
        loop {
            if i == bytes.len() {
                return None;
            }
            let b = bytes[i];
            if !(b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_') {
                break;
            }
            i += 1;
        }
        message.push("has `");
        message.push_char_at(bytes, i);
        message.push("` at byte ");
        message.push_number(i as u64);
    }
    message.push(": ");
    message.push(PREFIX_RULE);
    Some(message)
}

/// Declares a kind of ID: `kind!(pub User)`, or with the prefix of its IDs in text,
/// `kind!(pub User, "user")`; doc comments and attributes go before the name. The prefix
/// is 1 to 16 of `a-z`, `0-9` and `_`, starting with a letter and not ending with `_`
/// ([`PREFIX_RULE`]); anything else fails the build here, quoting it and naming the fault.
///
/// The marker is a type that no value has, named for the kind: declare it in a module of
/// its own (`kinds::User`), so that your own `User` type keeps its name.
///
/// ```
/// pub mod kinds {
///     snowflake_kit::typed::kind!(
///         /// An item of an order.
///         pub OrderItem, "order_item"
///     );
/// }
/// type OrderItemId = snowflake_kit::typed::Id<kinds::OrderItem>;
/// ```
///
/// ```compile_fail
/// // error: the prefix "order-item" has `-` at byte 5: a kind's prefix is 1 to 16 of a-z, ...
/// snowflake_kit::typed::kind!(pub OrderItem, "order-item");
/// ```
// Exported at the runtime's root, where `#[macro_export]` puts it, and not hidden there: a
// re-export of a hidden macro is left out of the facade's docs.
#[macro_export]
macro_rules! kind {
    ($(#[$meta:meta])* $vis:vis $name:ident $(, $prefix:literal)? $(,)?) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        $vis enum $name {}

        impl $crate::__private::DeclaredByKind for $name {}

        impl $crate::typed::Kind for $name {
            const NAME: &'static str = ::core::stringify!($name);
            const PREFIX: ::core::option::Option<&'static str> =
                $crate::__private::prefix(&[$($prefix)?]);
        }
        const _: () = {
            // The prefix checked where the kind is declared, not where it is first used.
            let _ = <$name as $crate::typed::Kind>::PREFIX;
        };

        $crate::__kind_integrations!($name);
    };
}

/// What a kind's marker needs of the integrations that are on: utoipa's derive asks a
/// schema of a generic type's arguments. Written where this crate's features are known.
#[cfg(feature = "utoipa")]
#[macro_export]
#[doc(hidden)]
macro_rules! __kind_integrations {
    ($name:ident) => {
        impl $crate::__private::utoipa::__dev::ComposeSchema for $name {
            fn compose(
                generics: ::std::vec::Vec<
                    $crate::__private::utoipa::openapi::RefOr<
                        $crate::__private::utoipa::openapi::schema::Schema,
                    >,
                >,
            ) -> $crate::__private::utoipa::openapi::RefOr<
                $crate::__private::utoipa::openapi::schema::Schema,
            > {
                <$crate::typed::Id<$name> as $crate::__private::utoipa::__dev::ComposeSchema>::compose(
                    generics,
                )
            }
        }

        impl $crate::__private::utoipa::ToSchema for $name {}
    };
}

#[cfg(not(feature = "utoipa"))]
#[macro_export]
#[doc(hidden)]
macro_rules! __kind_integrations {
    ($name:ident) => {};
}

#[doc(inline)]
pub use crate::kind;

/// An ID of kind `K`: a [`Snowflake`] that the type system keeps apart from other kinds.
/// The fields and the time are its `Snowflake`'s, said by name ([`Id::snowflake`]): no
/// `Deref`, which would hand the untyped ID to every `.` and `*` (`fn cancel(order:
/// &Snowflake)` would take a user's), as twilight's `Id<T>` and newtype-uuid's `TypedUuid<T>`
/// have none. The conversions are named too: [`Id::from_snowflake`], [`Id::cast`], and
/// `TryFrom<u64>`, `TryFrom<i64>` and `From<Id<K>> for u64`.
///
/// ```
/// use snowflake_kit::typed::{Id, kind};
/// use snowflake_kit::{Generator, Identity};
///
/// kind!(pub Message, "msg");
///
/// let ids = Generator::new(Identity::new(1, 1)?);
/// let first: Id<Message> = ids.next_id_of();
/// let second: Id<Message> = ids.next_id_of();
/// assert!(first < second);
/// assert_eq!(first.snowflake().machine(), 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[repr(transparent)]
pub struct Id<K: Kind> {
    id: Snowflake,
    // `fn() -> K`: no `K` is held, so `Id<K>` is `Send`, `Sync` and `Copy` whatever `K` is.
    kind: PhantomData<fn() -> K>,
}

impl<K: Kind> Id<K> {
    /// `id` as an ID of this kind.
    ///
    /// ```
    /// use snowflake_kit::Snowflake;
    /// use snowflake_kit::typed::{Id, kind};
    ///
    /// kind!(pub User);
    /// assert_eq!(Id::<User>::from_snowflake(Snowflake::MAX).snowflake(), Snowflake::MAX);
    /// ```
    pub const fn from_snowflake(id: Snowflake) -> Id<K> {
        Id {
            id,
            kind: PhantomData,
        }
    }

    /// The `Snowflake`, without its kind.
    ///
    /// ```
    /// use snowflake_kit::Snowflake;
    /// use snowflake_kit::typed::{Id, kind};
    ///
    /// kind!(pub User);
    /// let id = Id::<User>::from_snowflake(Snowflake::MIN);
    /// assert_eq!(id.snowflake().as_u64(), 0);
    /// ```
    pub const fn snowflake(self) -> Snowflake {
        self.id
    }

    /// The `Snowflake`, borrowed: for the integrations that write from a reference.
    #[cfg_attr(not(feature = "diesel"), allow(dead_code))]
    pub(crate) const fn as_snowflake(&self) -> &Snowflake {
        &self.id
    }

    /// The same ID as another kind: for an ID that names two things (an order and its
    /// invoice), said where it happens.
    ///
    /// ```
    /// use snowflake_kit::Snowflake;
    /// use snowflake_kit::typed::{Id, kind};
    ///
    /// kind!(pub Order);
    /// kind!(pub Invoice);
    /// let order = Id::<Order>::from_snowflake(Snowflake::MAX);
    /// let invoice: Id<Invoice> = order.cast();
    /// assert_eq!(invoice.snowflake(), order.snowflake());
    /// ```
    pub const fn cast<L: Kind>(self) -> Id<L> {
        Id::from_snowflake(self.id)
    }
}

/// The `Snowflake`, without its kind: as [`Id::snowflake`].
impl<K: Kind> From<Id<K>> for Snowflake {
    fn from(id: Id<K>) -> Snowflake {
        id.id
    }
}

/// The ID's `u64`.
///
/// ```
/// snowflake_kit::typed::kind!(pub User);
/// let user = snowflake_kit::typed::Id::<User>::try_from(4_194_439_168_u64)?;
/// assert_eq!(u64::from(user), 4_194_439_168);
/// # Ok::<(), snowflake_kit::IdRangeError>(())
/// ```
impl<K: Kind> From<Id<K>> for u64 {
    fn from(id: Id<K>) -> u64 {
        id.id.as_u64()
    }
}

/// A number as an ID of this kind, as `Snowflake`'s `TryFrom<u64>` reads it.
///
/// ```
/// snowflake_kit::typed::kind!(pub User);
/// use snowflake_kit::typed::Id;
///
/// assert!(Id::<User>::try_from(1_541_815_603_606_036_480_u64).is_ok());
/// assert_eq!(
///     Id::<User>::try_from(u64::MAX).unwrap_err().to_string(),
///     "18446744073709551615 is out of range: an ID is in 0..=9223372036854775807",
/// );
/// ```
impl<K: Kind> TryFrom<u64> for Id<K> {
    type Error = crate::error::IdRangeError;

    fn try_from(n: u64) -> Result<Id<K>, crate::error::IdRangeError> {
        Snowflake::try_from_u64(n).map(Id::from_snowflake)
    }
}

/// A BIGINT as an ID of this kind, as [`Snowflake::try_from_i64`] reads it.
///
/// ```
/// snowflake_kit::typed::kind!(pub User);
/// use snowflake_kit::typed::Id;
///
/// assert!(Id::<User>::try_from(4_194_439_168_i64).is_ok());
/// assert_eq!(
///     Id::<User>::try_from(-5_i64).unwrap_err().to_string(),
///     "-5 is out of range: an ID is in 0..=9223372036854775807",
/// );
/// ```
impl<K: Kind> TryFrom<i64> for Id<K> {
    type Error = crate::error::IdRangeError;

    fn try_from(n: i64) -> Result<Id<K>, crate::error::IdRangeError> {
        Snowflake::try_from_i64(n).map(Id::from_snowflake)
    }
}

// By hand rather than derived: a derive would ask the same of `K`, a marker.
impl<K: Kind> Clone for Id<K> {
    fn clone(&self) -> Id<K> {
        *self
    }
}

impl<K: Kind> Copy for Id<K> {}

impl<K: Kind> PartialEq for Id<K> {
    fn eq(&self, other: &Id<K>) -> bool {
        self.id == other.id
    }
}

impl<K: Kind> Eq for Id<K> {}

impl<K: Kind> PartialOrd for Id<K> {
    fn partial_cmp(&self, other: &Id<K>) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<K: Kind> Ord for Id<K> {
    fn cmp(&self, other: &Id<K>) -> Ordering {
        self.id.cmp(&other.id)
    }
}

impl<K: Kind> Hash for Id<K> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.id.hash(state);
    }
}

/// `User(4194439168)`: the kind's name and the ID.
impl<K: Kind> fmt::Debug for Id<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}({})", K::NAME, self.id)
    }
}

/// The ID's decimal digits, as a `Snowflake`'s.
impl<K: Kind> fmt::Display for Id<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.id, f)
    }
}

/// Decimal digits, as a `Snowflake` reads them.
impl<K: Kind> FromStr for Id<K> {
    type Err = ParseSnowflakeError;

    fn from_str(text: &str) -> Result<Id<K>, ParseSnowflakeError> {
        text.parse().map(Id::from_snowflake)
    }
}

/// A `Snowflake` or any `Id<K>`: the bound of the serde helpers of
/// [`serde`](crate::serde), which are written once for every kind. Sealed, and with nothing
/// to call: a `Snowflake` and an `Id` already have all of it by name.
///
/// ```
/// use snowflake_kit::Snowflake;
/// use snowflake_kit::typed::{AnyId, Id};
///
/// mod kinds {
///     snowflake_kit::typed::kind!(pub UserMarker, "user");
/// }
/// fn takes_any<T: AnyId>(_: T) {}
/// takes_any(Snowflake::MIN);
/// takes_any(Id::<kinds::UserMarker>::from_snowflake(Snowflake::MIN));
/// ```
///
/// No other type is one:
///
/// ```compile_fail
/// struct Mine;
/// impl snowflake_kit::typed::AnyId for Mine {}
/// ```
///
/// And it adds no second name for what the types have, not even through the bound:
///
/// ```compile_fail
/// fn text<T: snowflake_kit::typed::AnyId>(id: T) -> snowflake_kit::layout::Base32 {
///     id.to_base32()
/// }
/// ```
pub trait AnyId: Copy + sealed::Sealed {}

impl AnyId for Snowflake {}

impl<K: Kind> AnyId for Id<K> {}

/// What the serde helpers need of an [`AnyId`], out of users' way. A public trait in a
/// private module can be a public bound's supertrait; its methods could still be called
/// through the bound, so each takes a [`Token`](sealed::Token), which only this crate can
/// make.
pub(crate) mod sealed {
    use super::{Base32, Id, Kind, ParseSnowflakeError, Snowflake};

    /// The key to [`Sealed`]'s methods: unnameable outside the crate.
    #[derive(Clone, Copy)]
    pub struct Token;

    pub trait Sealed: Sized {
        /// The prefix of the ID's text in base32: its kind's, or none for a `Snowflake`.
        fn prefix(_: Token) -> Option<&'static str>;

        fn to_snowflake(self, _: Token) -> Snowflake;

        fn from_snowflake(id: Snowflake, _: Token) -> Self;

        /// [`Snowflake::to_base32`], or [`Id::to_base32`] with its prefix.
        fn to_base32(self, _: Token) -> Base32;

        /// [`Snowflake::from_base32`], or [`Id::from_base32`] with its prefix.
        fn from_base32(text: &str, _: Token) -> Result<Self, ParseSnowflakeError>;
    }

    impl Sealed for Snowflake {
        fn prefix(_: Token) -> Option<&'static str> {
            None
        }

        fn to_snowflake(self, _: Token) -> Snowflake {
            self
        }

        fn from_snowflake(id: Snowflake, _: Token) -> Snowflake {
            id
        }

        fn to_base32(self, _: Token) -> Base32 {
            Snowflake::to_base32(self)
        }

        fn from_base32(text: &str, _: Token) -> Result<Snowflake, ParseSnowflakeError> {
            Snowflake::from_base32(text)
        }
    }

    impl<K: Kind> Sealed for Id<K> {
        fn prefix(_: Token) -> Option<&'static str> {
            K::PREFIX
        }

        fn to_snowflake(self, _: Token) -> Snowflake {
            self.snowflake()
        }

        fn from_snowflake(id: Snowflake, _: Token) -> Id<K> {
            Id::from_snowflake(id)
        }

        fn to_base32(self, _: Token) -> Base32 {
            Id::to_base32(self)
        }

        fn from_base32(text: &str, _: Token) -> Result<Id<K>, ParseSnowflakeError> {
            Id::from_base32(text)
        }
    }
}

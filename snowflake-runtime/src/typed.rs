//! Typed IDs: an [`Id<K>`] per kind of thing (users, orders), so that a user's ID can never
//! be passed where an order's belongs. One generic type with a marker per kind, as
//! twilight's `Id<Marker>` and Oxide's `TypedUuid<T>` are: every trait and integration is
//! written once, here, for every kind, and a kind costs its user one line ([`kind!`]).
//! A derive on each user's newtype would write them all again in every crate, and could
//! not see which of this crate's features (serde, sqlx, ...) are on.
//!
//! ```
//! use snowflake_kit::typed::{Id, kind};
//!
//! kind!(
//!     /// A user of the shop.
//!     pub User, "user"
//! );
//! kind!(pub Order);
//!
//! let user: Id<User> = Id::from_snowflake(snowflake_kit::compose(1_288_834_975_657, 1, 1, 0)?);
//! assert_eq!(user.to_string(), "4194439168");
//! assert_eq!(user.datacenter(), 1); // the fields and the time, as a `Snowflake`'s
//! let order: Id<Order> = user.cast(); // another kind: said by name
//! assert_eq!(order.snowflake(), user.snowflake());
//! # Ok::<(), snowflake_kit::FieldRangeError>(())
//! ```
//!
//! An `Id<Order>` where an `Id<User>` is expected does not compile, nor does comparing them:
//!
//! ```compile_fail
//! use snowflake_kit::typed::{Id, kind};
//!
//! kind!(pub User);
//! kind!(pub Order);
//!
//! fn greet(_: Id<User>) {}
//! let order: Id<Order> = Id::from_snowflake(snowflake_kit::Snowflake::MIN);
//! greet(order);
//! ```
//!
//! In memory an `Id<K>` is its `Snowflake`, a `u64` (`repr(transparent)`); every operation
//! is the `Snowflake`'s, at its cost. With the features on, an `Id<K>` is written and read
//! as a `Snowflake` is: serde (a number, or a string with
//! [`as_string`](crate::serde::as_string) or [`as_base32`](crate::serde::as_base32)),
//! sqlx, postgres-types, diesel and SeaORM (a BIGINT, SeaORM's primary key too), arbitrary;
//! utoipa and schemars describe it under its kind's name (`UserId`); in GraphQL every kind
//! is the one `Snowflake` scalar, since a scalar per kind would say nothing a client's
//! field types do not.

use core::cmp::Ordering;
use core::fmt;
use core::hash::{Hash, Hasher};
use core::marker::PhantomData;
use core::ops::Deref;
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
/// `kind!(pub User, "user")`; doc comments and attributes go before the name.
///
/// ```
/// snowflake_kit::typed::kind!(
///     /// An order.
///     pub(crate) Order, "order"
/// );
/// type OrderId = snowflake_kit::typed::Id<Order>;
/// ```
#[macro_export]
#[doc(hidden)]
macro_rules! __kind {
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
pub use crate::__kind as kind;

/// An ID of kind `K`: a [`Snowflake`] that the type system keeps apart from other kinds.
/// The fields and the time are the `Snowflake`'s (through `Deref`); the conversions are
/// named: [`Id::from_snowflake`], [`Id::snowflake`], [`Id::cast`].
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
/// assert_eq!(first.machine(), 1);
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

impl<K: Kind> Deref for Id<K> {
    type Target = Snowflake;

    fn deref(&self) -> &Snowflake {
        &self.id
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

/// What a `Snowflake` and every `Id<K>` are, for code written once for all of them (the
/// serde helpers of [`serde`](crate::serde)). Sealed: no other type is one.
pub trait AnyId: Copy + sealed::Sealed {
    /// The `Snowflake`.
    ///
    /// ```
    /// use snowflake_kit::Snowflake;
    /// use snowflake_kit::typed::AnyId;
    ///
    /// assert_eq!(Snowflake::MAX.to_snowflake(), Snowflake::MAX);
    /// ```
    fn to_snowflake(self) -> Snowflake;

    /// `id`, as this type.
    ///
    /// ```
    /// use snowflake_kit::Snowflake;
    /// use snowflake_kit::typed::AnyId;
    ///
    /// assert_eq!(<Snowflake as AnyId>::from_snowflake(Snowflake::MIN), Snowflake::MIN);
    /// ```
    fn from_snowflake(id: Snowflake) -> Self;

    /// The ID in base32: [`Snowflake::to_base32`], or [`Id::to_base32`] with its prefix.
    ///
    /// ```
    /// use snowflake_kit::Snowflake;
    /// use snowflake_kit::typed::AnyId;
    ///
    /// assert_eq!(AnyId::to_base32(Snowflake::MAX).as_str(), "7ZZZZZZZZZZZZ");
    /// ```
    fn to_base32(self) -> Base32;

    /// Reads the ID from base32: [`Snowflake::from_base32`], or [`Id::from_base32`] with its
    /// prefix.
    ///
    /// ```
    /// use snowflake_kit::Snowflake;
    /// use snowflake_kit::typed::AnyId;
    ///
    /// assert_eq!(<Snowflake as AnyId>::from_base32("7zzzzzzzzzzzz"), Ok(Snowflake::MAX));
    /// ```
    ///
    /// # Errors
    ///
    /// As theirs.
    fn from_base32(text: &str) -> Result<Self, ParseSnowflakeError>;
}

impl AnyId for Snowflake {
    fn to_snowflake(self) -> Snowflake {
        self
    }

    fn from_snowflake(id: Snowflake) -> Snowflake {
        id
    }

    fn to_base32(self) -> Base32 {
        Snowflake::to_base32(self)
    }

    fn from_base32(text: &str) -> Result<Snowflake, ParseSnowflakeError> {
        Snowflake::from_base32(text)
    }
}

impl<K: Kind> AnyId for Id<K> {
    fn to_snowflake(self) -> Snowflake {
        self.id
    }

    fn from_snowflake(id: Snowflake) -> Id<K> {
        Id::from_snowflake(id)
    }

    fn to_base32(self) -> Base32 {
        Id::to_base32(self)
    }

    fn from_base32(text: &str) -> Result<Id<K>, ParseSnowflakeError> {
        Id::from_base32(text)
    }
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for crate::snowflake::Snowflake {}
    impl<K: super::Kind> Sealed for super::Id<K> {}
}

//! [`Identity`]: the datacenter and machine that issue IDs, one of the format's 1,024.

use core::fmt;

use crate::error::IdRangeError;
use crate::field::{Field, FieldRangeError};
use crate::format::{IDENTITY_COUNT, MACHINE_BITS};

/// Machines per datacenter.
const MACHINES: u16 = 1 << MACHINE_BITS;

/// A datacenter and machine: who issues an ID, one of the 1,024 identities of the
/// format. No two live generators may share one.
///
/// ```
/// use snowflake_kit::Identity;
///
/// let identity = Identity::new(1, 31)?;
/// assert_eq!((identity.datacenter(), identity.machine()), (1, 31));
/// assert_eq!(identity.to_string(), "01/31");
/// assert_eq!(Identity::try_from_index(identity.index())?, identity);
/// assert!(Identity::new(32, 0).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Identity {
    datacenter: u8,
    machine: u8,
}

impl Identity {
    /// How many identities the format has: 32 datacenters of 32 machines.
    pub const COUNT: u16 = IDENTITY_COUNT;

    /// The identity of `datacenter` and `machine`, each checked against its field's range.
    ///
    /// ```
    /// use snowflake_kit::{FieldRangeError, Identity};
    ///
    /// assert_eq!(Identity::new(3, 40), Err(FieldRangeError::MachineOutOfRange(40)));
    /// ```
    ///
    /// # Errors
    ///
    /// The [`FieldRangeError`] of the first value out of range, the datacenter first.
    pub const fn new(datacenter: u64, machine: u64) -> Result<Identity, FieldRangeError> {
        if let Err(e) = Field::Datacenter.check(datacenter) {
            return Err(e);
        }
        if let Err(e) = Field::Machine.check(machine) {
            return Err(e);
        }
        #[expect(
            clippy::cast_possible_truncation,
            reason = "both checked to fit in 5 bits"
        )]
        Ok(Identity {
            datacenter: datacenter as u8,
            machine: machine as u8,
        })
    }

    /// The `index`-th identity, `datacenter * 32 + machine`: the way back from
    /// [`index`](Identity::index).
    ///
    /// ```
    /// use snowflake_kit::Identity;
    ///
    /// assert_eq!(Identity::try_from_index(33)?, Identity::new(1, 1)?);
    /// assert_eq!(Identity::try_from_index(1023)?, Identity::new(31, 31)?);
    /// assert_eq!(
    ///     Identity::try_from_index(1024 + 33).unwrap_err().to_string(),
    ///     "1057 is out of range: an identity's index is in 0..=1023",
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// An [`IdRangeError`] naming the index, from [`COUNT`](Identity::COUNT) up.
    pub const fn try_from_index(index: u16) -> Result<Identity, IdRangeError> {
        if index >= Self::COUNT {
            return Err(IdRangeError::identity_index(index));
        }
        Ok(Identity::of_index(index))
    }

    /// Every identity, in the order of their [index](Identity::index): `00/00`, `00/01`,
    /// ..., `31/31`.
    ///
    /// ```
    /// use snowflake_kit::Identity;
    ///
    /// assert_eq!(Identity::all().len(), 1024);
    /// assert_eq!(Identity::all().nth(33), Some(Identity::new(1, 1)?));
    /// assert_eq!(Identity::all().last(), Some(Identity::new(31, 31)?));
    /// # Ok::<(), snowflake_kit::FieldRangeError>(())
    /// ```
    pub fn all() -> impl DoubleEndedIterator<Item = Identity> + ExactSizeIterator + Clone {
        (0..Self::COUNT).map(Identity::of_index)
    }

    /// The identity of an index below [`COUNT`](Identity::COUNT).
    const fn of_index(index: u16) -> Identity {
        // A no-op for the indexes given, and the bound the casts rest on: both are below 32.
        let index = index % Self::COUNT;
        Identity {
            datacenter: (index / MACHINES) as u8,
            machine: (index % MACHINES) as u8,
        }
    }

    /// `datacenter * 32 + machine`.
    ///
    /// ```
    /// assert_eq!(snowflake_kit::Identity::new(31, 31)?.index(), 1023);
    /// # Ok::<(), snowflake_kit::FieldRangeError>(())
    /// ```
    pub const fn index(self) -> u16 {
        self.datacenter as u16 * MACHINES + self.machine as u16
    }

    /// The datacenter id, `0..=31`.
    ///
    /// ```
    /// assert_eq!(snowflake_kit::Identity::new(11, 26)?.datacenter(), 11);
    /// # Ok::<(), snowflake_kit::FieldRangeError>(())
    /// ```
    pub const fn datacenter(self) -> u8 {
        self.datacenter
    }

    /// The machine id, `0..=31`.
    ///
    /// ```
    /// assert_eq!(snowflake_kit::Identity::new(11, 26)?.machine(), 26);
    /// # Ok::<(), snowflake_kit::FieldRangeError>(())
    /// ```
    pub const fn machine(self) -> u8 {
        self.machine
    }

    /// The identity's bits in place in an ID: datacenter and machine shifted to their
    /// segments. For the generator, which only `std` builds.
    #[cfg(feature = "std")]
    pub(crate) const fn bits(self) -> u32 {
        use crate::format::{DATACENTER_SHIFT, MACHINE_SHIFT};
        ((self.datacenter as u32) << DATACENTER_SHIFT) | ((self.machine as u32) << MACHINE_SHIFT)
    }
}

/// `DD/MM`, zero-padded: `01/31`.
impl fmt::Display for Identity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:02}/{:02}", self.datacenter, self.machine)
    }
}

//! The interface for identity stores: how the holder of a leased identity fences the
//! [`Generator`](crate::Generator) it runs, so that it issues only inside the time its
//! lease covers. `snowflake-lease` is such a holder.
//!
//! An application that owns its identity outright (a datacenter and machine that nothing
//! else uses, unleased) never needs this module; the generator runs unfenced.
//!
//! Every hook is a plain atomic store or read beside the one the generator issues from, so
//! a fenced generator costs what an unfenced one does on its hot path.
//!
//! ```
//! use snowflake_kit::fence::Fence;
//! use snowflake_kit::{GenerateError, Generator, Identity};
//!
//! let generator = Generator::new(Identity::new(1, 1)?);
//! // What a holder does once it has committed a high-water mark `hwm` in its store:
//! let hwm = generator.next_id().timestamp_ms() + 2_000;
//! generator.set_ceiling(Some(hwm));
//! assert!(generator.try_next_id().is_ok());
//! // ...and when it loses its lease:
//! generator.halt();
//! assert_eq!(generator.try_next_id(), Err(GenerateError::Halted));
//! # Ok::<(), snowflake_kit::FieldRangeError>(())
//! ```

/// The hooks a lease holder sets on its generator: a ceiling, a floor, and a halt.
/// Implemented by [`Generator`](crate::Generator); see [the module](self).
///
/// Sealed: only this crate's types implement it, so that a hook can be added in a minor
/// release without breaking an implementation elsewhere.
pub trait Fence: sealed::Sealed {
    /// Sets the last Unix ms the generator may stamp an ID with, or none. Past
    /// it, calls return [`GenerateError::AboveCeiling`](crate::GenerateError::AboveCeiling)
    /// at once, without waiting. A holder of a leased identity raises it as it reserves
    /// time ahead; the check costs one acquire load (a plain load on x86) beside the clock
    /// reading.
    ///
    /// A call that read the ceiling before a concurrent `set_ceiling` lowered it
    /// may still issue up to the old ceiling; [`halt`](Fence::halt) stops at once.
    ///
    /// ```
    /// use snowflake_kit::fence::Fence;
    /// use snowflake_kit::{GenerateError, Generator, Identity};
    ///
    /// let generator = Generator::new(Identity::new(1, 1)?);
    /// generator.set_ceiling(Some(1_288_834_975_657)); // long past
    /// assert!(matches!(generator.try_next_id(), Err(GenerateError::AboveCeiling { .. })));
    /// generator.set_ceiling(None);
    /// assert!(generator.try_next_id().is_ok());
    /// # Ok::<(), snowflake_kit::FieldRangeError>(())
    /// ```
    fn set_ceiling(&self, timestamp_ms: Option<u64>);

    /// The last Unix ms the generator may stamp an ID with, if there is a ceiling.
    ///
    /// ```
    /// use snowflake_kit::fence::Fence;
    ///
    /// let generator = snowflake_kit::Generator::new(snowflake_kit::Identity::new(1, 1)?);
    /// assert_eq!(generator.ceiling(), None);
    /// generator.set_ceiling(Some(1_700_000_000_000));
    /// assert_eq!(generator.ceiling(), Some(1_700_000_000_000));
    /// # Ok::<(), snowflake_kit::FieldRangeError>(())
    /// ```
    fn ceiling(&self) -> Option<u64>;

    /// Issues nothing at or below `timestamp_ms` from now on: the next ID is in a
    /// later millisecond, waited for within the tolerance if the clock is behind
    /// it. A leased holder raises it to the high-water mark it read, so that a clock
    /// stepping back cannot reach into milliseconds an earlier holder used.
    /// Never lowers what was issued; keeps a [halt](Fence::halt).
    ///
    /// ```
    /// use snowflake_kit::fence::Fence;
    ///
    /// let generator = snowflake_kit::Generator::new(snowflake_kit::Identity::new(1, 1)?);
    /// let now = generator.next_id().timestamp_ms();
    /// generator.raise_floor(now);
    /// assert!(generator.next_id().timestamp_ms() > now);
    /// # Ok::<(), snowflake_kit::FieldRangeError>(())
    /// ```
    fn raise_floor(&self, timestamp_ms: u64);

    /// Stops issuing: every call returns [`GenerateError::Halted`](crate::GenerateError::Halted)
    /// until [`resume`](Fence::resume). No ID is issued after `halt` returns, from any
    /// thread: the halt is a bit of the one atomic every ID is reserved from.
    ///
    /// ```
    /// use snowflake_kit::fence::Fence;
    /// use snowflake_kit::{GenerateError, Generator, Identity};
    ///
    /// let generator = Generator::new(Identity::new(1, 1)?);
    /// let before = generator.next_id();
    /// generator.halt();
    /// assert!(generator.is_halted());
    /// assert_eq!(generator.try_next_id(), Err(GenerateError::Halted));
    /// generator.resume();
    /// assert!(generator.next_id() > before);
    /// # Ok::<(), snowflake_kit::FieldRangeError>(())
    /// ```
    fn halt(&self);

    /// Issues again after [`halt`](Fence::halt), never below what was issued before.
    ///
    /// ```
    /// use snowflake_kit::fence::Fence;
    ///
    /// let generator = snowflake_kit::Generator::new(snowflake_kit::Identity::new(1, 1)?);
    /// generator.halt();
    /// generator.resume();
    /// assert!(!generator.is_halted());
    /// # Ok::<(), snowflake_kit::FieldRangeError>(())
    /// ```
    fn resume(&self);

    /// Whether the generator is [halted](Fence::halt).
    ///
    /// ```
    /// use snowflake_kit::fence::Fence;
    ///
    /// assert!(!snowflake_kit::Generator::new(snowflake_kit::Identity::new(1, 1)?).is_halted());
    /// # Ok::<(), snowflake_kit::FieldRangeError>(())
    /// ```
    fn is_halted(&self) -> bool;
}

pub(crate) mod sealed {
    /// The supertrait that seals [`Fence`](super::Fence): public in a module other crates
    /// cannot reach, so that they can neither name it nor implement it.
    #[allow(
        unreachable_pub,
        reason = "the sealing pattern: public, in a private module"
    )]
    pub trait Sealed {}
}

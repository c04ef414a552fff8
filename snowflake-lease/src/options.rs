//! [`LeaseOptions`]: how long a lease lasts, how far ahead time is reserved, which identity.

use std::time::Duration;

use crate::error::LeaseError;
use crate::store::Identity;

/// Which identity to hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    /// Any free one of the 1,024, starting at a hash of the host name: those that one
    /// read of the store ([`Store::held`](crate::Store::held)) shows free first, then
    /// the others. For one store per fleet; fleets with a store each take
    /// [`Choice::Datacenter`], or they lease the same identities.
    Auto,
    /// Any free machine of this datacenter (`0..=31`), as [`Choice::Auto`] picks, never
    /// a machine of another datacenter: for a fleet per datacenter, each with its own
    /// store. Waits up to [`LeaseOptions::claim_wait`] while all 32 are held.
    Datacenter(u8),
    /// Exactly this one, as the operator chose it; waits up to
    /// [`LeaseOptions::claim_wait`] for its holder to let go.
    Exact(Identity),
}

/// What to do when the lease is lost (expired, revoked, or an ownership check failed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnLoss {
    /// Stop issuing, then claim the same identity again, above its high-water mark.
    Reclaim,
    /// Stop issuing for good.
    Stop,
}

/// How a [`LeasedGenerator`](crate::LeasedGenerator) holds its identity.
///
/// ```
/// use std::time::Duration;
/// use snowflake_lease::{Choice, LeaseOptions, OnLoss};
///
/// let options = LeaseOptions::default();
/// assert_eq!(options.ttl, Duration::from_secs(10));
/// assert_eq!(options.window, Duration::from_secs(2));
/// assert_eq!(options.max_clock_wait, Duration::from_secs(5));
/// assert_eq!(options.prefix, "/snowflake-kit/v1/default");
/// assert_eq!(options.connect_timeout, Duration::from_secs(5));
/// assert_eq!((options.choice, options.on_loss), (Choice::Auto, OnLoss::Reclaim));
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct LeaseOptions {
    /// Which identity.
    pub choice: Choice,
    /// The lease's time to live (default 10 s); kept alive every third of it.
    pub ttl: Duration,
    /// How far ahead of the clock the high-water mark is reserved (default 2 s).
    pub window: Duration,
    /// How far the clock may be behind an identity's high-water mark and be waited
    /// for (default 5 s); further behind is [`LeaseError::ClockBehind`].
    pub max_clock_wait: Duration,
    /// The prefix of every key (default `/snowflake-kit/v1/default`).
    pub prefix: String,
    /// How long to wait for the store to answer at start (default 5 s).
    pub connect_timeout: Duration,
    /// How long an exact identity waits for its holder to let go (default 30 s).
    pub claim_wait: Duration,
    /// What to do when the lease is lost (default: claim again).
    pub on_loss: OnLoss,
    /// The name written into the owner key (default: host name and process id).
    pub holder: String,
}

impl Default for LeaseOptions {
    fn default() -> LeaseOptions {
        LeaseOptions {
            choice: Choice::Auto,
            ttl: Duration::from_secs(10),
            window: Duration::from_secs(2),
            max_clock_wait: Duration::from_secs(5),
            prefix: "/snowflake-kit/v1/default".to_owned(),
            connect_timeout: Duration::from_secs(5),
            claim_wait: Duration::from_secs(30),
            on_loss: OnLoss::Reclaim,
            holder: format!("{}:{}", host_name(), std::process::id()),
        }
    }
}

impl LeaseOptions {
    /// These options for exactly this identity.
    ///
    /// ```
    /// use snowflake_lease::{Choice, Identity, LeaseOptions};
    /// let options = LeaseOptions::default().exact(Identity::new(1, 2)?);
    /// assert_eq!(options.choice, Choice::Exact(Identity::new(1, 2)?));
    /// # Ok::<(), snowflake_kit::FieldRangeError>(())
    /// ```
    #[must_use]
    pub fn exact(mut self, identity: Identity) -> LeaseOptions {
        self.choice = Choice::Exact(identity);
        self
    }

    /// These options for any free machine of `datacenter`.
    ///
    /// ```
    /// use snowflake_lease::{Choice, LeaseOptions};
    /// let options = LeaseOptions::default().in_datacenter(3)?;
    /// assert_eq!(options.choice, Choice::Datacenter(3));
    /// assert!(LeaseOptions::default().in_datacenter(32).is_err());
    /// # Ok::<(), snowflake_kit::FieldRangeError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`FieldRangeError::DatacenterOutOfRange`](snowflake_runtime::FieldRangeError) above 31.
    pub fn in_datacenter(
        mut self,
        datacenter: u64,
    ) -> Result<LeaseOptions, snowflake_runtime::FieldRangeError> {
        let datacenter = Identity::new(datacenter, 0)?.datacenter();
        self.choice = Choice::Datacenter(datacenter);
        Ok(self)
    }

    /// Checks the values that have rules: a prefix, a TTL of at least a second, a
    /// window shorter than the TTL, a datacenter in range.
    ///
    /// # Errors
    ///
    /// [`LeaseError::InvalidPrefix`] or [`LeaseError::InvalidOption`].
    pub fn check(&self) -> Result<(), LeaseError> {
        check_prefix(&self.prefix)?;
        if let Choice::Datacenter(datacenter) = self.choice {
            Identity::new(datacenter.into(), 0)
                .map_err(|e| LeaseError::InvalidOption(e.to_string()))?;
        }
        if self.ttl < Duration::from_secs(1) || self.ttl.subsec_nanos() != 0 {
            return Err(LeaseError::InvalidOption(format!(
                "ttl {:?} must be whole seconds, at least 1 (etcd's unit)",
                self.ttl
            )));
        }
        if self.window.is_zero() || self.window >= self.ttl {
            return Err(LeaseError::InvalidOption(format!(
                "window {:?} must be above 0 and below the ttl ({:?})",
                self.window, self.ttl
            )));
        }
        // A holder that just left an identity reserved up to a window ahead: its
        // successor must be able to wait that out.
        if self.window >= self.max_clock_wait {
            return Err(LeaseError::InvalidOption(format!(
                "window {:?} must be below max_clock_wait ({:?})",
                self.window, self.max_clock_wait
            )));
        }
        Ok(())
    }
}

impl LeaseOptions {
    /// How long the holder waits for one store call in its rounds: a third of the lesser of
    /// the TTL and 1.5 windows, so that a call stuck in an election leaves time to try
    /// again before the reserved time runs out. The stores bound their own work by it.
    pub(crate) fn call_bound(&self) -> Duration {
        self.ttl.min(self.window * 3 / 2) / 3
    }
}

/// `/a/b`: starts with `/`, no empty segment, no trailing `/`, printable ASCII.
pub(crate) fn check_prefix(prefix: &str) -> Result<(), LeaseError> {
    let ok = prefix.starts_with('/')
        && prefix.len() > 1
        && !prefix.ends_with('/')
        && !prefix.contains("//")
        && prefix.bytes().all(|b| b.is_ascii_graphic());
    if ok {
        Ok(())
    } else {
        Err(LeaseError::InvalidPrefix(prefix.to_owned()))
    }
}

/// The host name, for the holder's name and for where `auto` starts looking.
pub(crate) fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .map(|name| name.trim().to_owned())
        .filter(|name| !name.is_empty())
        .unwrap_or_else(|| "unknown-host".to_owned())
}

//! What the service is given: where its IDs come from.

use snowflake_kit::Identity;
use snowflake_lease::{EtcdConfig, LeaseError, LeaseOptions, PgConfig, StoreKind};

/// The service's configuration: where its IDs come from (no identity, one given, or one leased
/// from a store), made by a constructor or from the binary's flags.
///
/// ```
/// use snowflake_kit::Identity;
/// use snowflake_server::Config;
///
/// let config = Config::unleased(Identity::new(1, 1)?);
/// # let _ = config;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Config {
    pub(crate) identity: IdentityConfig,
}

/// How the service gets its identity.
#[derive(Debug)]
#[expect(clippy::large_enum_variant, reason = "made once, at start")]
pub(crate) enum IdentityConfig {
    None,
    Unleased(Identity),
    Leased {
        store: StoreConfig,
        options: LeaseOptions,
    },
}

impl Config {
    /// No identity: the ID endpoints and `/readyz` answer 503, the rest as usual.
    ///
    /// ```
    /// let config = snowflake_server::Config::without_identity();
    /// # let _ = config;
    /// ```
    #[must_use]
    pub fn without_identity() -> Config {
        Config {
            identity: IdentityConfig::None,
        }
    }

    /// An identity given, without a lease: the operator keeps it unique.
    ///
    /// ```
    /// let config = snowflake_server::Config::unleased(snowflake_kit::Identity::new(1, 2)?);
    /// # let _ = config;
    /// # Ok::<(), snowflake_kit::FieldRangeError>(())
    /// ```
    #[must_use]
    pub fn unleased(identity: Identity) -> Config {
        Config {
            identity: IdentityConfig::Unleased(identity),
        }
    }

    /// An identity leased from `store` as `options` say; the service answers while claiming it.
    ///
    /// ```
    /// use snowflake_lease::{EtcdConfig, LeaseOptions};
    /// use snowflake_server::{Config, StoreConfig};
    ///
    /// let store = StoreConfig::Etcd(EtcdConfig::new("http://127.0.0.1:2379")?);
    /// let config = Config::leased(store, LeaseOptions::default())?;
    /// # let _ = config;
    /// # Ok::<(), snowflake_lease::LeaseError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// Options that [`LeaseOptions::check`] refuses, caught here rather than after the start.
    pub fn leased(store: StoreConfig, options: LeaseOptions) -> Result<Config, LeaseError> {
        options.check()?;
        Ok(Config {
            identity: IdentityConfig::Leased { store, options },
        })
    }
}

/// Which store a leased identity comes from, and how to reach it.
///
/// ```
/// use snowflake_lease::PgConfig;
/// use snowflake_server::StoreConfig;
///
/// let store = StoreConfig::Postgres(PgConfig::new("postgres://ids@127.0.0.1:5432/app")?);
/// # let _ = store;
/// # Ok::<(), snowflake_lease::LeaseError>(())
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum StoreConfig {
    /// etcd's v3 API.
    Etcd(EtcdConfig),
    /// PostgreSQL.
    Postgres(PgConfig),
}

impl StoreConfig {
    pub(crate) fn kind(&self) -> StoreKind {
        match self {
            StoreConfig::Etcd(_) => StoreKind::Etcd,
            StoreConfig::Postgres(_) => StoreKind::Postgres,
        }
    }
}

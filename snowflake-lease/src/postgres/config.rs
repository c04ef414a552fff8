//! [`PgConfig`]: where the PostgreSQL store is, how to reach it, and in which schema.

use std::fmt;
use std::sync::Arc;

use crate::error::{LeaseError, StoreKind};

/// How to reach the database of a [`PgStore`](crate::PgStore): a libpq-style URL, the
/// password if the URL has none, the CA that verifies its certificate, and the schema.
///
/// ```
/// use snowflake_lease::PgConfig;
///
/// let config = PgConfig::new("postgres://ids@db.internal:5432/app")?
///     .with_password("from a file, or $PGPASSWORD")
///     .with_schema("snowflake_ids")?;
/// assert_eq!(config.endpoint(), "postgres://ids@db.internal:5432/app");
/// assert_eq!(config.schema(), "snowflake_ids");
/// assert!(!format!("{config:?}").contains("PGPASSWORD"));
/// # Ok::<(), snowflake_lease::LeaseError>(())
/// ```
///
/// # Where the password comes from
///
/// In the URL (`postgres://user:secret@host/db`), as libpq reads it; or given here, read
/// by the application from a file or from `PGPASSWORD`. A file (mode 0600) or the
/// environment are to be preferred: a URL with its password on a command line is seen by
/// every user of the host through `ps` and `/proc/PID/cmdline`, and lands in shell
/// history; the environment is seen only by the process's own user and root.
#[derive(Clone)]
pub struct PgConfig {
    pub(crate) config: tokio_postgres::Config,
    pub(crate) ca_pem: Option<Arc<[u8]>>,
    pub(crate) schema: String,
    endpoint: String,
}

impl fmt::Debug for PgConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Never the password.
        f.debug_struct("PgConfig")
            .field("endpoint", &self.endpoint)
            .field("schema", &self.schema)
            .field("tls", &self.is_tls())
            .finish_non_exhaustive()
    }
}

impl PgConfig {
    /// The schema's name when none is given.
    pub const DEFAULT_SCHEMA: &str = "snowflake";

    /// Reads `url`: `postgres://[user[:password]@]host[:port][/database][?param=value]`, as
    /// libpq does (`postgresql://` too; `host=... port=...` key-value text as well). One
    /// host: a PostgreSQL primary.
    ///
    /// ```
    /// use snowflake_lease::PgConfig;
    ///
    /// assert!(PgConfig::new("postgres://127.0.0.1:5432/postgres").is_ok());
    /// let e = PgConfig::new("http://127.0.0.1:2379").unwrap_err();
    /// assert!(e.to_string().contains("postgres://"), "{e}");
    /// ```
    ///
    /// # Errors
    ///
    /// [`LeaseError::InvalidEndpoint`] when it cannot be read, names no host or several.
    pub fn new(url: &str) -> Result<PgConfig, LeaseError> {
        let invalid = |reason: &str| LeaseError::InvalidEndpoint {
            store: StoreKind::Postgres,
            endpoint: redact(url),
            reason: reason.to_owned(),
        };
        if url.contains("://")
            && !(url.starts_with("postgres://") || url.starts_with("postgresql://"))
        {
            return Err(invalid(
                "expected postgres://[user[:password]@]host[:port][/database]",
            ));
        }
        let config: tokio_postgres::Config = url.parse().map_err(|e: tokio_postgres::Error| {
            if url.contains("sslmode=verify") {
                invalid(
                    "sslmode=verify-ca and verify-full are libpq's: give the CA instead \
                     (PgConfig::with_ca_pem, --postgres-ca), which verifies the server's \
                     certificate and its name",
                )
            } else {
                invalid(&format!(
                    "{e}; expected postgres://[user[:password]@]host[:port][/database]"
                ))
            }
        })?;
        match config.get_hosts() {
            [] => return Err(invalid("it names no host")),
            [_] => {}
            _ => {
                return Err(invalid(
                    "it names several hosts: give the primary's alone (leases need one \
                     primary; see the crate's docs on failover)",
                ));
            }
        }
        let endpoint = endpoint(&config);
        Ok(PgConfig {
            config,
            ca_pem: None,
            schema: PgConfig::DEFAULT_SCHEMA.to_owned(),
            endpoint,
        })
    }

    /// The password, when the URL has none (a URL's own password stays).
    #[must_use]
    pub fn with_password(mut self, password: impl AsRef<[u8]>) -> PgConfig {
        if self.config.get_password().is_none() {
            self.config.password(password);
        }
        self
    }

    /// Connects over TLS, and only over TLS, verifying the server's certificate and its
    /// name against this CA (PEM), as libpq's `sslmode=verify-full` does.
    #[must_use]
    pub fn with_ca_pem(mut self, pem: impl Into<Vec<u8>>) -> PgConfig {
        self.ca_pem = Some(pem.into().into());
        self
    }

    /// The schema of the store's tables (default `snowflake`): lower-case letters, digits and
    /// `_`, not starting with a digit nor with `pg_` (PostgreSQL's own), at most 63
    /// characters.
    ///
    /// # Errors
    ///
    /// [`LeaseError::InvalidOption`] for another name.
    pub fn with_schema(mut self, schema: &str) -> Result<PgConfig, LeaseError> {
        check_schema(schema)?;
        schema.clone_into(&mut self.schema);
        Ok(self)
    }

    /// The URL without its password: for messages and logs.
    pub fn endpoint(&self) -> &str {
        &self.endpoint
    }

    /// The schema of the store's tables.
    pub fn schema(&self) -> &str {
        &self.schema
    }

    /// Whether it connects over TLS (a CA was given).
    pub fn is_tls(&self) -> bool {
        self.ca_pem.is_some()
    }

    /// The user it connects as, if the URL names one.
    pub fn user(&self) -> Option<&str> {
        self.config.get_user()
    }

    /// Whether it has a password, from the URL or [`with_password`](PgConfig::with_password).
    pub fn has_password(&self) -> bool {
        self.config.get_password().is_some()
    }

    /// Checks what can be checked before connecting: a CA that holds a certificate, and
    /// `sslmode=require` only with one.
    ///
    /// ```
    /// use snowflake_lease::PgConfig;
    ///
    /// let url = "postgres://db/app?sslmode=require";
    /// assert!(PgConfig::new(url)?.check().is_err());
    /// assert!(PgConfig::new("postgres://db/app")?.with_ca_pem(b"no PEM".to_vec()).check().is_err());
    /// assert!(PgConfig::new("postgres://db/app")?.check().is_ok());
    /// # Ok::<(), snowflake_lease::LeaseError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`LeaseError::InvalidCa`] for a CA that is no certificate, or
    /// [`LeaseError::InvalidEndpoint`] for `sslmode=require` without a CA.
    pub fn check(&self) -> Result<(), LeaseError> {
        self.tls().map(drop)
    }

    /// The TLS connector, if a CA was given.
    pub(crate) fn tls(
        &self,
    ) -> Result<Option<tokio_postgres_rustls::MakeRustlsConnect>, LeaseError> {
        let invalid = |reason: String| LeaseError::InvalidEndpoint {
            store: StoreKind::Postgres,
            endpoint: self.endpoint.clone(),
            reason,
        };
        match &self.ca_pem {
            Some(pem) => make_tls(pem)
                .map(Some)
                .map_err(|reason| LeaseError::InvalidCa {
                    store: StoreKind::Postgres,
                    reason,
                }),
            None if self.config.get_ssl_mode() == tokio_postgres::config::SslMode::Require => {
                Err(invalid(
                    "sslmode=require needs the CA that signed the server's certificate \
                     (PgConfig::with_ca_pem, --postgres-ca)"
                        .to_owned(),
                ))
            }
            None => Ok(None),
        }
    }
}

/// rustls, verifying the server's certificate and name against the CA in `pem`.
fn make_tls(pem: &[u8]) -> Result<tokio_postgres_rustls::MakeRustlsConnect, String> {
    use rustls_pki_types::pem::PemObject;
    let mut roots = rustls::RootCertStore::empty();
    for cert in rustls_pki_types::CertificateDer::pem_slice_iter(pem) {
        let cert = cert.map_err(|e| format!("not PEM: {e}"))?;
        roots
            .add(cert)
            .map_err(|e| format!("not a certificate: {e}"))?;
    }
    if roots.is_empty() {
        return Err("no certificate in it".to_owned());
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| e.to_string())?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(tokio_postgres_rustls::MakeRustlsConnect::new(config))
}

/// A schema's name that needs no quoting and is not PostgreSQL's own: the runtime's rule.
pub(crate) fn check_schema(schema: &str) -> Result<(), LeaseError> {
    snowflake_runtime::sql::check_schema_name(schema)
        .map_err(|e| LeaseError::InvalidOption(e.to_string()))
}

/// `postgres://user@host:port/database`, from what was read: no password, ever.
fn endpoint(config: &tokio_postgres::Config) -> String {
    let user = config
        .get_user()
        .map(|user| format!("{user}@"))
        .unwrap_or_default();
    let host = match config.get_hosts().first() {
        Some(tokio_postgres::config::Host::Tcp(host)) if host.contains(':') => format!("[{host}]"),
        Some(tokio_postgres::config::Host::Tcp(host)) => host.clone(),
        #[cfg(unix)]
        Some(tokio_postgres::config::Host::Unix(path)) => path.display().to_string(),
        None => String::new(),
    };
    let port = config.get_ports().first().copied().unwrap_or(5432);
    let database = config
        .get_dbname()
        .map(|db| format!("/{db}"))
        .unwrap_or_default();
    format!("postgres://{user}{host}:{port}{database}")
}

/// A URL that could not be read, as a message may show it: the scheme, and the host and
/// port after the last `@`; never what comes before the `@` (a password, whatever its
/// characters) nor the path and query (`?password=`). Key-value text is not shown at all.
fn redact(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return "(key-value text, not shown: it may hold a password)".to_owned();
    };
    let (user_info, host) = match rest.rsplit_once('@') {
        Some((_, host)) => ("***@", host),
        None => ("", rest),
    };
    let host = host.split(['/', '?']).next().unwrap_or_default();
    format!("{scheme}://{user_info}{host}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_never_shows() {
        let config = PgConfig::new("postgres://ids:s3cret@db:6543/app?sslmode=disable").unwrap();
        assert_eq!(config.endpoint(), "postgres://ids@db:6543/app");
        assert!(config.has_password());
        assert!(!format!("{config:?}").contains("s3cret"));
        // The URL's own password stays; another is only for a URL without one.
        let config = config.with_password("other");
        assert_eq!(config.config.get_password(), Some(&b"s3cret"[..]));
        for (url, shown) in [
            (
                "postgres://ids:s3cret@db:notaport/app",
                "\"postgres://***@db:notaport\"",
            ),
            // A `/`, `?` or `@` in the password, and one in the query.
            (
                "postgres://ids:s3/c?r@et@db:x/app",
                "\"postgres://***@db:x\"",
            ),
            (
                "postgres://ids@db/app?password=s3cret&port=x",
                "\"postgres://***@db\"",
            ),
            (
                "host=db password = 's3cret x' port=x",
                "(key-value text, not shown",
            ),
        ] {
            let e = PgConfig::new(url).unwrap_err().to_string();
            assert!(!e.contains("s3") && !e.contains("et@"), "{e}");
            assert!(e.contains(shown), "{url}: {e}");
        }
    }

    #[test]
    fn one_postgres_host() {
        assert_eq!(
            PgConfig::new("postgresql://[::1]/x").unwrap().endpoint(),
            "postgres://[::1]:5432/x"
        );
        for (url, reason) in [
            ("http://db:2379", "expected postgres://"),
            ("postgres://a,b/x", "several hosts"),
            ("postgres:///x", "no host"),
        ] {
            let e = PgConfig::new(url).unwrap_err().to_string();
            assert!(e.contains(reason), "{url}: {e}");
        }
    }

    #[test]
    fn schema_names_of_lower_case_letters_digits_and_underscores() {
        for ok in ["snowflake", "_a", "ids_2", &"s".repeat(63)] {
            assert!(check_schema(ok).is_ok(), "{ok}");
        }
        for bad in [
            "",
            "2ids",
            "Ids",
            "a-b",
            "a b",
            "a\"b",
            "pg_ids",
            &"s".repeat(64),
        ] {
            let e = check_schema(bad).unwrap_err().to_string();
            assert!(e.contains("lower-case letters"), "{bad}: {e}");
        }
    }
}

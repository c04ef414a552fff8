//! [`EtcdConfig`]: where the etcd cluster is and how to reach it: its members, TLS and
//! a user. Checked before anything connects.

use core::fmt;

use crate::error::{LeaseError, StoreKind};

/// The members of an etcd cluster, and how to reach them: plain HTTP, or TLS verified
/// against a CA (with a client certificate for mutual TLS), and optionally a user.
///
/// The client fails over between the members: one that dies costs the requests in
/// flight to it, which the holder retries at its next tick.
///
/// ```
/// use snowflake_lease::EtcdConfig;
///
/// let config = EtcdConfig::new("http://10.0.0.1:2379,http://10.0.0.2:2379")?
///     .with_user("snowflake", "secret");
/// assert_eq!(config.endpoints(), ["http://10.0.0.1:2379", "http://10.0.0.2:2379"]);
/// // The password never shows.
/// assert!(!format!("{config:?}").contains("secret"));
///
/// // All members speak the same scheme.
/// assert!(EtcdConfig::new("http://a:2379,https://b:2379").is_err());
/// # Ok::<(), snowflake_lease::LeaseError>(())
/// ```
#[derive(Clone)]
pub struct EtcdConfig {
    pub(crate) endpoints: Vec<String>,
    pub(crate) tls: bool,
    pub(crate) ca_pem: Option<Vec<u8>>,
    pub(crate) client_pem: Option<(Vec<u8>, Vec<u8>)>,
    pub(crate) user: Option<(String, String)>,
}

impl fmt::Debug for EtcdConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EtcdConfig")
            .field("endpoints", &self.endpoints)
            .field("ca", &self.ca_pem.is_some())
            .field("client_certificate", &self.client_pem.is_some())
            .field("user", &self.user.as_ref().map(|(name, _)| name))
            .finish_non_exhaustive()
    }
}

impl EtcdConfig {
    /// The members, comma-separated: `http://host:port,...` (or `host:port`, as http),
    /// or `https://host:port,...`, never both.
    ///
    /// ```
    /// use snowflake_lease::EtcdConfig;
    ///
    /// let config = EtcdConfig::new("127.0.0.1:2379")?;
    /// assert_eq!(config.endpoints(), ["http://127.0.0.1:2379"]);
    /// assert!(!config.is_tls());
    /// # Ok::<(), snowflake_lease::LeaseError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`LeaseError::InvalidEndpoint`]: an empty list, a malformed member, or schemes
    /// that differ.
    pub fn new(endpoints: &str) -> Result<EtcdConfig, LeaseError> {
        let mut checked = Vec::new();
        let mut tls = None;
        for endpoint in endpoints.split(',') {
            let (url, secure) = check(endpoint.trim())?;
            if *tls.get_or_insert(secure) != secure {
                return Err(LeaseError::InvalidEndpoint {
                    store: StoreKind::Etcd,
                    endpoint: endpoints.to_owned(),
                    reason: "the members mix http:// and https://; use one scheme for all"
                        .to_owned(),
                });
            }
            checked.push(url);
        }
        Ok(EtcdConfig {
            endpoints: checked,
            tls: tls.unwrap_or(false),
            ca_pem: None,
            client_pem: None,
            user: None,
        })
    }

    /// The CA certificate (PEM) that `https://` members are verified against. Needs
    /// this crate's `tls` feature.
    ///
    /// ```
    /// use snowflake_lease::EtcdConfig;
    ///
    /// let ca = b"-----BEGIN CERTIFICATE-----\n...\n-----END CERTIFICATE-----\n";
    /// let config = EtcdConfig::new("https://etcd-0:2379")?.with_ca_pem(ca.to_vec());
    /// assert!(config.is_tls());
    /// # Ok::<(), snowflake_lease::LeaseError>(())
    /// ```
    #[must_use]
    pub fn with_ca_pem(mut self, pem: Vec<u8>) -> EtcdConfig {
        self.ca_pem = Some(pem);
        self
    }

    /// A client certificate and its private key (PEM), for members that demand mutual
    /// TLS. Needs this crate's `tls` feature.
    ///
    /// ```
    /// use snowflake_lease::EtcdConfig;
    ///
    /// let (cert, key) = (b"cert".to_vec(), b"key".to_vec());
    /// let config = EtcdConfig::new("https://etcd-0:2379")?.with_client_pem(cert, key);
    /// # Ok::<(), snowflake_lease::LeaseError>(())
    /// ```
    #[must_use]
    pub fn with_client_pem(mut self, certificate: Vec<u8>, key: Vec<u8>) -> EtcdConfig {
        self.client_pem = Some((certificate, key));
        self
    }

    /// A user and password for a cluster with auth enabled. The client authenticates
    /// when it connects, and again whenever its token expires.
    ///
    /// ```
    /// use snowflake_lease::EtcdConfig;
    ///
    /// let config = EtcdConfig::new("http://127.0.0.1:2379")?.with_user("snowflake", "secret");
    /// assert_eq!(config.user(), Some("snowflake"));
    /// # Ok::<(), snowflake_lease::LeaseError>(())
    /// ```
    #[must_use]
    pub fn with_user(mut self, name: impl Into<String>, password: impl Into<String>) -> Self {
        self.user = Some((name.into(), password.into()));
        self
    }

    /// The members, as `scheme://host:port`.
    pub fn endpoints(&self) -> &[String] {
        &self.endpoints
    }

    /// Whether the members are `https://`.
    pub fn is_tls(&self) -> bool {
        self.tls
    }

    /// The user's name, if one is set.
    pub fn user(&self) -> Option<&str> {
        self.user.as_ref().map(|(name, _)| name.as_str())
    }

    /// Whether the TLS settings fit the scheme, and this build has TLS if they ask
    /// for it.
    pub(crate) fn check_tls(&self) -> Result<(), LeaseError> {
        let invalid = |reason: &str| LeaseError::InvalidEndpoint {
            store: StoreKind::Etcd,
            endpoint: self.endpoints.join(","),
            reason: reason.to_owned(),
        };
        if !self.tls {
            if self.ca_pem.is_some() || self.client_pem.is_some() {
                return Err(invalid(
                    "a CA or client certificate is for https:// members; these are http://",
                ));
            }
            return Ok(());
        }
        if !cfg!(feature = "tls") {
            return Err(invalid(
                "https:// needs the `tls` feature of snowflake-lease, which this build leaves out",
            ));
        }
        if self.ca_pem.is_none() {
            return Err(invalid(
                "https:// members need the CA certificate that signed theirs (with_ca_pem)",
            ));
        }
        Ok(())
    }
}

/// Checks an etcd address: `http://host:port`, `https://host:port`, or `host:port` (as
/// http). The address with its scheme, and whether it is https; or
/// [`LeaseError::InvalidEndpoint`], saying what is wrong.
fn check(endpoint: &str) -> Result<(String, bool), LeaseError> {
    let invalid = |reason: &str| LeaseError::InvalidEndpoint {
        store: StoreKind::Etcd,
        endpoint: endpoint.to_owned(),
        reason: reason.to_owned(),
    };
    let (scheme, rest) = match endpoint.split_once("://") {
        Some((scheme @ ("http" | "https"), rest)) => (scheme, rest),
        Some((scheme, _)) => {
            return Err(invalid(&format!(
                "scheme `{scheme}` is not supported; expected http://host:port or https://host:port"
            )));
        }
        None => ("http", endpoint),
    };
    let rest = rest.strip_suffix('/').unwrap_or(rest);
    let Some((host, port)) = rest.rsplit_once(':') else {
        return Err(invalid("expected host:port, such as http://127.0.0.1:2379"));
    };
    let host_ok = !host.is_empty()
        && host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'[' | b']' | b':'));
    if !host_ok {
        return Err(invalid(
            "the host is empty or has characters no host name has",
        ));
    }
    if port.parse::<u16>().map_or(true, |port| port == 0) {
        return Err(invalid("the port is not a number in 1..=65535"));
    }
    Ok((format!("{scheme}://{host}:{port}"), scheme == "https"))
}

#[cfg(test)]
mod tests {
    use super::check;

    #[test]
    fn an_address_gets_its_scheme_and_a_wrong_one_says_what_is_wrong() {
        assert_eq!(
            check("127.0.0.1:2379").unwrap(),
            ("http://127.0.0.1:2379".to_owned(), false)
        );
        assert_eq!(
            check("https://etcd-0:2379/").unwrap(),
            ("https://etcd-0:2379".to_owned(), true)
        );
        for (bad, reason) in [
            ("ftp://etcd:2379", "scheme `ftp` is not supported"),
            ("http://etcd", "expected host:port"),
            ("http://:2379", "the host is empty"),
            ("http://et cd:2379", "characters no host name has"),
            ("http://etcd:0", "not a number in 1..=65535"),
            ("http://etcd:65536", "not a number in 1..=65535"),
        ] {
            let e = check(bad).unwrap_err().to_string();
            assert!(e.contains(bad) && e.contains(reason), "{bad}: {e}");
        }
    }
}

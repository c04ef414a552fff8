//! The binary's flags, checked into a [`Config`]: every rule about which flags go together,
//! and every file a flag names read before the start.

use std::fmt;
use std::net::SocketAddr;
use std::time::Duration;

use clap::Parser;
use snowflake_kit::__private::parse_decimal;
use snowflake_kit::{Field, Identity};
use snowflake_lease::{EtcdConfig, LeaseError, LeaseOptions, PgConfig, PgStore, StoreKind};

use crate::config::{Config, StoreConfig};
use crate::logging::LogFormat;

/// The binary's flags (`snowflake-server --help`), for an application that takes the same
/// ones: parse them with clap (`Flags::try_parse`, or `#[command(flatten)]` in the
/// application's own), then [`Flags::startup`] checks them into what to do.
///
/// ```
/// use clap::Parser;
/// use snowflake_server::{Flags, Startup};
///
/// let flags = Flags::try_parse_from(["snowflake-server", "--dc", "1", "--machine", "2"])?;
/// let Startup::Serve { listen, .. } = flags.startup()? else { unreachable!() };
/// assert_eq!(listen.to_string(), "127.0.0.1:8080");
///
/// let flags = Flags::try_parse_from(["snowflake-server", "--dc", "32", "--machine", "2"])?;
/// let error = flags.startup().unwrap_err();
/// assert_eq!(error.to_string(), "--dc: datacenter 32 is out of range 0..=31 (5 bits)");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Parser, Debug)]
#[command(
    name = "snowflake-server",
    version,
    max_term_width = 100,
    about = "Serve the Snowflake ID page and an ID service.",
    long_about = "Serve the Snowflake ID page and an ID service.\n\nEvery flag can come from the \
                  environment instead: `--lease-ttl` from `SNOWFLAKE_LEASE_TTL`, and so on \
                  (shown in `--help`); a flag given beats its variable."
)]
pub struct Flags {
    /// The address to listen on.
    #[arg(
        long,
        env = "SNOWFLAKE_LISTEN",
        value_name = "ADDR",
        default_value = "127.0.0.1:8080"
    )]
    listen: String,
    /// Datacenter id, 0..=31: of an exact identity (with --machine), leased with --etcd or
    /// --postgres and unleased without; or the datacenter to lease any free machine of
    /// (with --etcd or --postgres, and --auto).
    #[arg(long, env = "SNOWFLAKE_DC", value_name = "N")]
    dc: Option<String>,
    /// Machine id, 0..=31: of an exact identity (with --dc).
    #[arg(long, env = "SNOWFLAKE_MACHINE", value_name = "N")]
    machine: Option<String>,
    /// Lease the identity from etcd: its members, comma-separated, all http://host:port
    /// or all https://host:port.
    #[arg(long, env = "SNOWFLAKE_ETCD", value_name = "URL[,URL...]")]
    etcd: Option<String>,
    /// The CA certificate (PEM) that https:// members are verified against.
    #[arg(long, env = "SNOWFLAKE_ETCD_CA", value_name = "FILE")]
    etcd_ca: Option<String>,
    /// A client certificate (PEM) for members that demand mutual TLS (with --etcd-key).
    #[arg(long, env = "SNOWFLAKE_ETCD_CERT", value_name = "FILE")]
    etcd_cert: Option<String>,
    /// The client certificate's private key (PEM) (with --etcd-cert).
    #[arg(long, env = "SNOWFLAKE_ETCD_KEY", value_name = "FILE")]
    etcd_key: Option<String>,
    /// The etcd user, for clusters with auth enabled; its password comes from
    /// --etcd-password-file or the environment variable SNOWFLAKE_ETCD_PASSWORD.
    #[expect(clippy::doc_markdown, reason = "--help shows it as written")]
    #[arg(long, env = "SNOWFLAKE_ETCD_USER", value_name = "NAME")]
    etcd_user: Option<String>,
    /// A file holding the etcd user's password (one line).
    #[arg(long, env = "SNOWFLAKE_ETCD_PASSWORD_FILE", value_name = "FILE")]
    etcd_password_file: Option<String>,
    /// The key prefix in etcd [default: /snowflake-kit/v1/default].
    #[arg(long, env = "SNOWFLAKE_ETCD_PREFIX", value_name = "P")]
    etcd_prefix: Option<String>,
    /// Lease the identity from PostgreSQL instead: postgres://USER@HOST:PORT/DATABASE.
    /// The password from --postgres-password-file or PGPASSWORD: one in the URL works, but
    /// `ps` shows it to every user of the host.
    #[arg(long, env = "SNOWFLAKE_POSTGRES", value_name = "URL")]
    postgres: Option<String>,
    /// The CA certificate (PEM) the database's certificate and name are verified against;
    /// given, the connection is TLS or nothing.
    #[arg(long, env = "SNOWFLAKE_POSTGRES_CA", value_name = "FILE")]
    postgres_ca: Option<String>,
    /// A file holding the PostgreSQL user's password (one line).
    #[arg(long, env = "SNOWFLAKE_POSTGRES_PASSWORD_FILE", value_name = "FILE")]
    postgres_password_file: Option<String>,
    /// The schema of the lease tables in PostgreSQL, made on first use when it has none
    /// [default: snowflake].
    #[arg(long, env = "SNOWFLAKE_POSTGRES_SCHEMA", value_name = "NAME")]
    postgres_schema: Option<String>,
    /// Print the SQL that makes the lease tables in --postgres-schema, for a migration that
    /// is reviewed, and exit.
    #[arg(long)]
    print_postgres_schema: bool,
    /// Lease any free identity of all 1,024 (with --etcd or --postgres), or with --dc any
    /// free machine of that datacenter.
    #[arg(long, env = "SNOWFLAKE_AUTO", value_parser = clap::builder::BoolishValueParser::new())]
    auto: bool,
    /// The lease's time to live, in seconds (with --etcd or --postgres) [default: 10].
    #[arg(long, env = "SNOWFLAKE_LEASE_TTL", value_name = "SECONDS")]
    lease_ttl: Option<String>,
    /// How long to wait for an exact identity, or a machine of --dc, to come free (with
    /// --etcd or --postgres), in seconds; 0 fails at once [default: 30].
    #[arg(long, env = "SNOWFLAKE_CLAIM_WAIT", value_name = "SECONDS")]
    claim_wait: Option<String>,
    /// How events are written to stderr (which ones: RUST_LOG, default info).
    #[expect(clippy::doc_markdown, reason = "--help shows it as written")]
    #[arg(
        long,
        env = "SNOWFLAKE_LOG_FORMAT",
        value_name = "FORMAT",
        value_enum,
        default_value = "auto"
    )]
    log_format: LogFormat,
}

/// Where the etcd password comes from when it is not in a file.
const PASSWORD_VARIABLE: &str = "SNOWFLAKE_ETCD_PASSWORD";
/// Where the PostgreSQL password comes from when it is neither in the URL nor in a file:
/// libpq's own variable.
const PG_PASSWORD_VARIABLE: &str = "PGPASSWORD";

/// A bad flag, or flags that do not go together: one line that names the flag, the value
/// and what is allowed (the binary prints it and exits with status 2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlagError(String);

impl fmt::Display for FlagError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for FlagError {}

/// What the flags ask for. Exhaustive on purpose: a new action of the flags is one that
/// an application matching on it must handle.
#[derive(Debug)]
#[expect(clippy::large_enum_variant, reason = "made once, at start")]
pub enum Startup {
    /// `--print-postgres-schema`: print this SQL, the lease tables of `--postgres-schema`,
    /// and exit.
    PrintPostgresSchema(String),
    /// Serve on `listen`, writing events as `log_format` says.
    #[non_exhaustive]
    Serve {
        /// `--listen`.
        listen: SocketAddr,
        /// `--log-format`.
        log_format: LogFormat,
        /// The identity and its store.
        config: Config,
    },
}

impl Flags {
    /// Checks the flags, and reads the files they name (passwords, certificates): a file
    /// that cannot be read is a bad flag here, not a failure after the start.
    ///
    /// # Errors
    ///
    /// [`FlagError`], naming the flag, its value and what is allowed.
    pub fn startup(&self) -> Result<Startup, FlagError> {
        if self.print_postgres_schema {
            let schema = self
                .postgres_schema
                .as_deref()
                .unwrap_or(PgConfig::DEFAULT_SCHEMA);
            return PgStore::schema_sql(schema)
                .map(Startup::PrintPostgresSchema)
                .map_err(|e| FlagError(format!("--postgres-schema: {e}")));
        }
        let (listen, config) = plan(self)?;
        Ok(Startup::Serve {
            listen,
            log_format: self.log_format,
            config,
        })
    }
}

fn plan(args: &Flags) -> Result<(SocketAddr, Config), FlagError> {
    let listen = args.listen.parse::<SocketAddr>().map_err(|_| {
        FlagError(format!(
            "invalid --listen {:?}: expected an address and port such as 127.0.0.1:8080",
            args.listen
        ))
    })?;
    // Read and checked once, by the runtime's rules; the identity then goes on as it is.
    let field = |field: Field, text: &str| {
        field
            .parse(text)
            .map_err(|e| FlagError(format!("--{}: {}", field.key(), e.with_input(text))))
    };
    let dc = args
        .dc
        .as_deref()
        .map(|dc| field(Field::Datacenter, dc))
        .transpose()?;
    let machine = args
        .machine
        .as_deref()
        .map(|machine| field(Field::Machine, machine))
        .transpose()?;
    let identity = match (dc, machine, args.auto) {
        (Some(dc), Some(machine), _) => {
            Some(Identity::new(dc, machine).map_err(|e| FlagError(e.to_string()))?)
        }
        (Some(_), None, false) => {
            return Err(FlagError(
                "--dc needs --machine too, or --auto (with --etcd or --postgres) for any free \
                 machine of it"
                    .to_owned(),
            ));
        }
        (None, Some(_), _) => return Err(FlagError("--machine needs --dc too".to_owned())),
        _ => None,
    };
    let Some(store) = store(args)? else {
        return Ok((
            listen,
            identity.map_or_else(Config::without_identity, Config::unleased),
        ));
    };
    let options = lease_options(args, identity, dc, store.kind())?;
    // The options were checked above, with the flag to name.
    let config = Config::leased(store, options).map_err(|e| FlagError(e.to_string()))?;
    Ok((listen, config))
}

/// The store of a leased identity, from the flags: `None` without `--etcd` and
/// `--postgres`, where every flag about a store is a bad flag.
fn store(args: &Flags) -> Result<Option<StoreConfig>, FlagError> {
    let etcd_flags = [
        (args.etcd_prefix.is_some(), "--etcd-prefix"),
        (args.etcd_ca.is_some(), "--etcd-ca"),
        (args.etcd_cert.is_some(), "--etcd-cert"),
        (args.etcd_key.is_some(), "--etcd-key"),
        (args.etcd_user.is_some(), "--etcd-user"),
        (args.etcd_password_file.is_some(), "--etcd-password-file"),
    ];
    let postgres_flags = [
        (args.postgres_ca.is_some(), "--postgres-ca"),
        (
            args.postgres_password_file.is_some(),
            "--postgres-password-file",
        ),
        (args.postgres_schema.is_some(), "--postgres-schema"),
    ];
    let lease_flags = [
        (args.auto, "--auto"),
        (args.lease_ttl.is_some(), "--lease-ttl"),
        (args.claim_wait.is_some(), "--claim-wait"),
    ];
    let first = |flags: &[(bool, &'static str)]| {
        flags
            .iter()
            .find_map(|&(given, flag)| given.then_some(flag))
    };
    Ok(Some(match (&args.etcd, &args.postgres) {
        (Some(_), Some(_)) => {
            return Err(FlagError(
                "--etcd and --postgres exclude each other: lease the identity from one store"
                    .to_owned(),
            ));
        }
        (None, None) => {
            if let Some(flag) = first(&lease_flags) {
                return Err(FlagError(format!(
                    "{flag} is about a leased identity: it needs --etcd URL or --postgres URL"
                )));
            }
            if let Some(flag) = first(&etcd_flags) {
                return Err(FlagError(format!(
                    "{flag} is about an identity leased from etcd: it needs --etcd URL"
                )));
            }
            if let Some(flag) = first(&postgres_flags) {
                return Err(FlagError(format!(
                    "{flag} is about an identity leased from PostgreSQL: it needs --postgres URL"
                )));
            }
            return Ok(None);
        }
        (Some(endpoints), None) => {
            if let Some(flag) = first(&postgres_flags) {
                return Err(FlagError(format!(
                    "{flag} is about an identity leased from PostgreSQL; --etcd leases from etcd"
                )));
            }
            // A malformed URL is a bad flag; an unreachable one is found when connecting.
            let config =
                EtcdConfig::new(endpoints).map_err(|e| FlagError(format!("--etcd: {e}")))?;
            StoreConfig::Etcd(etcd_access(args, config)?)
        }
        (None, Some(url)) => {
            if let Some(flag) = first(&etcd_flags) {
                return Err(FlagError(format!(
                    "{flag} is about an identity leased from etcd; --postgres leases from PostgreSQL"
                )));
            }
            StoreConfig::Postgres(postgres_access(args, url)?)
        }
    }))
}

/// The PostgreSQL URL, its password (the URL's, a file's, or `PGPASSWORD`), its CA and
/// schema from the flags.
fn postgres_access(args: &Flags, url: &str) -> Result<PgConfig, FlagError> {
    let mut config = PgConfig::new(url).map_err(|e| FlagError(format!("--postgres: {e}")))?;
    if let Some(path) = &args.postgres_password_file {
        if config.has_password() {
            return Err(FlagError(
                "--postgres-password-file: the URL has a password already; give one of them"
                    .to_owned(),
            ));
        }
        config = config.with_password(password_file("--postgres-password-file", path)?);
    } else if let Ok(password) = std::env::var(PG_PASSWORD_VARIABLE) {
        // As libpq: the URL's own password first.
        config = config.with_password(password);
    }
    if let Some(ca) = &args.postgres_ca {
        config = config.with_ca_pem(read("--postgres-ca", ca)?);
    }
    if let Some(schema) = &args.postgres_schema {
        config = config
            .with_schema(schema)
            .map_err(|e| FlagError(format!("--postgres-schema: {e}")))?;
    }
    // libpq's TLS variables are not read here: one asking for TLS without --postgres-ca
    // would otherwise connect in the clear without a word.
    if !config.is_tls()
        && let Ok(mode) = std::env::var("PGSSLMODE")
        && mode != "disable"
        && mode != "allow"
        && mode != "prefer"
    {
        return Err(FlagError(format!(
            "PGSSLMODE={mode} is libpq's and is not read: give --postgres-ca FILE, the CA \
             that signed the database's certificate, for TLS that verifies it"
        )));
    }
    config.check().map_err(|e| match e {
        LeaseError::InvalidCa { reason, .. } => FlagError(format!(
            "--postgres-ca {:?}: the CA: {reason}",
            args.postgres_ca.as_deref().unwrap_or("")
        )),
        e => FlagError(format!("--postgres: {e}")),
    })?;
    Ok(config)
}

/// The file a flag names, read now: one that cannot be read is a bad flag.
fn read(flag: &str, path: &str) -> Result<Vec<u8>, FlagError> {
    std::fs::read(path).map_err(|e| FlagError(format!("{flag} {path:?}: cannot read it: {e}")))
}

/// A password from a file: one line, UTF-8; the newline an editor adds is not part of it.
fn password_file(flag: &str, path: &str) -> Result<String, FlagError> {
    let text = String::from_utf8(read(flag, path)?)
        .map_err(|_| FlagError(format!("{flag} {path:?}: the password is not UTF-8")))?;
    Ok(text.trim_end_matches(['\n', '\r']).to_owned())
}

/// TLS and the user from the flags, each file read now: a file flag that names nothing
/// is a bad flag, as is half of a pair.
fn etcd_access(args: &Flags, mut config: EtcdConfig) -> Result<EtcdConfig, FlagError> {
    match (&args.etcd_ca, config.is_tls()) {
        (Some(ca), true) => config = config.with_ca_pem(read("--etcd-ca", ca)?),
        (None, true) => {
            return Err(FlagError(
                "--etcd https://... needs --etcd-ca FILE, the CA that signed the members' \
                 certificates"
                    .to_owned(),
            ));
        }
        (Some(_), false) => {
            return Err(FlagError(
                "--etcd-ca is for https:// members; --etcd lists http:// ones".to_owned(),
            ));
        }
        (None, false) => {}
    }
    match (&args.etcd_cert, &args.etcd_key) {
        (Some(_), Some(_)) if !config.is_tls() => {
            return Err(FlagError(
                "--etcd-cert and --etcd-key are for https:// members; --etcd lists http:// ones"
                    .to_owned(),
            ));
        }
        (Some(cert), Some(key)) => {
            config = config.with_client_pem(read("--etcd-cert", cert)?, read("--etcd-key", key)?);
        }
        (Some(_), None) => return Err(FlagError("--etcd-cert needs --etcd-key too".to_owned())),
        (None, Some(_)) => return Err(FlagError("--etcd-key needs --etcd-cert too".to_owned())),
        (None, None) => {}
    }
    let password = match &args.etcd_password_file {
        Some(path) => Some(password_file("--etcd-password-file", path)?),
        None => std::env::var(PASSWORD_VARIABLE).ok(),
    };
    match (&args.etcd_user, password) {
        (Some(user), Some(password)) => config = config.with_user(user, password),
        (Some(_), None) => {
            return Err(FlagError(format!(
                "--etcd-user needs a password: --etcd-password-file FILE, or the environment \
                 variable {PASSWORD_VARIABLE} (never a flag, which `ps` would show)"
            )));
        }
        (None, _) if args.etcd_password_file.is_some() => {
            return Err(FlagError(
                "--etcd-password-file needs --etcd-user, the user it is the password of".to_owned(),
            ));
        }
        (None, _) => {}
    }
    Ok(config)
}

/// A flag's whole seconds, `min..=3600`: the runtime's digits-only rule, then the range.
fn seconds(flag: &str, text: &str, min: u64) -> Result<Duration, FlagError> {
    let expected = format!("expected whole seconds in {min}..=3600");
    match parse_decimal(text) {
        Ok(seconds) if (min..=3600).contains(&seconds) => Ok(Duration::from_secs(seconds)),
        Ok(seconds) => Err(FlagError(format!(
            "{flag} {seconds} is out of range: {expected}"
        ))),
        Err(e) => Err(FlagError(format!("{flag} {text:?} is {e}: {expected}"))),
    }
}

/// The lease's options from the flags: which identity, how long the lease and the wait.
fn lease_options(
    args: &Flags,
    identity: Option<Identity>,
    dc: Option<u64>,
    store: StoreKind,
) -> Result<LeaseOptions, FlagError> {
    let ttl = seconds("--lease-ttl", args.lease_ttl.as_deref().unwrap_or("10"), 1)?;
    let mut options = LeaseOptions::default();
    if let Some(prefix) = &args.etcd_prefix {
        options.prefix.clone_from(prefix);
    }
    options.ttl = ttl;
    // The window must stay below the TTL.
    options.window = options.window.min(ttl / 2);
    if let Some(text) = &args.claim_wait {
        options.claim_wait = seconds("--claim-wait", text, 0)?;
    }
    options = match (args.auto, identity, dc) {
        (true, Some(_), _) => {
            return Err(FlagError(
                "--auto and --machine exclude each other: --auto leases any free machine"
                    .to_owned(),
            ));
        }
        (true, None, None) => options,
        (true, None, Some(dc)) => options
            .in_datacenter(dc)
            .map_err(|e| FlagError(format!("--dc: {e}")))?,
        (false, Some(identity), _) => options.exact(identity),
        (false, None, _) => {
            return Err(FlagError(format!(
                "--{} needs --auto (any free identity), --dc N --auto (any free machine of \
                 datacenter N), or --dc N --machine N (exactly that identity)",
                store.key()
            )));
        }
    };
    options.check().map_err(|e| match e {
        LeaseError::InvalidPrefix(_) => FlagError(format!("--etcd-prefix: {e}")),
        e => FlagError(e.to_string()),
    })?;
    Ok(options)
}

/// The flags' rules, case by case, without a process: what the binary prints after
/// `error: ` and before exiting with status 2 (`tests/process.rs` runs it for one case of
/// each kind).
#[cfg(test)]
mod tests {
    use clap::{CommandFactory, FromArgMatches};

    use super::{Flags, PASSWORD_VARIABLE, PG_PASSWORD_VARIABLE};

    /// What the binary says of `args`: clap's first line without its `error: `, or the
    /// [`FlagError`](super::FlagError) of [`Flags::startup`].
    fn refusal(args: &[&str]) -> String {
        // The command line written here, not the test's environment: the flags' variables
        // are not read, and the start-up's own must not be set.
        for name in [PASSWORD_VARIABLE, PG_PASSWORD_VARIABLE, "PGSSLMODE"] {
            assert!(
                std::env::var_os(name).is_none(),
                "{name} is set: the flags' tests need an environment without it"
            );
        }
        let command = Flags::command().mut_args(|arg| arg.env(None));
        let parsed = command
            .try_get_matches_from(std::iter::once("snowflake-server").chain(args.iter().copied()))
            .and_then(|mut matches| Flags::from_arg_matches_mut(&mut matches));
        let flags = match parsed {
            Ok(flags) => flags,
            Err(e) => {
                let text = e.to_string();
                let first = text.lines().next().unwrap_or_default();
                return first.strip_prefix("error: ").unwrap_or(first).to_owned();
            }
        };
        match flags.startup() {
            Ok(_) => panic!("{args:?} were taken"),
            Err(e) => e.to_string(),
        }
    }

    /// `args` are refused in one line that starts with `message`.
    fn refused(args: &[&str], message: &str) {
        let refusal = refusal(args);
        assert!(!refusal.contains('\n'), "{args:?}: {refusal}");
        assert!(refusal.starts_with(message), "{args:?}: {refusal}");
    }

    /// The identity, the listening address, the lease's settings, and a flag clap does not know.
    #[test]
    fn bad_flags_are_refused_naming_the_flag() {
        for (args, message) in [
            (
                &["--dc", "32", "--machine", "1"][..],
                "--dc: datacenter 32 is out of range 0..=31 (5 bits)",
            ),
            (&["--dc", "1"], "--dc needs --machine too"),
            (&["--listen", "nonsense"], "invalid --listen \"nonsense\""),
            (
                &["--auto"],
                "--auto is about a leased identity: it needs --etcd URL or --postgres URL",
            ),
            (
                &["--etcd", "ftp://x:1", "--auto"],
                "--etcd: invalid etcd endpoint \"ftp://x:1\"",
            ),
            (
                &[
                    "--etcd",
                    "http://127.0.0.1:2379",
                    "--auto",
                    "--lease-ttl",
                    "0",
                ],
                "--lease-ttl 0 is out of range: expected whole seconds in 1..=3600",
            ),
            (&["--etcd", "http://127.0.0.1:2379"], "--etcd needs --auto"),
            (
                &["--etcd", "http://127.0.0.1:2379", "--dc", "40", "--auto"],
                "--dc: datacenter 40 is out of range 0..=31 (5 bits)",
            ),
            (
                &["--etcd", "http://127.0.0.1:2379", "--dc", "4"],
                "--dc needs --machine too, or --auto (with --etcd or --postgres) for any free machine of it",
            ),
            (
                &[
                    "--etcd",
                    "http://127.0.0.1:2379",
                    "--dc",
                    "4",
                    "--machine",
                    "1",
                    "--auto",
                ],
                "--auto and --machine exclude each other",
            ),
            (
                &["--claim-wait", "5"],
                "--claim-wait is about a leased identity: it needs --etcd URL or --postgres URL",
            ),
            (
                &[
                    "--etcd",
                    "http://127.0.0.1:2379",
                    "--auto",
                    "--claim-wait",
                    "x",
                ],
                "--claim-wait \"x\" is not a whole number of decimal digits: expected whole seconds \
                 in 0..=3600",
            ),
            (
                &["--lease-ttl", "0"],
                "--lease-ttl is about a leased identity: it needs --etcd URL or --postgres URL",
            ),
            (
                &["--etcd-prefix", "/x"],
                "--etcd-prefix is about an identity leased from etcd",
            ),
            (
                &[
                    "--etcd",
                    "http://127.0.0.1:2379",
                    "--auto",
                    "--etcd-prefix",
                    "bad",
                ],
                "--etcd-prefix: invalid key prefix \"bad\"",
            ),
            (&["--bogus"], "unexpected argument '--bogus'"),
        ] {
            refused(args, message);
        }
    }

    /// TLS and auth flags: a file that names nothing, half a pair, a password without its
    /// user or the other way round, never a password in a flag.
    #[test]
    fn bad_etcd_access_flags_are_refused_naming_the_flag() {
        for (args, message) in [
            (
                &["--etcd", "http://x:1,https://y:1", "--auto"][..],
                "--etcd: invalid etcd endpoint \"http://x:1,https://y:1\": the members mix",
            ),
            (
                &["--etcd", "https://x:1", "--auto"],
                "--etcd https://... needs --etcd-ca FILE",
            ),
            (
                &["--etcd", "http://x:1", "--auto", "--etcd-ca", "Cargo.toml"],
                "--etcd-ca is for https:// members",
            ),
            (
                &[
                    "--etcd",
                    "https://x:1",
                    "--auto",
                    "--etcd-ca",
                    "/nowhere/ca.pem",
                ],
                "--etcd-ca \"/nowhere/ca.pem\": cannot read it: No such file or directory",
            ),
            (
                &[
                    "--etcd",
                    "https://x:1",
                    "--auto",
                    "--etcd-ca",
                    "Cargo.toml",
                    "--etcd-cert",
                    "Cargo.toml",
                ],
                "--etcd-cert needs --etcd-key too",
            ),
            (
                &[
                    "--etcd",
                    "https://x:1",
                    "--auto",
                    "--etcd-ca",
                    "Cargo.toml",
                    "--etcd-key",
                    "Cargo.toml",
                ],
                "--etcd-key needs --etcd-cert too",
            ),
            (
                &[
                    "--etcd",
                    "http://x:1",
                    "--auto",
                    "--etcd-cert",
                    "Cargo.toml",
                    "--etcd-key",
                    "Cargo.toml",
                ],
                "--etcd-cert and --etcd-key are for https:// members",
            ),
            (
                &["--etcd", "http://x:1", "--auto", "--etcd-user", "snowflake"],
                "--etcd-user needs a password: --etcd-password-file FILE, or the environment variable \
                 SNOWFLAKE_ETCD_PASSWORD",
            ),
            (
                &[
                    "--etcd",
                    "http://x:1",
                    "--auto",
                    "--etcd-user",
                    "u",
                    "--etcd-password-file",
                    "/nowhere",
                ],
                "--etcd-password-file \"/nowhere\": cannot read it",
            ),
            (
                &[
                    "--etcd",
                    "http://x:1",
                    "--auto",
                    "--etcd-password-file",
                    "Cargo.toml",
                ],
                "--etcd-password-file needs --etcd-user",
            ),
            (
                &["--etcd-user", "u"],
                "--etcd-user is about an identity leased from etcd: it needs --etcd URL",
            ),
        ] {
            refused(args, message);
        }
    }

    #[test]
    fn bad_postgres_flags_are_refused_naming_the_flag() {
        for (args, message) in [
            (
                &[
                    "--etcd",
                    "http://127.0.0.1:2379",
                    "--postgres",
                    "postgres://db/x",
                    "--auto",
                ][..],
                "--etcd and --postgres exclude each other: lease the identity from one store",
            ),
            (
                &["--postgres", "postgres://db/x"],
                "--postgres needs --auto (any free identity), --dc N --auto",
            ),
            (
                &["--postgres", "http://db:2379", "--auto"],
                "--postgres: invalid PostgreSQL URL \"http://db:2379\": expected postgres://",
            ),
            (
                &["--postgres", "postgres://ids:s3cret@db:x/app", "--auto"],
                "--postgres: invalid PostgreSQL URL \"postgres://***@db:x\"",
            ),
            (
                &["--postgres-schema", "ids"],
                "--postgres-schema is about an identity leased from PostgreSQL: it needs --postgres URL",
            ),
            (
                &[
                    "--postgres",
                    "postgres://db/x",
                    "--auto",
                    "--postgres-schema",
                    "Bad-Name",
                ],
                "--postgres-schema: invalid lease option: schema \"Bad-Name\": expected lower-case",
            ),
            (
                &[
                    "--postgres",
                    "postgres://db/x",
                    "--auto",
                    "--etcd-prefix",
                    "/x",
                ],
                "--etcd-prefix is about an identity leased from etcd; --postgres leases from PostgreSQL",
            ),
            (
                &[
                    "--etcd",
                    "http://127.0.0.1:2379",
                    "--auto",
                    "--postgres-ca",
                    "ca.pem",
                ],
                "--postgres-ca is about an identity leased from PostgreSQL; --etcd leases from etcd",
            ),
            (
                &[
                    "--postgres",
                    "postgres://db/x",
                    "--auto",
                    "--postgres-ca",
                    "/nonexistent/ca.pem",
                ],
                "--postgres-ca \"/nonexistent/ca.pem\": cannot read it",
            ),
            (
                &[
                    "--postgres",
                    "postgres://ids:s3cret@db/x",
                    "--auto",
                    "--postgres-password-file",
                    "/dev/null",
                ],
                "--postgres-password-file: the URL has a password already; give one of them",
            ),
            (
                &["--print-postgres-schema", "--postgres-schema", "a-b"],
                "--postgres-schema: invalid lease option: schema \"a-b\"",
            ),
        ] {
            refused(args, message);
        }
    }

    /// TLS to PostgreSQL: asked for without a CA, asked for in libpq's words, or a CA that is
    /// no certificate: each a bad flag, before any connection.
    #[test]
    fn bad_postgres_tls_flags_are_refused_naming_the_flag() {
        for (args, message) in [
            (
                &["--postgres", "postgres://db/x?sslmode=require", "--auto"][..],
                "--postgres: invalid PostgreSQL URL \"postgres://db:5432/x\": sslmode=require needs the CA",
            ),
            (
                &[
                    "--postgres",
                    "postgres://db/x?sslmode=verify-full",
                    "--auto",
                ],
                "--postgres: invalid PostgreSQL URL \"postgres://db\": sslmode=verify-ca and verify-full are libpq's",
            ),
            (
                &[
                    "--postgres",
                    "postgres://db/x",
                    "--auto",
                    "--postgres-ca",
                    "/dev/null",
                ],
                "--postgres-ca \"/dev/null\": the CA: no certificate in it",
            ),
        ] {
            refused(args, message);
        }
    }
}

//! The binary's flags. Which go together is declared to clap, and each value read by its own
//! parser; the code here is for what depends on a value (a member's scheme, a URL's
//! password) and the files and variables the flags point to.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::{ArgGroup, Parser};
use snowflake_kit::{Field, Identity};
use snowflake_lease::{EtcdConfig, LeaseError, LeaseOptions, PgConfig, PgStore};
use snowflake_server::{Config, StoreConfig};

use crate::logging::LogFormat;

/// The etcd password's variable, when it is not in a file: never a flag, which `ps` shows.
const ETCD_PASSWORD: &str = "SNOWFLAKE_ETCD_PASSWORD";

#[derive(Parser, Debug)]
#[command(
    name = "snowflake-server",
    version,
    max_term_width = 100,
    about = "Serve the Snowflake ID page and an ID service.",
    long_about = "Serve the Snowflake ID page and an ID service.\n\nEvery flag can come from the \
                  environment instead: `--lease-ttl` from `SNOWFLAKE_LEASE_TTL`, and so on \
                  (shown in `--help`); a flag given beats its variable.",
    // A leased identity comes from one store; a store, and --dc, need --machine or --auto;
    // the schema is for --postgres or its printing.
    group(ArgGroup::new("store").args(["etcd", "postgres"])),
    group(ArgGroup::new("claim").args(["auto", "machine"]).multiple(true)),
    group(ArgGroup::new("schema_for").args(["postgres", "print_postgres_schema"]).multiple(true)),
)]
pub(crate) struct Flags {
    /// The address to listen on.
    #[arg(long, env = "SNOWFLAKE_LISTEN", value_name = "ADDR")]
    #[arg(default_value = "127.0.0.1:8080")]
    pub(crate) listen: SocketAddr,
    /// Datacenter id, 0..=31: of an exact identity (with --machine), leased with --etcd or
    /// --postgres and unleased without; or the datacenter to lease any free machine of
    /// (with --etcd or --postgres, and --auto).
    #[arg(long, env = "SNOWFLAKE_DC", value_name = "N", value_parser = field(Field::Datacenter))]
    #[arg(requires = "claim")]
    dc: Option<u64>,
    /// Machine id, 0..=31: of an exact identity (with --dc).
    #[arg(long, env = "SNOWFLAKE_MACHINE", value_name = "N", value_parser = field(Field::Machine))]
    #[arg(requires = "dc")]
    machine: Option<u64>,
    /// Lease the identity from etcd: its members, comma-separated, all http://host:port
    /// or all https://host:port.
    #[arg(long, env = "SNOWFLAKE_ETCD", value_name = "URL[,URL...]")]
    #[arg(requires = "claim")]
    etcd: Option<String>,
    /// The CA certificate (PEM) that https:// members are verified against.
    #[arg(long, env = "SNOWFLAKE_ETCD_CA", value_name = "FILE")]
    #[arg(requires = "etcd", conflicts_with = "postgres")]
    etcd_ca: Option<PathBuf>,
    /// A client certificate (PEM) for members that demand mutual TLS (with --etcd-key).
    #[arg(long, env = "SNOWFLAKE_ETCD_CERT", value_name = "FILE")]
    #[arg(requires_all = ["etcd", "etcd_key"], conflicts_with = "postgres")]
    etcd_cert: Option<PathBuf>,
    /// The client certificate's private key (PEM) (with --etcd-cert).
    #[arg(long, env = "SNOWFLAKE_ETCD_KEY", value_name = "FILE")]
    #[arg(requires_all = ["etcd", "etcd_cert"], conflicts_with = "postgres")]
    etcd_key: Option<PathBuf>,
    /// The etcd user, for clusters with auth enabled; its password comes from
    /// --etcd-password-file or the environment variable SNOWFLAKE_ETCD_PASSWORD.
    #[expect(clippy::doc_markdown, reason = "--help shows it as written")]
    #[arg(long, env = "SNOWFLAKE_ETCD_USER", value_name = "NAME")]
    #[arg(requires = "etcd", conflicts_with = "postgres")]
    etcd_user: Option<String>,
    /// A file holding the etcd user's password (one line).
    #[arg(long, env = "SNOWFLAKE_ETCD_PASSWORD_FILE", value_name = "FILE")]
    #[arg(requires = "etcd_user")]
    etcd_password_file: Option<PathBuf>,
    /// The key prefix in etcd [default: /snowflake-kit/v1/default].
    #[arg(long, env = "SNOWFLAKE_ETCD_PREFIX", value_name = "P")]
    #[arg(requires = "etcd", conflicts_with = "postgres")]
    etcd_prefix: Option<String>,
    /// Lease the identity from PostgreSQL instead: postgres://USER@HOST:PORT/DATABASE.
    /// The password from --postgres-password-file or PGPASSWORD: one in the URL works, but
    /// `ps` shows it to every user of the host.
    #[arg(long, env = "SNOWFLAKE_POSTGRES", value_name = "URL")]
    #[arg(requires = "claim")]
    postgres: Option<String>,
    /// The CA certificate (PEM) the database's certificate and name are verified against;
    /// given, the connection is TLS or nothing.
    #[arg(long, env = "SNOWFLAKE_POSTGRES_CA", value_name = "FILE")]
    #[arg(requires = "postgres", conflicts_with = "etcd")]
    postgres_ca: Option<PathBuf>,
    /// A file holding the PostgreSQL user's password (one line).
    #[arg(long, env = "SNOWFLAKE_POSTGRES_PASSWORD_FILE", value_name = "FILE")]
    #[arg(requires = "postgres", conflicts_with = "etcd")]
    postgres_password_file: Option<PathBuf>,
    /// The schema of the lease tables in PostgreSQL, made on first use when it has none
    /// [default: snowflake].
    #[arg(long, env = "SNOWFLAKE_POSTGRES_SCHEMA", value_name = "NAME", value_parser = schema)]
    #[arg(requires = "schema_for")]
    postgres_schema: Option<String>,
    /// Print the SQL that makes the lease tables in --postgres-schema, for a migration that
    /// is reviewed, and exit.
    #[arg(long)]
    print_postgres_schema: bool,
    /// Lease any free identity of all 1,024 (with --etcd or --postgres), or with --dc any
    /// free machine of that datacenter.
    #[arg(long, env = "SNOWFLAKE_AUTO", value_parser = clap::builder::BoolishValueParser::new())]
    #[arg(requires = "store", conflicts_with = "machine")]
    auto: bool,
    /// The lease's time to live, in seconds (with --etcd or --postgres).
    #[arg(long, env = "SNOWFLAKE_LEASE_TTL", value_name = "SECONDS", value_parser = seconds(1))]
    #[arg(default_value = "10", requires = "store")]
    lease_ttl: Duration,
    /// How long to wait for an exact identity, or a machine of --dc, to come free (with
    /// --etcd or --postgres), in seconds; 0 fails at once [default: 30].
    #[arg(long, env = "SNOWFLAKE_CLAIM_WAIT", value_name = "SECONDS", value_parser = seconds(0))]
    #[arg(requires = "store")]
    claim_wait: Option<Duration>,
    /// How events are written to stderr (which ones: RUST_LOG, default info).
    #[expect(clippy::doc_markdown, reason = "--help shows it as written")]
    #[arg(long, env = "SNOWFLAKE_LOG_FORMAT", value_name = "FORMAT", value_enum)]
    #[arg(default_value = "auto")]
    pub(crate) log_format: LogFormat,
}

/// A field of the identity, read by the runtime's one rule for text a person typed.
fn field(field: Field) -> impl Fn(&str) -> Result<u64, String> + Clone {
    move |text| {
        field
            .parse(text)
            .map_err(|e| e.with_input(text).to_string())
    }
}

/// Whole seconds, `min..=3600`, by the runtime's digits-only rule.
fn seconds(min: u64) -> impl Fn(&str) -> Result<Duration, String> + Clone {
    move |text| match snowflake_kit::__private::parse_decimal(text) {
        Ok(seconds) if (min..=3600).contains(&seconds) => Ok(Duration::from_secs(seconds)),
        Ok(seconds) => Err(format!(
            "{seconds} is out of range: expected whole seconds in {min}..=3600"
        )),
        Err(e) => Err(format!(
            "{text:?} is {e}: expected whole seconds in {min}..=3600"
        )),
    }
}

/// A schema's name, by the one rule the SQL functions and the lease's store share.
fn schema(name: &str) -> Result<String, String> {
    snowflake_kit::sql::check_schema_name(name).map_err(|e| e.to_string())?;
    Ok(name.to_owned())
}

impl Flags {
    /// `--print-postgres-schema`: the SQL that makes the lease tables, to print, if asked.
    pub(crate) fn schema_sql(&self) -> Option<Result<String, String>> {
        let schema = self.postgres_schema.as_deref();
        self.print_postgres_schema.then(|| {
            PgStore::schema_sql(schema.unwrap_or(PgConfig::DEFAULT_SCHEMA))
                .map_err(|e| format!("--postgres-schema: {e}"))
        })
    }

    /// The service's configuration. Files the flags name are read now (one that cannot be read
    /// is a bad flag, not a failure after the start); passwords come from `env` (a test passes
    /// its own).
    pub(crate) fn config(&self, env: &dyn Fn(&str) -> Option<String>) -> Result<Config, String> {
        let identity = match (self.dc, self.machine) {
            (Some(dc), Some(machine)) => {
                Some(Identity::new(dc, machine).map_err(|e| e.to_string())?)
            }
            _ => None,
        };
        let store = match (&self.etcd, &self.postgres) {
            (Some(endpoints), _) => StoreConfig::Etcd(self.etcd_access(endpoints, env)?),
            (None, Some(url)) => StoreConfig::Postgres(self.postgres_access(url, env)?),
            (None, None) => {
                return Ok(identity.map_or_else(Config::without_identity, Config::unleased));
            }
        };
        let options = self.lease_options(identity)?;
        // The options were checked above, with the flag to name.
        Config::leased(store, options).map_err(|e| e.to_string())
    }

    /// The members, TLS and the user from the flags: what depends on the members' scheme.
    fn etcd_access(
        &self,
        endpoints: &str,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Result<EtcdConfig, String> {
        // A malformed URL is a bad flag; an unreachable one is found when connecting.
        let mut config = EtcdConfig::new(endpoints).map_err(|e| format!("--etcd: {e}"))?;
        match (&self.etcd_ca, config.is_tls()) {
            (Some(ca), true) => config = config.with_ca_pem(read("--etcd-ca", ca)?),
            (None, true) => {
                return Err(
                    "--etcd https://... needs --etcd-ca FILE, the CA that signed the \
                            members' certificates"
                        .to_owned(),
                );
            }
            (Some(_), false) => {
                return Err(
                    "--etcd-ca is for https:// members; --etcd lists http:// ones".to_owned(),
                );
            }
            (None, false) => {}
        }
        if let (Some(cert), Some(key)) = (&self.etcd_cert, &self.etcd_key) {
            if !config.is_tls() {
                return Err(
                    "--etcd-cert and --etcd-key are for https:// members; --etcd lists \
                            http:// ones"
                        .to_owned(),
                );
            }
            config = config.with_client_pem(read("--etcd-cert", cert)?, read("--etcd-key", key)?);
        }
        if let Some(user) = &self.etcd_user {
            let password = match &self.etcd_password_file {
                Some(path) => password_file("--etcd-password-file", path)?,
                None => env(ETCD_PASSWORD).ok_or_else(|| {
                    format!(
                        "--etcd-user needs a password: --etcd-password-file FILE, or the \
                         environment variable {ETCD_PASSWORD} (never a flag, which `ps` would show)"
                    )
                })?,
            };
            config = config.with_user(user, password);
        }
        Ok(config)
    }

    /// The PostgreSQL URL, its password (the URL's, a file's, or `PGPASSWORD`), CA and schema.
    fn postgres_access(
        &self,
        url: &str,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Result<PgConfig, String> {
        let mut config = PgConfig::new(url).map_err(|e| format!("--postgres: {e}"))?;
        if let Some(path) = &self.postgres_password_file {
            if config.has_password() {
                return Err(
                    "--postgres-password-file: the URL has a password already; give \
                            one of them"
                        .to_owned(),
                );
            }
            config = config.with_password(password_file("--postgres-password-file", path)?);
        } else if let Some(password) = env("PGPASSWORD") {
            // As libpq: the URL's own password first.
            config = config.with_password(password);
        }
        if let Some(ca) = &self.postgres_ca {
            config = config.with_ca_pem(read("--postgres-ca", ca)?);
        }
        if let Some(schema) = &self.postgres_schema {
            config = config
                .with_schema(schema)
                .map_err(|e| format!("--postgres-schema: {e}"))?;
        }
        // libpq's TLS variables are not read: one asking for TLS must not connect in the clear.
        if let Some(mode) = env("PGSSLMODE")
            && !config.is_tls()
            && !["disable", "allow", "prefer"].contains(&mode.as_str())
        {
            return Err(format!(
                "PGSSLMODE={mode} is libpq's and is not read: give --postgres-ca FILE, the CA \
                 that signed the database's certificate, for TLS that verifies it"
            ));
        }
        config.check().map_err(|e| match (e, &self.postgres_ca) {
            (LeaseError::InvalidCa { reason, .. }, Some(ca)) => {
                format!("--postgres-ca {}: the CA: {reason}", quoted(ca))
            }
            (e, _) => format!("--postgres: {e}"),
        })?;
        Ok(config)
    }

    /// The lease's options: which identity, how long the lease and the wait.
    fn lease_options(&self, identity: Option<Identity>) -> Result<LeaseOptions, String> {
        let mut options = LeaseOptions::default();
        if let Some(prefix) = &self.etcd_prefix {
            options.prefix.clone_from(prefix);
        }
        options.ttl = self.lease_ttl;
        // The window must stay below the TTL.
        options.window = options.window.min(self.lease_ttl / 2);
        if let Some(wait) = self.claim_wait {
            options.claim_wait = wait;
        }
        options = match (identity, self.dc) {
            (Some(identity), _) => options.exact(identity),
            (None, Some(dc)) => options
                .in_datacenter(dc)
                .map_err(|e| format!("--dc: {e}"))?,
            (None, None) => options,
        };
        options.check().map_err(|e| match e {
            LeaseError::InvalidPrefix(_) => format!("--etcd-prefix: {e}"),
            e => e.to_string(),
        })?;
        Ok(options)
    }
}

/// The file a flag names, read now: one that cannot be read is a bad flag.
fn read(flag: &str, path: &Path) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|e| format!("{flag} {}: cannot read it: {e}", quoted(path)))
}

/// A password from a file: one line, UTF-8; the newline an editor adds is not part of it.
fn password_file(flag: &str, path: &Path) -> Result<String, String> {
    let text = String::from_utf8(read(flag, path)?)
        .map_err(|_| format!("{flag} {}: the password is not UTF-8", quoted(path)))?;
    Ok(text.trim_end_matches(['\n', '\r']).to_owned())
}

/// A path as it was typed, in quotes.
fn quoted(path: &Path) -> String {
    format!("{:?}", path.display().to_string())
}

/// Clap's error on one line: its message, with the arguments it names (clap writes those
/// on lines of their own), without its usage and tips.
pub(crate) fn one_line(e: &clap::Error) -> String {
    let text = e.render().to_string();
    let message: Vec<&str> = text
        .lines()
        .take_while(|line| !line.trim().is_empty())
        .map(str::trim)
        .collect();
    let message = message.join(" ");
    message
        .strip_prefix("error: ")
        .unwrap_or(&message)
        .to_owned()
}

/// The flags' rules, case by case, without a process: what the binary prints after `error: `
/// before exiting 2 (`tests/process.rs` runs one case of each kind). The environment is the
/// test's own: clap reads none of the flags' variables, and passwords come from `env`.
#[cfg(test)]
mod tests {
    use clap::{CommandFactory, FromArgMatches};

    use snowflake_server::Config;

    use super::{Flags, one_line};

    /// The flags of `args` (split at spaces), as the binary reads them, with no variables.
    fn parsed(args: &str) -> Result<Flags, String> {
        let command = Flags::command().mut_args(|arg| arg.env(None));
        command
            .try_get_matches_from(
                std::iter::once("snowflake-server").chain(args.split_whitespace()),
            )
            .and_then(|mut matches| Flags::from_arg_matches_mut(&mut matches))
            .map_err(|e| one_line(&e))
    }

    /// What the binary says of `args`, in an environment of `vars` only.
    fn said(args: &str, vars: &[(&str, &str)]) -> Result<Config, String> {
        let env = |name: &str| {
            vars.iter()
                .find(|(var, _)| *var == name)
                .map(|(_, value)| (*value).to_owned())
        };
        parsed(args)?.config(&env)
    }

    /// Each line's flags (before ` => `) are refused in one line starting with its message (after).
    fn refused_each(table: &str) {
        for case in table.lines().filter(|line| !line.trim().is_empty()) {
            let (args, message) = case.split_once(" => ").expect("flags => message");
            refused_with(args, &[], message.trim());
        }
    }

    fn refused_with(args: &str, vars: &[(&str, &str)], message: &str) {
        let Err(refusal) = said(args, vars) else {
            panic!("{args:?} were taken");
        };
        assert!(!refusal.contains('\n'), "{args:?}: {refusal}");
        assert!(refusal.starts_with(message), "{args:?}: {refusal}");
    }

    /// The identity, the listening address, the lease's settings, and a flag clap does not know.
    #[test]
    fn bad_flags_are_refused_naming_the_flag() {
        refused_each(
            r#"
            --dc 32 --machine 1  =>  invalid value '32' for '--dc <N>': datacenter 32 is out of range 0..=31 (5 bits)
            --dc 1  =>  the following required arguments were not provided: <--auto|--machine <N>>
            --machine 1  =>  the following required arguments were not provided: --dc <N>
            --listen nonsense  =>  invalid value 'nonsense' for '--listen <ADDR>'
            --auto  =>  the following required arguments were not provided: <--etcd <URL[,URL...]>|--postgres <URL>>
            --etcd ftp://x:1 --auto  =>  --etcd: invalid etcd endpoint "ftp://x:1"
            --etcd http://127.0.0.1:2379 --auto --lease-ttl 0  =>  invalid value '0' for '--lease-ttl <SECONDS>': 0 is out of range: expected whole seconds in 1..=3600
            --etcd http://127.0.0.1:2379  =>  the following required arguments were not provided: <--auto|--machine <N>>
            --etcd http://127.0.0.1:2379 --dc 40 --auto  =>  invalid value '40' for '--dc <N>': datacenter 40 is out of range 0..=31 (5 bits)
            --etcd http://127.0.0.1:2379 --dc 4 --machine 1 --auto  =>  the argument '--machine <N>' cannot be used with '--auto'
            --claim-wait 5  =>  the following required arguments were not provided: <--etcd <URL[,URL...]>|--postgres <URL>>
            --etcd http://127.0.0.1:2379 --auto --claim-wait x  =>  invalid value 'x' for '--claim-wait <SECONDS>': "x" is not a whole number of decimal digits: expected whole seconds in 0..=3600
            --lease-ttl 5  =>  the following required arguments were not provided: <--etcd <URL[,URL...]>|--postgres <URL>>
            --etcd-prefix /x  =>  the following required arguments were not provided: --etcd <URL[,URL...]>
            --etcd http://127.0.0.1:2379 --auto --etcd-prefix bad  =>  --etcd-prefix: invalid key prefix "bad"
            --bogus  =>  unexpected argument '--bogus' found
            "#,
        );
    }

    /// TLS and auth flags: a file that names nothing, half a pair, a password without its
    /// user or the other way round, never a password in a flag.
    #[test]
    fn bad_etcd_access_flags_are_refused_naming_the_flag() {
        refused_each(
            r#"
            --etcd http://x:1,https://y:1 --auto  =>  --etcd: invalid etcd endpoint "http://x:1,https://y:1": the members mix
            --etcd https://x:1 --auto  =>  --etcd https://... needs --etcd-ca FILE
            --etcd http://x:1 --auto --etcd-ca Cargo.toml  =>  --etcd-ca is for https:// members
            --etcd https://x:1 --auto --etcd-ca /nowhere/ca.pem  =>  --etcd-ca "/nowhere/ca.pem": cannot read it: No such file or directory
            --etcd https://x:1 --auto --etcd-ca Cargo.toml --etcd-cert Cargo.toml  =>  the following required arguments were not provided: --etcd-key <FILE>
            --etcd https://x:1 --auto --etcd-ca Cargo.toml --etcd-key Cargo.toml  =>  the following required arguments were not provided: --etcd-cert <FILE>
            --etcd http://x:1 --auto --etcd-cert Cargo.toml --etcd-key Cargo.toml  =>  --etcd-cert and --etcd-key are for https:// members
            --etcd http://x:1 --auto --etcd-user snowflake  =>  --etcd-user needs a password: --etcd-password-file FILE, or the environment variable SNOWFLAKE_ETCD_PASSWORD
            --etcd http://x:1 --auto --etcd-user u --etcd-password-file /nowhere  =>  --etcd-password-file "/nowhere": cannot read it
            --etcd http://x:1 --auto --etcd-password-file Cargo.toml  =>  the following required arguments were not provided: --etcd-user <NAME>
            --etcd-user u  =>  the following required arguments were not provided: --etcd <URL[,URL...]>
            "#,
        );
    }

    #[test]
    fn bad_postgres_flags_are_refused_naming_the_flag() {
        refused_each(
            r#"
            --etcd http://127.0.0.1:2379 --postgres postgres://db/x --auto  =>  the argument '--etcd <URL[,URL...]>' cannot be used with '--postgres <URL>'
            --postgres postgres://db/x  =>  the following required arguments were not provided: <--auto|--machine <N>>
            --postgres http://db:2379 --auto  =>  --postgres: invalid PostgreSQL URL "http://db:2379": expected postgres://
            --postgres postgres://ids:s3cret@db:x/app --auto  =>  --postgres: invalid PostgreSQL URL "postgres://***@db:x"
            --postgres-schema ids  =>  the following required arguments were not provided: <--postgres <URL>|--print-postgres-schema>
            --postgres postgres://db/x --auto --postgres-schema Bad-Name  =>  invalid value 'Bad-Name' for '--postgres-schema <NAME>': schema "Bad-Name": expected lower-case
            --postgres postgres://db/x --auto --etcd-prefix /x  =>  the argument '--postgres <URL>' cannot be used with '--etcd-prefix <P>'
            --etcd http://127.0.0.1:2379 --auto --postgres-ca ca.pem  =>  the argument '--etcd <URL[,URL...]>' cannot be used with '--postgres-ca <FILE>'
            --postgres postgres://db/x --auto --postgres-ca /nonexistent/ca.pem  =>  --postgres-ca "/nonexistent/ca.pem": cannot read it
            --postgres postgres://ids:s3cret@db/x --auto --postgres-password-file /dev/null  =>  --postgres-password-file: the URL has a password already; give one of them
            --print-postgres-schema --postgres-schema a-b  =>  invalid value 'a-b' for '--postgres-schema <NAME>': schema "a-b"
            "#,
        );
    }

    /// TLS to PostgreSQL: asked for without a CA, asked for in libpq's words, or a CA that is
    /// no certificate: each a bad flag, before any connection.
    #[test]
    fn bad_postgres_tls_flags_are_refused_naming_the_flag() {
        refused_each(
            r#"
            --postgres postgres://db/x?sslmode=require --auto  =>  --postgres: invalid PostgreSQL URL "postgres://db:5432/x": sslmode=require needs the CA
            --postgres postgres://db/x?sslmode=verify-full --auto  =>  --postgres: invalid PostgreSQL URL "postgres://db": sslmode=verify-ca and verify-full are libpq's
            --postgres postgres://db/x --auto --postgres-ca /dev/null  =>  --postgres-ca "/dev/null": the CA: no certificate in it
            "#,
        );
        refused_with(
            "--postgres postgres://db/x --auto",
            &[("PGSSLMODE", "require")],
            "PGSSLMODE=require is libpq's and is not read: give --postgres-ca FILE",
        );
    }

    /// What the flags give: defaults, the identity's kind, passwords from the test's environment.
    #[test]
    fn good_flags_give_what_they_say() {
        assert_eq!(parsed("").unwrap().listen.to_string(), "127.0.0.1:8080");
        // Each serves (no flags: without an identity); none prints the schema.
        for args in [
            "",
            "--dc 1 --machine 2",
            "--etcd http://x:1 --auto",
            "--etcd http://x:1 --dc 3 --auto --lease-ttl 30",
            "--postgres postgres://db/x --dc 3 --machine 4",
        ] {
            assert!(said(args, &[]).is_ok(), "{args:?}");
            assert!(parsed(args).unwrap().schema_sql().is_none(), "{args:?}");
        }
        // The etcd user's password from its variable; PGSSLMODE=prefer is no demand.
        let user = "--etcd http://x:1 --auto --etcd-user u";
        assert!(said(user, &[("SNOWFLAKE_ETCD_PASSWORD", "p")]).is_ok());
        let pg = "--postgres postgres://db/x --auto";
        assert!(said(pg, &[("PGSSLMODE", "prefer"), ("PGPASSWORD", "p")]).is_ok());
        let flags = parsed("--print-postgres-schema --postgres-schema ids").unwrap();
        let sql = flags.schema_sql().expect("the schema is printed").unwrap();
        assert!(sql.contains("CREATE TABLE \"ids\".identities"), "{sql}");
    }
}

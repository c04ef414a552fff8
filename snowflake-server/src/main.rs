//! `snowflake-server`: the page that shows how a Snowflake ID is built, and an ID
//! service around it.
//!
//! ```text
//! snowflake-server [--listen ADDR]                     (default 127.0.0.1:8080)
//!                  [--dc N --machine N]                unleased identity
//!                  [--etcd URL[,URL...] [--etcd-prefix P] [--auto | --dc N [--auto | --machine N]]
//!                   [--lease-ttl SECONDS] [--claim-wait SECONDS]
//!                   [--etcd-ca FILE [--etcd-cert FILE --etcd-key FILE]]
//!                   [--etcd-user NAME (--etcd-password-file FILE | $SNOWFLAKE_ETCD_PASSWORD)]]
//!                  [--postgres URL [--postgres-schema NAME] [--auto | --dc N [--auto | --machine N]]
//!                   [--lease-ttl SECONDS] [--claim-wait SECONDS] [--postgres-ca FILE]
//!                   [--postgres-password-file FILE | $PGPASSWORD]]
//!                  [--print-postgres-schema [--postgres-schema NAME]]
//!                  [--log-format auto|text|json]
//! ```
//!
//! Every flag also from the environment (`--lease-ttl` from `SNOWFLAKE_LEASE_TTL`, ...).
//! Bad flags: one line on stderr, exit status 2. Events on stderr, text or JSON lines,
//! filtered by `RUST_LOG`. A port in use, an unreachable store, a TLS or auth failure, an
//! identity not claimed in time: an ERROR event naming it, exit status 1. The server answers from the start; while it claims its identity, the ID
//! endpoints and `/readyz` answer 503 saying what it waits for. SIGTERM or Ctrl-C:
//! stop accepting, finish what is in flight, release the identity, exit 0.

// Built by `cargo afl build` (scripts/fuzz.sh), the binary is the router's fuzz target.
#![cfg_attr(fuzzing, allow(dead_code, unused_imports))]

mod api;
mod error;
mod fair;
mod form;
#[cfg(any(test, fuzzing))]
mod fuzz;
mod hyper_errors;
mod issuer;
mod limits;
mod listen;
mod logging;
mod metrics;
mod openapi;
mod page;
mod query;

use std::io::Write;
use std::net::SocketAddr;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::routing::get;
use clap::Parser;
use snowflake_kit::__private::parse_decimal;
use snowflake_kit::{Field, Identity};
use snowflake_lease::{
    EtcdConfig, EtcdStore, LeaseError, LeaseOptions, LeasedGenerator, PgConfig, PgStore, StoreKind,
};

use crate::issuer::{Issuer, Lease};
use crate::metrics::Metrics;

/// Serve the Snowflake ID page and an ID service.
///
/// Every flag can come from the environment instead: `--lease-ttl` from
/// `SNOWFLAKE_LEASE_TTL`, and so on (shown in `--help`); a flag given beats its variable.
#[derive(Parser, Debug)]
#[command(name = "snowflake-server", version, max_term_width = 100)]
struct Args {
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
    log_format: logging::LogFormat,
}

/// What the handlers share.
pub(crate) struct AppState {
    issuer: Issuer,
    /// Requests waiting for the clock, served in turn.
    queue: fair::Queue,
    metrics: Metrics,
}

/// How the server was asked to get its identity.
#[expect(clippy::large_enum_variant, reason = "made once, at start")]
enum Plan {
    None,
    Unleased(Identity),
    Leased {
        store: StoreConfig,
        options: LeaseOptions,
    },
}

/// Which store a leased identity comes from, and how to reach it.
enum StoreConfig {
    Etcd(EtcdConfig),
    Postgres(PgConfig),
}

impl StoreConfig {
    fn kind(&self) -> StoreKind {
        match self {
            StoreConfig::Etcd(_) => StoreKind::Etcd,
            StoreConfig::Postgres(_) => StoreKind::Postgres,
        }
    }
}

/// Where the etcd password comes from when it is not in a file.
const PASSWORD_VARIABLE: &str = "SNOWFLAKE_ETCD_PASSWORD";
/// Where the PostgreSQL password comes from when it is neither in the URL nor in a file:
/// libpq's own variable.
const PG_PASSWORD_VARIABLE: &str = "PGPASSWORD";

/// A bad flag: one line, exit status 2.
struct Usage(String);

fn plan(args: &Args) -> Result<(SocketAddr, Plan), Usage> {
    let listen = args.listen.parse::<SocketAddr>().map_err(|_| {
        Usage(format!(
            "invalid --listen {:?}: expected an address and port such as 127.0.0.1:8080",
            args.listen
        ))
    })?;
    // Read and checked once, by the runtime's rules; the identity then goes on as it is.
    let field = |field: Field, text: &str| {
        field
            .parse(text)
            .map_err(|e| Usage(format!("--{}: {}", field.key(), e.with_input(text))))
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
            Some(Identity::new(dc, machine).map_err(|e| Usage(e.to_string()))?)
        }
        (Some(_), None, false) => {
            return Err(Usage(
                "--dc needs --machine too, or --auto (with --etcd or --postgres) for any free \
                 machine of it"
                    .to_owned(),
            ));
        }
        (None, Some(_), _) => return Err(Usage("--machine needs --dc too".to_owned())),
        _ => None,
    };
    let Some(store) = store(args)? else {
        return Ok((listen, identity.map_or(Plan::None, Plan::Unleased)));
    };
    let options = lease_options(args, identity, dc, store.kind())?;
    Ok((listen, Plan::Leased { store, options }))
}

/// The store of a leased identity, from the flags: `None` without `--etcd` and
/// `--postgres`, where every flag about a store is a bad flag.
fn store(args: &Args) -> Result<Option<StoreConfig>, Usage> {
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
            return Err(Usage(
                "--etcd and --postgres exclude each other: lease the identity from one store"
                    .to_owned(),
            ));
        }
        (None, None) => {
            if let Some(flag) = first(&lease_flags) {
                return Err(Usage(format!(
                    "{flag} is about a leased identity: it needs --etcd URL or --postgres URL"
                )));
            }
            if let Some(flag) = first(&etcd_flags) {
                return Err(Usage(format!(
                    "{flag} is about an identity leased from etcd: it needs --etcd URL"
                )));
            }
            if let Some(flag) = first(&postgres_flags) {
                return Err(Usage(format!(
                    "{flag} is about an identity leased from PostgreSQL: it needs --postgres URL"
                )));
            }
            return Ok(None);
        }
        (Some(endpoints), None) => {
            if let Some(flag) = first(&postgres_flags) {
                return Err(Usage(format!(
                    "{flag} is about an identity leased from PostgreSQL; --etcd leases from etcd"
                )));
            }
            // A malformed URL is a bad flag; an unreachable one is found when connecting.
            let config = EtcdConfig::new(endpoints).map_err(|e| Usage(format!("--etcd: {e}")))?;
            StoreConfig::Etcd(etcd_access(args, config)?)
        }
        (None, Some(url)) => {
            if let Some(flag) = first(&etcd_flags) {
                return Err(Usage(format!(
                    "{flag} is about an identity leased from etcd; --postgres leases from PostgreSQL"
                )));
            }
            StoreConfig::Postgres(postgres_access(args, url)?)
        }
    }))
}

/// The PostgreSQL URL, its password (the URL's, a file's, or `PGPASSWORD`), its CA and
/// schema from the flags.
fn postgres_access(args: &Args, url: &str) -> Result<PgConfig, Usage> {
    let mut config = PgConfig::new(url).map_err(|e| Usage(format!("--postgres: {e}")))?;
    if let Some(path) = &args.postgres_password_file {
        if config.has_password() {
            return Err(Usage(
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
            .map_err(|e| Usage(format!("--postgres-schema: {e}")))?;
    }
    // libpq's TLS variables are not read here: one asking for TLS without --postgres-ca
    // would otherwise connect in the clear without a word.
    if !config.is_tls()
        && let Ok(mode) = std::env::var("PGSSLMODE")
        && mode != "disable"
        && mode != "allow"
        && mode != "prefer"
    {
        return Err(Usage(format!(
            "PGSSLMODE={mode} is libpq's and is not read: give --postgres-ca FILE, the CA \
             that signed the database's certificate, for TLS that verifies it"
        )));
    }
    config.check().map_err(|e| match e {
        LeaseError::InvalidCa { reason, .. } => Usage(format!(
            "--postgres-ca {:?}: the CA: {reason}",
            args.postgres_ca.as_deref().unwrap_or("")
        )),
        e => Usage(format!("--postgres: {e}")),
    })?;
    Ok(config)
}

/// The file a flag names, read now: one that cannot be read is a bad flag.
fn read(flag: &str, path: &str) -> Result<Vec<u8>, Usage> {
    std::fs::read(path).map_err(|e| Usage(format!("{flag} {path:?}: cannot read it: {e}")))
}

/// A password from a file: one line, UTF-8; the newline an editor adds is not part of it.
fn password_file(flag: &str, path: &str) -> Result<String, Usage> {
    let text = String::from_utf8(read(flag, path)?)
        .map_err(|_| Usage(format!("{flag} {path:?}: the password is not UTF-8")))?;
    Ok(text.trim_end_matches(['\n', '\r']).to_owned())
}

/// TLS and the user from the flags, each file read now: a file flag that names nothing
/// is a bad flag, as is half of a pair.
fn etcd_access(args: &Args, mut config: EtcdConfig) -> Result<EtcdConfig, Usage> {
    match (&args.etcd_ca, config.is_tls()) {
        (Some(ca), true) => config = config.with_ca_pem(read("--etcd-ca", ca)?),
        (None, true) => {
            return Err(Usage(
                "--etcd https://... needs --etcd-ca FILE, the CA that signed the members' \
                 certificates"
                    .to_owned(),
            ));
        }
        (Some(_), false) => {
            return Err(Usage(
                "--etcd-ca is for https:// members; --etcd lists http:// ones".to_owned(),
            ));
        }
        (None, false) => {}
    }
    match (&args.etcd_cert, &args.etcd_key) {
        (Some(_), Some(_)) if !config.is_tls() => {
            return Err(Usage(
                "--etcd-cert and --etcd-key are for https:// members; --etcd lists http:// ones"
                    .to_owned(),
            ));
        }
        (Some(cert), Some(key)) => {
            config = config.with_client_pem(read("--etcd-cert", cert)?, read("--etcd-key", key)?);
        }
        (Some(_), None) => return Err(Usage("--etcd-cert needs --etcd-key too".to_owned())),
        (None, Some(_)) => return Err(Usage("--etcd-key needs --etcd-cert too".to_owned())),
        (None, None) => {}
    }
    let password = match &args.etcd_password_file {
        Some(path) => Some(password_file("--etcd-password-file", path)?),
        None => std::env::var(PASSWORD_VARIABLE).ok(),
    };
    match (&args.etcd_user, password) {
        (Some(user), Some(password)) => config = config.with_user(user, password),
        (Some(_), None) => {
            return Err(Usage(format!(
                "--etcd-user needs a password: --etcd-password-file FILE, or the environment \
                 variable {PASSWORD_VARIABLE} (never a flag, which `ps` would show)"
            )));
        }
        (None, _) if args.etcd_password_file.is_some() => {
            return Err(Usage(
                "--etcd-password-file needs --etcd-user, the user it is the password of".to_owned(),
            ));
        }
        (None, _) => {}
    }
    Ok(config)
}

/// A flag's whole seconds, `min..=3600`: the runtime's digits-only rule, then the range.
fn seconds(flag: &str, text: &str, min: u64) -> Result<Duration, Usage> {
    let expected = format!("expected whole seconds in {min}..=3600");
    match parse_decimal(text) {
        Ok(seconds) if (min..=3600).contains(&seconds) => Ok(Duration::from_secs(seconds)),
        Ok(seconds) => Err(Usage(format!(
            "{flag} {seconds} is out of range: {expected}"
        ))),
        Err(e) => Err(Usage(format!("{flag} {text:?} is {e}: {expected}"))),
    }
}

/// The lease's options from the flags: which identity, how long the lease and the wait.
fn lease_options(
    args: &Args,
    identity: Option<Identity>,
    dc: Option<u64>,
    store: StoreKind,
) -> Result<LeaseOptions, Usage> {
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
            return Err(Usage(
                "--auto and --machine exclude each other: --auto leases any free machine"
                    .to_owned(),
            ));
        }
        (true, None, None) => options,
        (true, None, Some(dc)) => options
            .in_datacenter(dc)
            .map_err(|e| Usage(format!("--dc: {e}")))?,
        (false, Some(identity), _) => options.exact(identity),
        (false, None, _) => {
            return Err(Usage(format!(
                "--{} needs --auto (any free identity), --dc N --auto (any free machine of \
                 datacenter N), or --dc N --machine N (exactly that identity)",
                store.key()
            )));
        }
    };
    options.check().map_err(|e| match e {
        LeaseError::InvalidPrefix(_) => Usage(format!("--etcd-prefix: {e}")),
        e => Usage(e.to_string()),
    })?;
    Ok(options)
}

#[cfg(fuzzing)]
fn main() {
    fuzz::main();
}

#[cfg(not(fuzzing))]
fn main() -> ExitCode {
    let args = match Args::try_parse() {
        Ok(args) => args,
        Err(e) if !e.use_stderr() => {
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            let text = e.to_string();
            let first = text.lines().next().unwrap_or("bad arguments");
            return fail(2, first.strip_prefix("error: ").unwrap_or(first));
        }
    };
    if args.print_postgres_schema {
        let schema = args
            .postgres_schema
            .as_deref()
            .unwrap_or(PgConfig::DEFAULT_SCHEMA);
        return match PgStore::schema_sql(schema) {
            Ok(sql) => match std::io::stdout().write_all(sql.as_bytes()) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => fail(1, &format!("cannot write the schema: {e}")),
            },
            Err(e) => fail(2, &format!("--postgres-schema: {e}")),
        };
    }
    let (listen, plan) = match plan(&args) {
        Ok(plan) => plan,
        Err(Usage(message)) => return fail(2, &message),
    };
    if let Err(message) = logging::init(args.log_format) {
        return fail(2, &message);
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => return fail(1, &format!("cannot start the runtime: {e}")),
    };
    match runtime.block_on(serve(listen, plan)) {
        Ok(()) => ExitCode::SUCCESS,
        // An event, as everything after the start is: one line, JSON for a collector.
        Err(message) => {
            tracing::error!("{message}");
            ExitCode::from(1)
        }
    }
}

fn fail(code: u8, message: &str) -> ExitCode {
    let _ = writeln!(std::io::stderr(), "error: {message}");
    ExitCode::from(code)
}

/// The router, for `serve` and for tests.
pub(crate) fn app(state: Arc<AppState>) -> Router {
    Router::new()
        .route("/", get(page::page))
        .route("/v1/id", get(api::id))
        .route("/v1/ids", get(api::ids))
        .route("/v1/compose", get(api::compose))
        .route("/v1/decode/{id}", get(api::decode))
        .route("/v1/identity", get(api::identity))
        .route("/healthz", get(api::healthz))
        .route("/readyz", get(api::readyz))
        .route("/metrics", get(metrics::metrics))
        .route("/v1/openapi.json", get(openapi::openapi))
        .fallback(api::not_found)
        .method_not_allowed_fallback(api::method_not_allowed)
        // Inside the count: answers past the limits are counted too.
        .layer(axum::middleware::from_fn(limits::limits))
        .layer(axum::middleware::from_fn_with_state(
            Arc::clone(&state),
            metrics::count,
        ))
        .with_state(state)
}

/// How long in-flight requests may take to finish after a stop signal.
const DRAIN: Duration = Duration::from_secs(10);

async fn serve(listen: SocketAddr, plan: Plan) -> Result<(), String> {
    // Before anything that can take a while, so that a stop signal never meets the
    // default action, which would leave the lease held.
    let mut stop = Stop::new().map_err(|e| format!("cannot handle signals: {e}"))?;
    // Before the first connection: the cap on connections follows the limit on files.
    let cap = listen::connection_cap();
    // The port first: a port in use must not cost a claim of an identity.
    let listener = tokio::net::TcpListener::bind(listen)
        .await
        .map_err(|e| format!("cannot listen on {listen}: {e}"))?;
    let local = listener.local_addr().map_err(|e| e.to_string())?;
    started(local, &plan);
    // How long a claim in flight at a stop signal may go on: its wait for the clock to
    // pass the high-water mark, and a second.
    let (issuer, lease) = match plan {
        Plan::None => (Issuer::None, None),
        Plan::Unleased(identity) => (
            Issuer::Unleased(snowflake_kit::Generator::new(identity)),
            None,
        ),
        Plan::Leased { store, options } => (
            Issuer::Leased(Lease::claiming(options.choice, store.kind())),
            Some((store, options)),
        ),
    };
    let metrics = Metrics::new().map_err(|e| format!("cannot set up the metrics: {e}"))?;
    let state = Arc::new(AppState {
        issuer,
        queue: fair::Queue::default(),
        metrics,
    });
    // The claim goes on while the server answers: the page, compose, decode, the
    // health and the metrics need no identity, and the rest say what they wait for.
    let (grace, mut claim) = match lease {
        Some((store, options)) => (
            options.max_clock_wait + Duration::from_secs(1),
            Some(tokio::spawn(claim(Arc::clone(&state), store, options))),
        ),
        None => (Duration::ZERO, None),
    };
    // A closed stdout is no reason to panic.
    let _ = writeln!(
        std::io::stdout(),
        "snowflake-server listening on http://{local}"
    );
    let (stopping, stopped) = tokio::sync::oneshot::channel::<()>();
    let serving = listen::serve(
        listener,
        app(Arc::clone(&state)),
        Arc::clone(&state),
        cap,
        async {
            let _ = stopped.await;
        },
    );
    let mut serving = std::pin::pin!(serving);
    let claim_failed = async {
        match &mut claim {
            Some(task) => match task.await {
                Ok(Ok(())) => std::future::pending().await,
                Ok(Err(e)) => e,
                Err(e) => format!("the claim failed: {e}"),
            },
            None => std::future::pending().await,
        }
    };
    let failed = tokio::select! {
        () = &mut serving => None,
        failed = claim_failed => {
            let _ = stopping.send(());
            drain(&mut serving, &mut stop).await;
            Some(failed)
        }
        () = stop.wait() => {
            tracing::info!(drain_s = DRAIN.as_secs(), "stop signal: draining the requests in flight");
            let _ = stopping.send(());
            drain(&mut serving, &mut stop).await;
            None
        }
    };
    // A claim still in flight: let it finish within the grace (it may be waiting for
    // the clock to pass the mark of an identity it has won), then let go of what it won.
    if let Some(task) = claim
        && !task.is_finished()
    {
        let abort = task.abort_handle();
        tokio::select! {
            _ = tokio::time::timeout(grace, task) => {}
            () = stop.wait() => {}
        }
        abort.abort();
    }
    state.issuer.release().await;
    if failed.is_none() {
        tracing::info!("stopped");
    }
    failed.map_or(Ok(()), Err)
}

/// The start-up event: where it listens, which identity, and from what store (its
/// members, the user's name if any; never a password or a key).
fn started(local: SocketAddr, plan: &Plan) {
    match plan {
        Plan::None => tracing::info!(
            address = %local,
            identity = "none",
            "listening: no identity, the ID endpoints answer 503 (--dc N --machine N, --etcd or \
             --postgres)"
        ),
        Plan::Unleased(identity) => tracing::info!(
            address = %local,
            identity = issuer::UNLEASED,
            datacenter = identity.datacenter(),
            machine = identity.machine(),
            "listening"
        ),
        Plan::Leased { store, options } => {
            let (datacenter, machine) = match options.choice {
                snowflake_lease::Choice::Auto => (None, None),
                snowflake_lease::Choice::Datacenter(dc) => (Some(dc), None),
                snowflake_lease::Choice::Exact(identity) => {
                    (Some(identity.datacenter()), Some(identity.machine()))
                }
            };
            let identity = issuer::kind(options.choice);
            let (ttl_s, window_ms) = (options.ttl.as_secs(), options.window.as_millis());
            let claim_wait_s = options.claim_wait.as_secs();
            match store {
                StoreConfig::Etcd(config) => tracing::info!(
                    address = %local,
                    identity,
                    datacenter,
                    machine,
                    store = "etcd",
                    members = %config.endpoints().join(","),
                    tls = config.is_tls(),
                    user = config.user(),
                    prefix = %options.prefix,
                    ttl_s,
                    window_ms,
                    claim_wait_s,
                    "listening; claiming the identity"
                ),
                // The URL without its password, ever.
                StoreConfig::Postgres(config) => tracing::info!(
                    address = %local,
                    identity,
                    datacenter,
                    machine,
                    store = "postgres",
                    database = config.endpoint(),
                    tls = config.is_tls(),
                    schema = config.schema(),
                    ttl_s,
                    window_ms,
                    claim_wait_s,
                    "listening; claiming the identity"
                ),
            }
        }
    }
}

/// In-flight requests finish within the drain time; a half-sent one does not hold the
/// lease hostage, and a second signal ends the wait.
async fn drain<F: std::future::Future<Output = ()>>(
    serving: &mut std::pin::Pin<&mut F>,
    stop: &mut Stop,
) {
    tokio::select! {
        () = serving => {}
        () = tokio::time::sleep(DRAIN) => {}
        () = stop.wait() => {}
    }
}

/// Connects to the store and claims the identity, telling the lease what it waits for
/// meanwhile; then the lease issues.
async fn claim(
    state: Arc<AppState>,
    store: StoreConfig,
    options: LeaseOptions,
) -> Result<(), String> {
    let Issuer::Leased(lease) = &state.issuer else {
        return Ok(());
    };
    let report = |e: &LeaseError| lease.wait_for(&e.to_string());
    let clock = snowflake_kit::SystemClock;
    let generator = match store {
        StoreConfig::Etcd(config) => {
            let store = EtcdStore::connect_with(config, &options)
                .await
                .map_err(|e| e.to_string())?;
            LeasedGenerator::start_reporting(store, options, clock, &report).await
        }
        StoreConfig::Postgres(config) => {
            let store = PgStore::connect(config, &options)
                .await
                .map_err(|e| e.to_string())?;
            LeasedGenerator::start_reporting(store, options, clock, &report).await
        }
    }
    .map_err(|e| e.to_string())?;
    lease.hold(generator);
    Ok(())
}

/// SIGTERM or Ctrl-C, listened for from the moment it is made.
struct Stop {
    #[cfg(unix)]
    term: tokio::signal::unix::Signal,
    #[cfg(unix)]
    interrupt: tokio::signal::unix::Signal,
}

impl Stop {
    fn new() -> std::io::Result<Stop> {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{SignalKind, signal};
            Ok(Stop {
                term: signal(SignalKind::terminate())?,
                interrupt: signal(SignalKind::interrupt())?,
            })
        }
        #[cfg(not(unix))]
        Ok(Stop {})
    }

    async fn wait(&mut self) {
        #[cfg(unix)]
        tokio::select! {
            _ = self.term.recv() => {}
            _ = self.interrupt.recv() => {}
        }
        #[cfg(not(unix))]
        {
            let _ = tokio::signal::ctrl_c().await;
        }
    }
}

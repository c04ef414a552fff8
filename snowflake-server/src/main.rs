//! `snowflake-server`: the page that shows how a Snowflake ID is built, and an ID
//! service around it.
//!
//! ```text
//! snowflake-server [--listen ADDR]                     (default 127.0.0.1:8080)
//!                  [--dc N --machine N]                fixed identity
//!                  [--etcd URL [--etcd-prefix P] [--auto | --dc N --machine N] [--lease-ttl SECONDS]]
//! ```
//!
//! Bad flags: one line on stderr, exit status 2. A port in use or an unreachable
//! etcd: one line naming it, exit status 1. SIGTERM or Ctrl-C: stop accepting,
//! finish what is in flight, release the identity, exit 0.

mod api;
mod error;
mod form;
mod issuer;
mod metrics;
mod page;

use std::io::Write;
use std::net::SocketAddr;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::routing::get;
use clap::Parser;
use snowflake_kit::{Field, Identity, parse_decimal};
use snowflake_lease::{EtcdStore, LeaseError, LeaseOptions, LeasedGenerator};

use crate::issuer::Issuer;
use crate::metrics::Metrics;

/// Serve the Snowflake ID page and an ID service.
#[derive(Parser, Debug)]
#[command(name = "snowflake-server", version, max_term_width = 100)]
struct Args {
    /// The address to listen on.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:8080")]
    listen: String,
    /// Datacenter id, 0..=31: of a fixed identity (with --machine), or the datacenter
    /// to lease any free machine of (with --etcd and --auto).
    #[arg(long, value_name = "N")]
    dc: Option<String>,
    /// Machine id, 0..=31: of a fixed identity (with --dc).
    #[arg(long, value_name = "N")]
    machine: Option<String>,
    /// Lease the identity from etcd at this address (http://host:port).
    #[arg(long, value_name = "URL")]
    etcd: Option<String>,
    /// The key prefix in etcd [default: /snowflake-kit/v1/default].
    #[arg(long, value_name = "P")]
    etcd_prefix: Option<String>,
    /// Lease any free identity of all 1,024 (with --etcd), or with --dc any free machine
    /// of that datacenter.
    #[arg(long)]
    auto: bool,
    /// The lease's time to live, in seconds (with --etcd) [default: 10].
    #[arg(long, value_name = "SECONDS")]
    lease_ttl: Option<String>,
    /// How long to wait for a fixed identity, or a machine of --dc, to come free (with
    /// --etcd), in seconds; 0 fails at once [default: 30].
    #[arg(long, value_name = "SECONDS")]
    claim_wait: Option<String>,
}

/// What the handlers share.
pub(crate) struct AppState {
    issuer: Issuer,
    metrics: Metrics,
}

/// How the server was asked to get its identity.
enum Plan {
    None,
    Fixed(Identity),
    Leased {
        endpoint: String,
        options: LeaseOptions,
    },
}

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
                "--dc needs --machine too, or --auto (with --etcd) for any free machine of it"
                    .to_owned(),
            ));
        }
        (None, Some(_), _) => return Err(Usage("--machine needs --dc too".to_owned())),
        _ => None,
    };
    let Some(endpoint) = &args.etcd else {
        for (given, flag) in [
            (args.auto, "--auto"),
            (args.lease_ttl.is_some(), "--lease-ttl"),
            (args.etcd_prefix.is_some(), "--etcd-prefix"),
            (args.claim_wait.is_some(), "--claim-wait"),
        ] {
            if given {
                return Err(Usage(format!(
                    "{flag} is about an identity leased from etcd: it needs --etcd URL"
                )));
            }
        }
        return Ok((listen, identity.map_or(Plan::None, Plan::Fixed)));
    };
    let options = lease_options(args, identity, dc)?;
    // A malformed URL is a bad flag; an unreachable one is found when connecting.
    if let Err(e @ LeaseError::InvalidEndpoint { .. }) = snowflake_lease::check_endpoint(endpoint) {
        return Err(Usage(e.to_string()));
    }
    Ok((
        listen,
        Plan::Leased {
            endpoint: endpoint.clone(),
            options,
        },
    ))
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
        (false, Some(identity), _) => options.fixed(identity),
        (false, None, _) => {
            return Err(Usage(
                "--etcd needs --auto (any free identity), --dc N --auto (any free machine of \
                 datacenter N), or --dc N --machine N (a fixed identity)"
                    .to_owned(),
            ));
        }
    };
    options.check().map_err(|e| match e {
        LeaseError::InvalidPrefix(_) => Usage(format!("--etcd-prefix: {e}")),
        e => Usage(e.to_string()),
    })?;
    Ok(options)
}

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
    let (listen, plan) = match plan(&args) {
        Ok(plan) => plan,
        Err(Usage(message)) => return fail(2, &message),
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => return fail(1, &format!("cannot start the runtime: {e}")),
    };
    match runtime.block_on(serve(listen, plan)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => fail(1, &message),
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
        .fallback(api::not_found)
        .method_not_allowed_fallback(api::method_not_allowed)
        .layer(axum::middleware::from_fn_with_state(
            Arc::clone(&state),
            metrics::count,
        ))
        .with_state(state)
}

/// How long in-flight requests may take to finish after a stop signal.
const DRAIN: Duration = Duration::from_secs(10);

async fn serve(listen: SocketAddr, plan: Plan) -> Result<(), String> {
    // Before anything that can take a while (the claim waits for etcd), so that a
    // stop signal never meets the default action, which would leave the lease held.
    let mut stop = Stop::new().map_err(|e| format!("cannot handle signals: {e}"))?;
    // The port first: a port in use must not cost a claim of an identity.
    let listener = tokio::net::TcpListener::bind(listen)
        .await
        .map_err(|e| format!("cannot listen on {listen}: {e}"))?;
    // How long a claim in flight at a stop signal may go on: its wait for the clock to
    // pass the high-water mark, and a second.
    let grace = match &plan {
        Plan::Leased { options, .. } => options.max_clock_wait + Duration::from_secs(1),
        Plan::None | Plan::Fixed(..) => Duration::ZERO,
    };
    let mut claiming = std::pin::pin!(issuer(plan));
    let issuer = tokio::select! {
        issuer = &mut claiming => issuer?,
        () = stop.wait() => {
            // A claim that has won the identity may still be waiting for the clock to
            // pass its high-water mark: let it finish, then release it, rather than
            // leave the identity held until its lease runs out. A second signal, or
            // the grace running out, ends the wait.
            tokio::select! {
                claimed = tokio::time::timeout(grace, &mut claiming) => {
                    if let Ok(Ok(issuer)) = claimed {
                        issuer.release().await;
                    }
                }
                () = stop.wait() => {}
            }
            return Ok(());
        }
    };
    let metrics = Metrics::new().map_err(|e| format!("cannot set up the metrics: {e}"))?;
    let state = Arc::new(AppState { issuer, metrics });
    let local = listener.local_addr().map_err(|e| e.to_string())?;
    // A closed stdout is no reason to panic.
    let _ = writeln!(
        std::io::stdout(),
        "snowflake-server listening on http://{local}"
    );
    let (stopping, stopped) = tokio::sync::oneshot::channel::<()>();
    let serving = axum::serve(listener, app(Arc::clone(&state))).with_graceful_shutdown(async {
        let _ = stopped.await;
    });
    let mut serving = std::pin::pin!(serving.into_future());
    let served = tokio::select! {
        result = &mut serving => result,
        () = stop.wait() => {
            let _ = stopping.send(());
            // In-flight requests finish within the drain time; a half-sent one does
            // not hold the lease hostage, and a second signal ends the wait.
            tokio::select! {
                result = &mut serving => result,
                () = tokio::time::sleep(DRAIN) => Ok(()),
                () = stop.wait() => Ok(()),
            }
        }
    };
    state.issuer.release().await;
    served.map_err(|e| format!("the server failed: {e}"))
}

/// The issuer a plan asks for: for a lease, connecting to etcd and claiming.
async fn issuer(plan: Plan) -> Result<Issuer, String> {
    Ok(match plan {
        Plan::None => Issuer::None,
        Plan::Fixed(identity) => Issuer::Fixed(snowflake_kit::Generator::for_identity(identity)),
        Plan::Leased { endpoint, options } => {
            let store = EtcdStore::connect(&endpoint, &options)
                .await
                .map_err(|e| e.to_string())?;
            Issuer::Leased(
                LeasedGenerator::start(store, options)
                    .await
                    .map_err(|e| e.to_string())?,
            )
        }
    })
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

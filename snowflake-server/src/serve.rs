//! Serving: the router on a listener, a leased identity's claim beside it, and the stop.

use std::fmt;
use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use snowflake_lease::{
    EtcdConfig, EtcdStore, LeaseError, LeaseOptions, LeasedGenerator, PgConfig, PgStore,
};
use tokio::net::TcpListener;

use crate::api::IdentityJson;
use crate::config::{Config, IdentityConfig, StoreConfig};
use crate::issuer::{self, Issuer, Lease};
use crate::metrics::Metrics;
use crate::{AppState, fair, listen, router};

mod error;
mod signals;

pub use error::{ServeError, ServeErrorKind};
pub use signals::StopSignals;
use signals::{Once, Stop};

/// How long in-flight requests may take to finish after a stop signal.
const DRAIN: Duration = Duration::from_secs(10);

/// The service to mount in an application's router: [`Service::router`] answers every endpoint;
/// with a leased identity, [`Service::claim`] claims it and [`Service::release`] lets it go.
///
/// Mount it at the root (`merge`): the page's form and script, and the OpenAPI document, name
/// the paths from `/`. The limits on connections (header-read timeout, cap) are [`serve`]'s,
/// not the router's: under the application's own server, they are the application's.
///
/// ```
/// use axum::body::Body;
/// use axum::http::Request;
/// use snowflake_kit::Identity;
/// use snowflake_server::{Config, Service};
/// use tower::ServiceExt;
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let service = Service::new(Config::unleased(Identity::new(1, 1)?))?;
/// let app = axum::Router::new()
///     .route("/hello", axum::routing::get(|| async { "the application's own" }))
///     .merge(service.router());
/// let answer = app
///     .oneshot(Request::get("/v1/compose?ts=1288834975657&dc=1&machine=1&seq=0").body(Body::empty())?)
///     .await?;
/// assert_eq!(answer.status(), 200);
/// # Ok(()) }
/// ```
pub struct Service {
    state: Arc<AppState>,
    /// The store and options of a leased identity not claimed yet.
    claim: Option<(StoreConfig, LeaseOptions)>,
}

impl fmt::Debug for Service {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Service")
            .field("identity", &IdentityJson::of(&self.state.issuer))
            .finish_non_exhaustive()
    }
}

impl Service {
    /// The service of `config`; a leased identity is claimed by [`Service::claim`], and
    /// until then the ID endpoints answer 503 saying what they wait for.
    ///
    /// # Errors
    ///
    /// When its metrics cannot be set up.
    pub fn new(config: Config) -> Result<Service, ServeError> {
        let (issuer, claim) = match config.identity {
            IdentityConfig::None => (Issuer::None, None),
            IdentityConfig::Unleased(identity) => (
                Issuer::Unleased(snowflake_kit::Generator::new(identity)),
                None,
            ),
            IdentityConfig::Leased { store, options } => (
                Issuer::Leased(Lease::claiming(options.choice, store.kind())),
                Some((store, options)),
            ),
        };
        let metrics = Metrics::new().map_err(|e| {
            ServeError::new(ServeErrorKind::Metrics, "cannot set up the metrics", e)
        })?;
        let state = Arc::new(AppState {
            issuer,
            queue: fair::Queue::default(),
            metrics,
        });
        Ok(Service { state, claim })
    }

    /// A router of every endpoint (page, API, health, metrics, OpenAPI) on the service's state.
    pub fn router(&self) -> Router {
        router(Arc::clone(&self.state))
    }

    /// Connects to the store and claims the leased identity, waiting as long as its options
    /// say; the ID endpoints issue once it returns `Ok`. Without a lease, or claimed already,
    /// it returns `Ok` at once; after an error, it may be called again.
    ///
    /// Let it finish: one dropped after winning the identity, while waiting for the clock to
    /// pass its high-water mark, leaves it held until the lease runs out.
    ///
    /// # Errors
    ///
    /// When the store cannot be reached, or the identity is not claimed in time.
    pub async fn claim(&mut self) -> Result<(), ServeError> {
        let Some((store, options)) = &self.claim else {
            return Ok(());
        };
        claim(Arc::clone(&self.state), store.clone(), options.clone()).await?;
        self.claim = None;
        Ok(())
    }

    /// Lets the leased identity go, for the next holder; without one, nothing.
    pub async fn release(&self) {
        self.state.issuer.release().await;
    }
}

/// Serves `config` on `listener` until `shutdown` resolves: answers at once, claims a leased
/// identity meanwhile, then drains requests in flight (up to 10 s), lets a claim in flight
/// finish (up to the lease's clock wait and a second), and lets the identity go.
///
/// ```no_run
/// # #[tokio::main]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use snowflake_server::Config;
///
/// let listener = tokio::net::TcpListener::bind("127.0.0.1:8080").await?;
/// let config = Config::unleased(snowflake_kit::Identity::new(1, 1)?);
/// snowflake_server::serve(listener, config, async {
///     let _ = tokio::signal::ctrl_c().await;
/// })
/// .await?;
/// # Ok(()) }
/// ```
///
/// # Errors
///
/// [`ServeError`]: no metrics, the store out of reach, or the identity not claimed in time.
pub async fn serve(
    listener: TcpListener,
    config: Config,
    shutdown: impl Future<Output = ()> + Send,
) -> Result<(), ServeError> {
    run(listener, config, &mut Once(Some(Box::pin(shutdown)))).await
}

/// As [`serve`], until `signals` hears SIGTERM or Ctrl-C (SIGINT); a second signal ends the
/// drain at once, and the identity is still let go. From [`StopSignals::listen`] on, a signal
/// during start-up or the claim never meets the default action, which would leave the lease
/// held; the binary prints where it listens only after `listen`. The library writes nothing
/// to stdout; the signals stay caught afterwards (tokio keeps its handlers).
///
/// ```no_run
/// # #[tokio::main]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use snowflake_server::{Config, StopSignals, serve_until_signal};
///
/// let listener = tokio::net::TcpListener::bind("127.0.0.1:8080").await?;
/// let signals = StopSignals::listen()?;
/// println!("listening on http://{}", listener.local_addr()?);
/// serve_until_signal(listener, Config::without_identity(), signals).await?;
/// # Ok(()) }
/// ```
///
/// # Errors
///
/// As [`serve`]'s.
pub async fn serve_until_signal(
    listener: TcpListener,
    config: Config,
    mut signals: StopSignals,
) -> Result<(), ServeError> {
    run(listener, config, &mut signals).await
}

async fn run(
    listener: TcpListener,
    config: Config,
    stop: &mut impl Stop,
) -> Result<(), ServeError> {
    let local = listener.local_addr().map_err(|e| {
        ServeError::new(
            ServeErrorKind::Listener,
            "cannot read the listener's address",
            e,
        )
    })?;
    started(local, &config);
    let cap = listen::connection_cap();
    let mut service = Service::new(config)?;
    let state = Arc::clone(&service.state);
    // The claim goes on while the server answers: the page, compose, decode, health and metrics
    // need no identity, and the rest say what they wait for.
    let (grace, mut claim) = match service.claim.take() {
        Some((store, options)) => (
            options.max_clock_wait + Duration::from_secs(1),
            Some(tokio::spawn(claim(Arc::clone(&state), store, options))),
        ),
        None => (Duration::ZERO, None),
    };
    let (stopping, stopped) = tokio::sync::oneshot::channel::<()>();
    let serving = listen::serve(listener, service.router(), Arc::clone(&state), cap, async {
        let _ = stopped.await;
    });
    let mut serving = std::pin::pin!(serving);
    let claim_failed = async {
        match &mut claim {
            Some(task) => match task.await {
                Ok(Ok(())) => std::future::pending().await,
                Ok(Err(e)) => e,
                Err(e) => ServeError::new(ServeErrorKind::Claim, "the claim's task failed", e),
            },
            None => std::future::pending().await,
        }
    };
    let failed = tokio::select! {
        () = &mut serving => None,
        failed = claim_failed => {
            let _ = stopping.send(());
            drain(&mut serving, stop).await;
            Some(failed)
        }
        () = stop.wait() => {
            tracing::info!(drain_s = DRAIN.as_secs(), "stop signal: draining the requests in flight");
            let _ = stopping.send(());
            drain(&mut serving, stop).await;
            None
        }
    };
    // A claim still in flight: let it finish within the grace (it may be waiting for
    // the clock to pass the mark of an identity it has won), then let go of what it won.
    if let Some(mut task) = claim
        && !task.is_finished()
    {
        let finished = tokio::select! {
            done = tokio::time::timeout(grace, &mut task) => done.is_ok(),
            () = stop.wait() => false,
        };
        if !finished {
            // Awaited after the abort: a claim in the middle of handing its generator over
            // finishes that first, so that the release below sees what it won.
            task.abort();
            let _ = task.await;
        }
    }
    service.release().await;
    if failed.is_none() {
        tracing::info!("stopped");
    }
    failed.map_or(Ok(()), Err)
}

/// The start-up event: where it listens, which identity, and from what store (its
/// members or database, the user's name if any; never a password or a key).
fn started(local: SocketAddr, config: &Config) {
    let (store, options) = match &config.identity {
        IdentityConfig::None => {
            return tracing::info!(
                address = %local,
                identity = "none",
                "listening: no identity, the ID endpoints answer 503 (--dc N --machine N, \
                 --etcd or --postgres)"
            );
        }
        IdentityConfig::Unleased(identity) => {
            return tracing::info!(
                address = %local,
                identity = issuer::UNLEASED,
                datacenter = identity.datacenter(),
                machine = identity.machine(),
                "listening"
            );
        }
        IdentityConfig::Leased { store, options } => (store, options),
    };
    let (datacenter, machine) = match options.choice {
        snowflake_lease::Choice::Auto => (None, None),
        snowflake_lease::Choice::Datacenter(dc) => (Some(dc), None),
        snowflake_lease::Choice::Exact(id) => (Some(id.datacenter()), Some(id.machine())),
    };
    // Each store's own fields; the PostgreSQL URL without its password, ever.
    let (etcd, postgres) = match store {
        StoreConfig::Etcd(config) => (Some(config), None),
        StoreConfig::Postgres(config) => (None, Some(config)),
    };
    tracing::info!(
        address = %local,
        identity = issuer::kind(options.choice),
        datacenter,
        machine,
        store = store.kind().key(),
        members = etcd.map(|config| tracing::field::display(config.endpoints().join(","))),
        user = etcd.and_then(EtcdConfig::user),
        prefix = etcd.map(|_| tracing::field::display(&options.prefix)),
        database = postgres.map(PgConfig::endpoint),
        schema = postgres.map(PgConfig::schema),
        tls = etcd.map(EtcdConfig::is_tls).or(postgres.map(PgConfig::is_tls)),
        ttl_s = options.ttl.as_secs(),
        window_ms = u64::try_from(options.window.as_millis()).unwrap_or(u64::MAX),
        claim_wait_s = options.claim_wait.as_secs(),
        "listening; claiming the identity"
    );
}

/// In-flight requests finish within the drain time; a half-sent one does not hold the
/// lease hostage, and a second signal ends the wait.
async fn drain<F: Future<Output = ()>>(serving: &mut Pin<&mut F>, stop: &mut impl Stop) {
    tokio::select! {
        () = serving => {}
        () = tokio::time::sleep(DRAIN) => {}
        () = stop.wait() => {}
    }
}

/// Connects and claims the identity, telling the lease what it waits for; then the lease issues.
async fn claim(
    state: Arc<AppState>,
    store: StoreConfig,
    options: LeaseOptions,
) -> Result<(), ServeError> {
    let Issuer::Leased(lease) = &state.issuer else {
        return Ok(());
    };
    let report = |e: &LeaseError| lease.wait_for(&crate::chain::chain(e));
    let clock = snowflake_kit::SystemClock;
    let generator = match store {
        StoreConfig::Etcd(config) => {
            let store = EtcdStore::connect_with(config, &options)
                .await
                .map_err(ServeError::claim)?;
            LeasedGenerator::start_reporting(store, options, clock, &report).await
        }
        StoreConfig::Postgres(config) => {
            let store = PgStore::connect(config, &options)
                .await
                .map_err(ServeError::claim)?;
            LeasedGenerator::start_reporting(store, options, clock, &report).await
        }
    }
    .map_err(ServeError::claim)?;
    lease.hold(generator);
    Ok(())
}

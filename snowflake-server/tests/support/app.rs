//! [`App`]: the library's router in this process, each request through tower's `oneshot`,
//! no socket: for every case of the API that needs none.

use axum::body::Body;
use axum::http::Request;
use snowflake_server::{Config, Service};
use tower::ServiceExt;

use super::Response;

/// The service's router and a runtime to drive it from a test's own thread (or threads:
/// `block_on` of a multi-thread runtime may be called from several at once).
pub(crate) struct App {
    router: axum::Router,
    runtime: tokio::runtime::Runtime,
}

impl App {
    /// The router of the service of `config`.
    pub(crate) fn new(config: Config) -> App {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("a runtime");
        // Inside the runtime: the service's metrics and issuer may need one to be built.
        let router = runtime.block_on(async {
            Service::new(config)
                .expect("the service of the config")
                .router()
        });
        App { router, runtime }
    }

    /// With the identity (`dc`, `machine`), unleased.
    pub(crate) fn unleased(dc: u64, machine: u64) -> App {
        let identity = snowflake_kit::Identity::new(dc, machine).expect("an identity");
        App::new(Config::unleased(identity))
    }

    /// Without an identity.
    pub(crate) fn without_identity() -> App {
        App::new(Config::without_identity())
    }

    /// `GET path`.
    pub(crate) fn get(&self, path: &str) -> Response {
        self.request("GET", path)
    }

    /// `method path`, without a body, read whole.
    pub(crate) fn request(&self, method: &str, path: &str) -> Response {
        let request = Request::builder()
            .method(method)
            .uri(path)
            .body(Body::empty())
            .unwrap_or_else(|e| panic!("{method} {path}: {e}"));
        self.runtime.block_on(respond(self.router.clone(), request))
    }

    /// The IDs that `GET path` answers: one from `/v1/id`, a list from `/v1/ids`.
    pub(crate) fn fetch_ids(&self, path: &str) -> Vec<String> {
        super::ids_in(&self.get(path).json())
    }
}

/// `request` through `router` (tower's `oneshot`), its answer read whole: for async tests.
pub(crate) async fn respond(router: axum::Router, request: Request<Body>) -> Response {
    let response = router
        .oneshot(request)
        .await
        .expect("the router is infallible");
    let (head, body) = response.into_parts();
    let body = axum::body::to_bytes(body, usize::MAX)
        .await
        .expect("the body, read whole");
    Response {
        status: head.status.as_u16(),
        headers: head.headers,
        body: String::from_utf8(body.to_vec()).expect("a body in UTF-8"),
    }
}

//! The service mounted in an application's own axum router, at the root (the page and the
//! OpenAPI document name its paths from `/`), beside the application's routes:
//! `cargo run -p snowflake-server --example embed`, then `curl http://127.0.0.1:3000/v1/id`.

use axum::routing::get;
use snowflake_server::{Config, Service};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let service = Service::new(Config::unleased(snowflake_kit::Identity::new(1, 1)?))?;
    let app = axum::Router::new()
        .route("/hello", get(|| async { "the application's own route" }))
        .merge(service.router());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:3000").await?;
    axum::serve(listener, app).await?;
    Ok(())
}

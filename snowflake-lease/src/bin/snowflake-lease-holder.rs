//! A holder of a leased identity in a process of its own, for the lease tests that kill
//! and stop one (the store suite, `tests/suite/processes.rs`); not a tool, and not in the
//! published package.
//!
//! ```text
//! snowflake-lease-holder ENDPOINT DC MACHINE TTL_SECS RUN_SECS
//! ```
//!
//! ENDPOINT is etcd's (`http://...`) or a PostgreSQL URL (`postgres://...`).
//!
//! Prints `holding` once it holds the identity, then every millisecond `id N` or
//! `refused`, for `RUN_SECS`; then releases the identity.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use snowflake_lease::{EtcdStore, Identity, LeaseOptions, LeasedGenerator, PgConfig, PgStore};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [endpoint, dc, machine, ttl, run] = &args[..] else {
        eprintln!("usage: snowflake-lease-holder ENDPOINT DC MACHINE TTL_SECS RUN_SECS");
        return ExitCode::from(2);
    };
    let numbers: Result<Vec<u64>, _> = [dc, machine, ttl, run].iter().map(|n| n.parse()).collect();
    let Ok(&[dc, machine, ttl, run]) = numbers.as_deref() else {
        eprintln!("DC, MACHINE, TTL_SECS and RUN_SECS are whole numbers");
        return ExitCode::from(2);
    };
    let Ok(identity) = Identity::new(dc, machine) else {
        eprintln!("DC and MACHINE are 0..=31");
        return ExitCode::from(2);
    };
    let Ok(runtime) = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    else {
        eprintln!("cannot start the runtime");
        return ExitCode::FAILURE;
    };
    runtime.block_on(async {
        let mut options = LeaseOptions::default().exact(identity);
        options.ttl = Duration::from_secs(ttl);
        options.window = Duration::from_secs(1);
        let generator = if endpoint.starts_with("postgres") {
            match PgConfig::new(endpoint) {
                Ok(config) => match PgStore::connect(config, &options).await {
                    Ok(store) => LeasedGenerator::start(store, options).await,
                    Err(e) => Err(e),
                },
                Err(e) => Err(e),
            }
        } else {
            match EtcdStore::connect(endpoint, &options).await {
                Ok(store) => LeasedGenerator::start(store, options).await,
                Err(e) => Err(e),
            }
        };
        let generator = match generator {
            Ok(generator) => generator,
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::FAILURE;
            }
        };
        println!("holding");
        let until = Instant::now() + Duration::from_secs(run);
        while Instant::now() < until {
            match generator.try_next_id() {
                Ok(id) => println!("id {id}"),
                Err(_) => println!("refused"),
            }
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        generator.release().await;
        ExitCode::SUCCESS
    })
}

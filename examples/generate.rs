//! Issuing live IDs: one generator per datacenter and machine, shared by every
//! thread of the process. Run with `cargo run --example generate`.

use std::collections::HashSet;

use snowflake_kit::{Generator, Identity, Snowflake};

/// The process's generator. The datacenter and machine would come from the
/// deployment; `const` construction means a bad pair fails the build.
static IDS: Generator = match Identity::new(3, 14) {
    Ok(identity) => Generator::new(identity),
    Err(_) => panic!("datacenter and machine must be 0..=31"),
};

fn main() {
    // One at a time, from several threads at once.
    let per_thread: Vec<Vec<Snowflake>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..4)
            .map(|_| scope.spawn(|| (0..50_000).map(|_| IDS.next_id()).collect()))
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().expect("no panic"))
            .collect()
    });
    let unique: HashSet<Snowflake> = per_thread.iter().flatten().copied().collect();
    println!(
        "4 threads issued {} ids, {} distinct",
        4 * 50_000,
        unique.len()
    );

    // A batch: one clock reading and one atomic operation per 4,096 ids.
    let mut batch = vec![Snowflake::MAX; 10_000];
    match IDS.try_fill(&mut batch) {
        Ok(()) => println!(
            "a batch of {} from {} to {}",
            batch.len(),
            batch[0],
            batch[batch.len() - 1]
        ),
        Err(e) => eprintln!("no ids: {e}"),
    }

    let id = IDS.next_id();
    let p = id.parts();
    println!(
        "{id}: {} ms, datacenter {}, machine {}, sequence {}",
        p.timestamp_ms, p.datacenter, p.machine, p.sequence
    );
    println!("{}", id.segmented_binary());
}

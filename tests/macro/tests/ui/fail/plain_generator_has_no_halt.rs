// A plain `Generator` has nothing of the lease: no code can halt it or set its ceiling.
use snowflake_kit::{Generator, Identity};
static IDS: Generator = match Identity::new(1, 1) {
    Ok(identity) => Generator::new(identity),
    Err(_) => panic!("in range"),
};
fn main() {
    IDS.halt();
    IDS.set_ceiling(Some(0));
}

// Without `ts`, the ID carries the build time: before now, and after this test was written.
use snowflake_kit::snowflake;

fn main() {
    let built = snowflake!(dc = 3, machine = 4).parts();
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as u64;
    assert!(built.timestamp_ms <= now);
    assert!(built.timestamp_ms > 1_795_000_000_000); // 2026-11-17
    assert_eq!((built.datacenter, built.machine, built.sequence), (3, 4, 0));
}

// Without `ts`, the ID carries the build time: `SOURCE_DATE_EPOCH` when the build had it,
// else a time before now and after this test was written.
use snowflake_kit::snowflake;

fn main() {
    let built = snowflake!(dc = 3, machine = 4).parts();
    assert_eq!((built.datacenter, built.machine, built.sequence), (3, 4, 0));
    match std::env::var("SOURCE_DATE_EPOCH") {
        Ok(seconds) => assert_eq!(built.timestamp_ms, seconds.trim().parse::<u64>().unwrap() * 1000),
        Err(_) => {
            let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap();
            assert!(built.timestamp_ms <= now.as_millis() as u64);
            assert!(built.timestamp_ms > 1_795_000_000_000); // 2026-11-17
        }
    }
}

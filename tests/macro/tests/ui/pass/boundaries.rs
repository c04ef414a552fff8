// Every field at its smallest and at its largest value compiles (the largest + 1 is in fail/).
use snowflake_kit::snowflake;

fn main() {
    let min = snowflake!(ts = 1288834974657, dc = 0, machine = 0, seq = 0);
    assert_eq!(min.id, 0);
    assert_eq!(min.binary, "0 00000000000000000000000000000000000000000 00000 00000 000000000000");

    let max = snowflake!(ts = 3487858230208, dc = 31, machine = 31, seq = 4095);
    assert_eq!(max.id, i64::MAX as u64);
    assert_eq!(max.binary, "0 11111111111111111111111111111111111111111 11111 11111 111111111111");

    let first_date = snowflake!(ts = "2010-11-04T01:42:54.657Z", dc = 0, machine = 0);
    assert_eq!(first_date.id, 0);
    let last_date = snowflake!(ts = "2080-07-10T17:30:30.208Z", dc = 31, machine = 31, seq = 4095);
    assert_eq!(last_date.id, i64::MAX as u64);
}

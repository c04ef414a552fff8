// `r#ts` and the other raw identifiers are the keys they name.
use snowflake_kit::snowflake;
const ID: u64 = snowflake!(r#ts = 1288834975657, r#dc = 1, r#machine = 1, r#seq = 0).id;
fn main() {
    assert_eq!(ID, 4194439168);
}

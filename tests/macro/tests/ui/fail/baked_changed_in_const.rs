// A baked ID changed in a `const` is refused when it compiles, where it becomes a `Snowflake`.
use snowflake_kit::{Snowflake, snowflake};
const CHANGED: Snowflake = {
    let mut baked = snowflake!(ts = 1288834975657, dc = 1, machine = 1);
    baked.id = u64::MAX;
    baked.snowflake()
};
fn main() {}

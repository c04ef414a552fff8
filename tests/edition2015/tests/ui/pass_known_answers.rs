// Edition 2015: the known answers, an omitted ts, and `snowflake!` through `extern crate`.
#[macro_use]
extern crate snowflake_kit;

const WELCOME: u64 = snowflake!(ts = 1288834975657, dc = 1, machine = 1, seq = 0).id;

fn main() {
    assert_eq!(WELCOME, 4194439168);
    let tweet = snowflake!(ts = "2022-06-28T16:07:40.105Z", dc = 11, machine = 26);
    assert_eq!(tweet.id, 1541815603606036480);
    let now = snowflake!(dc = 1, machine = 1);
    assert_eq!(now.snowflake().machine(), 1);
}

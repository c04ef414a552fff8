// The two vectors of DESIGN.md, as an integer and as a date.
use snowflake_kit::snowflake;

fn main() {
    let welcome = snowflake!(ts = 1288834975657, dc = 1, machine = 1, seq = 0);
    assert_eq!(welcome.id, 4194439168);
    assert_eq!(welcome.binary, "0 00000000000000000000000000000001111101000 00001 00001 000000000000");

    let tweet = snowflake!(ts = "2022-06-28T16:07:40.105Z", dc = 11, machine = 26);
    assert_eq!(tweet.id, 1541815603606036480);
    assert_eq!(tweet.parts().timestamp_ms, 1656432460105);
}

// RFC 3339 with `Z` or an offset, with or without milliseconds, all give the same instant.
use snowflake_kit::snowflake;

fn main() {
    const TWEET: u64 = 1541815603606036480;
    assert_eq!(snowflake!(ts = "2022-06-28T16:07:40.105Z", dc = 11, machine = 26).id, TWEET);
    assert_eq!(snowflake!(ts = "2022-06-28T18:07:40.105+02:00", dc = 11, machine = 26).id, TWEET);
    assert_eq!(snowflake!(ts = "2022-06-28T11:37:40.105-04:30", dc = 11, machine = 26).id, TWEET);
    assert_eq!(snowflake!(ts = "2022-06-28T16:07:40.105000Z", dc = 11, machine = 26).id, TWEET);
    assert_eq!(snowflake!(ts = r"2022-06-28T16:07:40.105Z", dc = 11, machine = 26).id, TWEET);
    assert_eq!(snowflake!(ts = 1656432460105, dc = 11, machine = 26).id, TWEET);
    // Unix ms as digits in a string, as the command and the server read a timestamp too.
    assert_eq!(snowflake!(ts = "1656432460105", dc = 11, machine = 26).id, TWEET);
    // Lower-case `t` and `z`, a space (RFC 3339 section 5.6), and trailing zeros past the ninth digit.
    assert_eq!(snowflake!(ts = "2022-06-28t16:07:40.105z", dc = 11, machine = 26).id, TWEET);
    assert_eq!(snowflake!(ts = "2022-06-28 16:07:40.105Z", dc = 11, machine = 26).id, TWEET);
    assert_eq!(snowflake!(ts = "2022-06-28T16:07:40.105000000000Z", dc = 11, machine = 26).id, TWEET);
    let whole_second = snowflake!(ts = "2022-06-28T16:07:40Z", dc = 11, machine = 26);
    assert_eq!(whole_second.parts().timestamp_ms, 1656432460000);
}

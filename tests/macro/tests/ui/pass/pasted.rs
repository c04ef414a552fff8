// Pasted IDs: decimal (any base, `u64` or `i64`), base32 in either case, a kind's prefix,
// fields stated beside them, and an ID near the epoch said to be meant.
use snowflake_kit::typed::{Id, kind};
use snowflake_kit::{BakedSnowflake, Snowflake, snowflake};

kind!(pub User, "user");
kind!(pub OrderItem, "order_item");

const TWEET: BakedSnowflake = snowflake!(id = 1541815603606036480);
const FIXTURE: Snowflake = snowflake!(
    id = 1541815603606036480,
    ts = "2022-06-28T16:07:40.105Z",
    dc = 11,
    machine = 26,
    seq = 0,
)
.snowflake();
const USER: Id<User> = snowflake!(id = "user_1asd13xh1f800").typed();
const ITEM: Id<OrderItem> = snowflake!(id = "order_item_1ASD13XH1F800").typed();
const UNTYPED: Id<User> = snowflake!(id = "1ASD13XH1F800").typed();
const FIRST: u64 = snowflake!(id = 4194439168, near_epoch).id;

fn main() {
    assert_eq!(TWEET.id, 1541815603606036480);
    assert_eq!(TWEET, FIXTURE);
    assert_eq!(snowflake!(id = 1541815603606036480u64), TWEET);
    assert_eq!(snowflake!(id = 1541815603606036480i64), TWEET);
    assert_eq!(snowflake!(id = 0x1565_A11F_6217_A000), TWEET);
    assert_eq!(snowflake!(id = "1ASD13XH1F800").binary, TWEET.binary);
    assert_eq!(USER.snowflake(), FIXTURE);
    assert_eq!(ITEM.snowflake(), FIXTURE);
    assert_eq!(UNTYPED.snowflake(), FIXTURE);
    assert_eq!(FIRST, 4194439168);
    assert_eq!(snowflake!(id = 9223372036854775807).snowflake(), Snowflake::MAX);
    assert_eq!(snowflake!(id = "7zzzzzzzzzzzz").snowflake(), Snowflake::MAX);
}

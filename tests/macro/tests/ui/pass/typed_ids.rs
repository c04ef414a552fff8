// Typed IDs baked as constants and statics, in a kind with a prefix and one without.
use snowflake_kit::snowflake;
use snowflake_kit::typed::{Id, Kind, kind};
kind!(
    /// Users.
    pub User, "user"
);
kind!(pub(crate) Order);
const ADMIN: Id<User> = snowflake!(ts = 1288834975657, dc = 1, machine = 1).typed();
static FIRST_ORDER: Id<Order> = snowflake!(ts = "2022-06-28T16:07:40.105Z", dc = 1, machine = 1).typed();
fn main() {
    assert_eq!(u64::from(ADMIN), 4194439168);
    assert_eq!(FIRST_ORDER.cast::<User>().snowflake(), FIRST_ORDER.snowflake());
    assert_eq!((User::PREFIX, Order::PREFIX), (Some("user"), None));
}

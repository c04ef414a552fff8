// A baked constant takes its kind from its type: another kind is a type error there.
use snowflake_kit::snowflake;
use snowflake_kit::typed::{Id, kind};
kind!(pub User, "user");
kind!(pub Order, "order");
const ADMIN: Id<User> = snowflake!(ts = 1288834975657, dc = 1, machine = 1).typed::<Order>();
fn main() {
    let _ = ADMIN;
}

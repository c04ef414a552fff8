// Two kinds do not compare, nor does a typed ID with a plain `Snowflake`.
use snowflake_kit::Snowflake;
use snowflake_kit::typed::{Id, kind};
kind!(pub User);
kind!(pub Order);
fn main() {
    let user: Id<User> = Id::from_snowflake(Snowflake::MIN);
    let order: Id<Order> = Id::from_snowflake(Snowflake::MIN);
    let _ = user == order;
    let _ = user == Snowflake::MIN;
}

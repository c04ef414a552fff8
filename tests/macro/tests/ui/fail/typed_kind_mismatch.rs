// An order's ID is not a user's: passing one for the other does not compile.
use snowflake_kit::Snowflake;
use snowflake_kit::typed::{Id, kind};
kind!(pub User, "user");
kind!(pub Order, "order");
fn greet(_: Id<User>) {}
fn main() {
    let order: Id<Order> = Id::from_snowflake(Snowflake::MIN);
    greet(order);
}

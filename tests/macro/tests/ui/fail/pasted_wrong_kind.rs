// A pasted text's prefix is held to the kind where it becomes a typed ID: in a `const`, the
// build fails at the call.
use snowflake_kit::snowflake;
use snowflake_kit::typed::{Id, kind};
kind!(pub Order, "order");
kind!(pub Plain);
const NOT_AN_ORDER: Id<Order> = snowflake!(id = "user_1ASD13XH1F800").typed();
const NO_PREFIX: Id<Plain> = snowflake!(id = "user_1ASD13XH1F800").typed();
fn main() {}

// A pasted base32 text's prefix follows `kind!`'s rule.
use snowflake_kit::snowflake;
const UPPER: u64 = snowflake!(id = "User_1ASD13XH1F800").id;
const EMPTY: u64 = snowflake!(id = "_1ASD13XH1F800").id;
const DIGITS: u64 = snowflake!(id = "user_1ASD13XH1F80U").id;
fn main() {}

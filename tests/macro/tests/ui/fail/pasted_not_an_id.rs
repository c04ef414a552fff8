// A pasted value that is no ID: refused under it, in the runtime's words.
use snowflake_kit::snowflake;
const TOO_LARGE: u64 = snowflake!(id = 9223372036854775808).id;
const NEGATIVE: u64 = snowflake!(id = -5).id;
const SUFFIX: u64 = snowflake!(id = 1541815603606036480u32).id;
const FLOAT: u64 = snowflake!(id = 1.5e18).id;
const NAME: u64 = snowflake!(id = TWEET).id;
const BASE32_TOO_LARGE: u64 = snowflake!(id = "8000000000000").id;
const BASE32_CHARACTER: u64 = snowflake!(id = "1ASD13XH1F80U").id;
const DECIMAL_IN_QUOTES: u64 = snowflake!(id = "1541815603606036480").id;
fn main() {}

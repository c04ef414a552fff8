// Fields stated beside a pasted ID are its own, or an error under each that is not.
use snowflake_kit::snowflake;
const FIXTURE: u64 = snowflake!(
    id = 1541815603606036480,
    ts = "2022-06-28T16:07:40.106Z",
    dc = 12,
    machine = 26,
    seq = 1,
)
.id;
fn main() {}

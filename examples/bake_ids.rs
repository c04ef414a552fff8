//! Baking fixed IDs into the program: each is checked when it compiles, and costs
//! nothing at run time. Run with `cargo run --example bake_ids`.

use snowflake_kit::{BakedSnowflake, Snowflake, snowflake};

/// The account every new user follows, created with the service.
const WELCOME_ACCOUNT: u64 = snowflake!(ts = 1288834975657, dc = 1, machine = 1, seq = 0).id;

/// A well-known tweet, written the way people read dates.
const LAUNCH_TWEET: BakedSnowflake =
    snowflake!(ts = "2022-06-28T16:07:40.105Z", dc = 11, machine = 26);

/// Reserved ranges start at round IDs; `Snowflake` values work in `const` too.
static RESERVED_START: Snowflake =
    snowflake!(ts = "2024-01-01T00:00:00Z", dc = 31, machine = 31).snowflake();

fn main() {
    println!("welcome account  {WELCOME_ACCOUNT}");
    println!(
        "launch tweet     {} = {}",
        LAUNCH_TWEET.id, LAUNCH_TWEET.binary
    );
    let p = LAUNCH_TWEET.parts();
    println!(
        "                 ts {} ms, dc {}, machine {}, seq {}",
        p.timestamp_ms, p.datacenter, p.machine, p.sequence
    );
    println!(
        "reserved from    {RESERVED_START} ({})",
        RESERVED_START.segmented_binary()
    );
}

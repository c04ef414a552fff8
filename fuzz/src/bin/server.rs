//! Fuzz target: [`snowflake_kit_fuzz::server::check`] on one input (stdin), or AFL++'s loop.

fn main() {
    snowflake_kit_fuzz::run(snowflake_kit_fuzz::server::check);
}

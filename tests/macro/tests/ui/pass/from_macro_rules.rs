// Values passed through a caller's own macro (`$x:literal`, `$x:expr`) arrive in invisible groups.
macro_rules! fixture {
    ($dc:literal, $machine:expr) => {
        snowflake_kit::snowflake!(ts = 1288834975657, dc = $dc, machine = $machine)
    };
}

fn main() {
    assert_eq!(fixture!(1, 1).id, 4194439168);
}

// `snowflake!` reaches the facade through `$crate`, not through its name.
extern crate snowflake_kit as sf;

mod snowflake_kit {}

fn main() {
    let id = sf::snowflake!(ts = 1288834975657, dc = 1, machine = 1).id;
    assert_eq!(id, 4194439168);
}

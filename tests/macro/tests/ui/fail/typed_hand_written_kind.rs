// `Kind` is sealed: a kind written by hand, whose prefix nothing checks, does not compile.
enum Sneaky {}
impl snowflake_kit::typed::Kind for Sneaky {
    const NAME: &'static str = "Sneaky";
    const PREFIX: Option<&'static str> = Some("Bad Prefix");
}
fn main() {}

// A kind's prefix is lower-case letters, then digits: anything else fails where it is declared.
use snowflake_kit::typed::kind;
kind!(pub User, "User");
kind!(pub Empty, "");
fn main() {}

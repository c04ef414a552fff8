// A kind's prefix is 1 to 16 of a-z, 0-9 and `_`, starting with a letter and not ending
// with `_`: anything else fails where it is declared, quoting it and saying what is wrong.
use snowflake_kit::typed::kind;
kind!(pub OrderItem, "order_item");
kind!(pub User, "User");
kind!(pub Empty, "");
kind!(pub Dashed, "order-item");
kind!(pub Trailing, "user_");
kind!(pub Digit, "2fa");
kind!(pub Long, "abcdefghijklmnopq");
kind!(pub Accented, "café");
fn main() {}

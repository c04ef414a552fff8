//! An ID's text forms, and what each refuses: decimal digits, 13 characters of base32, and
//! a typed ID's prefix before them. Run with `cargo run --example base32`; its test holds
//! what it prints.

use snowflake_kit::typed::Id;
use snowflake_kit::{ParseSnowflakeError, Snowflake};

/// The kinds in a module of their own: the names stay free for the application's types.
mod kinds {
    snowflake_kit::typed::kind!(pub User, "user");
    snowflake_kit::typed::kind!(pub Order, "order");
}
use kinds::{Order, User};

/// Every line the example prints: each form of one ID, then each text refused and why.
fn lines() -> Result<Vec<String>, ParseSnowflakeError> {
    let tweet: Snowflake = "1541815603606036480".parse()?;
    let user: Id<User> = Id::from_snowflake(tweet);
    let mut lines = vec![
        format!("decimal:         {tweet}"),
        format!("base32:          {}", tweet.to_base32()),
        format!("a user's:        {}", user.to_base32()),
        format!("its digits:      {}", user.to_base32().digits()),
        format!(
            "read back:       {}",
            Snowflake::from_base32("1asd13xh1f8oo")?
        ),
        format!(
            "a user's back:   {:?}",
            Id::<User>::from_base32("user_1ASD13XH1F800")?
        ),
        format!(
            "either form:     {:?}",
            Id::<User>::read_decimal_or_base32("1541815603606036480")?
        ),
    ];
    let refusals: [(&str, Result<(), ParseSnowflakeError>); 8] = [
        ("12x", "12x".parse::<Snowflake>().map(drop)),
        (
            "9223372036854775808",
            "9223372036854775808".parse::<Snowflake>().map(drop),
        ),
        (
            "1ASD13XH1F80U",
            Snowflake::from_base32("1ASD13XH1F80U").map(drop),
        ),
        (
            "1ASD13XH1F8",
            Snowflake::from_base32("1ASD13XH1F8").map(drop),
        ),
        (
            "8000000000000",
            Snowflake::from_base32("8000000000000").map(drop),
        ),
        (
            "user_1ASD13XH1F800",
            Snowflake::from_base32("user_1ASD13XH1F800").map(drop),
        ),
        (
            "order_1ASD13XH1F800",
            Id::<User>::from_base32("order_1ASD13XH1F800").map(drop),
        ),
        (
            "1ASD13XH1F800",
            Id::<Order>::from_base32("1ASD13XH1F800").map(drop),
        ),
    ];
    for (text, refused) in refusals {
        if let Err(why) = refused {
            lines.push(format!("refused {text:?}: {why}"));
        }
    }
    Ok(lines)
}

fn main() -> Result<(), ParseSnowflakeError> {
    for line in lines()? {
        println!("{line}");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn it_prints_each_form_and_each_refusal() {
        let lines = super::lines().unwrap();
        assert_eq!(
            lines,
            [
                "decimal:         1541815603606036480",
                "base32:          1ASD13XH1F800",
                "a user's:        user_1ASD13XH1F800",
                "its digits:      1ASD13XH1F800",
                "read back:       1541815603606036480",
                "a user's back:   User(1541815603606036480)",
                "either form:     User(1541815603606036480)",
                "refused \"12x\": invalid character `x` at byte 2: an ID is decimal digits only",
                "refused \"9223372036854775808\": number too large: an ID is at most 9223372036854775807",
                "refused \"1ASD13XH1F80U\": invalid character `U` at byte 12: base32 is 0-9 and A-Z without U",
                "refused \"1ASD13XH1F8\": 11 characters: an ID in base32 is 13",
                "refused \"8000000000000\": first digit `8` too large: an ID in base32 is at most 7ZZZZZZZZZZZZ, its first digit 0-7",
                "refused \"user_1ASD13XH1F800\": a prefix: this ID in base32 is 13 characters and no prefix",
                "refused \"order_1ASD13XH1F800\": no prefix `user_`: this kind's IDs in base32 are `user_` and 13 characters",
                "refused \"1ASD13XH1F800\": no prefix `order_`: this kind's IDs in base32 are `order_` and 13 characters",
            ]
        );
    }
}

//! schemars: a struct holding `Snowflake`s derives its JSON Schema, and the schema holds
//! exactly what serde writes: `Snowflake` an integer (int64) in `0..=i64::MAX`, a field
//! written with `as_string` a string of its digits (`as_string::SnowflakeString`). Judged
//! by a JSON Schema validator, not by comparing text.

mod support;

use jsonschema::Validator;
use schemars::{JsonSchema, schema_for};
use serde::Serialize;
use serde_json::{Value, json};
use snowflake_kit::Snowflake;
use snowflake_kit::serde::as_base32::SnowflakeBase32;
use snowflake_kit::serde::as_string::{PATTERN, SnowflakeString};
use support::{TWEET, ids};

/// What an application might write out.
#[derive(Serialize, JsonSchema)]
struct Tweet {
    id: Snowflake,
    #[serde(with = "snowflake_kit::serde::as_string")]
    #[schemars(with = "SnowflakeString")]
    id_text: Snowflake,
    #[serde(with = "snowflake_kit::serde::as_string::option")]
    #[schemars(with = "Option<SnowflakeString>")]
    in_reply_to: Option<Snowflake>,
    #[serde(with = "snowflake_kit::serde::as_string::vec")]
    #[schemars(with = "Vec<SnowflakeString>")]
    thread: Vec<Snowflake>,
    #[serde(with = "snowflake_kit::serde::as_base32")]
    #[schemars(with = "SnowflakeBase32")]
    short: Snowflake,
    #[serde(with = "snowflake_kit::serde::as_base32::vec")]
    #[schemars(with = "Vec<SnowflakeBase32>")]
    shorts: Vec<Snowflake>,
    parent: Option<Snowflake>,
}

fn validator(schema: &schemars::Schema) -> Validator {
    jsonschema::validator_for(&serde_json::to_value(schema).unwrap()).expect("a valid schema")
}

fn tweet(id: Snowflake) -> Value {
    serde_json::to_value(Tweet {
        id,
        id_text: id,
        in_reply_to: Some(id),
        thread: vec![Snowflake::MIN, id, Snowflake::MAX],
        short: id,
        shorts: vec![Snowflake::MIN, id, Snowflake::MAX],
        parent: None,
    })
    .unwrap()
}

#[test]
fn snowflake_is_an_int64_from_0_to_i64_max() {
    let schema = serde_json::to_value(schema_for!(Snowflake)).unwrap();
    assert_eq!(schema["type"], "integer");
    assert_eq!(schema["format"], "int64");
    assert_eq!(schema["minimum"], json!(0));
    assert_eq!(schema["maximum"], json!(9_223_372_036_854_775_807_u64));
    assert_eq!(schema["title"], "Snowflake");
    let text = serde_json::to_value(schema_for!(SnowflakeString)).unwrap();
    assert_eq!(
        (&text["type"], &text["pattern"]),
        (&json!("string"), &json!(PATTERN))
    );
}

#[test]
fn the_schema_holds_every_id_serde_writes() {
    let validator = validator(&schema_for!(Snowflake));
    for id in ids() {
        let json = serde_json::to_value(id).unwrap();
        assert!(validator.is_valid(&json), "{json}");
    }
}

#[test]
fn the_schema_rejects_a_negative_number_and_one_past_the_range() {
    let validator = validator(&schema_for!(Snowflake));
    for json in [
        json!(-1),
        json!(i64::MIN),
        json!(9_223_372_036_854_775_808_u64),
        json!(u64::MAX),
        json!(1.5),
        json!(TWEET),
        json!(null),
    ] {
        assert!(!validator.is_valid(&json), "{json}");
    }
}

#[test]
fn a_derived_struct_holds_what_serde_writes() {
    let schema = schema_for!(Tweet);
    let json = serde_json::to_value(&schema).unwrap();
    assert_eq!(json["properties"]["id"]["$ref"], "#/$defs/Snowflake");
    let validator = validator(&schema);
    for id in ids() {
        let tweet = tweet(id);
        assert!(validator.is_valid(&tweet), "{tweet}");
    }
    let good = tweet(TWEET.parse().unwrap());
    for (field, value) in [
        ("id", json!(-1)),
        ("id", json!(9_223_372_036_854_775_808_u64)),
        ("id_text", json!("-1")),
        ("id_text", json!("9223372036854775808")),
        ("id_text", json!(1)),
        ("in_reply_to", json!("01")),
        ("thread", json!([1])),
        ("short", json!("8000000000000")),
        ("short", json!("0000003x04400")),
        ("shorts", json!([4194439168_u64])),
        ("parent", json!("1")),
    ] {
        let mut tweet = good.clone();
        tweet[field] = value;
        assert!(!validator.is_valid(&tweet), "{field}: {tweet}");
    }
}

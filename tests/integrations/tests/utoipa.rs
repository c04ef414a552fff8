//! utoipa: a struct holding `Snowflake`s derives its OpenAPI schema, and the schema holds
//! exactly what serde writes: `Snowflake` an integer (int64) in `0..=i64::MAX`, a field
//! written with `as_string` a string of its digits (`as_string::SnowflakeString`). Judged
//! by a JSON Schema validator over the generated document, not by comparing text.

mod support;

use jsonschema::Validator;
use serde::Serialize;
use serde_json::{Value, json};
use snowflake_kit::Snowflake;
use snowflake_kit::serde::as_base32::SnowflakeBase32;
use snowflake_kit::serde::as_string::{PATTERN, SnowflakeString};
use support::{TWEET, ids};
use utoipa::{OpenApi, PartialSchema, ToSchema};

/// What an application's API might answer with.
#[derive(Serialize, ToSchema)]
struct Tweet {
    id: Snowflake,
    #[serde(with = "snowflake_kit::serde::as_string")]
    #[schema(value_type = SnowflakeString)]
    id_text: Snowflake,
    #[serde(with = "snowflake_kit::serde::as_string::option")]
    #[schema(value_type = Option<SnowflakeString>)]
    in_reply_to: Option<Snowflake>,
    #[serde(with = "snowflake_kit::serde::as_string::vec")]
    #[schema(value_type = Vec<SnowflakeString>)]
    thread: Vec<Snowflake>,
    #[serde(with = "snowflake_kit::serde::as_base32")]
    #[schema(value_type = SnowflakeBase32)]
    short: Snowflake,
    #[serde(with = "snowflake_kit::serde::as_base32::vec")]
    #[schema(value_type = Vec<SnowflakeBase32>)]
    shorts: Vec<Snowflake>,
    parent: Option<Snowflake>,
}

#[derive(OpenApi)]
#[openapi(components(schemas(Tweet)))]
struct Api;

fn document() -> Value {
    serde_json::to_value(Api::openapi()).unwrap()
}

/// A validator of `Tweet` against the document's own components, `$ref`s and all.
fn tweet_validator() -> Validator {
    let document = document();
    let schema = json!({
        "$ref": "#/components/schemas/Tweet",
        "components": document["components"],
    });
    jsonschema::validator_for(&schema).expect("the document's schemas are valid JSON Schema")
}

fn tweet(id: Snowflake) -> Value {
    serde_json::to_value(Tweet {
        id,
        id_text: id,
        in_reply_to: Some(id),
        thread: vec![Snowflake::MIN, id, Snowflake::MAX],
        short: id,
        shorts: vec![Snowflake::MIN, id, Snowflake::MAX],
        parent: Some(id),
    })
    .unwrap()
}

#[test]
fn snowflake_is_an_int64_from_0_to_i64_max() {
    let schema = serde_json::to_value(Snowflake::schema()).unwrap();
    assert_eq!(schema["type"], "integer");
    assert_eq!(schema["format"], "int64");
    assert_eq!(schema["minimum"], json!(0));
    assert_eq!(schema["maximum"], json!(9_223_372_036_854_775_807_u64));
    assert!(
        schema["description"]
            .as_str()
            .unwrap()
            .contains("Snowflake ID")
    );
    assert_eq!(<Snowflake as ToSchema>::name(), "Snowflake");
}

#[test]
fn as_string_is_a_string_of_its_digits() {
    let schema = serde_json::to_value(SnowflakeString::schema()).unwrap();
    assert_eq!(schema["type"], "string");
    assert_eq!(schema["pattern"], PATTERN);
    assert_eq!(<SnowflakeString as ToSchema>::name(), "SnowflakeString");
}

#[test]
fn a_derived_struct_refers_to_both_components() {
    let document = document();
    let schemas = &document["components"]["schemas"];
    assert_eq!(
        schemas["Snowflake"],
        serde_json::to_value(Snowflake::schema()).unwrap()
    );
    assert_eq!(
        schemas["SnowflakeString"],
        serde_json::to_value(SnowflakeString::schema()).unwrap()
    );
    let fields = &schemas["Tweet"]["properties"];
    assert_eq!(fields["id"]["$ref"], "#/components/schemas/Snowflake");
    assert_eq!(
        fields["id_text"]["$ref"],
        "#/components/schemas/SnowflakeString"
    );
    assert_eq!(
        fields["thread"]["items"]["$ref"],
        "#/components/schemas/SnowflakeString"
    );
}

#[test]
fn holds_what_serde_writes() {
    let validator = tweet_validator();
    for id in ids() {
        let tweet = tweet(id);
        assert!(validator.is_valid(&tweet), "{tweet}");
    }
    let none = serde_json::to_value(Tweet {
        id: TWEET.parse().unwrap(),
        id_text: TWEET.parse().unwrap(),
        in_reply_to: None,
        thread: vec![],
        short: Snowflake::MIN,
        shorts: vec![],
        parent: None,
    })
    .unwrap();
    assert!(validator.is_valid(&none), "{none}");
}

#[test]
fn rejects_what_serde_never_writes() {
    let validator = tweet_validator();
    let good = tweet(TWEET.parse().unwrap());
    assert!(validator.is_valid(&good));
    let bad = [
        ("id", json!(-1)),
        ("id", json!(9_223_372_036_854_775_808_u64)),
        ("id", json!(1.5)),
        ("id", json!(TWEET)),
        ("id_text", json!("-1")),
        ("id_text", json!("9223372036854775808")),
        ("id_text", json!("01")),
        ("id_text", json!(1)),
        ("in_reply_to", json!("x")),
        ("thread", json!(["1", 2])),
        ("short", json!("8000000000000")),
        ("short", json!("user_0000003X04400")),
        ("short", json!(TWEET)),
        ("shorts", json!(["0000003X0440U"])),
        ("parent", json!(-1)),
    ];
    for (field, value) in bad {
        let mut tweet = good.clone();
        tweet[field] = value;
        assert!(!validator.is_valid(&tweet), "{field}: {tweet}");
    }
}

//! `serde`: a number by default, a number or a decimal string when reading, strings on request.
#![cfg(feature = "serde")]

use serde::{Deserialize, Serialize};
use snowflake_runtime::Snowflake;

fn tweet() -> Snowflake {
    "1541815603606036480".parse().unwrap()
}

#[test]
fn serializes_as_number() {
    assert_eq!(
        serde_json::to_string(&tweet()).unwrap(),
        "1541815603606036480"
    );
}

#[test]
fn deserializes_from_number() {
    assert_eq!(
        serde_json::from_str::<Snowflake>("1541815603606036480").unwrap(),
        tweet()
    );
    assert_eq!(
        serde_json::from_str::<Snowflake>("9223372036854775807").unwrap(),
        Snowflake::MAX
    );
}

#[test]
fn deserializes_from_string() {
    assert_eq!(
        serde_json::from_str::<Snowflake>(r#""1541815603606036480""#).unwrap(),
        tweet()
    );
}

#[test]
fn round_trips() {
    for id in [tweet(), Snowflake::MAX, Snowflake::try_from(0_u64).unwrap()] {
        let json = serde_json::to_string(&id).unwrap();
        assert_eq!(serde_json::from_str::<Snowflake>(&json).unwrap(), id);
    }
}

#[test]
fn rejects_sign_bit_number() {
    let err = serde_json::from_str::<Snowflake>("9223372036854775808").unwrap_err();
    assert!(
        err.to_string()
            .starts_with("invalid value: integer `9223372036854775808`, expected an ID"),
        "{err}"
    );
}

#[test]
fn rejects_negative_number() {
    let err = serde_json::from_str::<Snowflake>("-1").unwrap_err();
    assert!(
        err.to_string()
            .starts_with("invalid value: integer `-1`, expected an ID"),
        "{err}"
    );
}

#[test]
fn rejects_bad_strings() {
    let err = serde_json::from_str::<Snowflake>(r#""12a""#).unwrap_err();
    assert!(
        err.to_string()
            .starts_with(r#"invalid ID "12a": invalid character `a` at byte 2"#),
        "{err}"
    );
    let err = serde_json::from_str::<Snowflake>(r#""9223372036854775808""#).unwrap_err();
    assert!(
        err.to_string().starts_with(
            r#"invalid ID "9223372036854775808": number too large: an ID is at most 9223372036854775807"#
        ),
        "{err}"
    );
}

#[test]
fn rejects_other_types() {
    let err = serde_json::from_str::<Snowflake>("1.5").unwrap_err();
    assert!(
        err.to_string()
            .starts_with("invalid type: floating point `1.5`, expected an ID"),
        "{err}"
    );
    assert!(serde_json::from_str::<Snowflake>("null").is_err());
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct ForJavaScript {
    #[serde(with = "snowflake_runtime::serde::as_string")]
    id: Snowflake,
}

#[test]
fn as_string_writes_a_string() {
    let value = ForJavaScript { id: tweet() };
    assert_eq!(
        serde_json::to_string(&value).unwrap(),
        r#"{"id":"1541815603606036480"}"#
    );
}

#[test]
fn as_string_round_trips_and_reads_numbers() {
    let value = ForJavaScript { id: tweet() };
    let json = serde_json::to_string(&value).unwrap();
    assert_eq!(serde_json::from_str::<ForJavaScript>(&json).unwrap(), value);
    assert_eq!(
        serde_json::from_str::<ForJavaScript>(r#"{"id":1541815603606036480}"#).unwrap(),
        value
    );
}

#[test]
fn as_string_rejects_bad_strings() {
    assert!(serde_json::from_str::<ForJavaScript>(r#"{"id":"0x10"}"#).is_err());
    assert!(serde_json::from_str::<ForJavaScript>(r#"{"id":""}"#).is_err());
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Nullable {
    #[serde(with = "snowflake_runtime::serde::as_string::option", default)]
    parent: Option<Snowflake>,
    #[serde(with = "snowflake_runtime::serde::as_string::vec", default)]
    children: Vec<Snowflake>,
}

#[test]
fn as_string_option_and_vec_write_strings() {
    let tweet: Snowflake = "1541815603606036480".parse().unwrap();
    let value = Nullable {
        parent: Some(tweet),
        children: vec![Snowflake::MIN, tweet, Snowflake::MAX],
    };
    let json = serde_json::to_string(&value).unwrap();
    assert_eq!(
        json,
        r#"{"parent":"1541815603606036480","children":["0","1541815603606036480","9223372036854775807"]}"#
    );
    assert_eq!(serde_json::from_str::<Nullable>(&json).unwrap(), value);
    let empty = Nullable {
        parent: None,
        children: vec![],
    };
    assert_eq!(
        serde_json::to_string(&empty).unwrap(),
        r#"{"parent":null,"children":[]}"#
    );
    assert_eq!(serde_json::from_str::<Nullable>("{}").unwrap(), empty);
}

#[test]
fn as_string_option_and_vec_read_numbers_too() {
    let value: Nullable =
        serde_json::from_str(r#"{"parent":4194439168,"children":[1,"2"]}"#).unwrap();
    assert_eq!(value.parent.map(Snowflake::as_u64), Some(4_194_439_168));
    assert_eq!(
        value
            .children
            .iter()
            .map(|id| id.as_u64())
            .collect::<Vec<_>>(),
        [1, 2]
    );
}

#[test]
fn as_string_option_and_vec_refuse_what_is_no_id() {
    for json in [
        r#"{"parent":"-1"}"#,
        r#"{"parent":-1}"#,
        r#"{"parent":"9223372036854775808"}"#,
        r#"{"parent":1.5}"#,
        r#"{"children":["1","x"]}"#,
        r#"{"children":[9223372036854775808]}"#,
    ] {
        let err = serde_json::from_str::<Nullable>(json).unwrap_err();
        assert!(err.to_string().contains("an ID"), "{json}: {err}");
    }
    let err = serde_json::from_str::<Nullable>(r#"{"children":"1"}"#).unwrap_err();
    assert!(err.to_string().contains("expected a sequence"), "{err}");
}

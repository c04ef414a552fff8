//! async-graphql: `Snowflake` as a scalar of a real schema, end to end: an argument given
//! as a string literal, an integer literal or a variable of either kind; output fields
//! that are strings, never numbers; a bad value a GraphQL error that names it.

mod support;

use async_graphql::{
    EmptyMutation, EmptySubscription, Object, Request, Schema, SimpleObject, Variables,
};
use serde_json::{Value, json};
use snowflake_kit::Snowflake;
use support::TWEET;

#[derive(SimpleObject)]
struct Tweet {
    id: Snowflake,
    in_reply_to: Option<Snowflake>,
    machine: u8,
}

struct Query;

#[Object]
impl Query {
    /// The tweet of an ID; it replies to the ID before it.
    async fn tweet(&self, id: Snowflake) -> Tweet {
        Tweet {
            id,
            in_reply_to: id
                .as_u64()
                .checked_sub(1)
                .and_then(|n| Snowflake::try_from_u64(n).ok()),
            machine: id.machine(),
        }
    }

    /// The two ends of the range.
    async fn ends(&self) -> Vec<Snowflake> {
        vec![Snowflake::MIN, Snowflake::MAX]
    }
}

fn schema() -> Schema<Query, EmptyMutation, EmptySubscription> {
    Schema::new(Query, EmptyMutation, EmptySubscription)
}

/// The response's data, and its errors' messages.
async fn run(request: impl Into<Request>) -> (Value, Vec<String>) {
    let response = schema().execute(request).await;
    let errors = response
        .errors
        .iter()
        .map(|err| err.message.clone())
        .collect();
    (response.data.into_json().unwrap(), errors)
}

const BY_VARIABLE: &str = "query($id: Snowflake!) { tweet(id: $id) { id } }";

#[tokio::test]
async fn an_argument_and_the_output_fields() {
    let query = format!(r#"{{ tweet(id: "{TWEET}") {{ id inReplyTo machine }} ends }}"#);
    let (data, errors) = run(query).await;
    assert_eq!(errors, Vec::<String>::new());
    assert_eq!(
        data,
        json!({
            "tweet": { "id": TWEET, "inReplyTo": "1541815603606036479", "machine": 26 },
            "ends": ["0", "9223372036854775807"],
        })
    );
    let (data, _) = run(r#"{ tweet(id: "0") { inReplyTo } }"#).await;
    assert_eq!(data, json!({ "tweet": { "inReplyTo": null } }));
}

#[tokio::test]
async fn reads_an_integer_too() {
    let (data, errors) = run(format!("{{ tweet(id: {TWEET}) {{ id }} }}")).await;
    assert_eq!(
        (data, errors),
        (json!({ "tweet": { "id": TWEET } }), vec![])
    );
    let number: u64 = TWEET.parse().unwrap();
    for id in [json!(TWEET), json!(number), json!("9223372036854775807")] {
        let request =
            Request::new(BY_VARIABLE).variables(Variables::from_json(json!({ "id": id })));
        let (data, errors) = run(request).await;
        assert_eq!(errors, Vec::<String>::new());
        let expected = id
            .as_str()
            .map_or_else(|| number.to_string(), str::to_owned);
        assert_eq!(data, json!({ "tweet": { "id": expected } }));
    }
}

#[tokio::test]
async fn a_bad_literal_is_an_error_naming_it() {
    for (literal, named) in [
        (r#""-1""#, r#"invalid ID "-1""#),
        (
            r#""9223372036854775808""#,
            r#"invalid ID "9223372036854775808""#,
        ),
        (r#""12x""#, r#"invalid ID "12x""#),
        (r#""""#, r#"invalid ID """#),
        (
            "-1",
            "invalid ID -1: expected an integer in 0..=9223372036854775807",
        ),
        ("1.5", "invalid ID 1.5"),
        ("true", "found true"),
    ] {
        let (data, errors) = run(format!("{{ tweet(id: {literal}) {{ id }} }}")).await;
        assert_eq!(data, Value::Null, "{literal}");
        assert_eq!(errors.len(), 1, "{literal}: {errors:?}");
        assert!(errors[0].contains(named), "{literal}: {errors:?}");
        assert!(errors[0].contains("Snowflake"), "{literal}: {errors:?}");
    }
}

#[tokio::test]
async fn a_bad_variable_is_an_error_naming_it() {
    for (id, named) in [
        (json!("-5"), r#"invalid ID "-5""#),
        (
            json!(9_223_372_036_854_775_808_u64),
            "invalid ID 9223372036854775808",
        ),
        (json!(-5), "invalid ID -5"),
    ] {
        let request =
            Request::new(BY_VARIABLE).variables(Variables::from_json(json!({ "id": id })));
        let (data, errors) = run(request).await;
        assert_eq!(data, Value::Null, "{id}");
        assert_eq!(errors.len(), 1, "{id}: {errors:?}");
        assert!(errors[0].contains(named), "{id}: {errors:?}");
    }
}

#[test]
fn the_sdl_declares_the_scalar_with_its_description() {
    let sdl = schema().sdl();
    assert!(sdl.contains("scalar Snowflake"), "{sdl}");
    assert!(sdl.contains("as a string of decimal digits"), "{sdl}");
    assert!(sdl.contains("tweet(id: Snowflake!): Tweet!"), "{sdl}");
}

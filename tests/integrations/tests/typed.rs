//! Typed IDs (`typed::Id<K>`) in the stack beside SQL, as `Snowflake` is tested in the files
//! beside this one: serde as a number and through `as_string`; utoipa's and schemars'
//! schemas under each kind's name, saying the kind; a GraphQL scalar per kind, end to end;
//! arbitrary's IDs all valid; and nothing of a kind at run time (the layout of a `u64`).

use async_graphql::{EmptyMutation, EmptySubscription, Object, Request, Schema, SimpleObject};
use serde::{Deserialize, Serialize};
use serde_json::json;
use snowflake_kit::Snowflake;
use snowflake_kit::typed::{Id, Kind, kind};

kind!(
    /// The shop's users.
    pub User, "user"
);
kind!(
    /// Their orders.
    pub Order
);

const TWEET: u64 = 1_541_815_603_606_036_480;

fn user() -> Id<User> {
    Id::from_snowflake(Snowflake::try_from_u64(TWEET).unwrap())
}

#[test]
fn a_kind_says_its_name_and_prefix_and_costs_nothing() {
    assert_eq!((User::NAME, User::PREFIX), ("User", Some("user")));
    assert_eq!((Order::NAME, Order::PREFIX), ("Order", None));
    assert_eq!(size_of::<Id<User>>(), size_of::<u64>());
    assert_eq!(align_of::<Id<User>>(), align_of::<u64>());
    assert_eq!(
        size_of::<Option<Id<User>>>(),
        size_of::<Option<Snowflake>>()
    );
    let id = user();
    assert_eq!(format!("{id}"), TWEET.to_string());
    assert_eq!(format!("{id:?}"), format!("User({TWEET})"));
    assert_eq!(TWEET.to_string().parse::<Id<User>>(), Ok(id));
    assert_eq!(
        "-1".parse::<Id<User>>().unwrap_err(),
        "-1".parse::<Snowflake>().unwrap_err()
    );
    assert_eq!(id.snowflake().timestamp_ms(), 1_656_432_460_105);
    assert_eq!(id.cast::<Order>().snowflake(), id.snowflake());
    let mut sorted = [
        Id::<User>::from_snowflake(Snowflake::MAX),
        id,
        Id::from_snowflake(Snowflake::MIN),
    ];
    sorted.sort();
    assert_eq!(sorted.map(u64::from), [0, TWEET, Snowflake::MAX.as_u64()]);
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Placed {
    order: Id<Order>,
    #[serde(with = "snowflake_kit::serde::as_string")]
    by: Id<User>,
    #[serde(with = "snowflake_kit::serde::as_string::option", default)]
    referred_by: Option<Id<User>>,
    #[serde(with = "snowflake_kit::serde::as_string::vec")]
    watchers: Vec<Id<User>>,
}

#[test]
fn serde_writes_a_number_and_as_string_a_string() {
    let placed = Placed {
        order: user().cast(),
        by: user(),
        referred_by: None,
        watchers: vec![user(), Id::from_snowflake(Snowflake::MIN)],
    };
    let json = serde_json::to_value(&placed).unwrap();
    assert_eq!(
        json,
        json!({"order": TWEET, "by": TWEET.to_string(), "referred_by": null,
            "watchers": [TWEET.to_string(), "0"]})
    );
    assert_eq!(serde_json::from_value::<Placed>(json).unwrap(), placed);
    let negative = json!({"order": -1, "by": "1", "watchers": []});
    let err = serde_json::from_value::<Placed>(negative).unwrap_err();
    assert!(err.to_string().contains("-1"), "{err}");
}

#[derive(utoipa::ToSchema, schemars::JsonSchema)]
#[allow(dead_code, reason = "described, not built")]
struct OrderJson {
    id: Id<Order>,
    by: Id<User>,
}

#[test]
fn schemas_name_the_kind() {
    use utoipa::OpenApi;

    #[derive(OpenApi)]
    #[openapi(components(schemas(OrderJson)))]
    struct Doc;
    let doc = serde_json::to_value(Doc::openapi()).unwrap();
    let schemas = &doc["components"]["schemas"];
    // A component per kind, as utoipa names a generic type's: `Id_User`, titled `UserId`.
    let refs = &schemas["OrderJson"]["properties"];
    assert_eq!(refs["by"]["$ref"], "#/components/schemas/Id_User");
    assert_eq!(refs["id"]["$ref"], "#/components/schemas/Id_Order");
    assert_eq!(schemas["Id_User"]["title"], "UserId");
    assert_eq!(schemas["Id_User"]["format"], "int64");
    assert_eq!(schemas["Id_User"]["maximum"], Snowflake::MAX.as_u64());
    let description = schemas["Id_Order"]["description"].as_str().unwrap();
    assert!(
        description.starts_with("The ID of a Order."),
        "{description}"
    );

    let schema = serde_json::to_value(schemars::schema_for!(OrderJson)).unwrap();
    assert_eq!(schema["properties"]["by"]["$ref"], "#/$defs/UserId");
    assert_eq!(schema["$defs"]["UserId"]["title"], "UserId");
    assert_eq!(schema["$defs"]["OrderId"]["minimum"], 0);
    let validator = jsonschema::validator_for(&schema).unwrap();
    assert!(validator.is_valid(&json!({"id": 1, "by": TWEET})));
    assert!(!validator.is_valid(&json!({"id": -1, "by": TWEET})));
}

#[derive(SimpleObject)]
struct OrderObject {
    id: Id<Order>,
    by: Id<User>,
}

struct Query;

#[Object]
impl Query {
    /// The order of a user's ID.
    async fn first_order(&self, by: Id<User>) -> OrderObject {
        OrderObject { id: by.cast(), by }
    }
}

#[tokio::test]
async fn graphql_has_a_scalar_per_kind() {
    let schema = Schema::new(Query, EmptyMutation, EmptySubscription);
    let sdl = schema.sdl();
    assert!(sdl.contains("scalar UserId"), "{sdl}");
    assert!(sdl.contains("scalar OrderId"), "{sdl}");
    assert!(
        sdl.contains("firstOrder(by: UserId!): OrderObject!"),
        "{sdl}"
    );
    let answer = schema
        .execute(Request::new(format!(
            r#"{{ firstOrder(by: "{TWEET}") {{ id by }} }}"#
        )))
        .await;
    assert!(answer.errors.is_empty(), "{:?}", answer.errors);
    assert_eq!(
        answer.data.into_json().unwrap(),
        json!({"firstOrder": {"id": TWEET.to_string(), "by": TWEET.to_string()}})
    );
    let answer = schema
        .execute(Request::new(r#"{ firstOrder(by: "-1") { id } }"#))
        .await;
    let message = &answer.errors[0].message;
    assert!(message.contains("invalid ID \"-1\""), "{message}");
}

#[test]
fn arbitrary_gives_only_valid_ids_of_the_kind() {
    use arbitrary::{Arbitrary, Unstructured};

    for bytes in [[0xFF; 8], [0; 8], [0x80, 1, 2, 3, 4, 5, 6, 7]] {
        let id = Id::<User>::arbitrary(&mut Unstructured::new(&bytes)).unwrap();
        let plain = Snowflake::arbitrary(&mut Unstructured::new(&bytes)).unwrap();
        assert_eq!(id.snowflake(), plain);
    }
}

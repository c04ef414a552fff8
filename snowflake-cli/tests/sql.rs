//! `snowflake sql`: the format as SQL functions, printed as the runtime has them, for any
//! schema a plain name names; every bad argument one line and exit status 2.

mod support;

use snowflake_kit::sql::{POSTGRES_FUNCTIONS, postgres_functions};
use support::{Case, assert_bad, ok};

#[test]
fn prints_the_runtimes_text_for_postgres() {
    assert_eq!(ok(&["sql", "postgres"]), POSTGRES_FUNCTIONS);
    assert_eq!(
        ok(&["sql", "postgres", "--schema", "snowflake"]),
        POSTGRES_FUNCTIONS
    );
    let ids = ok(&["sql", "postgres", "--schema", "ids_2"]);
    assert_eq!(ids, postgres_functions("ids_2").unwrap());
    assert!(ids.contains(r#"CREATE OR REPLACE FUNCTION "ids_2".unix_ms(id bigint)"#));
    assert!(ids.contains(r#"CREATE SCHEMA "ids_2";"#));
    assert!(!ids.contains("snowflake."));
    assert!(ok(&["sql", "--help"]).contains("--schema <NAME>"));
}

const BAD: &[Case] = &[
    (
        &["sql"],
        "",
        "error: the following required arguments were not provided: <DATABASE>",
    ),
    (
        &["sql", "mysql"],
        "",
        "error: invalid value 'mysql' for '<DATABASE>' [possible values: postgres]",
    ),
    (
        &["sql", "postgres", "--schema", "Ids"],
        "",
        "error: --schema: schema \"Ids\": expected lower-case letters, digits and `_`, not \
         starting with a digit nor with `pg_`, at most 63 characters",
    ),
    (
        &["sql", "postgres", "--schema", "pg_ids"],
        "",
        "error: --schema: schema \"pg_ids\": expected lower-case letters, digits and `_`, not \
         starting with a digit nor with `pg_`, at most 63 characters",
    ),
    (
        &["sql", "postgres", "--schema", "ids; DROP TABLE x"],
        "",
        "error: --schema: schema \"ids; DROP TABLE x\": expected lower-case letters, digits and \
         `_`, not starting with a digit nor with `pg_`, at most 63 characters",
    ),
];

#[test]
fn a_bad_argument_is_one_line_and_exit_2() {
    assert_bad(BAD);
}

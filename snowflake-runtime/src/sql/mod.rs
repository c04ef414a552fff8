//! IDs in SQL databases: the format as plain SQL functions for PostgreSQL
//! ([`POSTGRES_FUNCTIONS`]), and `Snowflake` as a BIGINT in the SQL libraries, one file per
//! library (each behind its feature). Those read and write the `i64` of
//! [`Snowflake::as_i64`](crate::Snowflake::as_i64) through the library's own `i64` impls,
//! and read back through `Snowflake::try_from_i64`, so that a negative value is an error
//! naming it.

#[cfg(feature = "diesel")]
mod diesel_impl;
#[cfg(feature = "postgres")]
mod postgres_impl;
#[cfg(feature = "sea-orm")]
mod sea_orm_impl;
#[cfg(any(feature = "sqlx-postgres", feature = "sqlx-sqlite"))]
mod sqlx_impl;

/// The format as plain SQL functions for PostgreSQL 14 and later, in the schema
/// `snowflake`: decoding (`snowflake.unix_ms(id)`, `issued_at`, `datacenter`, `machine`,
/// `sequence`, `rfc3339`, `segmented_binary`), composing (`snowflake.compose(unix_ms,
/// datacenter, machine, sequence)`, and the same from a `timestamptz`), and time ranges
/// (`first_at`, `last_at`, `issued_in_start` and `issued_in_end`), each answering as this
/// crate does, errors included (SQLSTATE 22003 with this crate's words). Every function is
/// `IMMUTABLE`, `PARALLEL SAFE` and inlined by the planner (all that is left of it in a plan
/// is the expression, and a call that raises the error on the branch that needs it), so
/// that `WHERE id BETWEEN snowflake.first_at($1) AND snowflake.last_at($2)` is a range scan
/// of the key's index. The bodies are SQL-standard (`RETURN`), bound to their operators
/// when they are made, whatever a caller's `search_path` holds.
///
/// Idempotent: every statement is `CREATE OR REPLACE`, and the schema is made only when it
/// is missing (without asking for `CREATE` on the database then), so a migration may run
/// it again. [`postgres_functions`] gives it for another schema; `snowflake sql
/// postgres` prints it.
///
/// ```
/// use snowflake_kit::sql::POSTGRES_FUNCTIONS;
///
/// assert!(POSTGRES_FUNCTIONS.starts_with("-- snowflake-kit 0.1.0"));
/// assert!(POSTGRES_FUNCTIONS.contains("CREATE OR REPLACE FUNCTION snowflake.unix_ms(id bigint)"));
/// // In a migration: tokio-postgres's or sqlx's `raw_sql(POSTGRES_FUNCTIONS)`, diesel's
/// // `batch_execute(POSTGRES_FUNCTIONS)`.
/// ```
pub const POSTGRES_FUNCTIONS: &str = include_str!("../../sql/postgres.sql");

/// [`POSTGRES_FUNCTIONS`] in the schema `schema` rather than `snowflake`.
///
/// ```
/// use snowflake_kit::sql::postgres_functions;
///
/// let sql = postgres_functions("ids")?;
/// assert!(sql.contains(r#"CREATE SCHEMA "ids";"#));
/// assert!(sql.contains(r#"CREATE OR REPLACE FUNCTION "ids".unix_ms(id bigint)"#));
/// assert!(!sql.contains("snowflake."));
/// assert_eq!(postgres_functions("snowflake")?, snowflake_kit::sql::POSTGRES_FUNCTIONS);
/// assert_eq!(
///     postgres_functions("Ids").unwrap_err().to_string(),
///     "schema \"Ids\": expected lower-case letters, digits and `_`, not starting with a \
///      digit nor with `pg_`, at most 63 characters",
/// );
/// # Ok::<(), snowflake_kit::sql::SchemaNameError>(())
/// ```
///
/// # Errors
///
/// [`SchemaNameError`] for a name that PostgreSQL would take only in quotes, or keeps for
/// itself (`pg_`).
#[cfg(feature = "std")]
pub fn postgres_functions(schema: &str) -> Result<std::string::String, SchemaNameError> {
    check_schema_name(schema)?;
    if schema == "snowflake" {
        return Ok(POSTGRES_FUNCTIONS.into());
    }
    // The schema's name stands in the text only as the qualifier of each name, and where
    // the schema is made; quoted, so that a name that is also a keyword (`user`) works.
    Ok(POSTGRES_FUNCTIONS
        .replace(
            "the schema `snowflake`",
            &std::format!("the schema `{schema}`"),
        )
        .replace("snowflake.", &std::format!("\"{schema}\"."))
        .replace(
            "nspname = 'snowflake'",
            &std::format!("nspname = '{schema}'"),
        )
        .replace(
            "CREATE SCHEMA snowflake;",
            &std::format!("CREATE SCHEMA \"{schema}\";"),
        ))
}

/// IDs issued by PostgreSQL itself, for PostgreSQL 15 and later, in the schema `schema`:
/// `next_id()`, usable as a column's `DEFAULT`, under an identity the database claims
/// (`CALL claim_identity()`) from the tables `snowflake-lease`'s `PgStore` leases from
/// (made too when the schema has none), and lets go (`CALL release_identity()`). Plain
/// PL/pgSQL, which managed services run; never a duplicate, never a decreasing ID from one
/// session, across sessions, rollbacks, cancels, clock steps, restarts, crashes and copies,
/// and never under an identity a Rust holder holds, under the preconditions its design
/// states (one registry per keyspace among them). Idempotent, so a migration may run it again; load
/// [`postgres_functions`] first. `snowflake sql postgres --next-id` prints both. The design,
/// its argument and its preconditions: `docs/next-id.md`.
///
/// ```
/// let sql = snowflake_kit::sql::postgres_next_id("ids")?;
/// assert!(sql.contains(r#"CREATE OR REPLACE FUNCTION "ids".next_id() RETURNS bigint"#));
/// assert!(sql.contains(r#"CREATE TABLE "ids".identities"#)); // the lease's tables, when missing
/// assert!(!sql.contains("snowflake."));
/// # Ok::<(), snowflake_kit::sql::SchemaNameError>(())
/// ```
///
/// # Errors
///
/// [`SchemaNameError`], as [`postgres_functions`].
#[cfg(feature = "std")]
pub fn postgres_next_id(schema: &str) -> Result<std::string::String, SchemaNameError> {
    check_schema_name(schema)?;
    // Bare for the default, as `postgres_functions` writes it; quoted otherwise, so that a
    // name that is also a keyword (`user`) works.
    let quoted = if schema == "snowflake" {
        schema.into()
    } else {
        std::format!("\"{schema}\"")
    };
    let tables = crate::__private::POSTGRES_LEASE_TABLES.replace("{schema}", &quoted);
    Ok(include_str!("../../sql/postgres-next-id.sql")
        // The lease store's own lock, and the session's setting, name the schema bare.
        .replace(
            "'snowflake-lease schema snowflake'",
            &std::format!("'snowflake-lease schema {schema}'"),
        )
        .replace(
            "next_id_checked_snowflake'",
            &std::format!("next_id_checked_{schema}'"),
        )
        .replace(
            "nspname = 'snowflake'",
            &std::format!("nspname = '{schema}'"),
        )
        .replace("snowflake.", &std::format!("{quoted}."))
        .replace("{lease_tables}", &tables))
}

/// Checks a schema's name as PostgreSQL takes it without quotes, and as not its own: lower-case
/// letters, digits and `_`, not starting with a digit nor with `pg_`, at most 63 bytes. The
/// rule of [`postgres_functions`], and of the lease's tables in `snowflake-lease`.
///
/// ```
/// use snowflake_kit::sql::check_schema_name;
///
/// assert!(check_schema_name("snowflake").is_ok());
/// assert!(check_schema_name("ids_2").is_ok());
/// for refused in ["", "Ids", "2ids", "pg_ids", "ids-2", "ids.x", &"x".repeat(64)] {
///     assert!(check_schema_name(refused).is_err(), "{refused}");
/// }
/// ```
///
/// # Errors
///
/// [`SchemaNameError`], naming the refused name.
#[cfg(feature = "std")]
pub fn check_schema_name(schema: &str) -> Result<(), SchemaNameError> {
    let bytes = schema.as_bytes();
    let plain = !bytes.is_empty()
        && bytes.len() <= 63
        && !bytes[0].is_ascii_digit()
        && !schema.starts_with("pg_")
        && bytes
            .iter()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || *b == b'_');
    if plain {
        Ok(())
    } else {
        Err(SchemaNameError {
            name: schema.into(),
        })
    }
}

/// A schema's name that [`check_schema_name`] refuses: the message names it and says
/// what is allowed.
#[cfg(feature = "std")]
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SchemaNameError {
    name: std::string::String,
}

#[cfg(feature = "std")]
impl SchemaNameError {
    /// The name that was refused.
    ///
    /// ```
    /// let err = snowflake_kit::sql::postgres_functions("pg_ids").unwrap_err();
    /// assert_eq!(err.name(), "pg_ids");
    /// ```
    pub fn name(&self) -> &str {
        &self.name
    }
}

#[cfg(feature = "std")]
impl core::fmt::Display for SchemaNameError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "schema {:?}: expected lower-case letters, digits and `_`, not starting with a \
             digit nor with `pg_`, at most 63 characters",
            self.name
        )
    }
}

#[cfg(feature = "std")]
impl core::error::Error for SchemaNameError {}

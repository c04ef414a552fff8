//! `sql`: the format as SQL functions, printed for a database to load: one text, the
//! runtime's (`snowflake_kit::sql`), never a copy.

use std::io::{self, Write};

use snowflake_kit::sql::{SchemaNameError, postgres_functions, postgres_next_id};

use crate::failure::Failure;

/// Print the format as SQL functions, to load into a database or to read first.
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// The database: `postgres`, PostgreSQL 14 and later (decode, compose and time ranges as
    /// plain SQL functions, idempotent; load it with `snowflake sql postgres | psql`).
    #[arg(value_enum)]
    database: Database,
    /// The schema to create the functions in: lower-case letters, digits and `_`.
    #[arg(long, value_name = "NAME", default_value = "snowflake")]
    schema: String,
    /// And `next_id()`, IDs issued by the database itself (PostgreSQL 15 and later), under
    /// an identity it claims from the tables snowflake-lease leases from (made when missing):
    /// `CALL snowflake.claim_identity()`, then `DEFAULT snowflake.next_id()`.
    #[arg(long)]
    next_id: bool,
}

/// A database whose SQL the command prints.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum Database {
    /// PostgreSQL 14 and later.
    Postgres,
}

/// Runs `snowflake sql`.
pub(crate) fn run(args: Args) -> Result<(), Failure> {
    let Args {
        database,
        schema,
        next_id,
    } = args;
    let schema_error = |e: SchemaNameError| Failure::Usage(vec![format!("--schema: {e}")]);
    let mut sql = match database {
        Database::Postgres => postgres_functions(&schema).map_err(schema_error)?,
    };
    if next_id {
        sql.push('\n');
        sql.push_str(&postgres_next_id(&schema).map_err(schema_error)?);
    }
    let mut stdout = io::stdout().lock();
    stdout.write_all(sql.as_bytes())?;
    stdout.flush()?;
    Ok(())
}

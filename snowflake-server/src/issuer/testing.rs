//! IDs from any generator through a [`Queue`], waited for and refused as the issuer does:
//! for the issuer's tests and the queue's.

use snowflake_kit::{Clock, Generator, Snowflake};

use super::{Refusal, fill, refused};
use crate::fair::Queue;

/// One ID through `queue`, waited for as `/v1/id` waits.
pub(crate) async fn one<C: Clock>(
    generator: &Generator<C>,
    queue: &Queue,
) -> Result<Snowflake, Refusal> {
    let id = queue
        .issue_one(
            || generator.try_next_id_now(),
            |from, until, waited| {
                snowflake_kit::__private::check_wait(generator, from, until, waited)
            },
            generator.clock(),
        )
        .await
        .map_err(refused)?;
    Ok(id)
}

/// `out.len()` IDs through `queue`, waited for as `/v1/ids` waits.
pub(crate) async fn batch<C: Clock>(
    generator: &Generator<C>,
    queue: &Queue,
    out: &mut [Snowflake],
) -> Result<(), Refusal> {
    fill(
        queue,
        out,
        |rest| generator.try_fill_now(rest),
        |from, until, waited| snowflake_kit::__private::check_wait(generator, from, until, waited),
        generator.clock(),
    )
    .await
}

//! Compile-time fixtures for tests: IDs with known fields, written as literals that
//! the compiler checks, so a typo in a fixture fails the build instead of a test.
//! A fixture compares, sorts and hashes as the ID it stands for.
//! Run with `cargo test --example fixtures`.
//!
//! Give every fixture its `ts`: a call without one bakes the build time, so its ID changes
//! with each build (unless `SOURCE_DATE_EPOCH` is set), and a test that compares it with
//! a fixed ID would pass on one day and fail on the next.
//!
//! An ID copied from a log or a row is pasted as it is, `snowflake!(id = ...)`, read and
//! decoded when the test builds; the fields stated beside it must be its own, so the
//! fixture says what it is and cannot lie.

use snowflake_kit::Snowflake;

/// The code under test: which datacenter issued an ID?
fn region(id: Snowflake) -> &'static str {
    match id.datacenter() {
        0..=9 => "us-east",
        10..=19 => "eu-west",
        _ => "ap-south",
    }
}

fn main() {
    let id: Snowflake = "1541815603606036480".parse().expect("a valid id");
    println!("{id} was issued in {}", region(id));
}

#[cfg(test)]
mod tests {
    use super::region;
    use snowflake_kit::{BakedSnowflake, snowflake};

    const US: BakedSnowflake = snowflake!(ts = "2022-06-28T16:07:40.105Z", dc = 0, machine = 1);
    const US_LAST: BakedSnowflake = snowflake!(
        ts = "2022-06-28T16:07:40.105Z",
        dc = 9,
        machine = 31,
        seq = 4095
    );
    const EU: BakedSnowflake = snowflake!(ts = "2022-06-28T16:07:40.105Z", dc = 10, machine = 1);
    const AP: BakedSnowflake = snowflake!(ts = "2022-06-28T16:07:40.105Z", dc = 31, machine = 1);

    #[test]
    fn regions_by_datacenter() {
        assert_eq!(region(US.snowflake()), "us-east");
        assert_eq!(region(US_LAST.snowflake()), "us-east");
        assert_eq!(region(EU.snowflake()), "eu-west");
        assert_eq!(region(AP.snowflake()), "ap-south");
    }

    #[test]
    fn fixtures_sort_by_datacenter_within_one_millisecond() {
        let mut ids = vec![AP, US_LAST, EU, US];
        ids.sort_unstable();
        assert_eq!(ids, [US, US_LAST, EU, AP]);
    }

    /// From a production log: the datacenter is stated, and the build checks it is the ID's.
    const FROM_THE_LOG: BakedSnowflake = snowflake!(id = 1541815603606036480, dc = 11);

    #[test]
    fn a_pasted_id_is_regioned_as_its_datacenter_says() {
        assert_eq!(region(FROM_THE_LOG.snowflake()), "eu-west");
        assert_eq!(FROM_THE_LOG, snowflake!(id = "1ASD13XH1F800"));
    }

    #[test]
    fn a_fixture_equals_the_id_it_stands_for() {
        const TWEET: BakedSnowflake =
            snowflake!(ts = "2022-06-28T16:07:40.105Z", dc = 11, machine = 26);
        let parsed: snowflake_kit::Snowflake = "1541815603606036480".parse().unwrap();
        assert_eq!(parsed, TWEET);
        assert!(US < parsed && parsed < AP);
    }
}

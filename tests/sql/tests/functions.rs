//! The format as plain SQL functions (`snowflake_kit::sql::POSTGRES_FUNCTIONS`) on a real
//! `PostgreSQL`, against the Rust runtime: every function over the edges and many random
//! IDs and inputs, every error's SQLSTATE and message, NULL, the volatility and parallel
//! labels, the inlining, the index scan, and the file loaded twice and into a second schema.
//! Each test loads the functions into a schema of its own, on the shared server.

mod support;

use std::sync::Arc;
use std::time::SystemTime;

use snowflake_kit::layout::{MAX_TIMESTAMP_MS, TWITTER_EPOCH_MS};
use snowflake_kit::rfc3339::{Rfc3339Error, parse_rfc3339};
use snowflake_kit::sql::{POSTGRES_FUNCTIONS, postgres_functions};
use snowflake_kit::{FieldRangeError, Snowflake, compose};
use support::edges;
use support::pg::{self, Pg};
use tokio_postgres::error::SqlState;
use tokio_postgres::{Client, NoTls};

/// A client of the shared server, with the functions loaded into `schema`.
async fn client(schema: &str) -> (Arc<Pg>, Client) {
    let pg = pg::shared();
    let (client, connection) = tokio_postgres::connect(&pg.url(), NoTls)
        .await
        .expect("connects");
    tokio::spawn(connection);
    client
        .batch_execute(&postgres_functions(schema).unwrap())
        .await
        .expect("the functions load");
    (pg, client)
}

/// A fixed sequence of numbers, the same in every run.
struct Random(u64);

impl Random {
    fn below(&mut self, bound: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % bound
    }
}

/// The edges and 2,000 random IDs.
fn ids() -> Vec<Snowflake> {
    let mut random = Random(0x9E37_79B9_7F4A_7C15);
    let mut ids = edges();
    ids.extend([
        Snowflake::MIN,
        Snowflake::MAX,
        compose(TWITTER_EPOCH_MS + 1, 0, 0, 4095).unwrap(),
    ]);
    for _ in 0..2_000 {
        ids.push(Snowflake::try_from(random.below(1 << 63)).unwrap());
    }
    ids
}

#[tokio::test]
#[ignore = "needs PostgreSQL: bash scripts/test.sh installs it"]
async fn decodes_every_id_as_the_runtime_does() {
    let (_pg, client) = client("decode").await;
    let ids = ids();
    let values: Vec<i64> = ids.iter().map(|id| id.as_i64()).collect();
    let rows = client
        .query(
            "SELECT x, decode.unix_ms(x), decode.issued_at(x), decode.datacenter(x), \
             decode.machine(x), decode.sequence(x), decode.rfc3339(x), \
             decode.segmented_binary(x) FROM unnest($1::bigint[]) WITH ORDINALITY AS u(x, n) \
             ORDER BY n",
            &[&values],
        )
        .await
        .unwrap();
    assert_eq!(rows.len(), ids.len());
    for (row, id) in rows.iter().zip(&ids) {
        assert_eq!(row.get::<_, i64>(0), id.as_i64());
        assert_eq!(
            row.get::<_, i64>(1).cast_unsigned(),
            id.timestamp_ms(),
            "{id}"
        );
        assert_eq!(row.get::<_, SystemTime>(2), id.system_time(), "{id}");
        assert_eq!(row.get::<_, i32>(3), i32::from(id.datacenter()), "{id}");
        assert_eq!(row.get::<_, i32>(4), i32::from(id.machine()), "{id}");
        assert_eq!(row.get::<_, i32>(5), i32::from(id.sequence()), "{id}");
        assert_eq!(row.get::<_, String>(6), id.rfc3339().to_string(), "{id}");
        assert_eq!(
            row.get::<_, String>(7),
            id.segmented_binary().to_string(),
            "{id}"
        );
    }
    // The known answers, beside the runtime's: a tweet and the reference vector.
    let row = client
        .query_one(
            "SELECT decode.unix_ms(1541815603606036480), decode.rfc3339(1541815603606036480), \
             decode.datacenter(1541815603606036480), decode.machine(1541815603606036480), \
             decode.segmented_binary(4194439168)",
            &[],
        )
        .await
        .unwrap();
    assert_eq!(row.get::<_, i64>(0), 1_656_432_460_105);
    assert_eq!(row.get::<_, String>(1), "2022-06-28T16:07:40.105Z");
    assert_eq!((row.get::<_, i32>(2), row.get::<_, i32>(3)), (11, 26));
    assert_eq!(
        row.get::<_, String>(4),
        "0 00000000000000000000000000000001111101000 00001 00001 000000000000"
    );
    // The session's time zone and date style change nothing.
    client
        .batch_execute("SET TimeZone = 'Asia/Jerusalem'; SET DateStyle = 'German, DMY'")
        .await
        .unwrap();
    let row = client
        .query_one("SELECT decode.rfc3339(1541815603606036480)", &[])
        .await
        .unwrap();
    assert_eq!(row.get::<_, String>(0), "2022-06-28T16:07:40.105Z");
}

#[tokio::test]
#[ignore = "needs PostgreSQL: bash scripts/test.sh installs it"]
async fn base32_is_the_runtimes_both_ways_with_its_errors() {
    let (_pg, client) = client("base32").await;
    // The known answers every front end shares, then the edges and random IDs.
    let vectors = include_str!("../../vectors/base32.txt");
    let mut ids: Vec<Snowflake> = vectors
        .lines()
        .filter(|line| !line.starts_with('#'))
        .map(|line| line.split(' ').next().unwrap().parse().unwrap())
        .collect();
    ids.extend(self::ids());
    let values: Vec<i64> = ids.iter().map(|id| id.as_i64()).collect();
    let texts: Vec<String> = ids.iter().map(|id| id.to_base32().to_string()).collect();
    let lower: Vec<String> = texts.iter().map(|t| t.to_lowercase()).collect();
    let rows = client
        .query(
            "SELECT base32.base32(x), base32.from_base32(t), base32.from_base32(l) \
             FROM unnest($1::bigint[], $2::text[], $3::text[]) WITH ORDINALITY AS u(x, t, l, n) \
             ORDER BY n",
            &[&values, &texts, &lower],
        )
        .await
        .unwrap();
    assert_eq!(rows.len(), ids.len());
    for ((row, id), text) in rows.iter().zip(&ids).zip(&texts) {
        assert_eq!(&row.get::<_, String>(0), text, "{id}");
        assert_eq!(row.get::<_, i64>(1), id.as_i64(), "{text}");
        assert_eq!(row.get::<_, i64>(2), id.as_i64(), "{text}");
    }
    for line in vectors.lines().filter(|line| !line.starts_with('#')) {
        let text = line.split(' ').nth(1).unwrap();
        assert!(texts.iter().any(|t| t == text), "{text}");
    }
    // Crockford's substitutions, and every error in the runtime's words.
    let row = client
        .query_one(
            "SELECT base32.from_base32('OOOOOO3XO44oo'), base32.from_base32('7zzzzzzzzzzzL')",
            &[],
        )
        .await
        .unwrap();
    assert_eq!(
        (row.get::<_, i64>(0), row.get::<_, i64>(1)),
        (4_194_439_168, i64::MAX - 30)
    );
    for text in [
        "000000000000U",
        "u000000000000",
        "00000000000é0",
        "0#1",
        "000000000000",
        "00000000000000",
        "",
        "8000000000000",
        "zzzzzzzzzzzzz",
        "user_0000000000000",
        // A `_` is a prefix's only before 13 characters, after something.
        "0000003X0440_",
        "_0000003X04400",
        "a_b_0000003X04400",
        "x_000000000000",
        "é_0000003X04400",
    ] {
        let expected = Snowflake::from_base32(text).unwrap_err();
        let code = match expected {
            snowflake_kit::ParseSnowflakeError::Base32TooLarge { .. } => {
                SqlState::NUMERIC_VALUE_OUT_OF_RANGE
            }
            _ => SqlState::INVALID_TEXT_REPRESENTATION,
        };
        let sql = format!("SELECT base32.from_base32('{text}')");
        assert_eq!(
            error_of(&client, &sql).await,
            (code, expected.to_string()),
            "{text}"
        );
    }
    let negative = Snowflake::try_from_i64(-1).unwrap_err().to_string();
    let error = error_of(&client, "SELECT base32.base32(-1)").await;
    assert_eq!(error, (SqlState::NUMERIC_VALUE_OUT_OF_RANGE, negative));
    let row = client
        .query_one("SELECT base32.base32(NULL), base32.from_base32(NULL)", &[])
        .await
        .unwrap();
    assert_eq!(
        (
            row.get::<_, Option<String>>(0),
            row.get::<_, Option<i64>>(1)
        ),
        (None, None)
    );
}

#[tokio::test]
#[ignore = "needs PostgreSQL: bash scripts/test.sh installs it"]
async fn composes_as_the_runtime_does() {
    let (_pg, client) = client("compose").await;
    let mut random = Random(0x2545_F491_4F6C_DD1D);
    let mut inputs = vec![
        (TWITTER_EPOCH_MS, 0, 0, 0),
        (MAX_TIMESTAMP_MS, 31, 31, 4095),
        (1_288_834_975_657, 1, 1, 0),
        (1_656_432_460_105, 11, 26, 0),
    ];
    for _ in 0..2_000 {
        inputs.push((
            TWITTER_EPOCH_MS + random.below(1 << 41),
            random.below(32),
            random.below(32),
            random.below(4096),
        ));
    }
    for (ts, dc, machine, seq) in inputs {
        let id = compose(ts, dc, machine, seq).unwrap();
        let time = id.rfc3339().to_string();
        let (ts, dc, machine, seq) = (
            ts.cast_signed(),
            i32::try_from(dc).unwrap(),
            i32::try_from(machine).unwrap(),
            i32::try_from(seq).unwrap(),
        );
        let row = client
            .query_one(
                "SELECT compose.compose($1::bigint, $2, $3, $4), \
                 compose.compose($5::text::timestamptz, $2, $3, $4), compose.compose($1::bigint, $2, $3)",
                &[&ts, &dc, &machine, &seq, &time],
            )
            .await
            .unwrap();
        assert_eq!(row.get::<_, i64>(0), id.as_i64(), "{time}");
        assert_eq!(row.get::<_, i64>(1), id.as_i64(), "{time}");
        // The sequence defaults to 0.
        assert_eq!(
            row.get::<_, i64>(2),
            compose(
                ts.cast_unsigned(),
                dc.cast_unsigned().into(),
                machine.cast_unsigned().into(),
                0
            )
            .unwrap()
            .as_i64()
        );
    }
}

/// The SQLSTATE and message of `sql`'s error.
async fn error_of(client: &Client, sql: &str) -> (SqlState, String) {
    let error = client.query_one(sql, &[]).await.expect_err(sql);
    let db = error
        .as_db_error()
        .unwrap_or_else(|| panic!("{sql}: {error}"));
    (db.code().clone(), db.message().to_owned())
}

#[tokio::test]
#[ignore = "needs PostgreSQL: bash scripts/test.sh installs it"]
async fn every_error_is_the_runtimes_in_sqlstate_22003() {
    let (_pg, client) = client("errors").await;
    let range = |e: FieldRangeError| e.to_string();
    let negative = Snowflake::try_from_i64(-5).unwrap_err().to_string();
    let min = Snowflake::try_from_i64(i64::MIN).unwrap_err().to_string();
    for (sql, message) in [
        ("SELECT errors.unix_ms(-5)", negative.clone()),
        ("SELECT errors.issued_at(-5)", negative.clone()),
        ("SELECT errors.datacenter(-5)", negative.clone()),
        ("SELECT errors.machine(-5)", negative.clone()),
        ("SELECT errors.sequence(-5)", negative.clone()),
        ("SELECT errors.rfc3339(-5)", negative.clone()),
        ("SELECT errors.segmented_binary(-5)", negative),
        ("SELECT errors.unix_ms(-9223372036854775808)", min),
        (
            "SELECT errors.compose(0, 1, 1)",
            range(FieldRangeError::TimestampBeforeEpoch(0)),
        ),
        (
            "SELECT errors.compose(1288834974656, 1, 1)",
            range(FieldRangeError::TimestampBeforeEpoch(1_288_834_974_656)),
        ),
        (
            "SELECT errors.compose(3487858230209, 1, 1)",
            range(FieldRangeError::TimestampAfterMax(3_487_858_230_209)),
        ),
        (
            "SELECT errors.compose(9223372036854775807, 1, 1)",
            range(FieldRangeError::TimestampAfterMax(i64::MAX.cast_unsigned())),
        ),
        (
            "SELECT errors.compose(1288834975657, 32, 1)",
            range(FieldRangeError::DatacenterOutOfRange(32)),
        ),
        (
            "SELECT errors.compose(1288834975657, 1, 32)",
            range(FieldRangeError::MachineOutOfRange(32)),
        ),
        (
            "SELECT errors.compose(1288834975657, 1, 1, 4096)",
            range(FieldRangeError::SequenceOutOfRange(4096)),
        ),
        (
            "SELECT errors.compose(timestamptz '2000-01-01T00:00:00Z', 1, 1)",
            range(FieldRangeError::TimestampBeforeEpoch(946_684_800_000)),
        ),
        (
            "SELECT errors.compose(timestamptz '2080-07-10T17:30:30.209Z', 1, 1)",
            range(FieldRangeError::TimestampAfterMax(3_487_858_230_209)),
        ),
        (
            "SELECT errors.first_at(timestamptz '1969-12-31T23:59:59Z')",
            range(FieldRangeError::TimestampBeforeEpoch(0)).replace(" 0 ms", " -1000 ms"),
        ),
        (
            "SELECT errors.last_at(timestamptz '2100-01-01T00:00:00Z')",
            range(FieldRangeError::TimestampAfterMax(4_102_444_800_000)),
        ),
        // A BIGINT or an integer may be negative, which the runtime's u64 cannot be: the same
        // words, the value as given.
        (
            "SELECT errors.compose(-1, 1, 1)",
            range(FieldRangeError::TimestampBeforeEpoch(1)).replace(" 1 ms", " -1 ms"),
        ),
        (
            "SELECT errors.compose(1288834975657, -1, 1)",
            range(FieldRangeError::DatacenterOutOfRange(1)).replace(" 1 is", " -1 is"),
        ),
        (
            "SELECT errors.compose(1288834975657, 1, -1)",
            range(FieldRangeError::MachineOutOfRange(1)).replace(" 1 is", " -1 is"),
        ),
        (
            "SELECT errors.compose(1288834975657, 1, 1, -1)",
            range(FieldRangeError::SequenceOutOfRange(1)).replace(" 1 is", " -1 is"),
        ),
    ] {
        assert_eq!(
            error_of(&client, sql).await,
            (SqlState::NUMERIC_VALUE_OUT_OF_RANGE, message),
            "{sql}"
        );
    }
}

#[tokio::test]
#[ignore = "needs PostgreSQL: bash scripts/test.sh installs it"]
async fn finer_than_a_millisecond_is_refused_and_null_passes_through() {
    let (_pg, client) = client("finer").await;
    // Finer than a millisecond, as the runtime refuses it, in its words; and the infinities,
    // beyond each end of the span.
    let finer = Rfc3339Error::FinerThanMillisecond;
    for (sql, code, message) in [
        (
            "SELECT finer.compose(timestamptz '2022-06-28T16:07:40.1051Z', 1, 1)",
            SqlState::INVALID_PARAMETER_VALUE,
            format!("timestamp 1656432460105.1 ms is {finer}"),
        ),
        (
            "SELECT finer.first_at(timestamptz '2022-06-28T16:07:40.105001Z')",
            SqlState::INVALID_PARAMETER_VALUE,
            format!("timestamp 1656432460105.001 ms is {finer}"),
        ),
        (
            "SELECT finer.last_at(timestamptz '2022-06-28T16:07:40.1059Z')",
            SqlState::INVALID_PARAMETER_VALUE,
            format!("timestamp 1656432460105.9 ms is {finer}"),
        ),
        (
            "SELECT finer.compose(timestamptz 'infinity', 1, 1)",
            SqlState::NUMERIC_VALUE_OUT_OF_RANGE,
            FieldRangeError::TimestampAfterMax(1)
                .to_string()
                .replace(" 1 ms", " Infinity ms"),
        ),
        (
            "SELECT finer.first_at(timestamptz '-infinity')",
            SqlState::NUMERIC_VALUE_OUT_OF_RANGE,
            FieldRangeError::TimestampBeforeEpoch(1)
                .to_string()
                .replace(" 1 ms", " -Infinity ms"),
        ),
    ] {
        assert_eq!(error_of(&client, sql).await, (code, message), "{sql}");
    }
    assert!(parse_rfc3339("2022-06-28T16:07:40.1051Z").is_err());
    // The edges that are allowed are: 4095, 31, the epoch, 2080.
    let row = client
        .query_one(
            "SELECT finer.compose(1288834974657, 31, 31, 4095), finer.compose(3487858230208, 0, 0), \
             finer.unix_ms(0), finer.unix_ms(9223372036854775807)",
            &[],
        )
        .await
        .unwrap();
    assert_eq!(
        row.get::<_, i64>(0),
        compose(TWITTER_EPOCH_MS, 31, 31, 4095).unwrap().as_i64()
    );
    assert_eq!(
        row.get::<_, i64>(1),
        compose(MAX_TIMESTAMP_MS, 0, 0, 0).unwrap().as_i64()
    );
    assert_eq!(row.get::<_, i64>(2).cast_unsigned(), TWITTER_EPOCH_MS);
    assert_eq!(row.get::<_, i64>(3).cast_unsigned(), MAX_TIMESTAMP_MS);
    // NULL in, NULL out, from every function.
    let nulls = client
        .query_one(
            "SELECT finer.unix_ms(NULL) IS NULL AND finer.issued_at(NULL) IS NULL \
             AND finer.datacenter(NULL) IS NULL AND finer.machine(NULL) IS NULL \
             AND finer.sequence(NULL) IS NULL AND finer.rfc3339(NULL) IS NULL \
             AND finer.segmented_binary(NULL) IS NULL \
             AND finer.compose(NULL::bigint, 1, 1) IS NULL AND finer.compose(1288834975657, NULL, 1) IS NULL \
             AND finer.compose(1288834975657, 1, NULL) IS NULL AND finer.compose(1288834975657, 1, 1, NULL) IS NULL \
             AND finer.compose(NULL::timestamptz, 1, 1) IS NULL \
             AND finer.first_at(NULL) IS NULL AND finer.last_at(NULL) IS NULL \
             AND finer.issued_in_start(NULL, now()) IS NULL AND finer.issued_in_end(now(), NULL) IS NULL \
             AND finer.issued_in_start(now(), NULL) IS NULL AND finer.issued_in_end(NULL, now()) IS NULL",
            &[],
        )
        .await
        .unwrap();
    assert!(nulls.get::<_, bool>(0));
}

#[tokio::test]
#[ignore = "needs PostgreSQL: bash scripts/test.sh installs it"]
async fn time_ranges_are_the_runtimes() {
    let (_pg, client) = client("ranges").await;
    let mut random = Random(0x1234_5678_9ABC_DEF1);
    // first_at and last_at, at the span's ends and inside it.
    let mut times = vec![TWITTER_EPOCH_MS, MAX_TIMESTAMP_MS, 1_656_432_460_105];
    for _ in 0..500 {
        times.push(TWITTER_EPOCH_MS + random.below(1 << 41));
    }
    for ms in times {
        let text = Snowflake::first_at(ms).unwrap().rfc3339().to_string();
        let row = client
            .query_one(
                "SELECT ranges.first_at($1::text::timestamptz), ranges.last_at($1::text::timestamptz)",
                &[&text],
            )
            .await
            .unwrap();
        assert_eq!(
            row.get::<_, i64>(0),
            Snowflake::first_at(ms).unwrap().as_i64(),
            "{text}"
        );
        assert_eq!(
            row.get::<_, i64>(1),
            Snowflake::last_at(ms).unwrap().as_i64(),
            "{text}"
        );
    }
    // issued_in, clamped: both ends anywhere from before 1970 to past 2080, empty ranges too.
    let anywhere = |random: &mut Random| random.below(4_200_000_000_000);
    let mut ranges = vec![
        (0, u64::MAX / 1_000_000),
        (0, 1_000),
        (5, 5),
        (TWITTER_EPOCH_MS, TWITTER_EPOCH_MS + 1),
        (MAX_TIMESTAMP_MS, MAX_TIMESTAMP_MS + 1),
        (MAX_TIMESTAMP_MS + 1, MAX_TIMESTAMP_MS + 5),
        (946_684_800_000, 1_672_531_200_000),
    ];
    for _ in 0..500 {
        let (a, b) = (anywhere(&mut random), anywhere(&mut random));
        ranges.push((a.min(b), a.max(b)));
        ranges.push((a.max(b), a.min(b)));
    }
    for (from, until) in ranges {
        let expected = Snowflake::issued_in(from..until);
        let (from_text, until_text) = (iso(from), iso(until));
        let row = client
            .query_one(
                "SELECT ranges.issued_in_start($1::text::timestamptz, $2::text::timestamptz), \
                 ranges.issued_in_end($1::text::timestamptz, $2::text::timestamptz)",
                &[&from_text, &until_text],
            )
            .await
            .unwrap();
        assert_eq!(
            (row.get::<_, i64>(0), row.get::<_, i64>(1)),
            (expected.start().as_i64(), expected.end().as_i64()),
            "{from_text}..{until_text}"
        );
    }
    // The infinities are times too: an open end of a range.
    for (from, until, expected) in [
        ("-infinity", "infinity", Snowflake::issued_in(0..u64::MAX)),
        (
            "-infinity",
            "2022-06-28T16:07:40.106Z",
            Snowflake::issued_in(0..1_656_432_460_106),
        ),
        (
            "2022-06-28T16:07:40.105Z",
            "infinity",
            Snowflake::issued_in(1_656_432_460_105..u64::MAX),
        ),
        ("infinity", "-infinity", Snowflake::issued_in(5..5)),
    ] {
        let row = client
            .query_one(
                "SELECT ranges.issued_in_start($1::text::timestamptz, $2::text::timestamptz), \
                 ranges.issued_in_end($1::text::timestamptz, $2::text::timestamptz)",
                &[&from, &until],
            )
            .await
            .unwrap();
        assert_eq!(
            (row.get::<_, i64>(0), row.get::<_, i64>(1)),
            (expected.start().as_i64(), expected.end().as_i64()),
            "{from}..{until}"
        );
    }
    // A millisecond partly in the range counts as in it, at both ends.
    let row = client
        .query_one(
            "SELECT ranges.issued_in_start('2022-06-28T16:07:40.1055Z', '2022-06-28T16:07:40.1061Z'), \
             ranges.issued_in_end('2022-06-28T16:07:40.1055Z', '2022-06-28T16:07:40.1061Z')",
            &[],
        )
        .await
        .unwrap();
    let expected = Snowflake::issued_in(1_656_432_460_105..1_656_432_460_107);
    assert_eq!(
        (row.get::<_, i64>(0), row.get::<_, i64>(1)),
        (expected.start().as_i64(), expected.end().as_i64())
    );
}

/// Unix ms as an RFC 3339 text PostgreSQL reads, also outside the format's span.
fn iso(ms: u64) -> String {
    let (seconds, millis) = (ms / 1000, ms % 1000);
    let days = seconds / 86_400;
    let rest = seconds % 86_400;
    // Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm).
    let z = days.cast_signed() + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{millis:03}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

#[test]
fn iso_writes_what_the_runtime_writes() {
    for ms in [
        0,
        TWITTER_EPOCH_MS,
        1_656_432_460_105,
        MAX_TIMESTAMP_MS,
        951_782_400_000,
    ] {
        let iso = iso(ms);
        assert_eq!(parse_rfc3339(&iso), Ok(ms), "{iso}");
    }
    assert_eq!(iso(MAX_TIMESTAMP_MS), "2080-07-10T17:30:30.208Z");
}

#[tokio::test]
#[ignore = "needs PostgreSQL: bash scripts/test.sh installs it"]
async fn every_function_is_immutable_parallel_safe_and_inlined() {
    let (_pg, client) = client("planner").await;
    let labels = client
        .query(
            "SELECT p.oid::regprocedure::text, p.provolatile::text, p.proparallel::text \
             FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace \
             WHERE n.nspname = 'planner' ORDER BY 1",
            &[],
        )
        .await
        .unwrap();
    let names: Vec<String> = labels.iter().map(|row| row.get(0)).collect();
    for function in [
        "planner.unix_ms(bigint)",
        "planner.issued_at(bigint)",
        "planner.datacenter(bigint)",
        "planner.machine(bigint)",
        "planner.sequence(bigint)",
        "planner.rfc3339(bigint)",
        "planner.segmented_binary(bigint)",
        "planner.compose(bigint,integer,integer,integer)",
        "planner.compose(timestamp with time zone,integer,integer,integer)",
        "planner.first_at(timestamp with time zone)",
        "planner.last_at(timestamp with time zone)",
        "planner.issued_in_start(timestamp with time zone,timestamp with time zone)",
        "planner.issued_in_end(timestamp with time zone,timestamp with time zone)",
        "planner.base32(bigint)",
        "planner.from_base32(text)",
    ] {
        assert!(names.iter().any(|n| n == function), "{function}: {names:?}");
    }
    for row in &labels {
        let (name, volatility, parallel): (String, String, String) =
            (row.get(0), row.get(1), row.get(2));
        assert_eq!(
            (volatility.as_str(), parallel.as_str()),
            ("i", "s"),
            "{name}"
        );
    }
}

/// A table `SCHEMA.t` keyed by 100,000 IDs, one a millisecond from the epoch on, analysed.
async fn keyed_table(client: &Client, schema: &str) {
    client
        .batch_execute(&format!(
            "CREATE TABLE {schema}.t (id bigint PRIMARY KEY); \
             INSERT INTO {schema}.t SELECT (g::bigint << 22) | (g % 4096) FROM generate_series(1, 100000) g; \
             ANALYZE {schema}.t"
        ))
        .await
        .unwrap();
}

/// The plan of `sql`, as `EXPLAIN (VERBOSE, COSTS OFF)` writes it.
async fn plan(client: &Client, sql: String) -> String {
    client
        .query(&format!("EXPLAIN (VERBOSE, COSTS OFF) {sql}"), &[])
        .await
        .unwrap()
        .iter()
        .map(|row| row.get::<_, String>(0))
        .collect::<Vec<_>>()
        .join("\n")
}

#[tokio::test]
#[ignore = "needs PostgreSQL: bash scripts/test.sh installs it"]
async fn the_planner_inlines_them_and_scans_the_index_for_a_time_range() {
    let (_pg, client) = client("inlined").await;
    keyed_table(&client, "inlined").await;
    // Inlined, on a column: the plan computes each expression, and the only function of
    // the schema it still calls is the one that raises an error, on the branches that need
    // them.
    client
        .batch_execute(
            "CREATE TABLE inlined.times AS SELECT id, inlined.issued_at(id) AS at FROM inlined.t",
        )
        .await
        .unwrap();
    for (call, inlined) in [
        (
            "inlined.unix_ms(id)",
            "END >> 22) + '1288834974657'::bigint",
        ),
        ("inlined.datacenter(id)", "END >> 17) & '31'::bigint"),
        ("inlined.machine(id)", "END >> 12) & '31'::bigint"),
        ("inlined.sequence(id)", "END & '4095'::bigint"),
        ("inlined.issued_at(id)", "'00:00:00.001'::interval"),
        ("inlined.rfc3339(id)", "lpad("),
        ("inlined.segmented_binary(id)", "::bit(64)"),
        (
            "inlined.compose(id, 1, 1, 0)",
            "((id - '1288834974657'::bigint) << 22)",
        ),
        (
            "inlined.compose(at, 1, 1)",
            "EXTRACT(epoch FROM timezone('UTC'::text, at))",
        ),
        (
            "inlined.first_at(at)",
            "EXTRACT(epoch FROM timezone('UTC'::text, at))",
        ),
        ("inlined.last_at(at)", "| '4095'::bigint"),
        ("inlined.issued_in_start(at, at)", "GREATEST("),
        ("inlined.issued_in_end(at, at)", "'4194303'::bigint"),
        (
            "inlined.base32(id)",
            "substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ'::text",
        ),
        (
            "inlined.from_base32(id::text)",
            "strpos('0123456789ABCDEFGHJKMNPQRSTVWXYZ'::text",
        ),
    ] {
        let plan = plan(&client, format!("SELECT {call} FROM inlined.times")).await;
        assert!(plan.contains(inlined), "{call}:\n{plan}");
        // Each `inlined.NAME(` of the plan: a call of one of the schema's functions.
        let called: Vec<&str> = plan
            .split("inlined.")
            .skip(1)
            .filter_map(|rest| {
                let name = rest
                    .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .next()?;
                rest[name.len()..].starts_with('(').then_some(name)
            })
            .filter(|name| *name != "_raise")
            .collect();
        assert_eq!(
            called,
            Vec::<&str>::new(),
            "{call} calls, not inlined:\n{plan}"
        );
    }
}

#[tokio::test]
#[ignore = "needs PostgreSQL: bash scripts/test.sh installs it"]
async fn a_time_range_is_a_range_scan_of_the_index() {
    let (_pg, client) = client("ranged").await;
    keyed_table(&client, "ranged").await;
    // A time range is a range scan of the key's index, its bounds folded to constants.
    for (low, high) in [
        (
            "ranged.first_at('2010-11-04T01:43:00Z')",
            "ranged.last_at('2010-11-04T01:43:01Z')",
        ),
        (
            "ranged.issued_in_start('2010-11-04T01:43:00Z', '2010-11-04T01:43:01Z')",
            "ranged.issued_in_end('2010-11-04T01:43:00Z', '2010-11-04T01:43:01Z')",
        ),
    ] {
        let plan = plan(
            &client,
            format!("SELECT id FROM ranged.t WHERE id BETWEEN {low} AND {high}"),
        )
        .await;
        assert!(plan.contains("Index Only Scan using t_pkey"), "{plan}");
        assert!(
            plan.contains("Index Cond: ((t.id >= '22410166272'::bigint) AND (t.id <= "),
            "{plan}"
        );
    }
    // And with bounds that are parameters, as an application binds them.
    let rows = client
        .query(
            "SELECT count(*) FROM ranged.t WHERE id BETWEEN ranged.first_at($1::text::timestamptz) \
             AND ranged.last_at($2::text::timestamptz)",
            &[&"2010-11-04T01:43:00Z", &"2010-11-04T01:43:01Z"],
        )
        .await
        .unwrap();
    let count = rows[0].get::<_, i64>(0);
    assert_eq!(count, 1001, "the IDs of 1,001 ms, one each");
}

#[tokio::test]
#[ignore = "needs PostgreSQL: bash scripts/test.sh installs it"]
async fn the_file_loads_twice_and_into_another_schema() {
    let (_pg, client) = client("twice").await;
    let definitions = || async {
        client
            .query(
                "SELECT p.oid::regprocedure::text, pg_get_functiondef(p.oid) FROM pg_proc p \
                 JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'twice' ORDER BY 1",
                &[],
            )
            .await
            .unwrap()
            .iter()
            .map(|row| (row.get::<_, String>(0), row.get::<_, String>(1)))
            .collect::<Vec<_>>()
    };
    let before = definitions().await;
    assert!(before.len() >= 13, "{before:?}");
    client
        .batch_execute(&postgres_functions("twice").unwrap())
        .await
        .expect("loads again");
    assert_eq!(definitions().await, before);
    // The file as shipped, in `snowflake`, beside it: each schema answers alone.
    client.batch_execute(POSTGRES_FUNCTIONS).await.unwrap();
    client.batch_execute(POSTGRES_FUNCTIONS).await.unwrap();
    let row = client
        .query_one(
            "SELECT snowflake.unix_ms(1541815603606036480), twice.unix_ms(1541815603606036480)",
            &[],
        )
        .await
        .unwrap();
    assert_eq!(
        (row.get::<_, i64>(0), row.get::<_, i64>(1)),
        (1_656_432_460_105, 1_656_432_460_105)
    );
    // A role that owns its schema but may not create one in the database loads it again;
    // so does a schema whose name is a keyword.
    client
        .batch_execute(
            "CREATE ROLE migrator NOLOGIN; CREATE SCHEMA owned AUTHORIZATION migrator; \
             SET ROLE migrator",
        )
        .await
        .unwrap();
    for _ in 0..2 {
        client
            .batch_execute(&postgres_functions("owned").unwrap())
            .await
            .expect("the schema's owner loads it without CREATE on the database");
    }
    client.batch_execute("RESET ROLE").await.unwrap();
    client
        .batch_execute(&postgres_functions("user").unwrap())
        .await
        .unwrap();
    let row = client
        .query_one(
            "SELECT owned.machine(1541815603606036480), \"user\".machine(1541815603606036480)",
            &[],
        )
        .await
        .unwrap();
    assert_eq!((row.get::<_, i32>(0), row.get::<_, i32>(1)), (26, 26));
    // No function of one schema calls into the other.
    for (_, definition) in definitions().await {
        assert!(!definition.contains("snowflake."), "{definition}");
    }
}

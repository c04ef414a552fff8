//! Parse and check on `proc_macro2` tokens, outside the compiler.

use proc_macro2::TokenStream;
use proptest::prelude::*;
use snowflake_test_support::clock::StoppedClock;

use crate::check::check;
use crate::parse::{Invocation, Value};
use crate::ts::build_time_from;

fn tokens(args: &str) -> TokenStream {
    format!("[::snowflake_kit] {args}")
        .parse()
        .expect("test input lexes")
}

fn parse(args: &str) -> syn::Result<Invocation> {
    syn::parse2(tokens(args))
}

/// The ID, or every error message in order.
fn run(args: &str) -> Result<u64, Vec<String>> {
    let messages = |e: syn::Error| e.into_iter().map(|e| e.to_string()).collect::<Vec<_>>();
    let call = parse(args).map_err(messages)?;
    check(&call)
        .map(|checked| checked.id.as_u64())
        .map_err(messages)
}

fn one_error(args: &str) -> String {
    let errors = run(args).expect_err(args);
    assert_eq!(errors.len(), 1, "{errors:#?}");
    errors.into_iter().next().unwrap_or_default()
}

#[test]
fn parse_keeps_keys_and_literals_in_order() {
    let call = parse("seq = 0x1, ts = \"2022-06-28T16:07:40.105Z\", dc = -1, machine = X").unwrap();
    assert_eq!(call.krate.to_string(), ":: snowflake_kit");
    let keys: Vec<String> = call
        .args
        .iter()
        .map(|a| a.key.as_ref().unwrap().to_string())
        .collect();
    assert_eq!(keys, ["seq", "ts", "dc", "machine"]);
    assert!(call.args.iter().all(|a| a.slips.is_empty()));
    assert!(
        matches!(&call.args[0].value, Some(Value::Lit(syn::Lit::Int(lit))) if lit.base10_digits() == "1")
    );
    assert!(matches!(
        &call.args[1].value,
        Some(Value::Lit(syn::Lit::Str(_)))
    ));
    assert!(matches!(
        &call.args[2].value,
        Some(Value::Negative(_, syn::Lit::Int(_)))
    ));
    assert!(matches!(&call.args[3].value, Some(Value::Other(_))));
}

#[test]
fn parse_accepts_trailing_comma_and_nothing() {
    assert_eq!(parse("dc = 1, machine = 1,").unwrap().args.len(), 2);
    assert_eq!(parse("").unwrap().args.len(), 0);
}

#[test]
fn parse_requires_the_crate_path() {
    assert!(syn::parse2::<Invocation>("dc = 1".parse().unwrap()).is_err());
}

#[test]
fn syntax_slips_are_reported_with_everything_else() {
    let cases: &[(&str, &[&str])] = &[
        ("dc 1, machine = 1", &["expected `=` after `dc`"]),
        (
            "machine = 1, dc =",
            &["expected a value for `dc` after `=`"],
        ),
        (
            "dc = , machine = 1",
            &["expected a value for `dc` after `=`"],
        ),
        (
            "dc = 1 machine = 1",
            &["expected `,` after the value of `dc`"],
        ),
        (
            "1 = 2, dc = 1, machine = 1",
            &["expected an argument such as `dc = 1`, found `1 = 2`"],
        ),
        (
            ", dc = 1, machine = 1",
            &["expected an argument such as `dc = 1`"],
        ),
        (
            "dc = 1,, machine = 1",
            &["expected an argument such as `dc = 1`"],
        ),
        (
            "dc: 99, machine = 99",
            &[
                "expected `=` after `dc`, found `:`",
                "`dc`: datacenter 99 is out of range 0..=31 (5 bits)",
                "`machine`: machine 99 is out of range 0..=31 (5 bits)",
            ],
        ),
        (
            "dc = 99 machine = 99",
            &[
                "`dc`: datacenter 99 is out of range 0..=31 (5 bits)",
                "expected `,` after the value of `dc`",
                "`machine`: machine 99 is out of range 0..=31 (5 bits)",
            ],
        ),
        (
            "dc == 1, machine = 1",
            &["expected `=` after `dc`, found `==`"],
        ),
        (
            "dc => 1, machine = 1",
            &["expected `=` after `dc`, found `=>`"],
        ),
        (
            "dc = 1; machine = 1",
            &["expected `,` between arguments, found `;`"],
        ),
        (
            "dc = 1, machine",
            &["expected `=` and a value after `machine`"],
        ),
    ];
    for (args, messages) in cases {
        let errors = run(&format!("ts = 1288834975657, {args}")).unwrap_err();
        assert_eq!(&errors, messages, "{args}");
    }
}

#[test]
fn slips_point_at_the_operator_and_the_key() {
    assert_eq!(
        run("ts = 1288834975657, dc =-1, machine =1").unwrap_err(),
        ["`dc`: `-1` is negative; expected a whole number in 0..=31"]
    );
    let call = parse("dc == 1, machine").unwrap();
    assert_eq!(call.args[0].slips.len(), 1);
    let errors = crate::snowflake(tokens("ts = 1288834975657, dc == 1, machine")).to_string();
    assert_eq!(errors.matches("compile_error").count(), 2, "{errors}");
}

#[test]
fn raw_identifiers_are_the_keys_they_name() {
    assert_eq!(
        run("r#ts = 1288834975657, r#dc = 1, r#machine = 1, r#seq = 0"),
        Ok(4_194_439_168)
    );
    assert_eq!(
        run("r#ts = 1288834975657, dc = 1, machine = 1, r#dc = 2").unwrap_err(),
        ["duplicate argument `dc`"]
    );
}

#[test]
fn unknown_keys_suggest_the_nearest() {
    for (written, meant) in [
        ("mchine", "machine"),
        ("machin", "machine"),
        ("datacenter", "dc"),
        ("worker", "machine"),
        ("worker_id", "machine"),
        ("timestamp", "ts"),
        ("sequence", "seq"),
        ("Seq", "seq"),
        ("dcc", "dc"),
    ] {
        let errors = run(&format!(
            "ts = 1288834975657, dc = 1, machine = 1, {written} = 0"
        ))
        .unwrap_err();
        assert_eq!(
            errors,
            [format!(
                "unknown argument `{written}`, expected `ts`, `dc`, `machine`, `seq`, or `id` for a pasted ID; did you mean `{meant}`?"
            )],
            "{written}"
        );
    }
    // Too short to guess, or as near to one key as to another: no suggestion.
    for written in ["colour", "ID", "x", "m", "_"] {
        assert_eq!(
            run(&format!(
                "ts = 1288834975657, dc = 1, machine = 1, {written} = 0"
            ))
            .unwrap_err(),
            [format!(
                "unknown argument `{written}`, expected `ts`, `dc`, `machine`, `seq`, or `id` for a pasted ID"
            )],
            "{written}"
        );
    }
}

#[test]
fn known_answers() {
    assert_eq!(
        run("ts = 1288834975657, dc = 1, machine = 1, seq = 0"),
        Ok(4_194_439_168)
    );
    assert_eq!(
        run("ts = \"2022-06-28T16:07:40.105Z\", dc = 11, machine = 26"),
        Ok(1_541_815_603_606_036_480)
    );
}

#[test]
fn keys_in_any_order_and_seq_defaults_to_zero() {
    assert_eq!(
        run("machine = 1, seq = 0, dc = 1, ts = 1288834975657"),
        Ok(4_194_439_168)
    );
    assert_eq!(
        run("ts = 1288834975657, machine = 1, dc = 1"),
        Ok(4_194_439_168)
    );
}

#[test]
fn bases_separators_and_suffixes() {
    for args in [
        "ts = 0x12C_148D_07A9, dc = 0b1, machine = 0o1, seq = 0",
        "ts = 1_288_834_975_657u64, dc = 1u8, machine = 1u16, seq = 0u32",
        "ts = 1288834975657usize, dc = 1u128, machine = 1, seq = 0",
    ] {
        assert_eq!(run(args), Ok(4_194_439_168), "{args}");
    }
}

#[test]
fn out_of_range_messages() {
    let cases = [
        (
            "ts = 1288834975657, dc = 32, machine = 1",
            "`dc`: datacenter 32 is out of range 0..=31 (5 bits)",
        ),
        (
            "ts = 1288834975657, dc = 1, machine = 32",
            "`machine`: machine 32 is out of range 0..=31 (5 bits)",
        ),
        (
            "ts = 1288834975657, dc = 1, machine = 1, seq = 4096",
            "`seq`: sequence 4096 is out of range 0..=4095 (12 bits)",
        ),
        (
            "ts = 1288834975657, dc = 256u8, machine = 1",
            "`dc`: 256 does not fit in `u8`; expected a whole number in 0..=31",
        ),
        (
            "ts = 1288834975657, dc = 1, machine = 1, seq = 65536u16",
            "`seq`: 65536 does not fit in `u16`; expected a whole number in 0..=4095",
        ),
        (
            "ts = 1288834975657, dc = 1, machine = 1, seq = 4294967296u32",
            "`seq`: 4294967296 does not fit in `u32`; expected a whole number in 0..=4095",
        ),
        (
            "ts = 18446744073709551616, dc = 1, machine = 1",
            "`ts`: 18446744073709551616 does not fit in `u64`; expected Unix ms in 1288834974657..=3487858230208, or an RFC 3339 date from 2010-11-04T01:42:54.657Z to 2080-07-10T17:30:30.208Z",
        ),
        (
            "ts = 3487858230209, dc = 1, machine = 1",
            "`ts`: timestamp 3487858230209 ms is out of range 1288834974657..=3487858230208 ms: it is after the last one 41 bits hold (2080-07-10T17:30:30.208Z); 3487858230209 ms is 2080-07-10T17:30:30.209Z",
        ),
    ];
    for (args, message) in cases {
        assert_eq!(one_error(args), message, "{args}");
    }
}

#[test]
fn largest_values_pass() {
    assert_eq!(
        run("ts = 3487858230208, dc = 31u8, machine = 31, seq = 4095u16"),
        Ok(i64::MAX as u64)
    );
    assert_eq!(run("ts = 1288834974657, dc = 0, machine = 0"), Ok(0));
    assert_eq!(
        run("ts = 1288834975657, dc = 255u8, machine = 1").map_err(|e| e.len()),
        Err(1)
    );
}

#[test]
fn wrong_kinds_of_value() {
    let cases = [
        (
            "ts = 1288834975657, dc = 1.5, machine = 1",
            "`dc`: expected an integer literal in 0..=31, found a float `1.5`",
        ),
        (
            "ts = 1288834975657, dc = 1e3, machine = 1",
            "`dc`: expected an integer literal in 0..=31, found a float `1e3`",
        ),
        (
            "ts = 1288834975657, dc = 1f32, machine = 1",
            "`dc`: unexpected suffix `f32`; use none or an unsigned integer type such as `u64`",
        ),
        (
            "ts = 1288834975657, dc = 'a', machine = 1",
            "`dc`: expected an integer literal in 0..=31, found a character `'a'`",
        ),
        (
            "ts = 1288834975657, dc = b'a', machine = 1",
            "`dc`: expected an integer literal in 0..=31, found a byte `b'a'`",
        ),
        (
            "ts = 1288834975657, dc = c\"a\", machine = 1",
            "`dc`: expected an integer literal in 0..=31, found a C string `c\"a\"`",
        ),
        (
            "ts = 1288834975657, dc = \"1\", machine = 1",
            "`dc`: expected an integer literal in 0..=31, found a string `\"1\"`",
        ),
        (
            "ts = 1288834975657, dc = -1.5, machine = 1",
            "`dc`: `-1.5` is negative; expected a whole number in 0..=31",
        ),
        (
            "ts = 1288834975657, dc = -0, machine = 1",
            "`dc`: `-0` has a minus sign, which no field takes; expected a whole number in 0..=31",
        ),
        (
            "ts = 1288834975657, dc = 1i8, machine = 1",
            "`dc`: unexpected suffix `i8`; use none or an unsigned integer type such as `u64`",
        ),
        (
            "dc = 1, machine = 1, ts = -5",
            "`ts`: `-5` is negative; expected Unix ms in 1288834974657..=3487858230208, or an RFC 3339 date from 2010-11-04T01:42:54.657Z to 2080-07-10T17:30:30.208Z",
        ),
        (
            "dc = 1, machine = 1, ts = 'x'",
            "`ts`: expected an integer literal (Unix ms) in 1288834974657..=3487858230208, or an RFC 3339 string from \"2010-11-04T01:42:54.657Z\" to \"2080-07-10T17:30:30.208Z\", found a character `'x'`",
        ),
        (
            "ts = 1288834975657, dc = true, machine = 1",
            "`dc`: expected an integer literal in 0..=31, found a boolean `true`",
        ),
        (
            "ts = 1288834975657, dc = consts::DC, machine = 1",
            "`dc`: expected an integer literal in 0..=31, found `consts :: DC`; `snowflake!` takes literals, for run-time values call `snowflake_kit::compose`",
        ),
        (
            "ts = 1288834975657, dc = (1), machine = 1",
            "`dc`: expected an integer literal in 0..=31, found `(1)`; `snowflake!` takes literals, for run-time values call `snowflake_kit::compose`",
        ),
        (
            "ts = 1288834975657, dc = -, machine = 1",
            "`dc`: expected an integer literal in 0..=31, found `-`; `snowflake!` takes literals, for run-time values call `snowflake_kit::compose`",
        ),
        (
            "ts = 1288834975657, dc = false, machine = 1",
            "`dc`: expected an integer literal in 0..=31, found a boolean `false`",
        ),
        (
            "dc = 1, machine = 1, ts = -\"2022-06-28T16:07:40.105Z\"",
            "`ts`: expected an integer literal (Unix ms) in 1288834974657..=3487858230208, or an RFC 3339 string from \"2010-11-04T01:42:54.657Z\" to \"2080-07-10T17:30:30.208Z\", found `-\"2022-06-28T16:07:40.105Z\"` (a string with a minus sign)",
        ),
        (
            "dc = 1, machine = 1, ts = -\"a - b\"",
            "`ts`: expected an integer literal (Unix ms) in 1288834974657..=3487858230208, or an RFC 3339 string from \"2010-11-04T01:42:54.657Z\" to \"2080-07-10T17:30:30.208Z\", found `-\"a - b\"` (a string with a minus sign)",
        ),
        (
            "dc = 1, machine = 1, ts = now()",
            "`ts`: expected an integer literal (Unix ms) in 1288834974657..=3487858230208, or an RFC 3339 string from \"2010-11-04T01:42:54.657Z\" to \"2080-07-10T17:30:30.208Z\", found `now ()`; `snowflake!` takes literals, for run-time values call `snowflake_kit::compose`",
        ),
    ];
    for (args, message) in cases {
        assert_eq!(one_error(args), message, "{args}");
    }
}

#[test]
fn dates() {
    let cases = [
        (
            "\"2022-06-28T18:07:40.105+02:00\"",
            Ok(1_541_815_603_606_036_480),
        ),
        (
            "\"2022-06-28T16:07:40.105000Z\"",
            Ok(1_541_815_603_606_036_480),
        ),
        ("\"2010-11-04T01:42:54.657Z\"", Ok(11 << 17 | 26 << 12)),
    ];
    for (ts, expected) in cases {
        assert_eq!(
            run(&format!("ts = {ts}, dc = 11, machine = 26")),
            expected,
            "{ts}"
        );
    }
}

#[test]
fn date_errors() {
    let example = "expected Unix ms or a date such as \"2022-06-28T16:07:40.105Z\"";
    let cases = [
        (
            "\"2022-06-28T16:07:40.1051Z\"",
            "`ts`: \"2022-06-28T16:07:40.1051Z\": finer than a millisecond: snowflake timestamps are whole milliseconds, so fraction digits past the third must be 0".to_owned(),
        ),
        (
            "\"2022-06-28T16:07:40.1050000001Z\"",
            "`ts`: \"2022-06-28T16:07:40.1050000001Z\": finer than a millisecond: snowflake timestamps are whole milliseconds, so fraction digits past the third must be 0".to_owned(),
        ),
        (
            "\"2022-06-28716:07:40.105Z\"",
            format!("`ts`: \"2022-06-28716:07:40.105Z\" is not an RFC 3339 date: expected `T` between the date and the time at byte 10, found `7`; {example}"),
        ),
        (
            "\"2016-12-31T23:59:60Z\"",
            "`ts`: \"2016-12-31T23:59:60Z\": second 60 is a leap second, which Unix time and snowflake timestamps do not have".to_owned(),
        ),
        (
            "\"2022-06-28\"",
            format!("`ts`: \"2022-06-28\" is not an RFC 3339 date: expected `T` between the date and the time at byte 10, found the end of the text; {example}"),
        ),
        (
            "\"yesterday\"",
            format!("`ts`: \"yesterday\" is not an RFC 3339 date: expected a four-digit year at byte 0, found `y`; {example}"),
        ),
        (
            "\"2022-06-28T16:07:40Z\"x",
            "`ts`: unexpected suffix `x` on the date".to_owned(),
        ),
        (
            "\"2010-11-04T01:42:54.656Z\"",
            "`ts`: timestamp 1288834974656 ms is out of range 1288834974657..=3487858230208 ms: it is before the Twitter epoch (2010-11-04T01:42:54.657Z); \"2010-11-04T01:42:54.656Z\" is 1288834974656 ms".to_owned(),
        ),
        (
            "\"1969-12-31T23:59:59.999Z\"",
            "`ts`: \"1969-12-31T23:59:59.999Z\" is before 1970, and so before the Twitter epoch (2010-11-04T01:42:54.657Z); expected Unix ms in 1288834974657..=3487858230208, or an RFC 3339 date from 2010-11-04T01:42:54.657Z to 2080-07-10T17:30:30.208Z".to_owned(),
        ),
    ];
    for (ts, message) in cases {
        assert_eq!(
            one_error(&format!("ts = {ts}, dc = 1, machine = 1")),
            message,
            "{ts}"
        );
    }
}

#[test]
fn key_errors_are_all_reported_in_order() {
    let errors = run("dcc = 1, seq = 1, seq = 2, ts = 1288834975657, ts = 1").unwrap_err();
    assert_eq!(
        errors,
        [
            "unknown argument `dcc`, expected `ts`, `dc`, `machine`, `seq`, or `id` for a pasted ID; did you mean `dc`?",
            "duplicate argument `seq`",
            "duplicate argument `ts`",
            "`ts`: timestamp 1 ms is out of range 1288834974657..=3487858230208 ms: it is before the Twitter epoch (2010-11-04T01:42:54.657Z); 1 ms is 1970-01-01T00:00:00.001Z",
            "missing argument `dc`",
            "missing argument `machine`",
        ]
    );
}

#[test]
fn value_errors_are_all_reported_in_order() {
    let errors = run("ts = 5, dc = 32, machine = 40, seq = -1").unwrap_err();
    assert_eq!(errors.len(), 4, "{errors:#?}");
    assert!(errors[0].starts_with("`ts`: timestamp 5 ms is out of range"));
    assert!(errors[1].starts_with("`dc`: datacenter 32"));
    assert!(errors[2].starts_with("`machine`: machine 40"));
    assert!(errors[3].starts_with("`seq`: `-1` is negative"));
}

#[test]
fn build_time_from_source_date_epoch() {
    let now = StoppedClock(1_700_000_000_000);
    assert_eq!(
        build_time_from(Some("1656432460"), &now),
        Ok(1_656_432_460_000)
    );
    assert_eq!(
        build_time_from(Some(" 1656432460\n"), &now),
        Ok(1_656_432_460_000)
    );
    assert_eq!(
        build_time_from(Some("1656432460.5"), &now),
        Err("`ts` left out and `SOURCE_DATE_EPOCH` is \"1656432460.5\", not whole seconds since 1970".to_owned())
    );
    // Not whole seconds: a sign, and seconds whose milliseconds overflow `u64`.
    for text in ["-1", "18446744073709551615"] {
        assert_eq!(
            build_time_from(Some(text), &now),
            Err(format!(
                "`ts` left out and `SOURCE_DATE_EPOCH` is \"{text}\", not whole seconds since 1970"
            ))
        );
    }
    assert_eq!(
        build_time_from(Some("1000"), &now),
        Err("`ts` left out, so the build time (1970-01-01T00:16:40.000Z): timestamp 1000000 ms is out of range \
             1288834974657..=3487858230208 ms: it is before the Twitter epoch (2010-11-04T01:42:54.657Z)"
            .to_owned())
    );
}

#[test]
fn build_time_from_clock() {
    assert_eq!(
        build_time_from(None, &StoppedClock(1_656_432_460_105)),
        Ok(1_656_432_460_105)
    );
    // A clock before 1970 reads as 0: the build time is 1970's first millisecond, before
    // the Twitter epoch, and the error says so.
    assert_eq!(
        build_time_from(None, &StoppedClock(0)),
        Err("`ts` left out, so the build time (1970-01-01T00:00:00.000Z): timestamp 0 ms is out of range \
             1288834974657..=3487858230208 ms: it is before the Twitter epoch (2010-11-04T01:42:54.657Z)"
            .to_owned())
    );
}

#[test]
fn an_omitted_ts_makes_cargo_track_source_date_epoch() {
    let out = crate::snowflake(tokens("dc = 1, machine = 1")).to_string();
    assert!(
        out.contains(":: core :: option_env ! (\"SOURCE_DATE_EPOCH\")"),
        "{out}"
    );
    let out = crate::snowflake(tokens("ts = 1288834975657, dc = 1, machine = 1")).to_string();
    assert!(!out.contains("option_env"), "{out}");
}

#[test]
fn expansion_names_the_given_crate_path() {
    let out = crate::snowflake(tokens("ts = 1288834975657, dc = 1, machine = 1")).to_string();
    assert_eq!(
        out,
        ":: snowflake_kit :: __private :: baked (4194439168u64 , \
         \"0 00000000000000000000000000000001111101000 00001 00001 000000000000\")"
    );
}

#[test]
fn errors_expand_to_one_block_of_compile_errors() {
    let out = crate::snowflake(tokens("dc = 32, machine = 40")).to_string();
    assert!(out.starts_with("{ :: core :: compile_error ! {"), "{out}");
    assert_eq!(out.matches("compile_error").count(), 2, "{out}");
}

#[test]
fn errors_end_in_a_value_of_the_calls_type() {
    // After the errors, a `BakedSnowflake`: `.id` after a bad call raises nothing more in
    // rust-analyzer, which types a block of errors alone as `()`.
    let placeholder = ":: snowflake_kit :: __private :: baked (0 , \"\") }";
    for call in [
        "dc = 32, machine = 40",
        "dc: 1, machine = 1",
        "worker = 1",
        "",
    ] {
        let out = crate::snowflake(tokens(call)).to_string();
        assert!(
            out.starts_with("{ :: core :: compile_error ! {"),
            "{call}: {out}"
        );
        assert!(out.ends_with(placeholder), "{call}: {out}");
    }
    // Without the facade's path there is no type to name: the errors alone.
    let out = crate::snowflake("dc = 32, machine = 1".parse().unwrap()).to_string();
    assert!(
        out.contains("compile_error") && !out.contains("baked"),
        "{out}"
    );
}

/// Pieces from which random invocations are built: valid and invalid, balanced or not.
/// Values a call may give: in range and out, in the plain form and not.
const NEAR_VALUES: &[&str] = &[
    "0",
    "1",
    "007",
    "31",
    "32",
    "4095",
    "4096",
    "1_0",
    "1__0",
    "1_",
    "1288834974657",
    "1288834974656",
    "1_288_834_975_657",
    "3487858230208",
    "3487858230209",
    "99999999999999999999999999",
    "0x1F",
    "1u8",
    "1u64",
    "-1",
    "1.5",
    "\"2022-06-28T16:07:40.105Z\"",
    "\"2022-06-28t16:07:40.105z\"",
    "\" 2022-06-28T16:07:40.105Z\"",
    "\"1656432460105\"",
    "\"2022-02-30T00:00:00Z\"",
    "\"2022-06-28T16:07:40.105\\u{5a}\"",
    "r\"2022-06-28T16:07:40.105Z\"",
    "\"2022-06-28T16:07:40.105Z\"x",
    "\"x\"",
    "'c'",
    "true",
    "X",
];

const FRAGMENTS: &[&str] = &[
    "id",
    "near_epoch",
    "\"1ASD13XH1F800\"",
    "\"user_1ASD13XH1F800\"",
    "\"_\"",
    "1541815603606036480",
    "ts",
    "dc",
    "machine",
    "seq",
    "node",
    "=",
    ",",
    "-",
    "+",
    "0",
    "1",
    "31",
    "32",
    "4095",
    "4096",
    "1288834975657",
    "99999999999999999999999999",
    "0x1F",
    "1u8",
    "300u8",
    "1i32",
    "1.5",
    "1e9",
    "\"2022-06-28T16:07:40.105Z\"",
    "\"2022-02-30T00:00:00Z\"",
    "\"x\"",
    "'c'",
    "b\"b\"",
    "true",
    "X",
    "::",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ";",
    "#",
    "$",
    "@",
    "'a",
    "r#type",
    "type",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3_000))]

    /// Whatever it is given, the macro returns tokens (an expansion or errors), never panics.
    #[test]
    fn never_panics(pieces in prop::collection::vec(prop::sample::select(FRAGMENTS), 0..24)) {
        let text = pieces.join(" ");
        if let Ok(args) = text.parse::<TokenStream>() {
            let out = crate::snowflake(quote::quote!([::snowflake_kit] #args));
            prop_assert!(!out.is_empty());
        }
        // Without the leading path, too.
        if let Ok(raw) = text.parse::<TokenStream>() {
            let out = crate::snowflake(raw);
            prop_assert!(!out.is_empty());
        }
    }

    /// Whatever the plain path expands, it expands as the full reader does, token for
    /// token; whatever the full reader refuses, the plain path leaves to it. Over valid
    /// calls with up to three changes each: a key, an operator, a value or a separator
    /// replaced, an argument repeated or dropped.
    #[test]
    fn the_plain_path_agrees_with_the_full_reader(
        seq in any::<bool>(),
        changes in prop::collection::vec((0..4_usize, 0..6_u8, any::<prop::sample::Index>()), 0..4),
    ) {
        const KEYS: &[&str] = &["ts", "dc", "machine", "seq", "r#ts", "node", "Dc"];
        const OPERATORS: &[&str] = &["=", "==", ":", "=>"];
        const SEPARATORS: &[&str] = &[",", ";", ""];
        let mut args: Vec<[&str; 4]> = vec![
            ["ts", "=", "\"2022-06-28T16:07:40.105Z\"", ","],
            ["dc", "=", "31", ","],
            ["machine", "=", "1_0", ","],
        ];
        if seq {
            args.push(["seq", "=", "4095", ","]);
        }
        for (at, change, pick) in changes {
            let at = at % args.len().max(1);
            match (change, args.is_empty()) {
                (_, true) => break,
                (0, _) => args[at][0] = *pick.get(KEYS),
                (1, _) => args[at][1] = *pick.get(OPERATORS),
                (2, _) => args[at][2] = *pick.get(NEAR_VALUES),
                (3, _) => args[at][3] = *pick.get(SEPARATORS),
                (4, _) => args.push(args[at]),
                _ => drop(args.remove(at)),
            }
        }
        let text = args.iter().map(|arg| arg.join(" ")).collect::<Vec<_>>().join(" ");
        if let Ok(args) = text.parse::<TokenStream>() {
            let input = quote::quote!([::snowflake_kit] #args);
            if let Some(fast) = crate::fast::fallback::expand(&input) {
                prop_assert_eq!(fast.to_string(), crate::full(input).to_string(), "{}", text);
            }
        }
    }

    /// Every valid call in the plain form takes the plain path, to the full reader's
    /// expansion: numbers with and without `_`, dates, any order, `seq` or not, a
    /// trailing comma or not.
    #[test]
    fn valid_plain_calls_take_the_plain_path(
        ts in snowflake_runtime::layout::TWITTER_EPOCH_MS..=snowflake_runtime::layout::MAX_TIMESTAMP_MS,
        dc in 0..=31_u64,
        machine in 0..=31_u64,
        seq in prop::option::of(0..=4095_u64),
        date in any::<bool>(),
        grouped in any::<bool>(),
        reversed in any::<bool>(),
        trailing in any::<bool>(),
    ) {
        let ts_text = if date {
            format!("{:?}", snowflake_runtime::rfc3339::Rfc3339::new(ts).unwrap().to_string())
        } else if grouped {
            format!("{}_{:03}", ts / 1000, ts % 1000)
        } else {
            ts.to_string()
        };
        let mut args = vec![format!("ts = {ts_text}"), format!("dc = {dc}"), format!("machine = {machine}")];
        if let Some(seq) = seq {
            args.push(format!("seq = {seq}"));
        }
        if reversed {
            args.reverse();
        }
        let mut text = args.join(", ");
        if trailing {
            text.push(',');
        }
        let input = tokens(&text);
        let fast = crate::fast::fallback::expand(&input);
        prop_assert!(fast.is_some(), "{}", text);
        prop_assert_eq!(fast.unwrap().to_string(), crate::full(input).to_string());
        let expected = snowflake_runtime::compose(ts, dc, machine, seq.unwrap_or(0)).unwrap().as_u64();
        prop_assert_eq!(run(&text), Ok(expected));
    }

    /// Any valid combination expands, to the ID that `compose` gives.
    #[test]
    fn agrees_with_compose(
        ts in snowflake_runtime::layout::TWITTER_EPOCH_MS..=snowflake_runtime::layout::MAX_TIMESTAMP_MS,
        dc in 0..=31_u64,
        machine in 0..=31_u64,
        seq in 0..=4095_u64,
    ) {
        let expected = snowflake_runtime::compose(ts, dc, machine, seq).unwrap().as_u64();
        prop_assert_eq!(run(&format!("ts = {ts}, dc = {dc}, machine = {machine}, seq = {seq}")), Ok(expected));
        prop_assert_eq!(run(&format!("seq = {seq:#x}, machine = {machine:#b}, dc = {dc:#o}, ts = {ts}u64")), Ok(expected));
    }
}

// A pasted ID: `id = ...`.

/// The tweet of the seed's page: 2022-06-28T16:07:40.105Z, datacenter 11, machine 26.
const TWEET: u64 = 1_541_815_603_606_036_480;

#[test]
fn a_pasted_id_reads_as_the_runtime_reads_it() {
    for args in [
        format!("id = {TWEET}"),
        format!("id = {TWEET}u64"),
        format!("id = {TWEET}i64"),
        "id = 1_541_815_603_606_036_480".to_owned(),
        format!("id = {TWEET:#x}"),
        "id = \"1ASD13XH1F800\"".to_owned(),
        "id = \"1asd13xh1f8oo\"".to_owned(),
        "id = \"user_1ASD13XH1F800\"".to_owned(),
        "id = \"order_item_1ASD13XH1F800\"".to_owned(),
        format!("id = {TWEET}, ts = \"2022-06-28T16:07:40.105Z\", dc = 11, machine = 26, seq = 0"),
        format!("machine = 26, id = {TWEET}, ts = 1656432460105"),
    ] {
        assert_eq!(run(&args), Ok(TWEET), "{args}");
    }
    assert_eq!(run("id = 4194439168, near_epoch"), Ok(4_194_439_168));
    assert_eq!(
        run("id = \"0000003X04400\", near_epoch,"),
        Ok(4_194_439_168)
    );
    assert_eq!(run("id = 9223372036854775807"), Ok(i64::MAX as u64));
    assert_eq!(run("id = \"7ZZZZZZZZZZZZ\""), Ok(i64::MAX as u64));
}

#[test]
fn a_pasted_id_that_is_no_id_is_refused_in_the_runtimes_words() {
    let range = "an ID is in 0..=9223372036854775807";
    let cases: &[(&str, &str)] = &[
        (
            "id = 9223372036854775808",
            "`id`: number too large: an ID is at most 9223372036854775807",
        ),
        (
            "id = 99999999999999999999999",
            "`id`: number too large: an ID is at most 9223372036854775807",
        ),
        (
            "id = -5",
            "`id`: -5 is out of range: an ID is in 0..=9223372036854775807",
        ),
        (
            "id = -0",
            "`id`: -0 has a minus sign: an ID is in 0..=9223372036854775807",
        ),
        (
            "id = -99999999999999999999",
            "`id`: -99999999999999999999 is out of range",
        ),
        (
            "id = 1541815603606036480u32",
            "`id`: unexpected suffix `u32`; write an ID with none, `u64` or `i64`",
        ),
        (
            "id = 1.5e18",
            "`id`: expected an ID: an integer literal in 0..=9223372036854775807, or a string of base32 (13 characters, after a kind's prefix and `_` if any), found a float `1.5e18`",
        ),
        (
            "id = true",
            "`id`: expected an ID: an integer literal in 0..=9223372036854775807, or a string of base32 (13 characters, after a kind's prefix and `_` if any), found a boolean `true`",
        ),
        (
            "id = TWEET",
            "`id`: expected an ID: an integer literal in 0..=9223372036854775807, or a string of base32 (13 characters, after a kind's prefix and `_` if any), found `TWEET`; `snowflake!` takes literals",
        ),
        (
            "id = \"8000000000000\"",
            "`id`: first digit `8` too large: an ID in base32 is at most 7ZZZZZZZZZZZZ, its first digit 0-7",
        ),
        (
            "id = \"1ASD13XH1F80U\"",
            "`id`: invalid character `U` at byte 12: base32 is 0-9 and A-Z without U",
        ),
        (
            "id = \"1ASD13XH1F8\"",
            "`id`: 11 characters: an ID in base32 is 13",
        ),
        (
            "id = \"1541815603606036480\"",
            "`id`: 19 characters: an ID in base32 is 13; a decimal ID is written without quotes: `id = 1541815603606036480`",
        ),
        (
            "id = \"User_1ASD13XH1F800\"",
            "`id`: the prefix \"User\" starts with `U`",
        ),
        ("id = \"_1ASD13XH1F800\"", "`id`: an empty prefix"),
        (
            "id = \"user_1ASD13XH1F80U\"",
            "`id`: invalid character `U` at byte 17",
        ),
        ("id = \"x\"s", "`id`: unexpected suffix `s` on the text"),
    ];
    for (args, expected) in cases {
        let message = one_error(args);
        assert!(message.starts_with(expected), "{args}: {message}");
        if message.contains("out of range") {
            assert!(message.contains(range), "{args}: {message}");
        }
    }
}

#[test]
fn stated_fields_are_held_to_the_pasted_id() {
    assert_eq!(
        run(&format!("id = {TWEET}, ts = \"2022-06-28T16:07:40.106Z\", dc = 12, machine = 25, seq = 1")),
        Err(vec![
            "`ts`: the ID's time is 2022-06-28T16:07:40.105Z (1656432460105), not 2022-06-28T16:07:40.106Z (1656432460106)".to_owned(),
            "`dc`: the ID's datacenter is 11, not 12".to_owned(),
            "`machine`: the ID's machine is 26, not 25".to_owned(),
            "`seq`: the ID's sequence is 0, not 1".to_owned(),
        ])
    );
    // A stated field out of its range says so, as in a composed call.
    assert!(
        one_error(&format!("id = {TWEET}, dc = 32"))
            .starts_with("`dc`: datacenter 32 is out of range")
    );
    // Each under its value: the trybuild case `pasted_fields_disagree`.
}

#[test]
fn an_id_near_the_epoch_is_pasted_only_when_said() {
    let near = one_error("id = 20");
    assert!(
        near.starts_with("`id`: 20 is within a day of the epoch (2010-11-04T01:42:54.657Z)"),
        "{near}"
    );
    assert!(near.ends_with("say so: `near_epoch`"), "{near}");
    // The last millisecond of the first day, and the first after it.
    let last_near = ((86_400_000_u64 << 22) - 1).to_string();
    assert!(one_error(&format!("id = {last_near}")).contains("within a day of the epoch"));
    assert_eq!(
        run(&format!("id = {last_near}, near_epoch")),
        Ok((86_400_000 << 22) - 1)
    );
    assert_eq!(
        run(&format!("id = {}", 86_400_000_u64 << 22)),
        Ok(86_400_000 << 22)
    );
    assert_eq!(
        one_error(&format!("id = {TWEET}, near_epoch")),
        "`near_epoch`: the ID is not within a day of the epoch (2022-06-28T16:07:40.105Z); leave it out"
    );
    assert_eq!(
        one_error("near_epoch, ts = 1288834975657, dc = 1, machine = 1"),
        "`near_epoch`: goes with a pasted ID, `id = ...`; a composed ID's time is the one stated"
    );
    assert_eq!(
        one_error(&format!("id = {TWEET}, near_epoch = true")),
        "`near_epoch`: is a word alone: `near_epoch`, without `=` and a value"
    );
    assert_eq!(
        one_error(&format!("id = {TWEET}, id = {TWEET}")),
        "duplicate argument `id`"
    );
}

#[test]
fn a_typed_paste_keeps_its_prefix_for_typed() {
    let expanded = crate::snowflake(tokens("id = \"user_1ASD13XH1F800\"")).to_string();
    assert!(expanded.contains("baked_with_prefix"), "{expanded}");
    assert!(expanded.contains("\"user\""), "{expanded}");
    let plain = crate::snowflake(tokens("id = \"1ASD13XH1F800\"")).to_string();
    assert!(!plain.contains("prefix"), "{plain}");
}

/// The vectors of `tests/vectors`, pasted: each base32 row's decimal and its base32 bake the
/// same ID (with `near_epoch` where the ID is near the epoch, and refused without it); each
/// tweet from before Snowflake is near the epoch, and refused without the word.
#[test]
fn the_vectors_bake_as_their_rows_say() {
    let rows = include_str!("../../tests/vectors/base32.txt").lines();
    let mut baked = 0;
    for line in rows.filter(|line| !line.starts_with('#')) {
        let mut words = line.split(' ');
        let (Some(decimal), Some(base32)) = (words.next(), words.next()) else {
            continue;
        };
        let id: u64 = decimal.parse().unwrap();
        let near = snowflake_runtime::Snowflake::try_from_u64(id)
            .unwrap()
            .is_near_epoch();
        let flag = if near { ", near_epoch" } else { "" };
        assert_eq!(run(&format!("id = {decimal}{flag}")), Ok(id), "{line}");
        assert_eq!(run(&format!("id = \"{base32}\"{flag}")), Ok(id), "{line}");
        if near {
            assert!(one_error(&format!("id = {decimal}")).contains("within a day of the epoch"));
        }
        baked += 1;
    }
    assert!(baked > 15, "{baked} rows");
    let tweets = include_str!("../../tests/vectors/pre-snowflake-tweets.txt").lines();
    let mut pasted = 0;
    for line in tweets.filter(|line| !line.starts_with('#')) {
        let Some(id) = line.split(' ').next() else {
            continue;
        };
        assert!(
            one_error(&format!("id = {id}")).contains("within a day of the epoch"),
            "{line}"
        );
        assert_eq!(
            run(&format!("id = {id}, near_epoch")),
            Ok(id.parse().unwrap()),
            "{line}"
        );
        pasted += 1;
    }
    assert!(pasted >= 3, "{pasted} tweets");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    /// Every ID pasted, in decimal or base32, with its fields stated or not, expands to the
    /// ID `Snowflake::try_from_u64` gives, on the plain path where it is plain; every field
    /// stated otherwise is refused.
    #[test]
    fn a_pasted_id_is_try_from_u64s(
        id in 0..=i64::MAX as u64,
        base32 in any::<bool>(),
        state in any::<bool>(),
        off in prop::option::of(0..4_usize),
    ) {
        let snowflake = snowflake_runtime::Snowflake::try_from_u64(id).unwrap();
        let near = snowflake.is_near_epoch();
        let mut text = if base32 {
            format!("id = \"{}\"", snowflake.to_base32())
        } else {
            format!("id = {id}")
        };
        if near {
            text.push_str(", near_epoch");
        }
        let parts = snowflake.parts();
        let mut held = [parts.timestamp_ms, u64::from(parts.datacenter), u64::from(parts.machine), u64::from(parts.sequence)];
        let keys = ["ts", "dc", "machine", "seq"];
        if let Some(off) = off {
            // Another value in the field's range.
            let max = [snowflake_runtime::layout::MAX_TIMESTAMP_MS, 31, 31, 4095][off];
            let min = [snowflake_runtime::layout::TWITTER_EPOCH_MS, 0, 0, 0][off];
            held[off] = if held[off] < max { held[off] + 1 } else { min };
        }
        if state || off.is_some() {
            for (key, value) in keys.iter().zip(held) {
                text = format!("{text}, {key} = {value}");
            }
        }
        let input = tokens(&text);
        if off.is_some() {
            let errors = run(&text).unwrap_err();
            prop_assert_eq!(errors.len(), 1, "{}: {:?}", text, errors);
            prop_assert!(crate::fast::fallback::expand(&input).is_none());
        } else {
            prop_assert_eq!(run(&text), Ok(id), "{}", text);
            if !near {
                let fast = crate::fast::fallback::expand(&input);
                prop_assert!(fast.is_some(), "{}", text);
                prop_assert_eq!(fast.unwrap().to_string(), crate::full(input).to_string());
            }
        }
    }
}

//! Base32 in the command: the known answers every front end shares
//! (`tests/vectors/base32.txt`), read by `decode` and written by every command, and the note
//! on IDs that may be no Snowflake, for real tweets from before 2010.

mod support;

use support::{SEED_ARGS, bad, field, ok, ok_with_stdin};

/// The shared known answers: `(decimal, base32)`.
fn known_answers() -> Vec<(String, String)> {
    include_str!("../../tests/vectors/base32.txt")
        .lines()
        .filter(|line| !line.starts_with('#'))
        .map(|line| {
            let mut words = line.split(' ');
            (
                words.next().unwrap().to_owned(),
                words.next().unwrap().to_owned(),
            )
        })
        .collect()
}

#[test]
fn decode_reads_and_writes_the_known_answers() {
    let answers = known_answers();
    let lines = |line: &dyn Fn(&(String, String)) -> String| -> String {
        answers.iter().map(|answer| line(answer) + "\n").collect()
    };
    let decimals = lines(&|(id, _)| id.clone());
    let base32s = lines(&|(_, text)| text.clone());
    let lower = base32s.to_lowercase();
    let typed = lines(&|(_, text)| format!("user_{text}"));
    let rows = ok_with_stdin(&["decode"], &decimals);
    for input in [&base32s, &lower, &typed] {
        assert_eq!(ok_with_stdin(&["decode"], input), rows, "{input}");
    }
    let rows_in_base32 = ok_with_stdin(&["decode", "--base32"], &decimals);
    let json = ok_with_stdin(&["decode", "--json"], &base32s);
    for (((id, text), row), (line, json)) in answers
        .iter()
        .zip(rows.lines())
        .zip(rows_in_base32.lines().zip(json.lines()))
    {
        assert_eq!(row.split('\t').next(), Some(id.as_str()));
        assert_eq!(line.split('\t').next(), Some(text.as_str()));
        assert!(line.split('\t').skip(1).eq(row.split('\t').skip(1)));
        assert_eq!(field(json, "id"), id.as_str());
        assert_eq!(field(json, "base32"), text.as_str());
    }
}

#[test]
fn compose_and_generate_write_base32() {
    let seed = SEED_ARGS;
    assert_eq!(ok(&[&seed[..], &["--base32"]].concat()), "0000003X04400\n");
    assert!(ok(&seed).contains("\nbase32     0000003X04400\n"));
    let ids = ok(&[
        "generate",
        "--dc",
        "1",
        "--machine",
        "2",
        "-n",
        "5000",
        "--base32",
    ]);
    let ids: Vec<&str> = ids.lines().collect();
    assert_eq!(ids.len(), 5000);
    // 13 characters, in issue order as text.
    assert!(ids.iter().all(|id| id.len() == 13), "{ids:?}");
    assert!(ids.windows(2).all(|w| w[0] < w[1]));
    let rows = ok_with_stdin(&["decode", "--layout", "row"], &ids.join("\n"));
    let decimal: String = rows
        .lines()
        .map(|row| &row[..row.find('\t').unwrap()])
        .collect::<Vec<_>>()
        .join("\n");
    let again = ok_with_stdin(&["decode", "--base32", "--layout", "row"], &decimal);
    assert_eq!(
        again,
        ok_with_stdin(&["decode", "--base32"], &ids.join("\n"))
    );
    assert_eq!(again.lines().map(|row| &row[..13]).collect::<Vec<_>>(), ids);
}

#[test]
fn base32_errors_name_the_character_and_its_place() {
    for (arg, message) in [
        (
            "000000000000U",
            "invalid character `U` at byte 12: base32 is 0-9 and A-Z without U",
        ),
        (
            "user_000000000000U",
            "invalid character `U` at byte 17: base32 is 0-9 and A-Z without U",
        ),
        ("user_00000000000", "11 characters: an ID in base32 is 13"),
        (
            "Z000000000000",
            "first digit `Z` too large: an ID in base32 is at most 7ZZZZZZZZZZZZ, its first digit 0-7",
        ),
        // 14 characters are decimal.
        (
            "0000000000001X",
            "invalid character `X` at byte 13: an ID is decimal digits only",
        ),
    ] {
        assert_eq!(
            bad(&["decode", arg], ""),
            format!("error: argument 1: invalid ID {arg:?}: {message}"),
        );
    }
    // 13 characters are base32, digits or not; a decimal ID of 13 digits takes a zero.
    assert_eq!(ok(&["decode", "0000000000033"]), ok(&["decode", "99"]));
    assert_eq!(ok(&["decode", "00000000000033"]), ok(&["decode", "33"]));
    assert_eq!(
        bad(&["decode", "--json", "--base32", "1"], ""),
        "error: the argument '--json' cannot be used with '--base32'"
    );
}

#[test]
fn ids_from_before_snowflake_are_decoded_with_a_note() {
    let tweets = include_str!("../../tests/vectors/pre-snowflake-tweets.txt");
    let ids: Vec<&str> = tweets
        .lines()
        .filter(|line| !line.starts_with('#'))
        .map(|line| line.split(' ').next().unwrap())
        .collect();
    assert_eq!(ids.len(), 4);
    for id in &ids {
        let card = ok(&["decode", "--layout", "card", id]);
        assert!(
            card.contains("\nnote       within a day of the epoch: maybe no Snowflake"),
            "{card}"
        );
        assert_eq!(field(&ok(&["decode", "--json", id]), "near_epoch"), "true");
    }
    // A day after the epoch, and a tweet of 2022: no note.
    let day = (86_400_000_u64 << 22).to_string();
    for id in [day.as_str(), "1541815603606036480"] {
        assert!(!ok(&["decode", "--layout", "card", id]).contains("\nnote "));
        assert_eq!(field(&ok(&["decode", "--json", id]), "near_epoch"), "false");
    }
    let last_day = (86_400_000_u64 << 22) - 1;
    assert_eq!(
        field(
            &ok(&["decode", "--json", &last_day.to_string()]),
            "near_epoch"
        ),
        "true"
    );
    // What the note is for: the card composes what was typed, not a note.
    assert!(!ok(&SEED_ARGS).contains("note"));
}

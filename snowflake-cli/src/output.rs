//! How an ID is shown: a labelled table of its segments, or a JSON object.

use std::io::{self, Write};

use anstyle::{AnsiColor, Style};
use serde::Serialize;
use sf::Snowflake;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

/// Human or JSON.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Format {
    Human,
    Json,
}

/// One ID as `--json` writes it. The ID is a string: JSON numbers above 2^53 lose
/// precision in JavaScript and in jq.
#[derive(Serialize)]
struct Json {
    id: String,
    timestamp_ms: u64,
    time: String,
    datacenter: u8,
    machine: u8,
    sequence: u16,
    binary: String,
}

/// Writes `id`; `with_macro` adds the `snowflake!` call that bakes it.
pub(crate) fn write(
    out: &mut impl Write,
    id: Snowflake,
    format: Format,
    with_macro: bool,
) -> io::Result<()> {
    let p = id.parts();
    let time = rfc3339(p.timestamp_ms);
    if format == Format::Json {
        let json = Json {
            id: id.to_string(),
            timestamp_ms: p.timestamp_ms,
            time,
            datacenter: p.datacenter,
            machine: p.machine,
            sequence: p.sequence,
            binary: id.segmented_binary().to_string(),
        };
        serde_json::to_writer(&mut *out, &json)?;
        return writeln!(out);
    }
    let bold = Style::new().bold();
    writeln!(out, "{bold}id{bold:#}         {bold}{id}{bold:#}")?;
    writeln!(
        out,
        "{bold}time{bold:#}       {time} ({} ms)",
        p.timestamp_ms
    )?;
    if with_macro {
        writeln!(
            out,
            "{bold}macro{bold:#}      snowflake!(ts = \"{time}\", dc = {}, machine = {}, seq = {})",
            p.datacenter, p.machine, p.sequence
        )?;
    }
    writeln!(out)?;
    segments(out, id)
}

/// The 64 bits in five labelled columns, the field values under them.
fn segments(out: &mut impl Write, id: Snowflake) -> io::Result<()> {
    let p = id.parts();
    let bits = id.segmented_binary().to_string();
    let mut fields = [""; 5];
    for (field, text) in fields.iter_mut().zip(bits.split(' ')) {
        *field = text;
    }
    let values = [
        "0".to_owned(),
        (p.timestamp_ms - sf::TWITTER_EPOCH_MS).to_string(),
        p.datacenter.to_string(),
        p.machine.to_string(),
        p.sequence.to_string(),
    ];
    let labels = [
        "sign",
        "timestamp (ms since the Twitter epoch)",
        "datacenter",
        "machine",
        "sequence",
    ];
    let colours = [
        AnsiColor::BrightBlack,
        AnsiColor::Cyan,
        AnsiColor::Yellow,
        AnsiColor::Magenta,
        AnsiColor::Green,
    ];
    for (row, cells) in [
        ("", labels.map(str::to_owned)),
        ("bits", fields.map(str::to_owned)),
        ("value", values),
    ] {
        write!(out, "{row:<6}")?;
        let last = cells.len() - 1;
        for (i, cell) in cells.iter().enumerate() {
            let width = labels[i].len().max(fields[i].len());
            let style = Style::new().fg_color(Some(colours[i].into()));
            let pad = if i == last {
                String::new()
            } else {
                " ".repeat(width - cell.len() + 2)
            };
            write!(out, "{style}{cell}{style:#}{pad}")?;
        }
        writeln!(out)?;
    }
    Ok(())
}

/// Unix ms as RFC 3339 in UTC, with as many digits of milliseconds as they need.
pub(crate) fn rfc3339(ms: u64) -> String {
    i128::from(ms)
        .checked_mul(1_000_000)
        .and_then(|nanos| OffsetDateTime::from_unix_timestamp_nanos(nanos).ok())
        .and_then(|time| time.format(&Rfc3339).ok())
        .unwrap_or_else(|| format!("{ms} ms"))
}

//! How IDs are shown: one decimal per line, a labelled table of the segments, or a JSON
//! object; buffered, and coloured only when wanted.

use std::fmt::{self, Display};
use std::io::{self, Write};

use anstyle::{AnsiColor, Style};
use serde::{Serialize, Serializer};
use sf::Snowflake;

/// Human or JSON.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Format {
    Human,
    Json,
}

/// Bytes held before a write(2): many IDs per call into a file or a pipe. 64 KiB is what
/// a Linux pipe holds.
const BUFFER: usize = 64 * 1024;

/// Whether stdout gets colour: `NO_COLOR` says no, a forcing `CLICOLOR_FORCE` says yes,
/// `CLICOLOR=0` says no; otherwise a terminal that takes colour.
pub(crate) fn wants_colour(terminal: bool) -> bool {
    if anstyle_query::no_color() {
        return false;
    }
    // bixense.com/clicolors forces colour when `CLICOLOR_FORCE != 0`; anstyle-query (and
    // anstream with it) counts any value as forcing, `0` too.
    let forced = std::env::var_os("CLICOLOR_FORCE").is_some_and(|v| !v.is_empty() && v != "0");
    let clicolor = anstyle_query::clicolor();
    let colour = forced
        || (clicolor != Some(false)
            && terminal
            && (anstyle_query::term_supports_color()
                || clicolor == Some(true)
                || anstyle_query::is_ci()));
    if colour && terminal && cfg!(windows) {
        // A Windows console shows escape codes as text until asked to read them.
        return anstyle_query::windows::enable_ansi_colors() == Some(true);
    }
    colour
}

/// Where IDs go: a buffer in front of `W`, flushed when full or when asked.
///
/// Colour is decided once: a plain [`Style`] writes nothing, so the text without colour
/// never holds escape codes that would have to be stripped again, fragment by fragment.
pub(crate) struct Out<W: Write> {
    w: io::BufWriter<W>,
    format: Format,
    colour: bool,
    /// Whether a human table was written, so that the next one starts with a blank line.
    tables: bool,
    /// The time of the table being written: rendered once, shown twice.
    time: String,
}

/// One ID as `--json` writes it. The ID is a string: JSON numbers above 2^53 lose
/// precision in JavaScript and in jq.
#[derive(Serialize)]
struct Json<'a> {
    id: Text<Snowflake>,
    timestamp_ms: u64,
    time: Text<sf::Rfc3339>,
    datacenter: u8,
    machine: u8,
    sequence: u16,
    binary: &'a str,
}

/// A JSON string written straight from `Display`, without a `String` in between.
struct Text<T>(T);

impl<T: Display> Serialize for Text<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(&self.0)
    }
}

/// A column of the table.
struct Column {
    label: &'static str,
    /// The label's or the bits', whichever is wider.
    width: usize,
    colour: AnsiColor,
}

impl Column {
    const fn new(label: &'static str, bits: u32, colour: AnsiColor) -> Column {
        let bits = bits as usize;
        let width = if label.len() > bits {
            label.len()
        } else {
            bits
        };
        Column {
            label,
            width,
            colour,
        }
    }
}

const COLUMNS: [Column; 5] = [
    Column::new("sign", 1, AnsiColor::BrightBlack),
    Column::new(
        "timestamp (ms since the Twitter epoch)",
        sf::TIMESTAMP_BITS,
        AnsiColor::Cyan,
    ),
    Column::new("datacenter", sf::DATACENTER_BITS, AnsiColor::Yellow),
    Column::new("machine", sf::MACHINE_BITS, AnsiColor::Magenta),
    Column::new("sequence", sf::SEQUENCE_BITS, AnsiColor::Green),
];

/// Spaces to pad a cell from, without allocating.
const SPACES: &str = "                                                  ";

impl<W: Write> Out<W> {
    pub(crate) fn new(w: W, format: Format, colour: bool) -> Self {
        Out {
            w: io::BufWriter::with_capacity(BUFFER, w),
            format,
            colour,
            tables: false,
            time: String::new(),
        }
    }

    /// The ID alone on a line (`generate`), or its JSON object.
    pub(crate) fn line(&mut self, id: Snowflake) -> io::Result<()> {
        match self.format {
            Format::Human => writeln!(self.w, "{id}"),
            Format::Json => self.json(id),
        }
    }

    /// The ID's table (`compose`), or its JSON object.
    pub(crate) fn table(&mut self, id: Snowflake) -> io::Result<()> {
        if self.format == Format::Json {
            return self.json(id);
        }
        self.head(id)?;
        self.segments(id)
    }

    /// The ID's table with the `snowflake!` call that bakes it (`decode`), or its JSON object.
    pub(crate) fn table_with_macro(&mut self, id: Snowflake) -> io::Result<()> {
        if self.format == Format::Json {
            return self.json(id);
        }
        self.head(id)?;
        let p = id.parts();
        let bold = self.style(Style::new().bold());
        writeln!(
            self.w,
            "{bold}macro{bold:#}      snowflake!(ts = \"{}\", dc = {}, machine = {}, seq = {})",
            self.time, p.datacenter, p.machine, p.sequence
        )?;
        self.segments(id)
    }

    /// Writes out what the buffer holds.
    pub(crate) fn flush(&mut self) -> io::Result<()> {
        self.w.flush()
    }

    fn json(&mut self, id: Snowflake) -> io::Result<()> {
        let p = id.parts();
        // A copy of fixed-size bytes: cheaper than formatting the bits one by one.
        let bits = id.segmented_binary().to_bytes();
        let json = Json {
            id: Text(id),
            timestamp_ms: p.timestamp_ms,
            time: Text(id.rfc3339()),
            datacenter: p.datacenter,
            machine: p.machine,
            sequence: p.sequence,
            // ASCII digits and spaces.
            binary: std::str::from_utf8(&bits).unwrap_or_default(),
        };
        serde_json::to_writer(&mut self.w, &json)?;
        self.w.write_all(b"\n")
    }

    /// `style`, or the plain style (which writes nothing) without colour.
    fn style(&self, style: Style) -> Style {
        if self.colour { style } else { Style::new() }
    }

    /// The ID and its time; a blank line first unless it is the first table.
    fn head(&mut self, id: Snowflake) -> io::Result<()> {
        if self.tables {
            self.w.write_all(b"\n")?;
        }
        self.tables = true;
        self.time.clear();
        // Into a `String`, which cannot fail.
        let _ = fmt::Write::write_fmt(&mut self.time, format_args!("{}", id.rfc3339()));
        let bold = self.style(Style::new().bold());
        writeln!(self.w, "{bold}id{bold:#}         {bold}{id}{bold:#}")?;
        writeln!(
            self.w,
            "{bold}time{bold:#}       {} ({} ms)",
            self.time,
            id.timestamp_ms()
        )
    }

    /// A blank line, then the 64 bits in five labelled columns, the field values under them.
    fn segments(&mut self, id: Snowflake) -> io::Result<()> {
        let p = id.parts();
        let bits = id.segmented_binary().to_bytes();
        // ASCII digits and spaces.
        let mut fields = std::str::from_utf8(&bits).unwrap_or_default().split(' ');
        self.w.write_all(b"\n      ")?;
        for (i, column) in COLUMNS.iter().enumerate() {
            self.cell(i, &column.label)?;
        }
        self.w.write_all(b"bits  ")?;
        for i in 0..COLUMNS.len() {
            self.cell(i, &fields.next().unwrap_or_default())?;
        }
        self.w.write_all(b"value ")?;
        let values = [
            0,
            p.timestamp_ms - sf::TWITTER_EPOCH_MS,
            u64::from(p.datacenter),
            u64::from(p.machine),
            u64::from(p.sequence),
        ];
        for (i, value) in values.into_iter().enumerate() {
            self.cell(i, &value)?;
        }
        Ok(())
    }

    /// Cell `i` of a row, in its column's colour, padded to the column's width; the last
    /// cell ends the line.
    fn cell(&mut self, i: usize, text: &impl Cell) -> io::Result<()> {
        let Column { width, colour, .. } = COLUMNS[i];
        if self.colour {
            let style = Style::new().fg_color(Some(colour.into()));
            write!(self.w, "{style}{text}{style:#}")?;
        } else {
            text.write_plain(&mut self.w)?;
        }
        if i + 1 == COLUMNS.len() {
            return self.w.write_all(b"\n");
        }
        // Not `{text:<width$}`: the formatter pads a character at a time.
        let pad = (width + 2).saturating_sub(text.width());
        self.w
            .write_all(&SPACES.as_bytes()[..pad.min(SPACES.len())])
    }
}

/// What a cell of the table holds.
trait Cell: Display {
    /// How many characters it takes.
    fn width(&self) -> usize;
    /// Writes it without colour.
    fn write_plain(&self, w: &mut impl Write) -> io::Result<()>;
}

impl Cell for &str {
    fn width(&self) -> usize {
        self.len()
    }

    /// Copied: faster than through the formatter, on a path taken 15 times an ID.
    fn write_plain(&self, w: &mut impl Write) -> io::Result<()> {
        w.write_all(self.as_bytes())
    }
}

impl Cell for u64 {
    fn width(&self) -> usize {
        self.checked_ilog10()
            .map_or(1, |digits| digits as usize + 1)
    }

    fn write_plain(&self, w: &mut impl Write) -> io::Result<()> {
        write!(w, "{self}")
    }
}

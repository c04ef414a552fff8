//! How IDs are shown: one decimal per line, a labelled table of the segments (a card), a
//! row of the fields, or a JSON object; buffered, and coloured only when wanted.

use std::fmt::Display;
use std::io::{self, IsTerminal, StdoutLock, Write};

use anstyle::{AnsiColor, Style};
use snowflake_kit::Snowflake;
use snowflake_kit::layout::{Segment, SegmentValue};

use crate::blocks::{BUFFER, Blocks};

/// For people, with IDs in decimal or in base32, or JSON.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Format {
    Human,
    Base32,
    Json,
}

/// How `decode` shows an ID without `--json`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, clap::ValueEnum)]
pub(crate) enum Layout {
    // The first lines show in `decode --help`.
    /// The time, the `snowflake!` call that bakes the ID, and its 64 bits in labelled
    /// segments
    ///
    /// For a person reading a few IDs.
    Card,
    /// One line of tab-separated fields: id, time, datacenter, machine, sequence
    ///
    /// For `sort`, `cut`, `awk`, and files of many IDs.
    Row,
}

/// Room for the record that takes the buffer past [`BUFFER`]: a card in colour is about
/// 700 bytes.
const SLACK: usize = 4 * 1024;

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

/// Stdout, buffered, coloured if wanted; `decode`'s layout as asked, or the one for a
/// terminal or not.
///
/// Whatever fd 1 is, it is written to; only a write that fails is an error. A stdout
/// closed with `>&-` is not refused: it cannot be told apart, since before `main` Rust's
/// runtime opens /dev/null, read-write, on a closed fd 1, just as `1<>/dev/null` and
/// Python's `subprocess.DEVNULL` give it, and those are a user discarding the output.
pub(crate) fn stdout(format: Format, layout: Option<Layout>) -> Out<StdoutLock<'static>> {
    let stdout = io::stdout().lock();
    let terminal = stdout.is_terminal();
    let layout = layout.unwrap_or(if terminal { Layout::Card } else { Layout::Row });
    Out::new(stdout, format, wants_colour(terminal)).with_layout(layout)
}

/// Where IDs go: [`Blocks`] in front of `W`, spilled after each record.
///
/// Every write ends with a whole line: stdout's own line buffer then passes it through in
/// one piece, where a block cut mid-line would cost a second, small write for the line's
/// tail.
///
/// Colour is decided once: a plain [`Style`] writes nothing, so the text without colour
/// never holds escape codes that would have to be stripped again, fragment by fragment.
pub(crate) struct Out<W: Write> {
    buf: Blocks<W>,
    format: Format,
    layout: Layout,
    colour: bool,
    /// Whether a human table was written, so that the next one starts with a blank line.
    tables: bool,
    /// Writes integers without the formatter.
    digits: itoa::Buffer,
}

/// A column of the table: one segment of the ID.
struct Column {
    label: &'static str,
    /// The label's or the bits', whichever is wider.
    width: usize,
    colour: AnsiColor,
}

impl Column {
    const fn new(segment: Segment, colour: AnsiColor) -> Column {
        let label = match segment {
            Segment::Timestamp => "timestamp (ms since the Twitter epoch)",
            segment => segment.name(),
        };
        let bits = segment.width() as usize;
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

/// In the order of [`Segment::ALL`].
const COLUMNS: [Column; 5] = [
    Column::new(Segment::Sign, AnsiColor::BrightBlack),
    Column::new(Segment::Timestamp, AnsiColor::Cyan),
    Column::new(Segment::Datacenter, AnsiColor::Yellow),
    Column::new(Segment::Machine, AnsiColor::Magenta),
    Column::new(Segment::Sequence, AnsiColor::Green),
];

/// What the card says of an ID within a day of the epoch.
const NEAR_EPOCH: &str = "within a day of the epoch: maybe no Snowflake (Twitter's IDs before\n           \
    2010-11-04 counted up from 1; an auto-increment key looks the same)";

/// Spaces to pad a cell from, without allocating.
const SPACES: &str = "                                                  ";

impl<W: Write> Out<W> {
    pub(crate) fn new(w: W, format: Format, colour: bool) -> Self {
        Out {
            buf: Blocks::new(w, BUFFER + SLACK),
            format,
            layout: Layout::Card,
            colour,
            tables: false,
            digits: itoa::Buffer::new(),
        }
    }

    /// How [`Out::decoded`] shows IDs in the human format.
    pub(crate) fn with_layout(mut self, layout: Layout) -> Self {
        self.layout = layout;
        self
    }

    /// The ID alone on a line (`generate`), or its JSON object.
    pub(crate) fn line(&mut self, id: Snowflake) -> io::Result<()> {
        if self.format == Format::Json {
            self.json(id)?;
        } else {
            self.id(id)?;
            self.buf.write_all(b"\n")?;
        }
        self.buf.spill()
    }

    /// The ID's table (`compose`), its JSON object, or its base32 alone on a line.
    pub(crate) fn table(&mut self, id: Snowflake) -> io::Result<()> {
        match self.format {
            Format::Json | Format::Base32 => return self.line(id),
            Format::Human => {
                self.head(id, false)?;
                self.segments(id)?;
            }
        }
        self.buf.spill()
    }

    /// The ID as `decode` shows it: its card with the `snowflake!` call that bakes it,
    /// its row, or its JSON object.
    pub(crate) fn decoded(&mut self, id: Snowflake) -> io::Result<()> {
        match (self.format, self.layout) {
            (Format::Json, _) => self.json(id)?,
            (_, Layout::Row) => self.row(id)?,
            (_, Layout::Card) => {
                let time = self.head(id, true)?;
                let p = id.parts();
                let bold = self.style(Style::new().bold());
                writeln!(
                    self.buf,
                    "{bold}macro{bold:#}      snowflake!(ts = \"{time}\", dc = {}, machine = {}, seq = {})",
                    p.datacenter, p.machine, p.sequence
                )?;
                self.segments(id)?;
            }
        }
        self.buf.spill()
    }

    /// Writes out what the buffer holds.
    pub(crate) fn flush(&mut self) -> io::Result<()> {
        self.buf.flush()
    }

    /// `{"id":"…","base32":"…","timestamp_ms":…,"time":"…","near_epoch":…,"datacenter":…,
    /// "machine":…,"sequence":…,"binary":"…"}` and a newline. The ID is a string: JSON
    /// numbers above 2^53 lose precision in JavaScript and in jq. `near_epoch` says the ID
    /// may be no Snowflake ([`Snowflake::is_near_epoch`]).
    ///
    /// Written piece by piece rather than through serde: every value is digits or ASCII
    /// that needs no escaping, and this is `decode --json`'s whole cost per ID. The tests
    /// read it back with `serde_json`.
    fn json(&mut self, id: Snowflake) -> io::Result<()> {
        let p = id.parts();
        self.buf.write_all(b"{\"id\":\"")?;
        self.int(id.as_u64())?;
        self.buf.write_all(b"\",\"base32\":\"")?;
        self.buf.write_all(id.to_base32().digits().as_bytes())?;
        self.buf.write_all(b"\",\"timestamp_ms\":")?;
        self.int(p.timestamp_ms)?;
        self.buf.write_all(b",\"time\":\"")?;
        self.buf.write_all(&id.rfc3339().to_bytes())?;
        self.buf.write_all(if id.is_near_epoch() {
            b"\",\"near_epoch\":true,\"datacenter\":"
        } else {
            b"\",\"near_epoch\":false,\"datacenter\":"
        })?;
        self.int(p.datacenter)?;
        self.buf.write_all(b",\"machine\":")?;
        self.int(p.machine)?;
        self.buf.write_all(b",\"sequence\":")?;
        self.int(p.sequence)?;
        self.buf.write_all(b",\"binary\":\"")?;
        self.buf.write_all(&id.segmented_binary().to_bytes())?;
        self.buf.write_all(b"\"}\n")
    }

    /// `id`, time, datacenter, machine and sequence, separated by tabs, and a newline.
    /// Coloured as the card's columns are.
    fn row(&mut self, id: Snowflake) -> io::Result<()> {
        let p = id.parts();
        if self.colour {
            let bold = Style::new().bold();
            let [time, dc, machine, seq] = [1, 2, 3, 4]
                .map(|column| Style::new().fg_color(Some(COLUMNS[column].colour.into())));
            write!(self.buf, "{bold}")?;
            self.id(id)?;
            return writeln!(
                self.buf,
                "{bold:#}\t{time}{}{time:#}\t{dc}{}{dc:#}\t\
                 {machine}{}{machine:#}\t{seq}{}{seq:#}",
                id.rfc3339(),
                p.datacenter,
                p.machine,
                p.sequence
            );
        }
        self.id(id)?;
        self.buf.write_all(b"\t")?;
        self.buf.write_all(&id.rfc3339().to_bytes())?;
        self.buf.write_all(b"\t")?;
        self.int(p.datacenter)?;
        self.buf.write_all(b"\t")?;
        self.int(p.machine)?;
        self.buf.write_all(b"\t")?;
        self.int(p.sequence)?;
        self.buf.write_all(b"\n")
    }

    /// The ID in decimal, or in base32 when asked.
    fn id(&mut self, id: Snowflake) -> io::Result<()> {
        if self.format == Format::Base32 {
            self.buf.write_all(id.to_base32().digits().as_bytes())
        } else {
            self.int(id.as_u64())
        }
    }

    /// An integer in decimal, without the formatter.
    fn int(&mut self, n: impl itoa::Integer) -> io::Result<()> {
        self.buf.write_all(self.digits.format(n).as_bytes())
    }

    /// `style`, or the plain style (which writes nothing) without colour.
    fn style(&self, style: Style) -> Style {
        if self.colour { style } else { Style::new() }
    }

    /// The ID and its time, and for an ID `decoded` the note that it may be no Snowflake;
    /// a blank line first unless it is the first table. Returns the time, for the
    /// `snowflake!` call.
    fn head(
        &mut self,
        id: Snowflake,
        decoded: bool,
    ) -> io::Result<snowflake_kit::rfc3339::Rfc3339> {
        if self.tables {
            self.buf.write_all(b"\n")?;
        }
        self.tables = true;
        let time = id.rfc3339();
        let bold = self.style(Style::new().bold());
        writeln!(self.buf, "{bold}id{bold:#}         {bold}{id}{bold:#}")?;
        writeln!(self.buf, "{bold}base32{bold:#}     {}", id.to_base32())?;
        writeln!(
            self.buf,
            "{bold}time{bold:#}       {time} ({} ms)",
            id.timestamp_ms()
        )?;
        if decoded && id.is_near_epoch() {
            writeln!(self.buf, "{bold}note{bold:#}       {NEAR_EPOCH}")?;
        }
        Ok(time)
    }

    /// A blank line, then the 64 bits in five labelled columns, the segments' values under them.
    fn segments(&mut self, id: Snowflake) -> io::Result<()> {
        let segments = id.segments();
        self.buf.write_all(b"\n      ")?;
        for (i, column) in COLUMNS.iter().enumerate() {
            self.cell(i, &column.label)?;
        }
        self.buf.write_all(b"bits  ")?;
        for (i, segment) in segments.into_iter().enumerate() {
            self.cell(i, &Bits(segment))?;
        }
        self.buf.write_all(b"value ")?;
        for (i, segment) in segments.into_iter().enumerate() {
            self.cell(i, &segment.value)?;
        }
        Ok(())
    }

    /// Cell `i` of a row, in its column's colour, padded to the column's width; the last
    /// cell ends the line.
    fn cell(&mut self, i: usize, text: &impl Cell) -> io::Result<()> {
        let Column { width, colour, .. } = COLUMNS[i];
        if self.colour {
            let style = Style::new().fg_color(Some(colour.into()));
            write!(self.buf, "{style}{text}{style:#}")?;
        } else {
            text.write_plain(&mut self.buf)?;
        }
        if i + 1 == COLUMNS.len() {
            return self.buf.write_all(b"\n");
        }
        // Not `{text:<width$}`: the formatter pads a character at a time.
        let pad = (width + 2).saturating_sub(text.width());
        self.buf
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

/// A segment's bits, zero-padded to its width.
struct Bits(SegmentValue);

impl Display for Bits {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:b}", self.0)
    }
}

impl Cell for Bits {
    fn width(&self) -> usize {
        self.0.segment.width() as usize
    }

    fn write_plain(&self, w: &mut impl Write) -> io::Result<()> {
        write!(w, "{self}")
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

//! The explanation under the form: what a Snowflake ID is, how the page works, the
//! structure, the formula, the worked example for the current input, uses, limits,
//! history, questions and sources. Every figure in it is the runtime's constant.

use std::fmt::Write;

use snowflake_kit::layout::{
    DATACENTER_BITS, DATACENTER_SHIFT, MACHINE_BITS, MACHINE_SHIFT, MAX_DATACENTER, MAX_MACHINE,
    MAX_SEQUENCE, MAX_TIMESTAMP_DELTA, SEQUENCE_BITS, SEQUENCE_SHIFT, Segment, TIMESTAMP_BITS,
    TIMESTAMP_SHIFT, TWITTER_EPOCH_MS,
};
use snowflake_kit::rfc3339::Rfc3339;
use snowflake_kit::{Field, Snowflake};

use crate::words::{Args, Words, escape, ltr};

/// A time as the language writes a date in prose: `4 November 2010, 01:42:54.657 UTC`.
pub(crate) fn date(words: &Words, time: Rfc3339) -> String {
    let two = |n: u32| format!("{n:02}");
    let clock = words.format(
        "time",
        &Args::new(words.lang())
            .plain("hour", &two(time.hour()))
            .plain("minute", &two(time.minute()))
            .plain("second", &two(time.second()))
            .plain("millis", &format!("{:03}", time.millisecond())),
    );
    words.format(
        "date-time",
        &Args::new(words.lang())
            .ltr("year", &time.year().to_string())
            .select("month", u64::from(time.month()))
            .ltr("day", &time.day().to_string())
            // One unit, left to right: a time's parts in Hebrew text keep their order.
            .html("time", ltr(&clock)),
    )
}

/// The first time an ID can hold: the epoch.
pub(crate) fn epoch() -> Rfc3339 {
    Snowflake::MIN.rfc3339()
}

/// The last time an ID can hold.
pub(crate) fn last() -> Rfc3339 {
    Snowflake::MAX.rfc3339()
}

/// The year of the epoch.
fn epoch_year() -> String {
    epoch().year().to_string()
}

/// How many years 41 bits of milliseconds last, in tenths: 697 for 69.7.
fn years_in_tenths() -> u64 {
    // A tenth of a mean Gregorian year: 36.52425 days of 86,400,000 ms.
    const TENTH_OF_A_YEAR_MS: u64 = 3_652_425 * 864;
    (MAX_TIMESTAMP_DELTA + TENTH_OF_A_YEAR_MS / 2) / TENTH_OF_A_YEAR_MS
}

/// A section: its heading (an `h2` with an id to link to) and its body.
fn section(words: &Words, id: &str, body: &str) -> String {
    format!(
        r#"<section id="{id}" aria-labelledby="{id}-h"><h2 id="{id}-h">{}</h2>{body}</section>"#,
        words.get(&format!("{id}-heading"))
    )
}

/// Message `id` as a paragraph.
fn p(words: &Words, id: &str, args: &Args) -> String {
    format!("<p>{}</p>", words.format(id, args))
}

/// The IDs one machine may issue in a millisecond: 4,096.
const IDS_PER_MS: u64 = MAX_SEQUENCE as u64 + 1;

/// The explanation, with `worked` (the worked example for the form's values,
/// [`worked_example`]) in its place. Around the example it is the same for every page in a
/// language: written once per catalogue, at its first page.
pub(crate) fn explanation(words: &Words, worked: &str) -> String {
    let (before, after) = words.around.get_or_init(|| around_the_example(words));
    let worked = format!(r#"<div id="worked">{worked}</div>"#);
    [before.as_str(), &section(words, "example", &worked), after].concat()
}

/// The sections before the worked example, and those after it.
fn around_the_example(words: &Words) -> (String, String) {
    let args = || Args::new(words.lang());
    let before = [
        section(
            words,
            "about",
            &p(words, "about-text", &args().ltr("year", &epoch_year())),
        ),
        section(words, "tool", &tool(words)),
        section(words, "structure", &structure(words)),
        section(words, "formula", &formula(words)),
    ]
    .concat();
    let after = [
        section(words, "uses", &p(words, "uses-text", &args())),
        section(words, "limits", &limits(words)),
        section(
            words,
            "history",
            &p(words, "history-text", &args().ltr("year", &epoch_year())),
        ),
        section(words, "faq", &faq(words)),
        section(words, "sources", &sources(words)),
    ]
    .concat();
    (before, after)
}

/// How the page works: the four inputs with their ranges, the result, the epoch.
fn tool(words: &Words) -> String {
    let args = || Args::new(words.lang());
    let range = |field: Field, bits: u32| {
        args()
            .number("min", field.min())
            .number("max", field.max())
            .select("bits", bits.into())
    };
    format!(
        "<p>{}</p><ul><li>{}</li><li>{}</li><li>{}</li><li>{}</li></ul>{}{}",
        words.get("tool-intro"),
        words.format(
            "tool-ts",
            &args().typed("example", "2022-06-28T16:07:40.105Z")
        ),
        words.format("tool-dc", &range(Field::Datacenter, DATACENTER_BITS)),
        words.format("tool-machine", &range(Field::Machine, MACHINE_BITS)),
        words.format("tool-seq", &range(Field::Sequence, SEQUENCE_BITS)),
        p(words, "tool-result", &args()),
        p(
            words,
            "tool-epoch",
            &args()
                .html("date", date(words, epoch()))
                .number("ms", TWITTER_EPOCH_MS)
        ),
    )
}

/// The structure: the five parts, their figure, the sign and the order.
fn structure(words: &Words) -> String {
    format!(
        "<p>{}</p>{}<p>{}</p><p>{}</p>",
        words.get("structure-intro"),
        layout_figure(words),
        words.get("structure-sign"),
        words.format(
            "structure-order",
            &Args::new(words.lang())
                .select("ts-bits", TIMESTAMP_BITS.into())
                .select("seq-bits", SEQUENCE_BITS.into())
        ),
    )
}

/// The formula as code, what its letters are, and why the shifts are what they are.
fn formula(words: &Words) -> String {
    format!(
        r#"<p>{}</p><pre dir="ltr"><code>d = t - {TWITTER_EPOCH_MS}
I = (d &lt;&lt; {TIMESTAMP_SHIFT}) | (c &lt;&lt; {DATACENTER_SHIFT}) | (m &lt;&lt; {MACHINE_SHIFT}) | s</code></pre><p>{}</p><p>{}</p>"#,
        words.get("formula-intro"),
        words.get("formula-where"),
        words.format(
            "formula-shift",
            &Args::new(words.lang())
                .select("ts-shift", TIMESTAMP_SHIFT.into())
                .select("dc-shift", DATACENTER_SHIFT.into())
                .select("machine-shift", MACHINE_SHIFT.into())
                .select("seq-bits", SEQUENCE_BITS.into())
                .select("machine-bits", MACHINE_BITS.into())
                .select("dc-bits", DATACENTER_BITS.into())
                .number("factor", 1 << TIMESTAMP_SHIFT)
        ),
    )
}

/// The limits: what a live generator does that the page does not, and the design's own.
fn limits(words: &Words) -> String {
    let args = || Args::new(words.lang());
    let (dcs, machines) = (u64::from(MAX_DATACENTER) + 1, u64::from(MAX_MACHINE) + 1);
    format!(
        "{}<p>{}</p><ul><li>{}</li><li>{}</li><li>{}</li><li>{}</li><li>{}</li></ul>",
        p(
            words,
            "limits-state",
            &args().number("max-seq", MAX_SEQUENCE.into())
        ),
        words.get("limits-intro"),
        words.format("limits-epoch", &args().html("epoch", date(words, epoch()))),
        words.format(
            "limits-ceiling",
            &args()
                .html("max", date(words, last()))
                .select("bits", TIMESTAMP_BITS.into())
        ),
        words.format(
            "limits-sequence",
            &args()
                .number("ids", IDS_PER_MS)
                .number("max-seq", MAX_SEQUENCE.into())
        ),
        words.format(
            "limits-machines",
            &args()
                .select("dc-bits", DATACENTER_BITS.into())
                .select("machine-bits", MACHINE_BITS.into())
                .number("identities", dcs * machines)
                .number("dcs", dcs)
                .number("machines", machines)
        ),
        words.get("limits-order"),
    )
}

/// The six questions and their answers, as a list to scan.
fn faq(words: &Words) -> String {
    let args = || Args::new(words.lang());
    let formula = format!(
        r#"{}<pre dir="ltr"><code>id = ((timestamp - epoch) &lt;&lt; {TIMESTAMP_SHIFT}) | (datacenter &lt;&lt; {DATACENTER_SHIFT}) | (machine &lt;&lt; {MACHINE_SHIFT}) | sequence</code></pre>"#,
        words.format(
            "faq-formula-a",
            &args().number("epoch-ms", TWITTER_EPOCH_MS)
        ),
    );
    let answers = [
        ("faq-what", words.get("faq-what-a")),
        ("faq-formula", formula),
        (
            "faq-epoch",
            words.format("faq-epoch-a", &args().html("epoch", date(words, epoch()))),
        ),
        ("faq-decode", words.get("faq-decode-a")),
        (
            "faq-rate",
            words.format(
                "faq-rate-a",
                &args()
                    .number("ids", IDS_PER_MS)
                    .select("bits", SEQUENCE_BITS.into())
                    .number("max-seq", MAX_SEQUENCE.into()),
            ),
        ),
        (
            "faq-until",
            words.format(
                "faq-until-a",
                &args()
                    .html("max", date(words, last()))
                    .select("bits", TIMESTAMP_BITS.into())
                    .ltr("years", &words.lang().tenths(years_in_tenths()))
                    .ltr("year", &epoch_year()),
            ),
        ),
    ];
    let mut faq = String::from("<dl>");
    for (id, answer) in answers {
        let _ = write!(
            faq,
            "<dt>{}</dt><dd>{answer}</dd>",
            words.get(&format!("{id}-q"))
        );
    }
    faq.push_str("</dl>");
    faq
}

/// Where the facts come from: plain links, for the reader to follow.
fn sources(words: &Words) -> String {
    format!(
        r#"<ol><li><a href="https://blog.twitter.com/engineering/en_us/a/2010/announcing-snowflake" hreflang="en">{}</a></li><li><a href="https://en.wikipedia.org/wiki/Snowflake_ID" hreflang="en">{}</a></li><li><a href="https://github.com/twitter-archive/snowflake" hreflang="en">{}</a></li></ol>"#,
        words.format(
            "source-announcing",
            &Args::new(words.lang()).ltr("year", &epoch_year())
        ),
        words.get("source-wikipedia"),
        words.get("source-code"),
    )
}

/// The 64 bits as a figure: each segment's name, width and bits, from the top bit, left to
/// right in every language; the words in each cell run in their own direction.
fn layout_figure(words: &Words) -> String {
    let (mut names, mut widths, mut positions) = (String::new(), String::new(), String::new());
    for segment in Segment::ALL {
        let class = segment.key();
        let (top, bottom) = (segment.shift() + segment.width() - 1, segment.shift());
        let _ = write!(
            names,
            r#"<th scope="col" class="{class}" dir="auto">{}</th>"#,
            words.get(&format!("segment-{class}"))
        );
        let _ = write!(
            widths,
            r#"<td class="{class}" dir="auto">{}</td>"#,
            words.format(
                "structure-bits",
                &Args::new(words.lang()).select("count", segment.width().into())
            )
        );
        let bits = if top == bottom {
            top.to_string()
        } else {
            format!("{top}–{bottom}")
        };
        let _ = write!(positions, r#"<td class="{class}" dir="ltr">{bits}</td>"#);
    }
    format!(
        r#"<figure id="layout"><div class="scroll" dir="ltr"><table><tr>{names}</tr><tr>{widths}</tr><tr>{positions}</tr></table></div><figcaption>{}</figcaption></figure>"#,
        words.get("structure-caption")
    )
}

/// The three steps for `input`, the ID that the form's values make.
pub(crate) fn worked_example(words: &Words, input: Option<Snowflake>) -> String {
    let Some(id) = input else {
        return format!(r#"<p class="muted">{}</p>"#, words.get("example-invalid"));
    };
    let lang = words.lang();
    let n = |v: u64| escape(&lang.number(v));
    let unix_ms = id.timestamp_ms();
    let delta = unix_ms - TWITTER_EPOCH_MS;
    let (dc, machine, seq) = (
        u64::from(id.datacenter()),
        u64::from(id.machine()),
        u64::from(id.sequence()),
    );
    let shifted = [
        ("example-shifted-ts", delta, TIMESTAMP_SHIFT),
        ("example-shifted-dc", dc, DATACENTER_SHIFT),
        ("example-shifted-machine", machine, MACHINE_SHIFT),
        ("example-shifted-seq", seq, SEQUENCE_SHIFT),
    ];
    let mut steps = String::new();
    for (message, value, shift) in shifted {
        // The sequence is not shifted: its place is the bottom bits.
        let math = if shift == 0 {
            n(value)
        } else {
            format!("{} &lt;&lt; {shift} = {}", n(value), n(value << shift))
        };
        let _ = write!(
            steps,
            "<li>{}</li>",
            words.format(message, &Args::new(lang).html("shift", ltr(&math)))
        );
    }
    let parts = shifted.map(|(_, value, shift)| n(value << shift));
    let inputs = [
        words.format(
            "example-ts",
            &Args::new(lang).number("ts", unix_ms).number("delta", delta),
        ),
        words.format("example-dc", &Args::new(lang).number("dc", dc)),
        words.format(
            "example-machine",
            &Args::new(lang).number("machine", machine),
        ),
        words.format("example-seq", &Args::new(lang).number("seq", seq)),
    ];
    format!(
        r#"<p>{intro}</p><ul>{inputs}</ul><p>{step1}</p><p class="math" dir="ltr">{t} − {epoch} = {d}</p><p>{step2}</p><ul>{steps}</ul><p>{step3}</p><p class="math" dir="ltr">{or} = {sum} = {total}</p><p>{result}</p>"#,
        intro = words.get("example-intro"),
        inputs = inputs.map(|i| format!("<li>{i}</li>")).concat(),
        step1 = words.get("example-step-1"),
        t = n(unix_ms),
        epoch = n(TWITTER_EPOCH_MS),
        d = n(delta),
        step2 = words.get("example-step-2"),
        step3 = words.get("example-step-3"),
        or = parts.join(" | "),
        sum = parts.join(" + "),
        total = n(id.as_u64()),
        result = words.format(
            "example-result",
            &Args::new(lang)
                .typed("id", &id.to_string())
                .select("ts-bits", TIMESTAMP_BITS.into())
                .select("dc-bits", DATACENTER_BITS.into())
                .select("machine-bits", MACHINE_BITS.into())
                .select("seq-bits", SEQUENCE_BITS.into())
        ),
    )
}

#[cfg(test)]
mod tests {
    use snowflake_kit::layout::TWITTER_EPOCH_MS;
    use snowflake_kit::{Snowflake, compose};

    use super::{explanation, worked_example, years_in_tenths};
    use crate::lang::Lang;
    use crate::text;
    use crate::words::Words;

    #[test]
    fn the_seeds_input_gives_the_seeds_numbers() {
        let id = compose(1_288_834_975_657, 1, 1, 0).unwrap();
        let indonesian = text(&worked_example(Words::of(Lang::Id), Some(id)));
        for line in [
            "1.288.834.975.657 − 1.288.834.974.657 = 1.000",
            "1.000 << 22 = 4.194.304.000",
            "1 << 17 = 131.072",
            "1 << 12 = 4.096",
            "4.194.304.000 | 131.072 | 4.096 | 0 = 4.194.304.000 + 131.072 + 4.096 + 0 = 4.194.439.168",
            "4194439168",
        ] {
            assert!(indonesian.contains(line), "{line}\n{indonesian}");
        }
        for lang in [Lang::He, Lang::En] {
            let text = text(&worked_example(Words::of(lang), Some(id)));
            for line in [
                "1,288,834,975,657 − 1,288,834,974,657 = 1,000",
                "1,000 << 22 = 4,194,304,000",
                "1 << 17 = 131,072",
                "1 << 12 = 4,096",
                "4,194,304,000 | 131,072 | 4,096 | 0 = 4,194,304,000 + 131,072 + 4,096 + 0 = 4,194,439,168",
                "4194439168",
            ] {
                assert!(text.contains(line), "{lang:?}: {line}\n{text}");
            }
        }
    }

    /// The numbers of a line of digits and operators, their group marks dropped.
    fn numbers(line: &str, mark: char) -> Vec<u64> {
        line.replace(mark, "")
            .split(|c: char| !c.is_ascii_digit())
            .filter(|n| !n.is_empty())
            .map(|n| n.parse().unwrap())
            .collect()
    }

    #[test]
    fn the_worked_example_agrees_with_the_runtime_for_any_input() {
        // A fixed sequence of inputs across every field's range, both ends included.
        let mut state = 0x9E37_79B9_7F4A_7C15_u64;
        let mut next = |bound: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % (bound + 1)
        };
        let mut inputs = vec![(0, 0, 0, 0), ((1 << 41) - 1, 31, 31, 4095)];
        for _ in 0..600 {
            inputs.push((next((1 << 41) - 1), next(31), next(31), next(4095)));
        }
        for (delta, dc, machine, seq) in inputs {
            let id = compose(TWITTER_EPOCH_MS + delta, dc, machine, seq).unwrap();
            for lang in Lang::ALL {
                let mark = if lang == Lang::Id { '.' } else { ',' };
                let html = worked_example(Words::of(lang), Some(id));
                let text = text(&html);
                let lines: Vec<&str> = text.lines().collect();
                let line = |prefix: &str| {
                    lines
                        .iter()
                        .find(|l| l.contains(prefix))
                        .unwrap_or_else(|| panic!("{prefix}: {text}"))
                };
                let find = |prefix: &str| numbers(line(prefix), mark);
                assert_eq!(
                    find(" − "),
                    [TWITTER_EPOCH_MS + delta, TWITTER_EPOCH_MS, delta],
                    "{lang:?}"
                );
                assert_eq!(find(" << 22 = "), [delta, 22, delta << 22], "{lang:?}");
                assert_eq!(find(" << 17 = "), [dc, 17, dc << 17], "{lang:?}");
                assert_eq!(find(" << 12 = "), [machine, 12, machine << 12], "{lang:?}");
                let parts = [delta << 22, dc << 17, machine << 12, seq];
                let mut or_line = parts.to_vec();
                or_line.extend(parts);
                or_line.push(id.as_u64());
                assert_eq!(find(" | "), or_line, "{lang:?}");
                assert_eq!(parts.iter().fold(0, |a, b| a | b), id.as_u64());
                // The ID itself, ungrouped, for copying.
                assert!(
                    html.contains(&format!("<code dir=\"ltr\">{id}</code>")),
                    "{lang:?}: {html}"
                );
            }
        }
    }

    #[test]
    fn without_a_valid_input_the_example_says_what_to_do() {
        for lang in Lang::ALL {
            let html = worked_example(Words::of(lang), None);
            assert_eq!(
                html,
                format!(
                    r#"<p class="muted">{}</p>"#,
                    Words::of(lang).get("example-invalid")
                )
            );
        }
    }

    #[test]
    fn the_explanation_takes_its_figures_from_the_runtime() {
        assert_eq!(years_in_tenths(), 697);
        let en = text(&explanation(Words::of(Lang::En), ""));
        for figure in [
            "1,288,834,974,657 milliseconds after the Unix epoch",
            "4 November 2010, 01:42:54.657 UTC",
            "10 July 2080, 17:30:30.208 UTC",
            "d = t - 1288834974657",
            "I = (d << 22) | (c << 17) | (m << 12) | s",
            "by 4,194,304",
            "1,024 machine identities (32 × 32)",
            "only 4,096 different IDs (0 to 4,095)",
            "about 69.7 years counted from the 2010 epoch",
            "the datacenter ID starts 17 bits up (12 + 5)",
        ] {
            assert!(en.contains(figure), "{figure}\n{en}");
        }
        let id = text(&explanation(Words::of(Lang::Id), ""));
        for figure in ["1.288.834.974.657", "69,7", "1.024", "4.096"] {
            assert!(id.contains(figure), "{figure}");
        }
        // The layout figure reads from the top bit in every language.
        for lang in Lang::ALL {
            let html = explanation(
                Words::of(lang),
                &worked_example(Words::of(lang), Some(Snowflake::MAX)),
            );
            let figure = &html[html.find(r#"<figure id="layout">"#).unwrap()..];
            let positions: Vec<&str> = figure
                .split(r#"dir="ltr">"#)
                .skip(2)
                .take(5)
                .map(|cell| cell.split('<').next().unwrap())
                .collect();
            assert_eq!(
                positions,
                ["63", "62–22", "21–17", "16–12", "11–0"],
                "{lang:?}"
            );
        }
    }
}

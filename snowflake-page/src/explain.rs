//! The explanation under the form: what a Snowflake ID is, how the page works, the
//! structure, the formula, the worked example for the current input, uses, limits,
//! history, questions and sources. Every figure in it is the runtime's constant.

use snowflake_kit::layout::{
    DATACENTER_BITS, DATACENTER_SHIFT, MACHINE_BITS, MACHINE_SHIFT, MAX_DATACENTER, MAX_MACHINE,
    MAX_SEQUENCE, MAX_TIMESTAMP_DELTA, SEQUENCE_BITS, SEQUENCE_SHIFT, Segment, TIMESTAMP_BITS,
    TIMESTAMP_SHIFT, TWITTER_EPOCH_MS,
};
use snowflake_kit::rfc3339::Rfc3339;
use snowflake_kit::{Field, Snowflake};

use maud::{Markup, html};

use crate::words::{Args, Words, ltr};

/// A time as the language writes a date in prose: `4 November 2010, 01:42:54.657 UTC`.
pub(crate) fn date(words: &Words, time: Rfc3339) -> Markup {
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
            .number("month", u64::from(time.month()))
            .ltr("day", &time.day().to_string())
            // One unit, left to right: a time's parts in Hebrew text keep their order.
            .html("time", ltr(clock)),
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
fn section(words: &Words, id: &str, body: &Markup) -> Markup {
    html! {
        section id=(id) aria-labelledby={ (id) "-h" } {
            h2 id={ (id) "-h" } { (words.get(&format!("{id}-heading"))) }
            (body)
        }
    }
}

/// Message `id` as a paragraph.
fn p(words: &Words, id: &str, args: &Args) -> Markup {
    html! { p { (words.format(id, args)) } }
}

/// The IDs one machine may issue in a millisecond: 4,096.
const IDS_PER_MS: u64 = MAX_SEQUENCE as u64 + 1;

/// The seed's example: exactly 1,000 ms after the epoch, datacenter 1, machine 1,
/// sequence 0, which is ID 4,194,439,168.
const SEED_EXAMPLE: Snowflake = match snowflake_kit::compose(TWITTER_EPOCH_MS + 1_000, 1, 1, 0) {
    Ok(id) => id,
    Err(_) => panic!("internal error: the seed's example is a Snowflake"),
};

/// The explanation, with `worked` (the worked example for the form's values,
/// [`worked_example`]) in its place, after the seed's own example. Around the reader's
/// example it is the same for every page in a language: written once per catalogue, at its
/// first page.
pub(crate) fn explanation(words: &Words, worked: &Markup) -> Markup {
    let [before, seed, after] = words.around.get_or_init(|| around_the_example(words));
    let example = html! {
        (seed)
        h3 { (words.get("example-yours-heading")) }
        div id="worked" { (worked) }
    };
    html! { (before) (section(words, "example", &example)) (after) }
}

/// The sections before the worked examples, the seed's example, and the sections after.
fn around_the_example(words: &Words) -> [Markup; 3] {
    let args = || Args::new(words.lang());
    let before = html! {
        (section(words, "about", &p(words, "about-text", &args().ltr("year", &epoch_year()))))
        (section(words, "tool", &tool(words)))
        (section(words, "structure", &structure(words)))
        (section(words, "formula", &formula(words)))
    };
    let after = html! {
        (section(words, "uses", &p(words, "uses-text", &args())))
        (section(words, "limits", &limits(words)))
        (section(words, "history", &p(words, "history-text", &args().ltr("year", &epoch_year()))))
        (section(words, "faq", &faq(words)))
        (section(words, "sources", &sources(words)))
    };
    let seed = steps(
        words,
        SEED_EXAMPLE,
        "example-seed-intro",
        "example-seed-result",
    );
    [before, seed, after]
}

/// How the page works: the four inputs with their ranges, the result, the epoch.
fn tool(words: &Words) -> Markup {
    let args = || Args::new(words.lang());
    let range = |field: Field, bits: u32| {
        args()
            .number("min", field.min())
            .number("max", field.max())
            .number("bits", bits.into())
    };
    let epoch = args()
        .html("date", date(words, epoch()))
        .number("ms", TWITTER_EPOCH_MS);
    html! {
        p { (words.get("tool-intro")) }
        ul {
            li { (words.format("tool-ts", &args().typed("example", "2022-06-28T16:07:40.105Z"))) }
            li { (words.format("tool-dc", &range(Field::Datacenter, DATACENTER_BITS))) }
            li { (words.format("tool-machine", &range(Field::Machine, MACHINE_BITS))) }
            li { (words.format("tool-seq", &range(Field::Sequence, SEQUENCE_BITS))) }
        }
        (p(words, "tool-result", &args()))
        (p(words, "tool-epoch", &epoch))
    }
}

/// The structure: the top bit and four parts, their figure, the sign and the order.
fn structure(words: &Words) -> Markup {
    let order = Args::new(words.lang())
        .number("ts-bits", TIMESTAMP_BITS.into())
        .number("seq-bits", SEQUENCE_BITS.into());
    html! {
        p { (words.get("structure-intro")) }
        (layout_figure(words))
        p { (words.get("structure-sign")) }
        p { (words.format("structure-order", &order)) }
    }
}

/// The formula as code, what its letters are, and why the shifts are what they are.
fn formula(words: &Words) -> Markup {
    let shift = Args::new(words.lang())
        .number("ts-shift", TIMESTAMP_SHIFT.into())
        .number("dc-shift", DATACENTER_SHIFT.into())
        .number("machine-shift", MACHINE_SHIFT.into())
        .number("seq-bits", SEQUENCE_BITS.into())
        .number("machine-bits", MACHINE_BITS.into())
        .number("dc-bits", DATACENTER_BITS.into())
        .number("factor", 1 << TIMESTAMP_SHIFT);
    html! {
        p { (words.get("formula-intro")) }
        pre dir="ltr" {
            code {
                "d = t - " (TWITTER_EPOCH_MS) "\nI = (d << " (TIMESTAMP_SHIFT) ") | (c << "
                (DATACENTER_SHIFT) ") | (m << " (MACHINE_SHIFT) ") | s"
            }
        }
        p { (words.get("formula-where")) }
        p { (words.format("formula-shift", &shift)) }
    }
}

/// The limits: what a live generator does that the page does not, and the design's own.
fn limits(words: &Words) -> Markup {
    let args = || Args::new(words.lang());
    let (dcs, machines) = (u64::from(MAX_DATACENTER) + 1, u64::from(MAX_MACHINE) + 1);
    let state = args().number("max-seq", MAX_SEQUENCE.into());
    let ceiling = args()
        .html("max", date(words, last()))
        .number("bits", TIMESTAMP_BITS.into());
    let sequence = args()
        .number("ids", IDS_PER_MS)
        .number("max-seq", MAX_SEQUENCE.into());
    let machines = args()
        .number("dc-bits", DATACENTER_BITS.into())
        .number("machine-bits", MACHINE_BITS.into())
        .number("identities", dcs * machines)
        .number("dcs", dcs)
        .number("machines", machines);
    html! {
        (p(words, "limits-state", &state))
        p { (words.get("limits-intro")) }
        ul {
            li { (words.format("limits-epoch", &args().html("epoch", date(words, epoch())))) }
            li { (words.format("limits-ceiling", &ceiling)) }
            li { (words.format("limits-sequence", &sequence)) }
            li { (words.format("limits-machines", &machines)) }
            li { (words.get("limits-order")) }
        }
    }
}

/// The six questions and their answers, as a list to scan.
fn faq(words: &Words) -> Markup {
    let args = || Args::new(words.lang());
    let formula = html! {
        (words.format("faq-formula-a", &args().number("epoch-ms", TWITTER_EPOCH_MS)))
        pre dir="ltr" {
            code {
                "id = ((timestamp - epoch) << " (TIMESTAMP_SHIFT) ") | (datacenter << "
                (DATACENTER_SHIFT) ") | (machine << " (MACHINE_SHIFT) ") | sequence"
            }
        }
    };
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
                    .number("bits", SEQUENCE_BITS.into())
                    .number("max-seq", MAX_SEQUENCE.into()),
            ),
        ),
        (
            "faq-until",
            words.format(
                "faq-until-a",
                &args()
                    .html("max", date(words, last()))
                    .number("bits", TIMESTAMP_BITS.into())
                    .ltr("years", &words.lang().tenths(years_in_tenths()))
                    .ltr("year", &epoch_year()),
            ),
        ),
    ];
    html! {
        dl {
            @for (id, answer) in answers {
                dt { (words.get(&format!("{id}-q"))) }
                dd { (answer) }
            }
        }
    }
}

/// Where the facts come from: plain links, for the reader to follow.
fn sources(words: &Words) -> Markup {
    let announcing = Args::new(words.lang()).ltr("year", &epoch_year());
    html! {
        ol {
            li { a href="https://blog.twitter.com/engineering/en_us/a/2010/announcing-snowflake" hreflang="en" {
                (words.format("source-announcing", &announcing))
            } }
            li { a href="https://en.wikipedia.org/wiki/Snowflake_ID" hreflang="en" { (words.get("source-wikipedia")) } }
            li { a href="https://github.com/twitter-archive/snowflake" hreflang="en" { (words.get("source-code")) } }
        }
    }
}

/// The 64 bits as a figure: each segment's name, width and bits, from the top bit, left to
/// right in every language; the words in each cell run in their own direction.
fn layout_figure(words: &Words) -> Markup {
    let bits = |segment: Segment| {
        let (top, bottom) = (segment.shift() + segment.width() - 1, segment.shift());
        html! { (top) @if top != bottom { "–" (bottom) } }
    };
    let width = |segment: Segment| {
        let count = Args::new(words.lang()).number("count", segment.width().into());
        words.format("structure-bits", &count)
    };
    html! {
        figure id="layout" {
            div class="scroll" dir="ltr" {
                table {
                    tr { @for s in Segment::ALL {
                        th scope="col" class=(s.key()) dir="auto" { (words.get(&format!("segment-{}", s.key()))) }
                    } }
                    tr { @for s in Segment::ALL { td class=(s.key()) dir="auto" { (width(s)) } } }
                    tr { @for s in Segment::ALL { td class=(s.key()) dir="ltr" { (bits(s)) } } }
                }
            }
            figcaption { (words.get("structure-caption")) }
        }
    }
}

/// The three steps for `input`, the ID that the form's values make.
pub(crate) fn worked_example(words: &Words, input: Option<Snowflake>) -> Markup {
    input.map_or_else(
        || html! { p class="muted" { (words.get("example-invalid")) } },
        |id| steps(words, id, "example-intro", "example-result"),
    )
}

/// The values that make `id`, after the message `intro`, and the three steps to `id`, then
/// the message `result`: the seed's example and the reader's, in the same words.
fn steps(words: &Words, id: Snowflake, intro: &str, result: &str) -> Markup {
    let lang = words.lang();
    let n = |v: u64| lang.number(v);
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
    let step = |message: &str, value: u64, shift: u32| {
        // The sequence is not shifted: its place is the bottom bits.
        let math = html! {
            (n(value))
            @if shift != 0 { " << " (format_args!("{shift}")) " = " (n(value << shift)) }
        };
        words.format(message, &Args::new(lang).html("shift", ltr(math)))
    };
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
    let said = Args::new(lang)
        .typed("id", &id.to_string())
        .number("ts-bits", TIMESTAMP_BITS.into())
        .number("dc-bits", DATACENTER_BITS.into())
        .number("machine-bits", MACHINE_BITS.into())
        .number("seq-bits", SEQUENCE_BITS.into());
    html! {
        p { (words.get(intro)) }
        ul { @for input in inputs { li { (input) } } }
        p { (words.get("example-step-1")) }
        p class="math" dir="ltr" { (n(unix_ms)) " − " (n(TWITTER_EPOCH_MS)) " = " (n(delta)) }
        p { (words.get("example-step-2")) }
        ul { @for (message, value, shift) in shifted { li { (step(message, value, shift)) } } }
        p { (words.get("example-step-3")) }
        // By hand, not `join`, which is a kilobyte of the page's module.
        p class="math" dir="ltr" {
            @for (op, end) in [(" | ", " = "), (" + ", " = ")] {
                @for (i, part) in parts.iter().enumerate() { @if i > 0 { (op) } (part) }
                (end)
            }
            (n(id.as_u64()))
        }
        p { (words.format(result, &said)) }
    }
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
        let indonesian = text(&worked_example(Words::of(Lang::Id), Some(id)).0);
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
            let text = text(&worked_example(Words::of(lang), Some(id)).0);
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
                let html = worked_example(Words::of(lang), Some(id)).into_string();
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
    fn the_seeds_example_stands_before_the_readers_in_every_language() {
        let now = compose(1_656_432_460_105, 11, 26, 0).unwrap();
        for (lang, seed, yours) in [
            (
                Lang::Id,
                "Misalkan seseorang memasukkan:\nStempel waktu: 1.288.834.975.657 (tepat 1.000 md setelah epoch Twitter)\n",
                "Ambil nilai dari formulir di atas:\nStempel waktu: 1.656.432.460.105 (tepat 367.597.485.448 md setelah epoch Twitter)\n",
            ),
            (
                Lang::He,
                "נניח שמישהו מזין:\nחותמת זמן: 1,288,834,975,657 (בדיוק 1,000 אלפיות שנייה אחרי ראשית הזמן של Twitter)\n",
                "נתחיל מהערכים שבטופס למעלה:\nחותמת זמן: 1,656,432,460,105 (בדיוק 367,597,485,448 אלפיות שנייה אחרי ראשית הזמן של Twitter)\n",
            ),
            (
                Lang::En,
                "Suppose someone enters:\nTimestamp: 1,288,834,975,657 (exactly 1,000 ms after the Twitter epoch)\n",
                "Take the values of the form above:\nTimestamp: 1,656,432,460,105 (exactly 367,597,485,448 ms after the Twitter epoch)\n",
            ),
        ] {
            let words = Words::of(lang);
            let html = explanation(words, &worked_example(words, Some(now))).into_string();
            let example = &html[html.find(r#"<section id="example""#).unwrap()..];
            let example = &example[..example.find("</section>").unwrap()];
            let (seed_part, reader_part) = example.split_once(r#"<div id="worked">"#).unwrap();
            let (seed_part, reader_part) = (text(seed_part), text(reader_part));
            assert!(seed_part.contains(seed), "{lang:?}: {seed_part}");
            assert!(seed_part.contains("4194439168"), "{lang:?}: {seed_part}");
            assert!(!seed_part.contains("1541815603606036480"), "{lang:?}");
            assert!(reader_part.contains(yours), "{lang:?}: {reader_part}");
            assert!(reader_part.contains("1541815603606036480"), "{lang:?}");
            // The reader's steps are the renderer's, under their own heading.
            let heading = words.get("example-yours-heading").into_string();
            assert!(example.contains(&format!("<h3>{heading}</h3>")), "{lang:?}");
        }
    }

    #[test]
    fn a_count_takes_its_nouns_plural_form() {
        let one = compose(TWITTER_EPOCH_MS + 1, 0, 0, 0).unwrap();
        let two = compose(TWITTER_EPOCH_MS + 2, 0, 0, 0).unwrap();
        for (lang, id, said) in [
            (
                Lang::He,
                one,
                "(בדיוק אלפית שנייה אחת אחרי ראשית הזמן של Twitter)",
            ),
            (
                Lang::He,
                two,
                "(בדיוק 2 אלפיות שנייה אחרי ראשית הזמן של Twitter)",
            ),
            (Lang::En, one, "(exactly 1 ms after the Twitter epoch)"),
            (Lang::Id, one, "(tepat 1 md setelah epoch Twitter)"),
        ] {
            let example = text(&worked_example(Words::of(lang), Some(id)).0);
            assert!(example.contains(said), "{lang:?}: {example}");
        }
        // The sign's one bit, beside the others' several, in the layout figure.
        for (lang, one, several) in [
            (Lang::He, "סיבית אחת", "41 סיביות"),
            (Lang::En, "1 bit", "41 bits"),
            (Lang::Id, "1 bit", "41 bit"),
        ] {
            let figure = text(&super::layout_figure(Words::of(lang)).0);
            assert!(
                figure.contains(one) && figure.contains(several),
                "{lang:?}: {figure}"
            );
        }
    }

    #[test]
    fn without_a_valid_input_the_example_says_what_to_do() {
        for lang in Lang::ALL {
            let html = worked_example(Words::of(lang), None).into_string();
            assert_eq!(
                html,
                format!(
                    r#"<p class="muted">{}</p>"#,
                    Words::of(lang).get("example-invalid").into_string()
                )
            );
        }
    }

    #[test]
    fn the_explanation_takes_its_figures_from_the_runtime() {
        assert_eq!(years_in_tenths(), 697);
        let en = text(&explanation(Words::of(Lang::En), &maud::html! {}).0);
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
            "the datacenter ID starts at bit 17 (12 + 5)",
        ] {
            assert!(en.contains(figure), "{figure}\n{en}");
        }
        let id = text(&explanation(Words::of(Lang::Id), &maud::html! {}).0);
        for figure in ["1.288.834.974.657", "69,7", "1.024", "4.096"] {
            assert!(id.contains(figure), "{figure}");
        }
        // The layout figure reads from the top bit in every language.
        for lang in Lang::ALL {
            let html = explanation(
                Words::of(lang),
                &worked_example(Words::of(lang), Some(Snowflake::MAX)),
            )
            .into_string();
            let figure = &html[html.find(r#"<figure id="layout">"#).unwrap()..];
            // The third row's cells: the bits each segment holds.
            let row = figure.split("<tr>").nth(3).unwrap();
            let positions: Vec<String> = row.split("</td>").take(5).map(text).collect();
            assert_eq!(
                positions,
                ["63", "62–22", "21–17", "16–12", "11–0"],
                "{lang:?}"
            );
        }
    }
}

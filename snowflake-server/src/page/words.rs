//! The page's words: one Fluent catalogue per language (`locales/*.ftl`), messages by id,
//! variables for what varies. A message is HTML we wrote; a variable arrives as HTML too,
//! escaped here ([`Args`]), so that nothing a reader typed becomes markup.

use std::sync::LazyLock;

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};

use super::lang::Lang;

/// The catalogues' text, built into the binary.
pub(crate) const SOURCES: [(Lang, &str); 3] = [
    (Lang::Id, include_str!("../../locales/id.ftl")),
    (Lang::He, include_str!("../../locales/he.ftl")),
    (Lang::En, include_str!("../../locales/en.ftl")),
];

/// One language's catalogue.
pub(crate) struct Words {
    lang: Lang,
    bundle: FluentBundle<FluentResource>,
}

static CATALOGUES: LazyLock<[Words; 3]> =
    LazyLock::new(|| SOURCES.map(|(lang, source)| Words::load(lang, source)));

impl Words {
    /// The catalogue of `lang`.
    pub(crate) fn of(lang: Lang) -> &'static Words {
        &CATALOGUES[lang.index()]
    }

    /// Reads a catalogue. A file that Fluent cannot read is a bug of ours, found by the
    /// first test that renders the page.
    fn load(lang: Lang, source: &str) -> Words {
        let resource = FluentResource::try_new(source.to_owned()).unwrap_or_else(|(_, errors)| {
            panic!("internal error: locales/{}.ftl: {errors:?}", lang.tag())
        });
        let tag = lang
            .tag()
            .parse()
            .expect("internal error: a language tag parses");
        let mut bundle = FluentBundle::new_concurrent(vec![tag]);
        // The page isolates what varies itself, with <bdi>, where it can see which text is
        // a number: Fluent's own marks (U+2068, U+2069) would go into every copied value.
        bundle.set_use_isolating(false);
        bundle.add_resource(resource).unwrap_or_else(|errors| {
            panic!("internal error: locales/{}.ftl: {errors:?}", lang.tag())
        });
        Words { lang, bundle }
    }

    /// The language of these words.
    pub(crate) fn lang(&self) -> Lang {
        self.lang
    }

    /// Message `id` as HTML, without variables.
    pub(crate) fn get(&self, id: &str) -> String {
        self.format(id, &Args::new(self.lang))
    }

    /// Message `id` as HTML, with `args`.
    ///
    /// # Panics
    ///
    /// In tests, where a message is missing or names a variable it was not given; in a
    /// build for users it shows what it could (Fluent writes a missing variable as its
    /// name), and the tests keep that from happening.
    pub(crate) fn format(&self, id: &str, args: &Args) -> String {
        let Some(pattern) = self.bundle.get_message(id).and_then(|m| m.value()) else {
            debug_assert!(false, "locales/{}.ftl has no message {id}", self.lang.tag());
            return id.to_owned();
        };
        let mut errors = Vec::new();
        let text = self
            .bundle
            .format_pattern(pattern, Some(&args.values), &mut errors);
        debug_assert!(
            errors.is_empty(),
            "locales/{}.ftl, {id}: {errors:?}",
            self.lang.tag()
        );
        // Code runs left to right in every language: `<<` in Hebrew text would otherwise
        // be mirrored into `>>`.
        text.replace("<code>", r#"<code dir="ltr">"#)
    }
}

/// A message's variables, each made HTML as its kind wants.
pub(crate) struct Args {
    lang: Lang,
    values: FluentArgs<'static>,
}

impl Args {
    pub(crate) fn new(lang: Lang) -> Args {
        Args {
            lang,
            values: FluentArgs::new(),
        }
    }

    /// A number for reading: grouped as the language groups digits, kept left to right.
    pub(crate) fn number(self, name: &'static str, n: u64) -> Args {
        let text = self.lang.number(n);
        self.ltr(name, &text)
    }

    /// Text that runs left to right whatever the page's direction (a value as typed, a
    /// range, a time, an ID), escaped.
    pub(crate) fn ltr(self, name: &'static str, text: &str) -> Args {
        let html = ltr(&escape(text));
        self.html(name, html)
    }

    /// Text as it is, escaped, for a message that is itself part of another one (the parts
    /// of a time, which the outer message isolates as a whole).
    pub(crate) fn plain(self, name: &'static str, text: &str) -> Args {
        let html = escape(text);
        self.html(name, html)
    }

    /// A value the reader typed, as code: escaped, left to right.
    pub(crate) fn typed(self, name: &'static str, text: &str) -> Args {
        let html = ltr(&format!("<code>{}</code>", escape(text)));
        self.html(name, html)
    }

    /// HTML made by the page itself (another message, a date).
    pub(crate) fn html(mut self, name: &'static str, html: String) -> Args {
        self.values.set(name, FluentValue::from(html));
        self
    }

    /// A number that a message chooses its words by (a plural, a month), written as is.
    pub(crate) fn select(mut self, name: &'static str, n: u64) -> Args {
        self.values.set(name, FluentValue::from(n));
        self
    }

    /// A word that a message chooses its words by (`[day]`, `[month]`).
    pub(crate) fn key(mut self, name: &'static str, key: &'static str) -> Args {
        self.values.set(name, FluentValue::from(key));
        self
    }
}

/// `html` isolated and left to right: digits and `<<` inside Hebrew text keep their order.
pub(crate) fn ltr(html: &str) -> String {
    format!(r#"<bdi dir="ltr">{html}</bdi>"#)
}

/// HTML-escapes `text`, for values echoed into the page.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, BTreeSet};

    use super::{Args, SOURCES, Words, escape};
    use crate::page::lang::Lang;

    /// Each message of a catalogue: its id and its text (value and variants), comments left
    /// out. Fluent's grammar as our files use it: `id = text`, continued on indented lines.
    fn messages(source: &str) -> BTreeMap<String, String> {
        let mut out = BTreeMap::new();
        let mut current: Option<String> = None;
        for line in source.lines() {
            if line.starts_with('#') || line.trim().is_empty() {
                current = None;
                continue;
            }
            // Indented lines, and the `}` that closes a selector, continue the message.
            if line.starts_with(' ') || line.starts_with('}') {
                let id = current.as_ref().expect("a continuation follows a message");
                let text = out.get_mut(id).expect("the message is there");
                *text = format!("{text}\n{}", line.trim());
                continue;
            }
            let (id, text) = line.split_once(" = ").expect("`id = text`");
            assert!(
                out.insert(id.to_owned(), text.to_owned()).is_none(),
                "{id} twice"
            );
            current = Some(id.to_owned());
        }
        out
    }

    /// The variables a message's text names.
    fn variables(text: &str) -> BTreeSet<String> {
        text.split('$')
            .skip(1)
            .map(|rest| {
                rest.chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                    .collect()
            })
            .collect()
    }

    #[test]
    fn every_language_has_every_message_with_the_same_variables() {
        let english = messages(SOURCES[2].1);
        assert_eq!(SOURCES[2].0, Lang::En);
        assert!(english.len() > 100, "{}", english.len());
        for (lang, source) in &SOURCES[..2] {
            let other = messages(source);
            let (ids, english_ids): (BTreeSet<_>, BTreeSet<_>) =
                (other.keys().collect(), english.keys().collect());
            assert_eq!(
                ids.symmetric_difference(&english_ids).collect::<Vec<_>>(),
                Vec::<&&String>::new(),
                "locales/{}.ftl: messages missing from one file or the other",
                lang.tag()
            );
            for (id, text) in &english {
                assert_eq!(
                    variables(&other[id]),
                    variables(text),
                    "locales/{}.ftl, {id}",
                    lang.tag()
                );
            }
        }
    }

    #[test]
    fn messages_use_only_the_markup_the_page_allows() {
        const ALLOWED: [&str; 6] = ["strong", "em", "code", "var", "sup", "a"];
        for (lang, source) in SOURCES {
            for (id, text) in messages(source) {
                let mut open = Vec::new();
                for tag in text.split('<').skip(1) {
                    let tag = tag.split('>').next().unwrap_or_default();
                    let (closing, name) = match tag.strip_prefix('/') {
                        Some(name) => (true, name),
                        None => (false, tag.split(' ').next().unwrap_or_default()),
                    };
                    assert!(
                        ALLOWED.contains(&name),
                        "locales/{}.ftl, {id}: <{tag}>",
                        lang.tag()
                    );
                    if closing {
                        assert_eq!(open.pop(), Some(name), "locales/{}.ftl, {id}", lang.tag());
                    } else {
                        open.push(name);
                    }
                }
                assert!(
                    open.is_empty(),
                    "locales/{}.ftl, {id}: {open:?}",
                    lang.tag()
                );
                // `&` only as an entity; `>` only closing a tag.
                for (i, _) in text.match_indices('&') {
                    assert!(
                        ["&amp;", "&lt;", "&gt;"]
                            .iter()
                            .any(|e| text[i..].starts_with(e)),
                        "locales/{}.ftl, {id}: a bare &",
                        lang.tag()
                    );
                }
            }
        }
    }

    #[test]
    fn no_figure_of_the_format_is_typed_into_the_words() {
        // Numbers that are not the format's: the integer's 64 bits and its top bit, Unix
        // time's 1970, a leap second's 60, RFC 3339, the steps 1 to 3, the 0 that every
        // range starts from and the 2 of 2^22. Every other figure is a variable.
        const WORDS: [&str; 9] = ["64", "63", "1970", "60", "3339", "0", "1", "2", "3"];
        for (lang, source) in SOURCES {
            for (id, text) in messages(source) {
                // A selector's keys (`[11] November`) are not text.
                let text: String = text
                    .split('[')
                    .map(|part| part.split_once(']').map_or(part, |(_, rest)| rest))
                    .collect();
                let numbers = text
                    .split(|c: char| !c.is_ascii_digit())
                    .filter(|n| !n.is_empty());
                for n in numbers {
                    assert!(
                        WORDS.contains(&n),
                        "locales/{}.ftl, {id}: {n} is typed; give it as a variable",
                        lang.tag()
                    );
                }
            }
        }
    }

    #[test]
    fn indonesian_and_hebrew_say_each_message_in_their_own_words() {
        // Where a language writes it as English does: "ID" and an article's title in
        // Indonesian, a time of day in Hebrew.
        const SAME: [(Lang, &str); 3] = [
            (Lang::Id, "result-id"),
            (Lang::Id, "source-wikipedia"),
            (Lang::He, "time"),
        ];
        let english = messages(SOURCES[2].1);
        for (lang, source) in &SOURCES[..2] {
            for (id, text) in messages(source) {
                if english[&id] == text {
                    assert!(
                        SAME.contains(&(*lang, id.as_str())),
                        "locales/{}.ftl, {id} is the English text",
                        lang.tag()
                    );
                }
            }
        }
    }

    #[test]
    fn variables_are_escaped_and_numbers_kept_left_to_right() {
        let words = Words::of(Lang::He);
        let message = words.format(
            "error-negative",
            &Args::new(Lang::He)
                .typed("text", "<b>&\"'")
                .html("expected", "…".to_owned()),
        );
        assert!(
            message.contains(
                r#"<bdi dir="ltr"><code dir="ltr">&lt;b&gt;&amp;&quot;&#39;</code></bdi>"#
            ),
            "{message}"
        );
        let args = Args::new(Lang::Id).number("n", 4_194_304_000);
        let value = args.values.get("n").expect("set");
        assert_eq!(
            format!("{value:?}"),
            format!(
                "{:?}",
                fluent_bundle::FluentValue::from(r#"<bdi dir="ltr">4.194.304.000</bdi>"#)
            )
        );
        assert_eq!(escape("a<b"), "a&lt;b");
        // Code in a message runs left to right.
        let explained = crate::page::explain::explanation(words, None);
        assert!(explained.contains(r#"<code dir="ltr">&lt;&lt;</code>"#));
    }
}

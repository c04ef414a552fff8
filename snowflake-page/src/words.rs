//! The page's words: one Fluent catalogue per language (`locales/*.ftl`), messages by id,
//! variables for what varies. A message is HTML we wrote, and comes out as [`Markup`]; a
//! variable is [`Markup`] too, text escaped on its way in ([`Args`]), so that nothing a
//! reader typed becomes markup.
//!
//! The catalogues are read by [`fluent`](crate::fluent), our reader of the part of Fluent
//! they use, small enough for the page's WebAssembly module; `fluent-bundle` is its oracle
//! in the tests.

use std::fmt;
use std::sync::{LazyLock, OnceLock};

use maud::{Markup, PreEscaped, Render, html};

use crate::fluent::{self, Messages, Value};
use crate::lang::Lang;

/// The catalogues' text, built into the library.
pub(crate) const SOURCES: [(Lang, &str); 3] = [
    (Lang::Id, include_str!("../locales/id.ftl")),
    (Lang::He, include_str!("../locales/he.ftl")),
    (Lang::En, include_str!("../locales/en.ftl")),
];

/// One language's words: its catalogue, read.
///
/// The built-in catalogues are [`Words::of`]; [`Words::parse`] reads one given as text, as
/// the static site's module does with the catalogue it is sent.
///
/// ```
/// use snowflake_page::{Lang, Words};
///
/// assert_eq!(Words::of(Lang::He).lang(), Lang::He);
/// ```
pub struct Words {
    lang: Lang,
    messages: Messages,
    /// The explanation around the reader's worked example (before it, the seed's example,
    /// after it), the same for every page in a language: written once, at the first page.
    pub(crate) around: OnceLock<[Markup; 3]>,
}

impl fmt::Debug for Words {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Words")
            .field("lang", &self.lang)
            .field("messages", &self.messages.len())
            .finish_non_exhaustive()
    }
}

static CATALOGUES: LazyLock<[Words; 3]> = LazyLock::new(|| {
    SOURCES.map(|(lang, source)| {
        // A built-in catalogue that does not read is a bug of ours, found by every test
        // that renders the page.
        Words::parse(lang, source)
            .unwrap_or_else(|e| panic!("internal error: locales/{}.ftl: {e}", lang.tag()))
    })
});

impl Words {
    /// The built-in catalogue of `lang`.
    ///
    /// ```
    /// use snowflake_page::{Lang, Words};
    ///
    /// assert_eq!(Words::of(Lang::Id).lang(), Lang::Id);
    /// ```
    pub fn of(lang: Lang) -> &'static Words {
        &CATALOGUES[lang.index()]
    }

    /// Reads the catalogue of `lang` from its text (a `locales/*.ftl` file).
    ///
    /// # Errors
    ///
    /// [`WordsError`] for text that is not Fluent as our catalogues write it, naming the
    /// line.
    ///
    /// ```
    /// use snowflake_page::{Lang, Words};
    ///
    /// let words = Words::parse(Lang::En, "page-title = Snowflake\n").unwrap();
    /// assert_eq!(words.lang(), Lang::En);
    /// let error = Words::parse(Lang::En, "page-title Snowflake\n").unwrap_err();
    /// assert_eq!(error.to_string(), "line 1: expected `id = text`");
    /// ```
    pub fn parse(lang: Lang, source: &str) -> Result<Words, WordsError> {
        let messages =
            fluent::parse(source).map_err(|(line, message)| WordsError { line, message })?;
        Ok(Words {
            lang,
            messages,
            around: OnceLock::new(),
        })
    }

    /// The language of these words.
    ///
    /// ```
    /// use snowflake_page::{Lang, Words};
    ///
    /// assert_eq!(Words::of(Lang::En).lang(), Lang::En);
    /// ```
    pub fn lang(&self) -> Lang {
        self.lang
    }

    /// Message `id` as HTML, without variables.
    pub(crate) fn get(&self, id: &str) -> Markup {
        self.format(id, &Args::new(self.lang))
    }

    /// Message `id` as HTML, with `args`.
    ///
    /// # Panics
    ///
    /// In tests, where a message is missing or names a variable it was not given; in a
    /// build for users it shows what it could (the message's id, a variable's name), and
    /// the tests keep that from happening.
    pub(crate) fn format(&self, id: &str, args: &Args) -> Markup {
        let Some(pattern) = self.messages.get(id) else {
            debug_assert!(false, "locales/{}.ftl has no message {id}", self.lang.tag());
            return html! { (id) };
        };
        // The catalogue's text is HTML we wrote, and every variable is markup already.
        PreEscaped(code_left_to_right(&fluent::format(
            pattern,
            self.lang,
            &args.values,
        )))
    }
}

/// `html` with every `<code>` marked to run left to right, as code does in every language:
/// `<<` in Hebrew text would otherwise be mirrored into `>>`. By hand, not `str::replace`,
/// whose substring search is 2 KB of the module.
fn code_left_to_right(html: &str) -> String {
    const CODE: &str = "<code>";
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(at) = rest.find('<') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        if rest.starts_with(CODE) {
            out.push_str(r#"<code dir="ltr">"#);
            rest = &rest[CODE.len()..];
        } else {
            out.push('<');
            rest = &rest[1..];
        }
    }
    out.push_str(rest);
    out
}

/// A catalogue that [`Words::parse`] could not read: the line and what is wrong there.
///
/// ```
/// use snowflake_page::{Lang, Words};
///
/// let error = Words::parse(Lang::En, "a = { $b").unwrap_err();
/// assert_eq!(error.line(), 1);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WordsError {
    line: usize,
    message: &'static str,
}

impl WordsError {
    /// The line of the catalogue, from 1.
    ///
    /// ```
    /// use snowflake_page::{Lang, Words};
    ///
    /// let error = Words::parse(Lang::En, "# a comment\nb =\n").unwrap_err();
    /// assert_eq!(error.line(), 2);
    /// ```
    pub fn line(&self) -> usize {
        self.line
    }
}

impl fmt::Display for WordsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for WordsError {}

/// A message's variables, each made HTML as its kind wants.
pub(crate) struct Args {
    lang: Lang,
    values: Vec<(&'static str, Value)>,
}

impl Args {
    pub(crate) fn new(lang: Lang) -> Args {
        Args {
            lang,
            values: Vec::new(),
        }
    }

    /// A number for reading, grouped as the language groups digits and kept left to right,
    /// that a message may also choose its words by (a plural, a month).
    pub(crate) fn number(mut self, name: &'static str, n: u64) -> Args {
        let text = ltr(self.lang.number(n)).into_string();
        self.values.push((name, Value::Number(n, text)));
        self
    }

    /// Text that runs left to right whatever the page's direction (a value as typed, a
    /// range, a time, an ID), escaped.
    pub(crate) fn ltr(self, name: &'static str, text: &str) -> Args {
        self.html(name, ltr(text))
    }

    /// Text as it is, escaped, for a message that is itself part of another one (the parts
    /// of a time, which the outer message isolates as a whole).
    pub(crate) fn plain(self, name: &'static str, text: &str) -> Args {
        self.html(name, html! { (text) })
    }

    /// A value the reader typed, as code: escaped, left to right.
    pub(crate) fn typed(self, name: &'static str, text: &str) -> Args {
        self.html(name, ltr(html! { code { (text) } }))
    }

    /// Markup made by the page itself (another message, a date).
    pub(crate) fn html(mut self, name: &'static str, html: Markup) -> Args {
        self.values.push((name, Value::Text(html.into_string())));
        self
    }

    /// A word that a message chooses its words by (`[day]`, `[month]`).
    pub(crate) fn key(mut self, name: &'static str, key: &'static str) -> Args {
        self.values.push((name, Value::Text(key.to_owned())));
        self
    }
}

/// `content` isolated and left to right: digits and `<<` inside Hebrew text keep their
/// order. Text is escaped; markup is kept.
pub(crate) fn ltr(content: impl Render) -> Markup {
    html! { bdi dir="ltr" { (content) } }
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, BTreeSet};

    use super::{Args, SOURCES, Words};
    use crate::fluent::{Element, Pattern};
    use crate::lang::Lang;

    /// Each message of a catalogue as the page's own reader reads it: its id, and its text
    /// with each variable written `{ $name }` and each selector `{ $name -> [key] text }`.
    fn messages(source: &str) -> BTreeMap<String, String> {
        let read = crate::fluent::parse(source).expect("the catalogue reads");
        let messages: BTreeMap<String, String> = read
            .iter()
            .map(|(id, pattern)| (id.clone(), written(pattern)))
            .collect();
        assert_eq!(messages.len(), read.len(), "an id twice");
        messages
    }

    /// A pattern written back as text, its variables and selectors in Fluent's words.
    fn written(pattern: &Pattern) -> String {
        use std::fmt::Write;

        let mut out = String::new();
        for element in pattern {
            match element {
                Element::Text(text) => out.push_str(text),
                Element::Variable(name) => {
                    let _ = write!(out, "{{ ${name} }}");
                }
                Element::Select {
                    selector, variants, ..
                } => {
                    let _ = write!(out, "{{ ${selector} ->");
                    for (key, variant) in variants {
                        let _ = write!(out, "\n[{key}] {}", written(variant));
                    }
                    out.push_str("\n}");
                }
            }
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
                // The name of base32, the form of an ID, is no figure.
                let text = text.replace("base32", "base");
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
        let message = words
            .format(
                "error-negative",
                &Args::new(Lang::He)
                    .typed("text", "<b>&\"'")
                    .html("expected", maud::html! { "…" }),
            )
            .into_string();
        // maud's escaping: `'` needs none, in text or in the double-quoted attributes
        // maud writes.
        assert!(
            message
                .contains(r#"<bdi dir="ltr"><code dir="ltr">&lt;b&gt;&amp;&quot;'</code></bdi>"#),
            "{message}"
        );
        let args = Args::new(Lang::Id).number("n", 4_194_304_000);
        assert_eq!(
            args.values.first().map(|(_, value)| value),
            Some(&crate::fluent::Value::Number(
                4_194_304_000,
                r#"<bdi dir="ltr">4.194.304.000</bdi>"#.to_owned()
            ))
        );
        assert_eq!(
            super::code_left_to_right("<p>a <code><<</code> b <c</p><code>"),
            r#"<p>a <code dir="ltr"><<</code> b <c</p><code dir="ltr">"#
        );
        // Code in a message runs left to right.
        let explained = crate::explain::explanation(words, &maud::html! {}).into_string();
        assert!(explained.contains(r#"<code dir="ltr">&lt;&lt;</code>"#));
    }
}

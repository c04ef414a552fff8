//! The part of Fluent (<https://projectfluent.org>) that our catalogues use, read and
//! formatted: `id = text` on one line, comments, variables (`{ $name }`), and a selector
//! (`{ $name -> [key] text *[key] text }`, a variant a line) on a string, a number or the
//! number's plural category. Ours on purpose: `fluent-bundle` with its plural rules
//! makes the page's WebAssembly module 177 KB, past its 64 KiB budget, where this is a
//! few. Text that this does not read is refused, naming the line, never read some other
//! way; `fluent-bundle` is the oracle in the tests below, over every message of every
//! catalogue.

use std::fmt::Write;

use crate::lang::Lang;

/// A variable's value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Value {
    /// Text, inserted as it is (the page's HTML), and matched against a selector's keys.
    Text(String),
    /// A number and its text: the text is inserted (the page writes a number grouped as
    /// the language groups digits, as Fluent's `NUMBER` does), and the number is matched
    /// against a selector's keys as a number, then as its plural category.
    Number(u64, String),
}

/// A message: its text and what varies in it.
pub(crate) type Pattern = Vec<Element>;

#[derive(Debug)]
pub(crate) enum Element {
    Text(String),
    Variable(String),
    Select {
        selector: String,
        variants: Vec<(String, Pattern)>,
        default: usize,
    },
}

/// A catalogue's messages, in the file's order. Found by a walk, not a map: some hundred
/// short ids, and a map's code or a sort's would be most of the module's budget.
#[derive(Debug, Default)]
pub(crate) struct Messages(Vec<(String, Pattern)>);

impl Messages {
    pub(crate) fn get(&self, id: &str) -> Option<&Pattern> {
        self.0
            .iter()
            .find_map(|(key, pattern)| (key == id).then_some(pattern))
    }

    /// Each message's id and pattern, in the file's order.
    #[cfg(test)]
    pub(crate) fn iter(&self) -> impl Iterator<Item = &(String, Pattern)> {
        self.0.iter()
    }

    pub(crate) fn len(&self) -> usize {
        self.0.len()
    }
}

/// Every message of a catalogue, or the line that cannot be read and why.
pub(crate) fn parse(source: &str) -> Result<Messages, (usize, &'static str)> {
    let lines: Vec<&str> = source.lines().collect();
    let mut messages = Messages::default();
    let mut i = 0;
    while i < lines.len() {
        let (number, line) = (i + 1, lines[i]);
        i += 1;
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let (id, first) = line
            .split_once('=')
            .filter(|(id, _)| is_identifier(id.trim_end()))
            .ok_or((number, "expected `id = text`"))?;
        let mut text = first.trim_start().to_owned();
        // A selector's variants, and the `}` that closes it, continue the message.
        while i < lines.len()
            && (lines[i].starts_with(' ') || lines[i].starts_with('}'))
            && !lines[i].trim().is_empty()
        {
            text.push('\n');
            text.push_str(lines[i]);
            i += 1;
        }
        let pattern = pattern(&text).map_err(|message| (number, message))?;
        if pattern.is_empty() {
            return Err((number, "a message without text"));
        }
        let id = id.trim_end();
        if messages.get(id).is_some() {
            return Err((number, "a message given twice"));
        }
        messages.0.push((id.to_owned(), pattern));
    }
    Ok(messages)
}

/// A message's or a variable's name: a letter, then letters, digits, `-` or `_`.
fn is_identifier(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_alphabetic())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

fn pattern(mut rest: &str) -> Result<Pattern, &'static str> {
    let mut out = Vec::new();
    while let Some(at) = rest.find('{') {
        push_text(&mut out, &rest[..at])?;
        let (element, after) = placeable(&rest[at + 1..])?;
        out.push(element);
        rest = after;
    }
    // Fluent drops the blanks that end a message.
    push_text(&mut out, rest.trim_end())?;
    Ok(out)
}

fn push_text(out: &mut Pattern, text: &str) -> Result<(), &'static str> {
    if text.contains('\n') {
        return Err("text on more than one line, which this reader does not take");
    }
    if text.contains('}') {
        return Err("a `}` outside a placeable");
    }
    if !text.is_empty() {
        out.push(Element::Text(text.to_owned()));
    }
    Ok(())
}

/// A placeable after its `{`: the element, and the text after its `}`.
fn placeable(s: &str) -> Result<(Element, &str), &'static str> {
    let s = s
        .trim_start_matches(' ')
        .strip_prefix('$')
        .ok_or("a placeable that is not a variable")?;
    let end = s
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
        .unwrap_or(s.len());
    let (name, s) = s.split_at(end);
    if !is_identifier(name) {
        return Err("a variable without a name");
    }
    let s = s.trim_start_matches(' ');
    if let Some(after) = s.strip_prefix('}') {
        return Ok((Element::Variable(name.to_owned()), after));
    }
    let mut s = s
        .strip_prefix("->")
        .ok_or("a placeable without its `}`")?
        .trim_start_matches(' ')
        .strip_prefix('\n')
        .ok_or("a selector's variants start on the line after `->`")?;
    let (mut variants, mut default) = (Vec::new(), None);
    loop {
        if s.is_empty() {
            return Err("a selector without its `}`");
        }
        let (line, next) = s.split_once('\n').unwrap_or((s, ""));
        let trimmed = line.trim_start();
        if let Some(after) = trimmed.strip_prefix('}') {
            let default = default.ok_or("a selector without a default variant, `*[key]`")?;
            let element = Element::Select {
                selector: name.to_owned(),
                variants,
                default,
            };
            return Ok((element, &s[line.len() - after.len()..]));
        }
        let (is_default, variant) = match trimmed.strip_prefix('*') {
            Some(variant) => (true, variant),
            None => (false, trimmed),
        };
        let (key, value) = variant
            .strip_prefix('[')
            .and_then(|v| v.split_once(']'))
            .ok_or("a variant that is not `[key] text`")?;
        if is_default && default.replace(variants.len()).is_some() {
            return Err("two default variants");
        }
        variants.push((key.trim().to_owned(), pattern(value.trim())?));
        s = next;
    }
}

/// `pattern` with `values`, in `lang` (whose plural rules a number selects by).
///
/// A variable that is not given is written `{$name}`, as Fluent writes it; in tests it
/// panics.
pub(crate) fn format(pattern: &Pattern, lang: Lang, values: &[(&str, Value)]) -> String {
    let mut out = String::new();
    write_pattern(&mut out, pattern, lang, values);
    out
}

fn write_pattern(out: &mut String, pattern: &Pattern, lang: Lang, values: &[(&str, Value)]) {
    let get = |name: &str| {
        values
            .iter()
            .find_map(|(key, value)| (*key == name).then_some(value))
    };
    for element in pattern {
        match element {
            Element::Text(text) => out.push_str(text),
            Element::Variable(name) => match get(name) {
                Some(Value::Text(text) | Value::Number(_, text)) => out.push_str(text),
                None => {
                    debug_assert!(false, "no value for ${name}");
                    let _ = write!(out, "{{${name}}}");
                }
            },
            Element::Select {
                selector,
                variants,
                default,
            } => {
                let value = get(selector);
                debug_assert!(value.is_some(), "no value for ${selector}");
                let chosen = match value {
                    // Text matches a key that is a name, never a number key: `[1]` is 1.
                    Some(Value::Text(text)) => variants
                        .iter()
                        .position(|(key, _)| key == text && key.parse::<u64>().is_err()),
                    Some(Value::Number(n, _)) => variants
                        .iter()
                        .position(|(key, _)| key.parse() == Ok(*n))
                        .or_else(|| {
                            let category = plural_category(lang, *n);
                            variants.iter().position(|(key, _)| key == category)
                        }),
                    None => None,
                };
                write_pattern(out, &variants[chosen.unwrap_or(*default)].1, lang, values);
            }
        }
    }
}

/// CLDR's cardinal plural category of a whole number `n` in `lang`. Hebrew's `many` (20,
/// 30, ...) was merged into `other` in CLDR 42; `fluent-bundle`'s rules still have it, so
/// that a catalogue that wrote `[many]` would read otherwise here than there, and the
/// oracle would say so.
fn plural_category(lang: Lang, n: u64) -> &'static str {
    match (lang, n) {
        (Lang::En | Lang::He, 1) => "one",
        (Lang::He, 2) => "two",
        _ => "other",
    }
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeSet, HashMap};

    use fluent_bundle::{FluentArgs, FluentBundle, FluentResource, FluentValue};

    use super::{Element, Pattern, Value, format, parse};
    use crate::lang::Lang;
    use crate::words::SOURCES;

    /// The variables of `pattern`: those written, and those selected by with their keys.
    fn variables(
        pattern: &Pattern,
        plain: &mut BTreeSet<String>,
        selectors: &mut HashMap<String, Vec<String>>,
    ) {
        for element in pattern {
            match element {
                Element::Text(_) => {}
                Element::Variable(name) => {
                    plain.insert(name.clone());
                }
                Element::Select {
                    selector, variants, ..
                } => {
                    for (key, variant) in variants {
                        selectors
                            .entry(selector.clone())
                            .or_default()
                            .push(key.clone());
                        variables(variant, plain, selectors);
                    }
                }
            }
        }
    }

    #[test]
    fn every_message_reads_as_fluent_bundle_reads_it() {
        let mut compared = 0;
        for (lang, source) in SOURCES {
            let ours = parse(source).expect("our catalogues read");
            let resource = FluentResource::try_new(source.to_owned()).expect("Fluent reads them");
            let mut bundle = FluentBundle::new(vec![lang.tag().parse().expect("a tag")]);
            bundle.set_use_isolating(false);
            // A number's text, as the test's numbers give it.
            bundle.set_formatter(Some(|value, _| match value {
                FluentValue::Number(n) => Some(format!("<n>{}</n>", n.value)),
                _ => None,
            }));
            bundle.add_resource(resource).expect("no message twice");
            assert_eq!(
                ours.len(),
                bundle_len(source),
                "locales/{}.ftl: every message read",
                lang.tag()
            );
            for (id, pattern) in &ours.0 {
                let (mut plain, mut selectors) = (BTreeSet::new(), HashMap::new());
                variables(pattern, &mut plain, &mut selectors);
                // Each selector in turn over its keys and numbers, the others at a key.
                let mut cases: Vec<HashMap<String, Value>> = Vec::new();
                let base: HashMap<String, Value> = plain
                    .iter()
                    .map(|name| (name.clone(), Value::Text(format!("<i>{name}</i>"))))
                    .chain(
                        selectors
                            .iter()
                            .map(|(name, keys)| (name.clone(), Value::Text(keys[0].clone()))),
                    )
                    .collect();
                cases.push(base.clone());
                for (name, keys) in &selectors {
                    let texts = keys
                        .iter()
                        .map(|k| Value::Text(k.clone()))
                        .chain([Value::Text("none of them".to_owned())]);
                    let numbers = (0..=130)
                        .chain([1_000, 1_001, 1_000_000])
                        .map(|n| Value::Number(n, format!("<n>{n}</n>")));
                    for value in texts.chain(numbers) {
                        let mut case = base.clone();
                        case.insert(name.clone(), value);
                        cases.push(case);
                    }
                }
                let message = bundle
                    .get_message(id)
                    .and_then(|m| m.value())
                    .expect("Fluent has it");
                for case in cases {
                    let mut args = FluentArgs::new();
                    for (name, value) in &case {
                        let value = match value {
                            Value::Text(text) => FluentValue::from(text.clone()),
                            Value::Number(n, _) => FluentValue::from(*n),
                        };
                        args.set(name.clone(), value);
                    }
                    let mut errors = Vec::new();
                    let theirs = bundle.format_pattern(message, Some(&args), &mut errors);
                    assert!(errors.is_empty(), "{id}: {errors:?}");
                    let values: Vec<_> =
                        case.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
                    assert_eq!(
                        format(pattern, lang, &values),
                        theirs,
                        "locales/{}.ftl, {id}, {case:?}",
                        lang.tag()
                    );
                    compared += 1;
                }
            }
        }
        assert!(compared > 1_500, "{compared}");
    }

    /// How many messages Fluent's own parser finds in `source`.
    fn bundle_len(source: &str) -> usize {
        let resource = FluentResource::try_new(source.to_owned()).expect("Fluent reads it");
        resource
            .entries()
            .filter(|e| matches!(e, fluent_syntax::ast::Entry::Message(_)))
            .count()
    }

    #[test]
    fn what_this_reader_does_not_take_is_refused_with_its_line() {
        for (source, line, message) in [
            ("a = b\nc d\n", 2, "expected `id = text`"),
            ("1a = b\n", 1, "expected `id = text`"),
            ("a =\n", 1, "a message without text"),
            ("a = b\na = c\n", 2, "a message given twice"),
            ("a = { b }\n", 1, "a placeable that is not a variable"),
            ("a = { $ }\n", 1, "a variable without a name"),
            ("a = { $b\n", 1, "a placeable without its `}`"),
            ("a = b }\n", 1, "a `}` outside a placeable"),
            (
                "a = b\n    c\n",
                1,
                "text on more than one line, which this reader does not take",
            ),
            (
                "a = { $b -> [x] y\n}\n",
                1,
                "a selector's variants start on the line after `->`",
            ),
            ("a = { $b ->\n    [x] y\n", 1, "a selector without its `}`"),
            (
                "a = { $b ->\n    [x] y\n}\n",
                1,
                "a selector without a default variant, `*[key]`",
            ),
            (
                "a = { $b ->\n   *[x] y\n   *[z] w\n}\n",
                1,
                "two default variants",
            ),
            (
                "a = { $b ->\n    x y\n   *[z] w\n}\n",
                1,
                "a variant that is not `[key] text`",
            ),
        ] {
            assert_eq!(parse(source).err(), Some((line, message)), "{source:?}");
        }
    }

    #[test]
    fn a_number_selects_by_its_value_then_its_plural_category() {
        let messages = parse("a = { $n ->\n    [0] none\n    [one] one\n    [two] two\n   *[other] { $n } of them\n} left\n").expect("reads");
        let a = messages.get("a").expect("there");
        let said = |lang, n: u64| format(a, lang, &[("n", Value::Number(n, n.to_string()))]);
        assert_eq!(said(Lang::En, 0), "none left");
        assert_eq!(said(Lang::En, 1), "one left");
        assert_eq!(said(Lang::En, 2), "2 of them left");
        assert_eq!(said(Lang::He, 2), "two left");
        assert_eq!(said(Lang::Id, 1), "1 of them left");
        assert_eq!(
            format(a, Lang::En, &[("n", Value::Text("0".to_owned()))]),
            "0 of them left"
        );
    }
}

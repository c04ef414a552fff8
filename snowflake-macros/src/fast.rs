//! The call as nearly every call is written, expanded without syn: `[krate]`, then
//! `key = literal` pairs separated by commas, each key once, `ts` a decimal number or a
//! plain string, the others decimal numbers, every value in its range; or a pasted `id`,
//! decimal digits or a plain string of base32 without a prefix, not near the epoch, each
//! field stated beside it its own. Anything else (a
//! suffix, another base, a raw name, an escape in the string, `ts` left out, a mistake of
//! any kind) returns `None`, and the full reader takes the call: every error, span and
//! suggestion is that reader's alone. The expansion is `expand`'s, token for token (a
//! test holds the two paths to the same output).
//!
//! Why: a file of constants holds thousands of calls, and syn's reading (a token buffer,
//! a `Lit` per literal, `syn::Error`s kept on the way) was most of a call's time.

use snowflake_runtime::Field;

/// A literal's value as this path reads it: decimal digits (with `_` between them, and no
/// suffix) for every field, or for `ts` a string without escapes, read as the runtime reads
/// a date.
fn value(field: Field, literal: &str) -> Option<u64> {
    if let Some(text) = literal.strip_prefix('"') {
        let text = text.strip_suffix('"')?;
        if field != Field::Timestamp || text.contains(['\\', '"']) {
            return None;
        }
        return Field::Timestamp.parse(text).ok();
    }
    let mut value: u64 = 0;
    let mut digits = 0;
    for byte in literal.bytes() {
        match byte {
            b'0'..=b'9' => {
                value = value.checked_mul(10)?.checked_add(u64::from(byte - b'0'))?;
                digits += 1;
            }
            // After a digit: a literal cannot start with `_`.
            b'_' if digits > 0 => {}
            // A suffix, another base, a fraction: the full reader's.
            _ => return None,
        }
    }
    (digits > 0).then_some(value)
}

/// A pasted ID's literal as this path reads it: decimal digits, or a string of base32
/// without a prefix or an escape, read as the runtime reads them; not near the epoch.
fn pasted(literal: &str) -> Option<snowflake_runtime::Snowflake> {
    use snowflake_runtime::Snowflake;
    let id = match literal.strip_prefix('"') {
        Some(text) => {
            let text = text.strip_suffix('"')?;
            if text.contains(['\\', '"', '_']) {
                return None;
            }
            Snowflake::from_base32(text).ok()?
        }
        None => Snowflake::try_from_u64(value(Field::Sequence, literal)?).ok()?,
    };
    (!id.is_near_epoch()).then_some(id)
}

/// One body for two sets of token types: the compiler's, which the macro runs on (through
/// `proc_macro2` every token would be wrapped and unwrapped again), and `proc_macro2`'s,
/// which the unit tests drive. The two APIs are the same for every call here.
macro_rules! plain_form {
    ($tokens:ident) => {
        use snowflake_runtime::{Field, compose};
        use $tokens::{
            Delimiter, Group, Ident, Literal, Punct, Spacing, Span, TokenStream, TokenTree,
        };

        /// The expansion of a call in the plain form, or `None` for the full reader to take it.
        pub(crate) fn expand(input: &TokenStream) -> Option<TokenStream> {
            let mut tokens = input.clone().into_iter();
            let krate = match tokens.next()? {
                TokenTree::Group(group) if group.delimiter() == Delimiter::Bracket => {
                    group.stream()
                }
                _ => return None,
            };
            let mut values: [Option<u64>; 4] = [None; 4];
            let mut id = None;
            loop {
                let key = match tokens.next() {
                    None => break,
                    Some(TokenTree::Ident(key)) => key,
                    Some(_) => return None,
                };
                match tokens.next()? {
                    TokenTree::Punct(eq)
                        if eq.as_char() == '=' && eq.spacing() == Spacing::Alone => {}
                    _ => return None,
                }
                let TokenTree::Literal(literal) = tokens.next()? else {
                    return None;
                };
                // A raw name (`r#ts`) is not a key here: the full reader unraws it.
                let key = key.to_string();
                if key == "id" && id.is_none() {
                    id = Some(super::pasted(&literal.to_string())?);
                    match tokens.next() {
                        None => break,
                        Some(TokenTree::Punct(comma)) if comma.as_char() == ',' => continue,
                        Some(_) => return None,
                    }
                }
                let field = Field::from_key(&key)?;
                let slot = &mut values[field as usize];
                if slot.is_some() {
                    return None;
                }
                let value = super::value(field, &literal.to_string())?;
                field.check(value).ok()?;
                *slot = Some(value);
                match tokens.next() {
                    None => break,
                    Some(TokenTree::Punct(comma)) if comma.as_char() == ',' => {}
                    Some(_) => return None,
                }
            }
            let id = match id {
                // Every field stated is the ID's: else the full reader says which is not.
                Some(id) => {
                    let parts = id.parts();
                    let held = [
                        parts.timestamp_ms,
                        u64::from(parts.datacenter),
                        u64::from(parts.machine),
                        u64::from(parts.sequence),
                    ];
                    if values
                        .iter()
                        .zip(held)
                        .any(|(stated, held)| stated.is_some_and(|s| s != held))
                    {
                        return None;
                    }
                    id
                }
                None => {
                    // `ts` left out is the build time, which the full reader tracks; `seq` is 0.
                    let [Some(ts), Some(dc), Some(machine), seq] = values else {
                        return None;
                    };
                    compose(ts, dc, machine, seq.unwrap_or(0)).ok()?
                }
            };
            // `KRATE::__private::baked(IDu64, "BITS")`, built token by token: text parsed into
            // tokens would be lexed twice, by proc_macro2 to check it and by the compiler.
            let span = Span::call_site();
            let path = |name: &str| {
                [
                    TokenTree::Punct(Punct::new(':', Spacing::Joint)),
                    TokenTree::Punct(Punct::new(':', Spacing::Alone)),
                    TokenTree::Ident(Ident::new(name, span)),
                ]
            };
            let binary = id.segmented_binary().to_bytes();
            let args = [
                TokenTree::Literal(Literal::u64_suffixed(id.as_u64())),
                TokenTree::Punct(Punct::new(',', Spacing::Alone)),
                // ASCII digits and spaces: always UTF-8.
                TokenTree::Literal(Literal::string(std::str::from_utf8(&binary).ok()?)),
            ];
            let mut out = krate;
            out.extend(path("__private"));
            out.extend(path("baked"));
            out.extend([TokenTree::Group(Group::new(
                Delimiter::Parenthesis,
                args.into_iter().collect(),
            ))]);
            Some(out)
        }
    };
}

/// On the compiler's tokens.
pub(crate) mod compiler {
    plain_form!(proc_macro);
}

/// On `proc_macro2`'s, outside the compiler.
#[cfg(test)]
pub(crate) mod fallback {
    plain_form!(proc_macro2);
}

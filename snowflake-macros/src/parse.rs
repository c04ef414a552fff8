//! Tokens -> [`Invocation`]: the syntax only. What the keys and values mean is `check`'s job,
//! so that one build reports every wrong key and value at once.
//!
//! The grammar, as the facade's `snowflake!` forwards it:
//!
//! ```text
//! invocation = "[" krate "]" [ arg { "," arg } [ "," ] ]
//! arg        = key "=" value
//! ```
//!
//! A slip in one argument (`dc: 1`, `dc == 1`, a missing comma, `;`) is recorded
//! on that argument and reading goes on, so the other arguments are still checked.

use proc_macro2::{Delimiter, Spacing, TokenStream, TokenTree};
use quote::ToTokens;
use syn::ext::IdentExt;
use syn::parse::{Parse, ParseStream};
use syn::{Ident, Lit, Token};

/// `[$crate] key = value, ...`.
pub(crate) struct Invocation {
    /// The facade's path (`$crate`), put in front of every path the expansion names.
    pub(crate) krate: TokenStream,
    pub(crate) args: Vec<Arg>,
}

/// One `key = value`, as far as it could be read.
pub(crate) struct Arg {
    /// Syntax slips before the value: in the key or the operator.
    pub(crate) slips: Vec<syn::Error>,
    /// Syntax slips after the value: a missing comma, a `;`.
    pub(crate) slips_after: Vec<syn::Error>,
    /// The key, unless the argument did not start with a name.
    pub(crate) key: Option<Ident>,
    /// The value, unless there was none.
    pub(crate) value: Option<Value>,
}

/// A value as written, kept whole so that errors can point at it.
pub(crate) enum Value {
    /// One literal of any kind.
    Lit(Lit),
    /// `-` and a literal: the tokens, and the literal.
    Negative(TokenStream, Lit),
    /// Anything else: a name, a path, an expression.
    Other(TokenStream),
}

/// The facade's path from the leading `[...]`, if the call has one: what a call whose
/// arguments do not parse still needs to name its type.
pub(crate) fn krate(input: &TokenStream) -> Option<TokenStream> {
    match input.clone().into_iter().next()? {
        TokenTree::Group(group) if group.delimiter() == Delimiter::Bracket => Some(group.stream()),
        _ => None,
    }
}

impl Parse for Invocation {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        let krate;
        syn::bracketed!(krate in input);
        let krate: TokenStream = krate.parse()?;
        let mut args = Vec::new();
        while !input.is_empty() {
            let mut arg: Arg = input.parse()?;
            separator(input, &mut arg)?;
            args.push(arg);
        }
        Ok(Invocation { krate, args })
    }
}

impl Parse for Arg {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        let mut arg = Arg {
            slips: Vec::new(),
            slips_after: Vec::new(),
            key: None,
            value: None,
        };
        if !input.peek(Ident::peek_any) {
            let rest = rest_of_argument(input)?;
            arg.slips.push(if rest.is_empty() {
                // `,,` or `;` where an argument belongs.
                input.error("expected an argument such as `dc = 1`")
            } else {
                syn::Error::new_spanned(
                    &rest,
                    format!("expected an argument such as `dc = 1`, found `{rest}`"),
                )
            });
            return Ok(arg);
        }
        let key = input.call(Ident::parse_any)?;
        let name = key.unraw();
        if at_argument_end(input) && name == crate::pasted::NEAR_EPOCH {
            // A word alone: a flag.
        } else if at_argument_end(input) {
            arg.slips.push(syn::Error::new(
                key.span(),
                format!("expected `=` and a value after `{name}`"),
            ));
        } else {
            let op = operator(input, &name, &mut arg.slips)?;
            if at_argument_end(input) {
                let message = format!("expected a value for `{name}` after `=`");
                arg.slips.push(if op.is_empty() {
                    syn::Error::new(key.span(), message)
                } else {
                    syn::Error::new_spanned(op, message)
                });
            } else {
                arg.value = Some(value(input, &name, &mut arg.slips_after)?);
            }
        }
        arg.key = Some(key);
        Ok(arg)
    }
}

/// `=`, or a slip under whatever operator stands there instead (`==`, `=>`, `:`, `:=`).
/// Returns the operator's tokens, for a slip about what follows it.
fn operator(
    input: ParseStream<'_>,
    key: &Ident,
    slips: &mut Vec<syn::Error>,
) -> syn::Result<TokenStream> {
    let mut op = TokenStream::new();
    let mut written = String::new();
    // Punctuation joined to the one before it, as long as it could still be part of
    // an operator: `dc =-1` is `=` and `-1`, `dc =, ..` is `=` and a missing value.
    while let Some((TokenTree::Punct(punct), _)) = input.cursor().token_tree() {
        let continues = match written.chars().last() {
            None => true,
            Some('=') => matches!(punct.as_char(), '=' | '>'),
            Some(_) => matches!(punct.as_char(), '=' | ':' | '>'),
        };
        if !continues {
            break;
        }
        input.parse::<TokenTree>()?;
        written.push(punct.as_char());
        let joint = punct.spacing() == Spacing::Joint;
        op.extend([TokenTree::Punct(punct)]);
        if !joint {
            break;
        }
    }
    if written != "=" {
        let message = if written.is_empty() {
            format!("expected `=` after `{key}`")
        } else {
            format!("expected `=` after `{key}`, found `{written}`")
        };
        let error = if op.is_empty() {
            input.error(message)
        } else {
            syn::Error::new_spanned(&op, message)
        };
        slips.push(error);
    }
    Ok(op)
}

/// A value: a literal (maybe after `-`), or every token up to the next comma.
fn value(input: ParseStream<'_>, key: &Ident, slips: &mut Vec<syn::Error>) -> syn::Result<Value> {
    let mut tokens = TokenStream::new();
    if input.peek(Token![-]) {
        tokens.extend([input.parse::<TokenTree>()?]);
    }
    if !at_argument_end(input) {
        tokens.extend([input.parse::<TokenTree>()?]);
    }
    let value = if at_argument_end(input) || next_is_key(input) {
        Value::classify(tokens)
    } else {
        // A name or an expression: keep all of it, for the error that `check` reports.
        while !at_argument_end(input) && !next_is_key(input) {
            tokens.extend([input.parse::<TokenTree>()?]);
        }
        Value::Other(tokens)
    };
    if !at_argument_end(input) {
        // `dc = 1 machine = 2`: the next argument has begun, so a comma is missing.
        slips.push(input.error(format!("expected `,` after the value of `{key}`")));
    }
    Ok(value)
}

/// After an argument: a comma, the end, or a slip (`;`, or a missing comma) that
/// is recorded on `arg` before reading goes on.
fn separator(input: ParseStream<'_>, arg: &mut Arg) -> syn::Result<()> {
    if input.is_empty() {
        return Ok(());
    }
    if input.peek(Token![,]) {
        input.parse::<Token![,]>()?;
    } else if input.peek(Token![;]) {
        let semi: Token![;] = input.parse()?;
        arg.slips_after.push(syn::Error::new(
            semi.span,
            "expected `,` between arguments, found `;`",
        ));
    }
    // Otherwise `value` has recorded the missing comma before a `key =`.
    Ok(())
}

/// Whether the argument ends here: at a comma, a `;` or the end of the call.
fn at_argument_end(input: ParseStream<'_>) -> bool {
    input.is_empty() || input.peek(Token![,]) || input.peek(Token![;])
}

/// Whether a name and what reads as its operator come next (`machine =`, `machine:`,
/// `machine =>`): the start of the next argument, where a value cannot go on.
/// `consts::DC` is a path, not a key.
fn next_is_key(input: ParseStream<'_>) -> bool {
    let Some((_, rest)) = input.cursor().ident() else {
        return false;
    };
    match rest.punct() {
        Some((p, _)) if p.as_char() == '=' => true,
        Some((p, _)) => p.as_char() == ':' && p.spacing() == Spacing::Alone,
        None => false,
    }
}

/// Every token up to the next comma or `;`, or the end of the call.
fn rest_of_argument(input: ParseStream<'_>) -> syn::Result<TokenStream> {
    let mut tokens = TokenStream::new();
    while !at_argument_end(input) {
        tokens.extend([input.parse::<TokenTree>()?]);
    }
    Ok(tokens)
}

impl Value {
    fn classify(tokens: TokenStream) -> Value {
        let trees: Vec<TokenTree> = tokens.clone().into_iter().collect();
        match trees.as_slice() {
            // A `$x:literal` or `$x:expr` from a caller's own macro arrives in an invisible group.
            [TokenTree::Group(g)] if g.delimiter() == Delimiter::None => {
                Value::classify(g.stream())
            }
            [TokenTree::Literal(lit)] => Value::Lit(Lit::new(lit.clone())),
            [TokenTree::Punct(minus), rest @ ..] if minus.as_char() == '-' => {
                match Value::classify(rest.iter().cloned().collect()) {
                    Value::Lit(lit) => Value::Negative(tokens, lit),
                    _ => Value::Other(tokens),
                }
            }
            _ => Value::Other(tokens),
        }
    }
}

impl ToTokens for Value {
    fn to_tokens(&self, out: &mut TokenStream) {
        match self {
            Value::Lit(lit) => lit.to_tokens(out),
            Value::Negative(tokens, _) | Value::Other(tokens) => tokens.to_tokens(out),
        }
    }
}

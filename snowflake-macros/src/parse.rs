//! Tokens -> [`Invocation`]: the syntax only. What the keys and values mean is `check`'s job,
//! so that one build reports every wrong key and value at once.

use proc_macro2::{Delimiter, TokenStream, TokenTree};
use syn::ext::IdentExt;
use syn::parse::{Parse, ParseStream};
use syn::{Ident, Lit, Token};

/// `[$crate] key = value, ...` as the facade's `snowflake!` forwards it.
pub(crate) struct Invocation {
    /// The facade's path (`$crate`), put in front of every path the expansion names.
    pub(crate) krate: TokenStream,
    pub(crate) args: Vec<Arg>,
}

/// One `key = value`.
pub(crate) struct Arg {
    pub(crate) key: Ident,
    pub(crate) value: Value,
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

impl Parse for Invocation {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        let krate;
        syn::bracketed!(krate in input);
        let krate: TokenStream = krate.parse()?;
        let mut args = Vec::new();
        while !input.is_empty() {
            if !input.peek(Ident::peek_any) {
                return Err(input.error("expected an argument such as `dc = 1`"));
            }
            let key = input.call(Ident::parse_any)?;
            let eq: Token![=] = input
                .parse()
                .map_err(|e| syn::Error::new(e.span(), format!("expected `=` after `{key}`")))?;
            if input.is_empty() || input.peek(Token![,]) {
                return Err(syn::Error::new(
                    eq.span,
                    format!("expected a value for `{key}` after `=`"),
                ));
            }
            let mut tokens = TokenStream::new();
            if input.peek(Token![-]) {
                tokens.extend([input.parse::<TokenTree>()?]);
            }
            if !input.is_empty() && !input.peek(Token![,]) {
                tokens.extend([input.parse::<TokenTree>()?]);
            }
            let value = Value::classify(tokens.clone());
            if !input.is_empty() && !input.peek(Token![,]) {
                if !matches!(value, Value::Other(_))
                    && input.peek(Ident::peek_any)
                    && input.peek2(Token![=])
                {
                    // `dc = 1 machine = 2`: the next argument has begun, so a comma is missing.
                    return Err(input.error(format!("expected `,` after the value of `{key}`")));
                }
                // A name or an expression: keep all of it, for the error that `check` reports.
                while !input.is_empty() && !input.peek(Token![,]) {
                    tokens.extend([input.parse::<TokenTree>()?]);
                }
                args.push(Arg {
                    key,
                    value: Value::Other(tokens),
                });
            } else {
                args.push(Arg { key, value });
            }
            if !input.is_empty() {
                input.parse::<Token![,]>()?;
            }
        }
        Ok(Invocation { krate, args })
    }
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

impl quote::ToTokens for Value {
    fn to_tokens(&self, out: &mut TokenStream) {
        match self {
            Value::Lit(lit) => lit.to_tokens(out),
            Value::Negative(tokens, _) | Value::Other(tokens) => tokens.to_tokens(out),
        }
    }
}

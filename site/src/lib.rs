//! The page as static files: `snowflake-page`'s renderer built for
//! `wasm32-unknown-unknown`, the module the static site's pages load, so that the browser
//! computes everything the server would: composing, decoding, every field's rules and
//! error, the worked example, in the page's language. The page's script passes text in and
//! shows what comes out ([`snowflake_page::SCRIPT`]).
//!
//! Each export reads its text from the buffer that [`input`] makes and writes its answer
//! where [`output`] points, returning the answer's length in bytes. The same functions run
//! natively ([`render`], [`negotiate`], [`load_words`]), as the tests compare them.
//!
//! The module has one thread: the browser runs it on the page's, and
//! `wasm32-unknown-unknown` has no other. Its state is that thread's (`thread_local!`), and
//! its contract with the script is one of turns: the buffer [`input`] points to is written
//! before the next export is called, and the answer [`output`] points to is read before
//! another call; a call moves or frees both.
//!
//! ```
//! use snowflake_site::{load_words, render};
//!
//! let english = snowflake_page::catalogue(snowflake_page::Lang::En);
//! assert_eq!(load_words(&format!("en\n{english}")), "");
//! let parts = render("dc=1&machine=1&ts=1288834975657", 0);
//! assert!(parts.contains(r#"<output id="id" dir="ltr">4194439168</output>"#), "{parts}");
//! ```

use std::cell::RefCell;

use snowflake_kit::Clock;
use snowflake_page::{Hosting, Lang, Words, render_parts};

/// A free list, not std's dlmalloc: a few hundred bytes of the module, not some 8 KB; each
/// render frees what it made, and the next reuses it. Locked, so that no unsafe code says
/// the module has one thread, though the browser gives it only one.
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOCATOR: lol_alloc::LockedAllocator<lol_alloc::FreeListAllocator> =
    lol_alloc::LockedAllocator::new(lol_alloc::FreeListAllocator::new());

thread_local! {
    /// The text each export reads, written by the page's script.
    static INPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    /// Each export's answer, read by the page's script.
    static OUTPUT: RefCell<String> = const { RefCell::new(String::new()) };
    /// The catalogue of the page's language, as [`load_words`] read it.
    static WORDS: RefCell<Option<Words>> = const { RefCell::new(None) };
}

/// The time the script says it is, for a blank timestamp: the browser's clock.
struct BrowserClock(u64);

impl Clock for BrowserClock {
    fn now_ms(&self) -> u64 {
        self.0
    }
}

/// Reads `TAG\nCATALOGUE`: the page's language and its catalogue, the file
/// `locales/TAG.ftl`. Empty when read; otherwise what is wrong, and the catalogue
/// that was read before is kept.
///
/// ```
/// use snowflake_site::load_words;
///
/// assert_eq!(load_words("fr\na = b"), "not a language of the page: fr");
/// assert_eq!(load_words("he\na b"), "line 1: expected `id = text`");
/// ```
pub fn load_words(text: &str) -> String {
    let (tag, catalogue) = text.split_once('\n').unwrap_or((text, ""));
    let Some(lang) = Lang::ALL.into_iter().find(|lang| lang.tag() == tag) else {
        return format!("not a language of the page: {tag}");
    };
    match Words::parse(lang, catalogue) {
        Ok(words) => {
            WORDS.set(Some(words));
            String::new()
        }
        Err(e) => e.to_string(),
    }
}

/// The parts of the page that follow `query`'s values (a query string, as the page's
/// address and its forms write it), rendered with the catalogue that [`load_words`] read
/// (none before: an empty answer); a blank timestamp is `now_ms`. What the server's page would
/// show for the same query, part for part ([`render_parts`]).
///
/// ```
/// use snowflake_site::{load_words, render};
///
/// assert_eq!(load_words(&format!("en\n{}", snowflake_page::catalogue(snowflake_page::Lang::En))), "");
/// let parts = render("id=4194439168", 1_700_000_000_000);
/// assert!(parts.contains(r#"<input id="seq" name="seq" value="0""#), "{parts}");
/// ```
pub fn render(query: &str, now_ms: u64) -> String {
    // In order: of a key given twice, the last, as the server's page reads it.
    let params: Vec<(String, String)> = form_urlencoded::parse(query.as_bytes())
        .into_owned()
        .collect();
    // The built-in catalogues are not called on here: they would put all three languages'
    // words into the module, which is sent only the page's.
    WORDS.with_borrow(|words| {
        words.as_ref().map_or_else(String::new, |words| {
            render_parts(words, Hosting::StaticFiles, &params, &BrowserClock(now_ms))
        })
    })
}

/// The tag of the language that `languages` prefers among the page's, as the browser
/// lists them (`navigator.languages`, joined by commas); English when it names none of
/// them ([`Lang::negotiate`]).
///
/// ```
/// assert_eq!(snowflake_site::negotiate("de-CH,iw,en"), "he");
/// ```
pub fn negotiate(languages: &str) -> &'static str {
    Lang::negotiate(Some(languages)).tag()
}

/// A buffer of `len` bytes for the text of the next call: where the script writes it.
#[cfg_attr(
    target_arch = "wasm32",
    allow(unsafe_code, reason = "an export needs a fixed name")
)]
#[cfg_attr(target_arch = "wasm32", unsafe(no_mangle))]
pub extern "C" fn input(len: usize) -> *mut u8 {
    INPUT.with_borrow_mut(|input| {
        input.clear();
        input.resize(len, 0);
        input.as_mut_ptr()
    })
}

/// Where the last answer is, for the script to read as many bytes as the call returned.
#[cfg_attr(
    target_arch = "wasm32",
    allow(unsafe_code, reason = "an export needs a fixed name")
)]
#[cfg_attr(target_arch = "wasm32", unsafe(no_mangle))]
pub extern "C" fn output() -> *const u8 {
    OUTPUT.with_borrow(|output| output.as_ptr())
}

/// The input's text handed to `f`, its answer kept for [`output`]; the answer's length.
fn answer(f: impl FnOnce(&str) -> String) -> usize {
    // The script writes UTF-8 (`TextEncoder`), and nothing else: other bytes read as no
    // text at all.
    let answer = INPUT.with_borrow(|input| f(std::str::from_utf8(input).unwrap_or_default()));
    let len = answer.len();
    OUTPUT.set(answer);
    len
}

/// [`load_words`] on the input.
#[cfg_attr(
    target_arch = "wasm32",
    allow(unsafe_code, reason = "an export needs a fixed name")
)]
#[cfg_attr(target_arch = "wasm32", unsafe(no_mangle))]
pub extern "C" fn words() -> usize {
    answer(load_words)
}

/// [`render`] on the input; `now_ms` as JavaScript's `Date.now()` gives it.
#[cfg_attr(
    target_arch = "wasm32",
    allow(unsafe_code, reason = "an export needs a fixed name")
)]
#[cfg_attr(target_arch = "wasm32", unsafe(export_name = "render"))]
pub extern "C" fn render_input(now_ms: f64) -> usize {
    // A time the browser cannot have (negative, not a number) reads as 0, which the
    // rules then refuse as before the epoch.
    #[allow(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "saturating: Date.now() is a whole number of ms"
    )]
    let now_ms = now_ms as u64;
    answer(|query| render(query, now_ms))
}

/// [`negotiate`] on the input.
#[cfg_attr(
    target_arch = "wasm32",
    allow(unsafe_code, reason = "an export needs a fixed name")
)]
#[cfg_attr(target_arch = "wasm32", unsafe(export_name = "negotiate"))]
pub extern "C" fn negotiate_input() -> usize {
    answer(|languages| negotiate(languages).to_owned())
}

//! The page's languages: where each lives, how it writes and reads numbers, and which one
//! a browser's `Accept-Language` asks for.

use std::borrow::Cow;

/// A language the page is written in.
///
/// ```
/// use snowflake_page::Lang;
///
/// assert_eq!(Lang::negotiate(Some("he")), Lang::He);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Lang {
    /// Indonesian, the first seed's language.
    Id,
    /// Hebrew, the second seed's, written right to left.
    He,
    /// English, for everyone else.
    En,
}

impl Lang {
    /// Every language, in the order the page lists them.
    ///
    /// ```
    /// use snowflake_page::Lang;
    ///
    /// assert_eq!(Lang::ALL.map(Lang::tag), ["id", "he", "en"]);
    /// ```
    pub const ALL: [Lang; 3] = [Lang::Id, Lang::He, Lang::En];

    /// Its place in [`Lang::ALL`].
    pub(crate) const fn index(self) -> usize {
        match self {
            Lang::Id => 0,
            Lang::He => 1,
            Lang::En => 2,
        }
    }

    /// Its BCP 47 tag, as `lang` and `hreflang` write it, and its path's name.
    ///
    /// ```
    /// assert_eq!(snowflake_page::Lang::He.tag(), "he");
    /// ```
    pub const fn tag(self) -> &'static str {
        match self {
            Lang::Id => "id",
            Lang::He => "he",
            Lang::En => "en",
        }
    }

    /// The path of its page on the server, and its folder's name in the static site.
    ///
    /// ```
    /// assert_eq!(snowflake_page::Lang::Id.path(), "/id/");
    /// ```
    pub const fn path(self) -> &'static str {
        match self {
            Lang::Id => "/id/",
            Lang::He => "/he/",
            Lang::En => "/en/",
        }
    }

    /// Its name in itself, as a reader looks for it in a list of languages.
    ///
    /// ```
    /// assert_eq!(snowflake_page::Lang::Id.autonym(), "Bahasa Indonesia");
    /// ```
    pub const fn autonym(self) -> &'static str {
        match self {
            Lang::Id => "Bahasa Indonesia",
            Lang::He => "עברית",
            Lang::En => "English",
        }
    }

    /// The direction its text runs, as `dir` writes it.
    ///
    /// ```
    /// use snowflake_page::Lang;
    ///
    /// assert_eq!((Lang::He.dir(), Lang::En.dir()), ("rtl", "ltr"));
    /// ```
    pub const fn dir(self) -> &'static str {
        match self {
            Lang::He => "rtl",
            Lang::Id | Lang::En => "ltr",
        }
    }

    /// The mark between groups of three digits: `1.288.834.975.657` in Indonesian,
    /// `1,288,834,975,657` in Hebrew and English.
    const fn group_mark(self) -> char {
        match self {
            Lang::Id => '.',
            Lang::He | Lang::En => ',',
        }
    }

    /// The decimal mark: `69,7` in Indonesian, `69.7` in Hebrew and English.
    const fn decimal_mark(self) -> char {
        match self {
            Lang::Id => ',',
            Lang::He | Lang::En => '.',
        }
    }

    /// `n` for reading in this language's prose, its digits grouped by three. Never for
    /// an ID or bits, which a reader copies.
    ///
    /// ```text
    /// 1288834975657 -> 1.288.834.975.657 (id), 1,288,834,975,657 (he, en)
    /// ```
    pub(crate) fn number(self, n: u64) -> String {
        let digits = n.to_string();
        let mut out = String::with_capacity(digits.len() + digits.len() / 3);
        for (i, digit) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i).is_multiple_of(3) {
                out.push(self.group_mark());
            }
            out.push(digit);
        }
        out
    }

    /// `text` as the runtime reads numbers, where it is a number as this language writes one
    /// (a sign, digits, this language's two marks): its group marks dropped (`4.095` in
    /// Indonesian, `4,095` in Hebrew and English, is `4095`), and whatever follows its
    /// decimal mark a fraction in the runtime's notation, which the runtime refuses as one
    /// (`4,5` in Indonesian is `4.5`; `1.288.834` in English is `1.288834`, not a date). Other
    /// text is as it was, for the runtime to judge: a date, `0x1F`.
    ///
    /// # Errors
    ///
    /// [`Misgrouped`] where group marks do not part the whole number into groups of three
    /// after a first of one to three digits (`40.95` in Indonesian, `4,0950` in English).
    ///
    /// ```text
    /// id: 1.288.834.975.657 -> 1288834975657, 4,5 -> 4.5, 40.95 -> Misgrouped
    /// en: 1,288,834,975,657 -> 1288834975657, 4.5 -> 4.5, 40,95 -> Misgrouped
    /// ```
    pub(crate) fn unmark(self, text: &str) -> Result<Cow<'_, str>, Misgrouped> {
        // Bytes, not `str` patterns, which are a kilobyte of the page's module.
        let (group, decimal) = (self.group_mark() as u8, self.decimal_mark() as u8);
        let bytes = text.as_bytes();
        let sign = usize::from(matches!(bytes.first(), Some(b'-' | b'+')));
        let number = &bytes[sign..];
        let mark = |b: &u8| *b == group || *b == decimal;
        if !number.iter().any(mark) || !number.iter().all(|b| b.is_ascii_digit() || mark(b)) {
            return Ok(Cow::Borrowed(text));
        }
        let mut plain = String::with_capacity(text.len());
        if sign == 1 {
            plain.push(char::from(bytes[0]));
        }
        // Digits since the start or the last group mark, and whether there was one.
        let (mut run, mut grouped, mut fraction) = (0, false, false);
        for &b in number {
            if fraction {
                // A fraction's digits, for the runtime to refuse as one.
                if b.is_ascii_digit() {
                    plain.push(char::from(b));
                }
            } else if b.is_ascii_digit() {
                run += 1;
                plain.push(char::from(b));
            } else {
                let placed = match (grouped, b == group) {
                    // After a group mark, three digits.
                    (true, _) => run == 3,
                    // The first group mark, after one to three digits.
                    (false, true) => (1..=3).contains(&run),
                    // The decimal mark of a whole part without group marks.
                    (false, false) => true,
                };
                if !placed {
                    return Err(Misgrouped);
                }
                (run, grouped, fraction) = (0, b == group, b == decimal);
                if fraction {
                    plain.push('.');
                }
            }
        }
        if grouped && !fraction && run != 3 {
            return Err(Misgrouped);
        }
        Ok(Cow::Owned(plain))
    }

    /// `tenths / 10` with one decimal, as this language writes it: `69,7` or `69.7`.
    pub(crate) fn tenths(self, tenths: u64) -> String {
        format!(
            "{}{}{}",
            self.number(tenths / 10),
            self.decimal_mark(),
            tenths % 10
        )
    }

    /// The language a primary subtag names, old codes included: `iw` is Hebrew and `in`
    /// Indonesian as ISO 639 wrote them before 1989, and some systems still send them.
    fn from_primary(primary: &str) -> Option<Lang> {
        match primary.to_ascii_lowercase().as_str() {
            "id" | "in" => Some(Lang::Id),
            "he" | "iw" => Some(Lang::He),
            "en" => Some(Lang::En),
            _ => None,
        }
    }

    /// The language an `Accept-Language` header prefers among ours (RFC 9110, 12.5.4):
    /// the highest q-value first, the earlier of equals, `he-IL` as `he`; English when it
    /// names none of ours, or names none at all.
    ///
    /// ```
    /// use snowflake_page::Lang;
    ///
    /// assert_eq!(Lang::negotiate(Some("fr, he-IL;q=0.8, en;q=0.5")), Lang::He);
    /// assert_eq!(Lang::negotiate(Some("in")), Lang::Id);
    /// assert_eq!(Lang::negotiate(None), Lang::En);
    /// ```
    pub fn negotiate(header: Option<&str>) -> Lang {
        let mut best: Option<(u16, Lang)> = None;
        for range in header.unwrap_or_default().split(',') {
            let mut parts = range.split(';');
            let tag = parts.next().unwrap_or_default().trim();
            let q = parts
                .find_map(|param| {
                    let (name, value) = param.split_once('=')?;
                    name.trim()
                        .eq_ignore_ascii_case("q")
                        .then(|| quality(value.trim()))
                })
                .unwrap_or(Some(1000));
            let (Some(q), Some(lang)) = (
                q,
                Lang::from_primary(tag.split('-').next().unwrap_or_default()),
            ) else {
                continue;
            };
            if q > 0 && best.is_none_or(|(best_q, _)| q > best_q) {
                best = Some((q, lang));
            }
        }
        best.map_or(Lang::En, |(_, lang)| lang)
    }
}

/// A number whose group marks are out of place for its language: [`Lang::unmark`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Misgrouped;

/// A q-value in thousandths (`0.8` -> 800), or `None` where it is not one: RFC 9110's
/// `0[.ddd]` or `1[.000]`.
fn quality(text: &str) -> Option<u16> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    if fraction.len() > 3 || !fraction.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    // `0.8` is 800: the digits, then zeros, to three places.
    let digit = |i: usize| {
        fraction
            .as_bytes()
            .get(i)
            .map_or(0, |b| u16::from(b - b'0'))
    };
    let thousandths = digit(0) * 100 + digit(1) * 10 + digit(2);
    match whole {
        "0" => Some(thousandths),
        "1" if thousandths == 0 => Some(1000),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::Lang;

    #[test]
    fn numbers_are_grouped_as_each_language_writes_them() {
        for (n, id, en) in [
            (0, "0", "0"),
            (999, "999", "999"),
            (1_000, "1.000", "1,000"),
            (131_072, "131.072", "131,072"),
            (4_194_304_000, "4.194.304.000", "4,194,304,000"),
            (1_288_834_975_657, "1.288.834.975.657", "1,288,834,975,657"),
            (
                u64::MAX,
                "18.446.744.073.709.551.615",
                "18,446,744,073,709,551,615",
            ),
        ] {
            assert_eq!(Lang::Id.number(n), id);
            assert_eq!(Lang::En.number(n), en);
            assert_eq!(Lang::He.number(n), en);
        }
        assert_eq!(Lang::Id.tenths(697), "69,7");
        assert_eq!(Lang::He.tenths(697), "69.7");
        assert_eq!(Lang::En.tenths(12_340), "1,234.0");
    }

    #[test]
    fn numbers_are_read_as_each_language_writes_them() {
        use super::Misgrouped;

        // What the runtime is given; `Err` where the marks are out of place.
        let id: &[(&str, Result<&str, Misgrouped>)] = &[
            ("4.095", Ok("4095")),
            ("1.288.834.975.657", Ok("1288834975657")),
            ("1.000", Ok("1000")),
            ("999", Ok("999")),
            ("999.999", Ok("999999")),
            ("-4.095", Ok("-4095")),
            ("+4.095", Ok("+4095")),
            // A decimal comma: a fraction, in the runtime's words.
            ("4,095", Ok("4.095")),
            ("4.095,5", Ok("4095.5")),
            (",5", Ok(".5")),
            ("1,288,834,975,657", Ok("1.288834975657")),
            // Groups of three after a first of one to three digits, and nothing else.
            ("1000.000", Err(Misgrouped)),
            (".095", Err(Misgrouped)),
            ("40.95", Err(Misgrouped)),
            ("4.0950", Err(Misgrouped)),
            ("4..095", Err(Misgrouped)),
            ("4.095.", Err(Misgrouped)),
            ("1.5", Err(Misgrouped)),
            ("-1.5", Err(Misgrouped)),
            // Not a number as Indonesian writes one: as it is, for the runtime.
            ("4095", Ok("4095")),
            ("", Ok("")),
            ("-", Ok("-")),
            ("4 095", Ok("4 095")),
            ("0x1F", Ok("0x1F")),
            ("1.5e3", Ok("1.5e3")),
            ("2022-06-28T16:07:40.105Z", Ok("2022-06-28T16:07:40.105Z")),
        ];
        let en: &[(&str, Result<&str, Misgrouped>)] = &[
            ("4,095", Ok("4095")),
            ("1,288,834,975,657", Ok("1288834975657")),
            ("1,000", Ok("1000")),
            ("-4,095", Ok("-4095")),
            ("4.095", Ok("4.095")),
            ("4,095.5", Ok("4095.5")),
            ("1.288.834.975.657", Ok("1.288834975657")),
            ("1.5,3", Ok("1.53")),
            ("1000,000", Err(Misgrouped)),
            (",095", Err(Misgrouped)),
            ("40,95", Err(Misgrouped)),
            ("4,0950", Err(Misgrouped)),
            ("4,095,", Err(Misgrouped)),
            ("4,09.5", Err(Misgrouped)),
            ("4095", Ok("4095")),
            ("4_095", Ok("4_095")),
            ("2022-06-28T16:07:40.105Z", Ok("2022-06-28T16:07:40.105Z")),
        ];
        for (lang, cases) in [(Lang::Id, id), (Lang::He, en), (Lang::En, en)] {
            for &(text, want) in cases {
                let read = lang.unmark(text);
                assert_eq!(read.as_deref().map_err(|e| *e), want, "{lang:?} {text:?}");
            }
        }
    }

    #[test]
    fn every_number_a_language_writes_reads_back() {
        for lang in Lang::ALL {
            for n in [
                0,
                7,
                999,
                1_000,
                4_095,
                131_072,
                1_288_834_975_657,
                u64::MAX,
            ] {
                assert_eq!(lang.unmark(&lang.number(n)).as_deref(), Ok(&*n.to_string()));
            }
        }
    }

    #[test]
    fn each_language_knows_its_place_in_all() {
        for (i, lang) in Lang::ALL.iter().enumerate() {
            assert_eq!(lang.index(), i, "{lang:?}");
        }
    }

    #[test]
    fn accept_language_picks_the_preferred_of_ours() {
        for (header, want) in [
            (None, Lang::En),
            (Some(""), Lang::En),
            (Some("id"), Lang::Id),
            (Some("he"), Lang::He),
            (Some("he-IL,he;q=0.9,en-US;q=0.8,en;q=0.7"), Lang::He),
            (Some("en-US,en;q=0.9,id;q=0.8"), Lang::En),
            (Some("fr-FR,fr;q=0.9,id;q=0.5,en;q=0.4"), Lang::Id),
            (Some("fr, de"), Lang::En),
            (Some("*"), Lang::En),
            // The old codes.
            (Some("iw"), Lang::He),
            (Some("iw-IL"), Lang::He),
            (Some("in-ID"), Lang::Id),
            // q-values outrank the order; equals keep it.
            (Some("en;q=0.5, he;q=0.8"), Lang::He),
            (Some("id;q=0.8, he;q=0.8"), Lang::Id),
            (Some("en;q=0.5,id"), Lang::Id),
            (Some("EN;Q=0.5, ID;q=1.0"), Lang::Id),
            // q=0 is "not this one".
            (Some("he;q=0, id;q=0.1"), Lang::Id),
            (Some("he;q=0"), Lang::En),
            (Some("he;q=0.000"), Lang::En),
            // A q-value that is not one leaves its range out.
            (Some("he;q=2, id;q=0.3"), Lang::Id),
            (Some("he;q=0.8x, id;q=0.3"), Lang::Id),
            (Some("he;q=0.1234, id;q=0.3"), Lang::Id),
            (Some("he;q=, id;q=0.3"), Lang::Id),
            // Spaces and empty ranges, as some clients send them.
            (Some(" , he ;  q=0.9 ,, "), Lang::He),
            (Some("id-"), Lang::Id),
            (Some("hebrew, indonesian"), Lang::En),
        ] {
            assert_eq!(Lang::negotiate(header), want, "{header:?}");
        }
    }
}

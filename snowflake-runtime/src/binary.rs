//! An ID's 64 bits as text, split into its segments: [`SegmentedBinary`].

use core::fmt;

use crate::segment::Segment;
use crate::snowflake::Snowflake;

impl Snowflake {
    /// The 64 bits, zero-padded and split by single spaces into sign (1),
    /// timestamp (41), datacenter (5), machine (5) and sequence (12): always
    /// 68 characters. A [`Display`](fmt::Display) value; nothing is allocated.
    ///
    /// ```
    /// let id = snowflake_kit::compose(1_288_834_975_657, 1, 1, 0)?;
    /// assert_eq!(
    ///     id.segmented_binary().to_string(),
    ///     "0 00000000000000000000000000000001111101000 00001 00001 000000000000",
    /// );
    /// # Ok::<(), snowflake_kit::FieldRangeError>(())
    /// ```
    pub const fn segmented_binary(self) -> SegmentedBinary {
        SegmentedBinary(self.as_u64())
    }
}

/// The segmented binary form of an ID; see [`Snowflake::segmented_binary`].
///
/// Honours width and alignment flags, like `str`:
///
/// ```
/// let bits = snowflake_kit::Snowflake::MAX.segmented_binary();
/// assert_eq!(bits.to_string().len(), 68);
/// assert_eq!(format!("[{bits:>70}]").len(), 72);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SegmentedBinary(u64);

impl SegmentedBinary {
    /// Length of the text in bytes: 64 bits and 4 spaces.
    ///
    /// ```
    /// assert_eq!(snowflake_kit::layout::SegmentedBinary::LEN, 68);
    /// ```
    pub const LEN: usize = 68;

    /// The text as ASCII bytes, computed in a `const` context if need be.
    ///
    /// ```
    /// let bytes = snowflake_kit::Snowflake::MAX.segmented_binary().to_bytes();
    /// assert_eq!(&bytes[..4], b"0 11");
    /// ```
    pub const fn to_bytes(self) -> [u8; Self::LEN] {
        // The 64 digits, eight at a time: a bit at a time was most of the cost of
        // `snowflake decode --json`.
        let bytes = self.0.to_be_bytes();
        let mut digits = [0u8; 64];
        let mut byte = 0;
        while byte < 8 {
            let eight = ascii_bits(bytes[byte]);
            let mut i = 0;
            while i < 8 {
                digits[8 * byte + i] = eight[i];
                i += 1;
            }
            byte += 1;
        }
        // Then the segments, a space between each, as the layout places them.
        let mut out = [b' '; Self::LEN];
        let mut i = 0;
        while i < Segment::ALL.len() {
            let segment = Segment::ALL[i];
            let (width, first) = (segment.width() as usize, 64 - segment.shift() as usize);
            let first = first - width;
            let mut bit = 0;
            while bit < width {
                // `i` spaces come before the segment's digits.
                out[first + i + bit] = digits[first + bit];
                bit += 1;
            }
            i += 1;
        }
        out
    }
}

/// The eight bits of `byte` as ASCII `0` and `1`, the most significant first.
const fn ascii_bits(byte: u8) -> [u8; 8] {
    // Byte k of the product holds bit 7 - k of `byte`, in place; adding 0x7f to a byte
    // sets its top bit exactly when it is not zero, and the shift brings that bit down.
    let masked = (byte as u64 * 0x0101_0101_0101_0101) & 0x0102_0408_1020_4080;
    let ones = ((masked + 0x7f7f_7f7f_7f7f_7f7f) >> 7) & 0x0101_0101_0101_0101;
    (ones | 0x3030_3030_3030_3030).to_le_bytes()
}

impl fmt::Display for SegmentedBinary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let bytes = self.to_bytes();
        // Only ASCII digits and spaces: the conversion cannot fail.
        f.pad(core::str::from_utf8(&bytes).map_err(|_| fmt::Error)?)
    }
}

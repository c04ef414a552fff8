// Keys in any order, a trailing comma, integers in any base, with `_` and unsigned suffixes.
use snowflake_kit::snowflake;

fn main() {
    const EXPECTED: u64 = 4194439168;
    assert_eq!(snowflake!(seq = 0, machine = 1, dc = 1, ts = 1288834975657).id, EXPECTED);
    assert_eq!(snowflake!(ts = 1288834975657, dc = 1, machine = 1,).id, EXPECTED);
    assert_eq!(snowflake!(ts = 1_288_834_975_657u64, dc = 0x1, machine = 0b1, seq = 0o0).id, EXPECTED);
    assert_eq!(snowflake!(ts = 0x12C_148D_07A9, dc = 1u8, machine = 1usize, seq = 0u128).id, EXPECTED);
    assert_eq!(snowflake!(ts = 1288834975657, dc = 31u8, machine = 31u16, seq = 4095u32).id & 0x3F_FFFF, 0x3F_FFFF);
    assert_eq!(snowflake!(ts = 1288834975657, dc = 0x1F, machine = 0b11111, seq = 0xFFF).id & 0x3F_FFFF, 0x3F_FFFF);
}

//! `snowflake!` and the runtime's `compose` agree: the same numbers give the same ID and text.
#![cfg(feature = "macros")]

use snowflake_kit::{compose, snowflake};

/// Bakes each row at compile time and composes it again at run time.
macro_rules! agree {
    ($($ts:literal, $dc:literal, $machine:literal, $seq:literal;)*) => {{
        let mut rows = 0;
        $(
            let baked = snowflake!(ts = $ts, dc = $dc, machine = $machine, seq = $seq);
            let composed = compose($ts, $dc, $machine, $seq).unwrap();
            assert_eq!(baked.id, composed.as_u64(), "{}", stringify!($ts, $dc, $machine, $seq));
            assert_eq!(baked.binary, composed.segmented_binary().to_string());
            assert_eq!(baked.snowflake(), composed);
            rows += 1;
        )*
        rows
    }};
}

#[test]
fn macro_agrees_with_compose() {
    // The bounds, the two known vectors, then random rows (fixed seed, made once).
    let rows = agree! {
        1288834974657, 0, 0, 0;
        3487858230208, 31, 31, 4095;
        1288834974657, 31, 0, 4095;
        3487858230208, 0, 31, 0;
        1288834975657, 1, 1, 0;
        1656432460105, 11, 26, 0;
        1288834974658, 1, 2, 3;
        3487858230207, 30, 29, 4094;
        3157246276922, 18, 10, 369;
        2634855290252, 10, 12, 218;
        3410885737078, 9, 3, 1959;
        1673301006493, 27, 0, 433;
        2353680077296, 28, 0, 1948;
        1539623694967, 1, 27, 5;
        3453239808268, 18, 1, 1784;
        1471736263701, 22, 30, 3554;
        1454614159095, 1, 10, 3534;
        2522688658771, 17, 0, 398;
        2234307608860, 1, 28, 2617;
        2085518686293, 27, 13, 3807;
        2157379872540, 19, 7, 3450;
        2400097009709, 13, 0, 1463;
        2275074195179, 15, 2, 3754;
        2747414380801, 11, 18, 207;
        3429305247949, 25, 20, 1526;
        3155748897816, 19, 11, 1047;
        3044393655076, 10, 27, 3916;
        1797309906890, 8, 3, 2172;
        3005298025230, 19, 29, 2797;
        2464019142078, 28, 19, 2628;
        3172788396328, 8, 1, 340;
        1899289332896, 29, 21, 3806;
        2487880528846, 16, 27, 1044;
        3188688543839, 27, 26, 3666;
        2093736251011, 0, 10, 1980;
        1302931056910, 28, 14, 23;
        3468462010685, 27, 8, 3628;
        1360658932624, 24, 2, 2950;
        2401740444596, 14, 13, 54;
        2974770820703, 11, 29, 1157;
        3020692528960, 25, 2, 1549;
        2992029742355, 17, 30, 1039;
        3294425496893, 5, 2, 74;
        1752928362084, 17, 6, 3149;
        1815376974658, 25, 9, 2640;
        1506628286967, 1, 31, 3437;
        2670886495435, 24, 23, 1587;
        3471619424748, 13, 0, 1935;
        3361049431068, 8, 4, 602;
        1601872152079, 15, 27, 1984;
        1728152765395, 7, 22, 1509;
        3485883774219, 7, 29, 1838;
        2497370345648, 28, 8, 157;
        1560390532875, 5, 22, 1476;
        2187809250392, 23, 20, 2387;
        2532031535835, 14, 29, 2772;
        2425577277630, 24, 18, 32;
        2686421823449, 23, 2, 3105;
        1293571103991, 24, 31, 830;
        2350483852962, 23, 20, 2479;
        3441711690314, 9, 23, 1478;
        3258169302300, 18, 1, 854;
        2139870651513, 1, 27, 3725;
        2220950525619, 11, 22, 3543;
    };
    assert_eq!(rows, 64);
}

#[test]
fn date_and_milliseconds_agree() {
    let from_date = snowflake!(ts = "2022-06-28T16:07:40.105Z", dc = 11, machine = 26);
    let from_ms = snowflake!(ts = 1656432460105, dc = 11, machine = 26);
    assert_eq!(from_date, from_ms);
    assert_eq!(from_date.id, 1541815603606036480);
}

#[test]
fn parse_and_bake_agree() {
    let baked = snowflake!(ts = 1656432460105, dc = 11, machine = 26);
    let parsed: snowflake_kit::Snowflake = "1541815603606036480".parse().unwrap();
    assert_eq!(baked.parts(), parsed.parts());
}

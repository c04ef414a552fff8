-- snowflake-kit 0.1.0: Twitter-layout Snowflake IDs in PostgreSQL's own SQL.
--
-- Decode, compose and time ranges as plain SQL functions in the schema `snowflake`: nothing
-- to install on the server, so it loads wherever a user may create a function (PostgreSQL 14
-- and later: the bodies are SQL-standard, bound to their operators when they are created,
-- whatever a caller's search_path says). Load it again at will: every statement is
-- CREATE OR REPLACE, and the schema is made only when it is missing. The same text is
-- `snowflake_kit::sql::POSTGRES_FUNCTIONS` in Rust and `snowflake sql postgres` on the
-- command line, which also writes it for another schema. Give it a schema of its own:
-- the functions' names are short, and the helpers' start with `_`.
--
-- An ID is a BIGINT: a zero sign bit, 41 bits of milliseconds since the Twitter epoch
-- (1288834974657 = 2010-11-04T01:42:54.657Z), 5 bits of datacenter, 5 of machine, 12 of
-- sequence. These functions and the Rust runtime agree on every answer and every error
-- (snowflake-kit's tests check them against each other on a real PostgreSQL).
--
-- Each function is one SQL expression, IMMUTABLE and PARALLEL SAFE, that the planner
-- inlines into the query: `snowflake.unix_ms(id)` costs what `(id >> 22) + 1288834974657`
-- costs, and `id BETWEEN snowflake.first_at(a) AND snowflake.last_at(b)` is a range scan of
-- the key's index. NULL in, NULL out. A bad value raises SQLSTATE 22003
-- (numeric_value_out_of_range) in the runtime's words; a time finer than a millisecond,
-- 22023 (invalid_parameter_value); base32 text that is none, 22P02
-- (invalid_text_representation). Called with constants, a function is evaluated when the
-- query is planned, and so is its error.

DO $$
BEGIN
    -- CREATE SCHEMA IF NOT EXISTS would ask for CREATE on the database even when the
    -- schema is there: a migration's role may lack it.
    IF NOT EXISTS (SELECT FROM pg_catalog.pg_namespace WHERE nspname = 'snowflake') THEN
        CREATE SCHEMA snowflake;
    END IF;
END
$$;

-- The errors, raised only from the branch of a CASE that needs them: 22003
-- (numeric_value_out_of_range) or 22023 (invalid_parameter_value). The message carries
-- the value, so that the planner cannot evaluate a call ahead of the row it belongs to;
-- numbers are cast to text explicitly (`id::text ||`), since `bigint || text` is only STABLE
-- and would keep a function from being inlined. COST 1: a call that raises is never paid
-- for a row that passes, and a higher cost would keep the planner from inlining the
-- functions whose arguments hold one.
CREATE OR REPLACE FUNCTION snowflake._raise(code text, message text) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE COST 1 AS $$
BEGIN
    RAISE EXCEPTION USING ERRCODE = code, MESSAGE = message;
END
$$;

-- An ID's BIGINT, checked: every non-negative BIGINT is an ID.
CREATE OR REPLACE FUNCTION snowflake._checked(id bigint) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE WHEN id < 0
    THEN snowflake._raise('22003', id::text || ' is out of range: an ID is in 0..=9223372036854775807')
    ELSE id END;

-- Decoding.

CREATE OR REPLACE FUNCTION snowflake.unix_ms(id bigint) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN (snowflake._checked(id) >> 22) + 1288834974657;

CREATE OR REPLACE FUNCTION snowflake.datacenter(id bigint) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN ((snowflake._checked(id) >> 17) & 31::bigint)::integer;

CREATE OR REPLACE FUNCTION snowflake.machine(id bigint) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN ((snowflake._checked(id) >> 12) & 31::bigint)::integer;

CREATE OR REPLACE FUNCTION snowflake.sequence(id bigint) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN (snowflake._checked(id) & 4095::bigint)::integer;

-- The time of an ID, exact to the millisecond: whole milliseconds times an interval of one,
-- on a UTC timestamp (interval multiplication takes a float8 factor, which holds every
-- millisecond count below 2^53 exactly; the format's stop at 2^41).
CREATE OR REPLACE FUNCTION snowflake._utc(id bigint) RETURNS timestamp
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN timestamp '1970-01-01 00:00:00' + snowflake.unix_ms(id) * interval '1 millisecond';

CREATE OR REPLACE FUNCTION snowflake.issued_at(id bigint) RETURNS timestamptz
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN timezone('UTC', snowflake._utc(id));

-- RFC 3339 as the runtime writes it: UTC, three fraction digits (2022-06-28T16:07:40.105Z).
-- Built from the fields, not by to_char, whose output depends on the session's settings.
CREATE OR REPLACE FUNCTION snowflake.rfc3339(id bigint) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN lpad(extract(year FROM snowflake._utc(id))::integer::text, 4, '0')
    || '-' || lpad(extract(month FROM snowflake._utc(id))::integer::text, 2, '0')
    || '-' || lpad(extract(day FROM snowflake._utc(id))::integer::text, 2, '0')
    || 'T' || lpad(extract(hour FROM snowflake._utc(id))::integer::text, 2, '0')
    || ':' || lpad(extract(minute FROM snowflake._utc(id))::integer::text, 2, '0')
    || ':' || lpad(floor(extract(second FROM snowflake._utc(id)))::integer::text, 2, '0')
    || '.' || lpad((snowflake.unix_ms(id) % 1000::bigint)::text, 3, '0') || 'Z';

-- The 64 bits in five groups, from the top bit: sign, timestamp, datacenter, machine,
-- sequence, as the runtime's segmented binary.
CREATE OR REPLACE FUNCTION snowflake._segmented(bits text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN substr(bits, 1, 1) || ' ' || substr(bits, 2, 41) || ' ' || substr(bits, 43, 5)
    || ' ' || substr(bits, 48, 5) || ' ' || substr(bits, 53, 12);

CREATE OR REPLACE FUNCTION snowflake.segmented_binary(id bigint) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN snowflake._segmented(snowflake._checked(id)::bit(64)::text);

-- Composing.

CREATE OR REPLACE FUNCTION snowflake.compose(unix_ms bigint, datacenter integer,
    machine integer, sequence integer DEFAULT 0) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE
    WHEN unix_ms < 1288834974657 THEN snowflake._raise('22003', 'timestamp ' || unix_ms::text
        || ' ms is out of range 1288834974657..=3487858230208 ms: it is before the Twitter epoch (2010-11-04T01:42:54.657Z)')
    WHEN unix_ms > 3487858230208 THEN snowflake._raise('22003', 'timestamp ' || unix_ms::text
        || ' ms is out of range 1288834974657..=3487858230208 ms: it is after the last one 41 bits hold (2080-07-10T17:30:30.208Z)')
    WHEN datacenter NOT BETWEEN 0 AND 31 THEN snowflake._raise('22003', 'datacenter '
        || datacenter::text || ' is out of range 0..=31 (5 bits)')
    WHEN machine NOT BETWEEN 0 AND 31 THEN snowflake._raise('22003', 'machine '
        || machine::text || ' is out of range 0..=31 (5 bits)')
    WHEN sequence NOT BETWEEN 0 AND 4095 THEN snowflake._raise('22003', 'sequence '
        || sequence::text || ' is out of range 0..=4095 (12 bits)')
    ELSE ((unix_ms - 1288834974657) << 22) | (datacenter::bigint << 17)
        | (machine::bigint << 12) | sequence::bigint
END;

-- A time as Unix milliseconds, exact: extract gives a numeric (±Infinity for ±infinity).
CREATE OR REPLACE FUNCTION snowflake._ms_of(at timestamptz) RETURNS numeric
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN extract(epoch FROM timezone('UTC', at)) * 1000;

-- compose from a time's milliseconds (`_ms_of`): finer than a millisecond is an error, first,
-- as the runtime's reader of dates finds it first; the infinities are beyond the span's ends.
CREATE OR REPLACE FUNCTION snowflake._compose_at(ms numeric, datacenter integer,
    machine integer, sequence integer) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE
    WHEN ms <> trunc(ms) THEN snowflake._raise('22023', 'timestamp '
        || trim_scale(ms)::text || ' ms is finer than a millisecond: snowflake timestamps are '
        || 'whole milliseconds, so fraction digits past the third must be 0')
    WHEN ms < 1288834974657 THEN snowflake._raise('22003', 'timestamp ' || trim_scale(ms)::text
        || ' ms is out of range 1288834974657..=3487858230208 ms: it is before the Twitter epoch (2010-11-04T01:42:54.657Z)')
    WHEN ms > 3487858230208 THEN snowflake._raise('22003', 'timestamp ' || trim_scale(ms)::text
        || ' ms is out of range 1288834974657..=3487858230208 ms: it is after the last one 41 bits hold (2080-07-10T17:30:30.208Z)')
    ELSE snowflake.compose(ms::bigint, datacenter, machine, sequence)
END;

CREATE OR REPLACE FUNCTION snowflake.compose(at timestamptz, datacenter integer,
    machine integer, sequence integer DEFAULT 0) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN snowflake._compose_at(snowflake._ms_of(at), datacenter, machine, sequence);

-- Time ranges: the bounds of `WHERE id BETWEEN first AND last`.

-- The smallest ID of the millisecond `at`: datacenter, machine and sequence 0.
CREATE OR REPLACE FUNCTION snowflake.first_at(at timestamptz) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN snowflake._compose_at(snowflake._ms_of(at), 0, 0, 0);

-- The largest ID of the millisecond `at`: datacenter 31, machine 31, sequence 4095.
CREATE OR REPLACE FUNCTION snowflake.last_at(at timestamptz) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN snowflake._compose_at(snowflake._ms_of(at), 31, 31, 4095);

-- The IDs issued in the half-open range of times [from, until), clamped to the format's
-- span as the runtime's issued_in clamps: `id BETWEEN snowflake.issued_in_start(a, b) AND
-- snowflake.issued_in_end(a, b)`. Times outside the span, ±infinity included, are no
-- error; no ID lies in an empty range (start > end, as the runtime's empty range
-- 9223372036854775807..=0). A millisecond only partly in the range counts as in it.
CREATE OR REPLACE FUNCTION snowflake._clamped_ms(ms numeric) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN greatest(1288834974657, least(3487858230209, ms))::bigint;

-- Either end of the range of IDs of [from_ms, until_ms): `last` for the end. NULL for a
-- NULL time, which greatest and least would pass over.
CREATE OR REPLACE FUNCTION snowflake._issued_in(from_ms numeric, until_ms numeric, last boolean)
RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE
    WHEN from_ms IS NULL OR until_ms IS NULL THEN NULL
    WHEN snowflake._clamped_ms(floor(from_ms)) >= snowflake._clamped_ms(ceil(until_ms))
        THEN CASE WHEN last THEN 0 ELSE 9223372036854775807 END
    WHEN last THEN ((snowflake._clamped_ms(ceil(until_ms)) - 1 - 1288834974657) << 22)
        | 4194303::bigint
    ELSE (snowflake._clamped_ms(floor(from_ms)) - 1288834974657) << 22
END;

CREATE OR REPLACE FUNCTION snowflake.issued_in_start("from" timestamptz, until timestamptz)
RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN snowflake._issued_in(snowflake._ms_of("from"), snowflake._ms_of(until), false);

CREATE OR REPLACE FUNCTION snowflake.issued_in_end("from" timestamptz, until timestamptz)
RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN snowflake._issued_in(snowflake._ms_of("from"), snowflake._ms_of(until), true);

-- Base32: an ID in 13 characters of Crockford's alphabet (ULID's: 0-9 and A-Z without I, L,
-- O and U), most significant first, so that text order is ID order; as the runtime's
-- Snowflake::to_base32 and from_base32, known answers and errors alike.

-- The digit of the low five bits of `v`.
CREATE OR REPLACE FUNCTION snowflake._digit32(v bigint) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', (v & 31::bigint)::integer + 1, 1);

CREATE OR REPLACE FUNCTION snowflake.base32(id bigint) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN snowflake._digit32(snowflake._checked(id) >> 60) || snowflake._digit32(id >> 55)
    || snowflake._digit32(id >> 50) || snowflake._digit32(id >> 45)
    || snowflake._digit32(id >> 40) || snowflake._digit32(id >> 35)
    || snowflake._digit32(id >> 30) || snowflake._digit32(id >> 25)
    || snowflake._digit32(id >> 20) || snowflake._digit32(id >> 15)
    || snowflake._digit32(id >> 10) || snowflake._digit32(id >> 5) || snowflake._digit32(id);

-- The value of the `i`th digit of `digits`, read in upper case with O as 0 and I, L as 1.
CREATE OR REPLACE FUNCTION snowflake._value32(digits text, i integer) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN strpos('0123456789ABCDEFGHJKMNPQRSTVWXYZ', substr(digits, i, 1))::bigint - 1;

-- `text` read, `digits` being it in upper case with Crockford's substitutions made. Checked in
-- the runtime's order: a prefix (something, `_`, then 13 bytes), the first character that is
-- no digit (its byte offset, from 0), the length, the first digit (at most 7, so that the
-- sign bit is clear). The messages are the runtime's; `left(text, 0)`, empty, ties a
-- constant one to its row.
CREATE OR REPLACE FUNCTION snowflake._from_base32(text text, digits text) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE
    WHEN text ~ '^.+_[^_]*$' AND octet_length(substring(text FROM '[^_]*$')) = 13
        THEN snowflake._raise('22P02', 'a prefix: this ID in base32 is '
        || '13 characters and no prefix' || left(text, 0))
    WHEN digits !~ '^[0-9A-HJKMNP-TV-Z]*$' THEN snowflake._raise('22P02', 'invalid character `'
        || substr(text, strpos(digits, substring(digits FROM '[^0-9A-HJKMNP-TV-Z]')), 1)
        || '` at byte ' || octet_length(left(text,
            strpos(digits, substring(digits FROM '[^0-9A-HJKMNP-TV-Z]')) - 1))::text
        || ': base32 is 0-9 and A-Z without U')
    WHEN length(digits) <> 13 THEN snowflake._raise('22P02', length(digits)::text
        || ' characters: an ID in base32 is 13')
    WHEN snowflake._value32(digits, 1) > 7 THEN snowflake._raise('22003', 'first digit `'
        || left(text, 1) || '` too large: an ID in base32 is at most 7ZZZZZZZZZZZZ, its first digit 0-7')
    ELSE (snowflake._value32(digits, 1) << 60) | (snowflake._value32(digits, 2) << 55)
        | (snowflake._value32(digits, 3) << 50) | (snowflake._value32(digits, 4) << 45)
        | (snowflake._value32(digits, 5) << 40) | (snowflake._value32(digits, 6) << 35)
        | (snowflake._value32(digits, 7) << 30) | (snowflake._value32(digits, 8) << 25)
        | (snowflake._value32(digits, 9) << 20) | (snowflake._value32(digits, 10) << 15)
        | (snowflake._value32(digits, 11) << 10) | (snowflake._value32(digits, 12) << 5)
        | snowflake._value32(digits, 13)
END;

CREATE OR REPLACE FUNCTION snowflake.from_base32(text text) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE
-- ASCII letters only to upper case (upper() follows the collation, and may change a length).
RETURN snowflake._from_base32(text,
    translate(text, 'abcdefghjkmnpqrstvwxyzoOiIlL', 'ABCDEFGHJKMNPQRSTVWXYZ001111'));

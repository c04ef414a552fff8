-- IDs issued by PostgreSQL itself (PostgreSQL 15 and later), after the functions are loaded:
--
--     snowflake sql postgres --next-id | psql "$DATABASE_URL"
--     psql "$DATABASE_URL" -v ON_ERROR_STOP=1 -f examples/next_id.sql
--
-- Each CALL on its own, outside a transaction block: a claim commits itself, so that no ID
-- is issued under a claim a rollback could take back. Run it again at will.

-- This database takes the first free identity of the 1,024 (claim_identity(dc, machine)
-- names one), from the tables Rust holders lease theirs from: the registry is this
-- database's schema. Two databases whose IDs meet (shards, a copy) each claim from their
-- own registry, so give each its own datacenter: claim_identity(1) here, claim_identity(2)
-- there.
CALL snowflake.claim_identity();

-- A key the database gives each row: unique across sessions and rollbacks, in time order.
CREATE TABLE IF NOT EXISTS orders (
    id bigint PRIMARY KEY DEFAULT snowflake.next_id(),
    item text NOT NULL
);

INSERT INTO orders (item) VALUES ('tea'), ('coffee');
-- A million rows would do as well: each its own ID, and its own reading of the clock.
INSERT INTO orders (item) SELECT 'cake ' || g FROM generate_series(1, 1000) AS g;

-- Each key read back: its time, its identity, its short form.
SELECT id, snowflake.rfc3339(id) AS issued, snowflake.datacenter(id) AS datacenter,
    snowflake.machine(id) AS machine, snowflake.base32(id) AS short
FROM orders ORDER BY id LIMIT 3;

-- The orders of the last minute (and the second ahead IDs may run): a range of keys, which
-- the primary key's index scans.
SELECT count(*) AS last_minute FROM orders
WHERE id BETWEEN snowflake.issued_in_start(now() - interval '1 minute', now() + interval '1 second')
    AND snowflake.issued_in_end(now() - interval '1 minute', now() + interval '1 second');

-- When this database stops issuing, it lets the identity go; whoever takes it next starts
-- above every ID issued here:
--     CALL snowflake.release_identity();

-- snowflake-lease: identities leased from PostgreSQL, schema version 1.
-- Applies as printed to a fresh database. PgStore creates it on first use when the schema
-- has none of these tables, and refuses to start when they differ from these.
CREATE SCHEMA IF NOT EXISTS {schema};

-- A holder's lease. It ends at expires_at on the database's clock unless kept alive, which
-- moves expires_at to now() + ttl_ms.
CREATE TABLE {schema}.leases (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    ttl_ms bigint NOT NULL CHECK (ttl_ms > 0),
    expires_at timestamptz NOT NULL
);

-- The 1,024 identities, one row each: the lease of the holder (free when NULL, gone or
-- expired) and the high-water mark, the highest Unix ms any holder may have used.
CREATE TABLE {schema}.identities (
    datacenter smallint NOT NULL CHECK (datacenter BETWEEN 0 AND 31),
    machine smallint NOT NULL CHECK (machine BETWEEN 0 AND 31),
    lease_id bigint,
    holder text,
    hwm_ms bigint NOT NULL DEFAULT 0 CHECK (hwm_ms >= 0),
    PRIMARY KEY (datacenter, machine)
);

INSERT INTO {schema}.identities (datacenter, machine)
SELECT datacenter, machine
FROM generate_series(0, 31) AS datacenter, generate_series(0, 31) AS machine;

-- The fence holds only while no mark is lowered and no row deleted: refused here, whoever
-- asks (a hand-written UPDATE, a DELETE, a TRUNCATE).
CREATE FUNCTION {schema}.keep_marks() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' THEN
        IF NEW.hwm_ms < OLD.hwm_ms
            OR NEW.datacenter <> OLD.datacenter OR NEW.machine <> OLD.machine THEN
            RAISE EXCEPTION 'snowflake-lease: a high-water mark is never lowered or moved (% to %)',
                OLD.hwm_ms, NEW.hwm_ms;
        END IF;
        RETURN NEW;
    END IF;
    RAISE EXCEPTION 'snowflake-lease: the identities and their high-water marks are never deleted';
END
$$;

CREATE TRIGGER keep_marks BEFORE UPDATE OR DELETE ON {schema}.identities
    FOR EACH ROW EXECUTE FUNCTION {schema}.keep_marks();
CREATE TRIGGER keep_marks_whole BEFORE TRUNCATE ON {schema}.identities
    FOR EACH STATEMENT EXECUTE FUNCTION {schema}.keep_marks();

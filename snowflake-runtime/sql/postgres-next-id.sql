-- snowflake-kit 0.1.0: Snowflake IDs issued by PostgreSQL itself, `snowflake.next_id()`.
--
-- In PL/pgSQL, which every managed PostgreSQL runs (15 and later: the crash marker is an
-- unlogged sequence). Load it after the functions (`snowflake sql postgres --next-id`
-- writes both), then claim an identity once and let a column default to next_id():
--
--     CALL snowflake.claim_identity();            -- the first free (datacenter, machine)
--     CREATE TABLE orders (id bigint PRIMARY KEY DEFAULT snowflake.next_id(), ...);
--     CALL snowflake.release_identity();          -- when this database stops issuing
--
-- The identity is claimed from the tables snowflake-lease's PgStore leases from (made here
-- when the schema has none), so that a Rust holder and this database never issue under one
-- identity at once. Never a duplicate, never a decreasing ID from one session: across
-- sessions, rollbacks, cancels, clock steps, restarts and crashes. docs/next-id.md has the
-- design, its argument and its preconditions: one primary, with synchronous replication for
-- a failover; never restored from an older backup, nor cloned (a branch, a snapshot's
-- restore) while both copies issue; the clock not set back by more than a second across a
-- crash; every database and Rust holder that issues into one keyspace leasing from one
-- registry, or claiming distinct identities; nobody but these functions writes the state.

DO $next_id$
DECLARE
    elsewhere name;
BEGIN
    IF current_setting('server_version_num')::integer < 150000 THEN
        RAISE EXCEPTION 'snowflake.next_id() needs PostgreSQL 15 or later (an unlogged sequence marks a crash); this is %',
            current_setting('server_version');
    END IF;
    -- As PgStore makes them, under its lock, when the schema has neither table.
    PERFORM pg_advisory_xact_lock(hashtext('snowflake-lease schema snowflake'));
    IF NOT EXISTS (SELECT FROM pg_catalog.pg_class c
            JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = 'snowflake' AND c.relname IN ('identities', 'leases')) THEN
        -- Not beside a store in another schema: the database and the Rust holders would
        -- lease from two registries, and issue under one identity.
        SELECT n.nspname INTO elsewhere FROM pg_catalog.pg_class c
        JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
        JOIN pg_catalog.pg_trigger t ON t.tgrelid = c.oid AND t.tgname = 'keep_marks'
        WHERE c.relname = 'identities' LIMIT 1;
        IF FOUND THEN
            RAISE EXCEPTION 'snowflake-lease''s tables are in the schema %, not snowflake: load next_id() there (snowflake sql postgres --next-id --schema %), so that this database and the Rust holders lease from one registry',
                elsewhere, elsewhere;
        END IF;
        EXECUTE $lease_tables${lease_tables}$lease_tables$;
    END IF;
END
$next_id$;

-- The state (docs/next-id.md). Sequences, for what a rollback must not take back:
-- next_id_slot, the last ID issued as `slot * 1024 + identity` (slot = ms since the epoch *
-- 4096 + sequence; identity = datacenter * 32 + machine), stepped by 1024 so that nextval
-- gives the next slot of the same identity; below zero, stopped (no claim, or released).
CREATE SEQUENCE IF NOT EXISTS snowflake.next_id_slot AS bigint INCREMENT BY 1024
    MINVALUE -9223372036854775808 MAXVALUE 9223372036854775807 START WITH -4611686018427387904
    CACHE 1 NO CYCLE;
-- The last value of the slot when it was stopped (-1: none).
CREATE SEQUENCE IF NOT EXISTS snowflake.next_id_last AS bigint MINVALUE -1 START WITH -1 CACHE 1 NO CYCLE;
-- Moved by every claim and release (by setval: see _next_id_generation): a claim row of
-- another generation is stale.
CREATE SEQUENCE IF NOT EXISTS snowflake.next_id_generation AS bigint CACHE 1 NO CYCLE;
-- Unlogged: a crash sets it back to unset, a clean restart keeps it. Unset, the slot moves
-- past the values a crash may have lost before anything is issued.
CREATE UNLOGGED SEQUENCE IF NOT EXISTS snowflake.next_id_alive AS bigint MINVALUE 0 START WITH 0 CACHE 1 NO CYCLE;
-- The identity this database holds: one row at most, its lease in `leases` (which cannot be
-- deleted while this row names it), this cluster's system identifier and this database's
-- oid (a logical replica's copy of the row is not its claim), and its generation.
CREATE TABLE IF NOT EXISTS snowflake.next_id_claim (
    one boolean PRIMARY KEY DEFAULT true CHECK (one),
    datacenter smallint NOT NULL,
    machine smallint NOT NULL,
    lease_id bigint NOT NULL REFERENCES snowflake.leases (id),
    system_identifier bigint NOT NULL,
    database_oid oid NOT NULL,
    generation bigint NOT NULL,
    FOREIGN KEY (datacenter, machine) REFERENCES snowflake.identities (datacenter, machine)
);
-- The database these functions were loaded into (its cluster's system identifier and its
-- oid): a copy (pg_dump and restore, a template's copy, a clone) finds another's here, and
-- claims nothing until forget_copied_claim() has fenced what its registry shows held.
CREATE TABLE IF NOT EXISTS snowflake.next_id_home (
    one boolean PRIMARY KEY DEFAULT true CHECK (one),
    system_identifier bigint NOT NULL,
    database_oid oid NOT NULL
);
INSERT INTO snowflake.next_id_home (system_identifier, database_oid)
SELECT (SELECT system_identifier FROM pg_catalog.pg_control_system()),
    (SELECT oid FROM pg_catalog.pg_database WHERE datname = current_database())
WHERE NOT EXISTS (SELECT FROM snowflake.next_id_home);
-- On a copy: the identities its registry showed held when it was made, whose holders may
-- still issue under them against the original's registry. No claim takes one until an
-- operator unfences it (unfence_identity).
CREATE TABLE IF NOT EXISTS snowflake.next_id_fenced (
    datacenter smallint NOT NULL,
    machine smallint NOT NULL,
    holder text,
    PRIMARY KEY (datacenter, machine)
);

-- Milliseconds since the epoch by the clock now (date_part's double holds every µs of the
-- format's span exactly); next_id() writes it out, where a call would cost.
CREATE OR REPLACE FUNCTION snowflake._next_id_now_ms() RETURNS bigint
LANGUAGE sql VOLATILE
RETURN floor(pg_catalog.date_part('epoch', clock_timestamp()) * 1000)::bigint - 1288834974657;

-- The ID of a value of next_id_slot: its millisecond and sequence (the slot) around its
-- identity, as the format lays them out.
CREATE OR REPLACE FUNCTION snowflake._next_id_of(c bigint) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN ((c >> 22) << 22) | ((c & 1023) << 12) | ((c >> 10) & 4095);

-- A time in the format's milliseconds, as RFC 3339, for the errors.
CREATE OR REPLACE FUNCTION snowflake._next_id_rfc3339(ms bigint) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN to_char(to_timestamp((ms + 1288834974657) / 1000.0) AT TIME ZONE 'UTC',
    'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"');

-- The next generation, under the exclusive lock only: setval, not nextval, whose value a
-- crash would move on by the 32 it logs ahead, leaving every claim row stale.
CREATE OR REPLACE FUNCTION snowflake._next_id_generation() RETURNS bigint
LANGUAGE sql VOLATILE
RETURN pg_catalog.setval('snowflake.next_id_generation',
    (SELECT last_value + 1 FROM snowflake.next_id_generation));

-- Stops the slot, keeping its last value in next_id_last: under the exclusive lock only.
CREATE OR REPLACE FUNCTION snowflake._next_id_stop() RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    s bigint := (SELECT last_value FROM snowflake.next_id_slot);
BEGIN
    IF s >= 0 THEN
        PERFORM pg_catalog.setval('snowflake.next_id_last', s);
        PERFORM pg_catalog.setval('snowflake.next_id_slot', -4611686018427387904);
    END IF;
END
$$;

-- The locks (docs/next-id.md): transaction locks, which the server itself lets go when the
-- (sub)transaction that took them ends, committed or aborted, also by a cancel that lands
-- anywhere, the exception handler included. A function takes its lock inside a block that
-- it ends by raising SQLSTATE SFLET, which rolls the block back (the sequences, which no
-- rollback takes back, keep what it did): the lock goes at once, not at the caller's commit.
-- A procedure takes it in its own transaction, and it goes with the COMMIT.

-- The slow path of next_id (docs/next-id.md), under the exclusive lock: the first call of a
-- session, a new millisecond, a claim or release, a crash. Reads this database's current
-- claim, and sets the slot to the first value above everything issued, the identity's mark
-- and the clock (and, after a crash, above what it may have lost).
CREATE OR REPLACE FUNCTION snowflake._next_id_slow() RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
    -- How far IDs may run ahead of the clock (a clock stepped back, a crash's skip), and
    -- how long a call waits for it rather than fail. next_id()'s fast path says run_ms
    -- again, and release_identity() run_ms and the second of a crash's skip.
    run_ms constant bigint := 1000;
    wait_ms constant bigint := 5000;
    now_ms bigint;
    checked boolean;
    c bigint;
    s bigint;
    alive boolean;
    ident bigint;
    mark_ms bigint;
    floor_slot bigint;
    ahead bigint;
BEGIN
    BEGIN
        PERFORM pg_catalog.pg_advisory_xact_lock(1936617316, 'snowflake.next_id_slot'::regclass::oid::integer);
        -- The clock after the wait for the lock, not before: a call that waited behind
        -- another's sleep would sleep again for nothing.
        now_ms := snowflake._next_id_now_ms();
        IF now_ms < 0 OR now_ms > 2199023255551 THEN
            RAISE EXCEPTION 'snowflake.next_id(): the clock reads %, outside the format''s span (2010-11-04T01:42:54.657Z to 2080-07-10T17:30:30.208Z)',
                to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
                USING ERRCODE = '22008', HINT = 'Set the server''s clock right; no ID is issued until then';
        END IF;
        -- Unset is NULL, which must read as false (NOT of NULL would skip the claim).
        checked := coalesce(current_setting('snowflake_kit.next_id_checked_snowflake', true)
            = pg_catalog.pg_backend_pid()::text, false);
        -- Another session may have started this millisecond already: in a session that
        -- has read the claim (a first call reads it: a copy of a database, made while the
        -- slot ran ahead, has a slot in range and a claim that is not its own).
        c := nextval('snowflake.next_id_slot');
        alive := (SELECT is_called FROM snowflake.next_id_alive);
        IF NOT (checked AND alive AND c >= 0 AND (c >> 22) BETWEEN now_ms AND now_ms + run_ms) THEN
            -- This database's claim, if it is current: this cluster's and database's, its
            -- lease still the identity's, and of the latest generation (a claim or release
            -- since the caller's snapshot makes it stale).
            SELECT k.datacenter * 32 + k.machine, i.hwm_ms - 1288834974657 INTO ident, mark_ms
            FROM snowflake.next_id_claim k
            JOIN snowflake.identities i ON i.datacenter = k.datacenter AND i.machine = k.machine
                AND i.lease_id = k.lease_id
            JOIN snowflake.leases l ON l.id = k.lease_id
            WHERE k.system_identifier = (SELECT system_identifier FROM pg_catalog.pg_control_system())
                AND k.database_oid = (SELECT oid FROM pg_catalog.pg_database WHERE datname = current_database())
                AND k.generation = (SELECT last_value FROM snowflake.next_id_generation);
            IF NOT FOUND THEN
                PERFORM snowflake._next_id_stop();
                RAISE EXCEPTION 'snowflake.next_id(): this database holds no identity to issue under'
                    USING ERRCODE = '55000',
                    HINT = 'CALL snowflake.claim_identity(), or claim_identity(datacenter, machine), outside a transaction block';
            END IF;
            -- The last value issued: the one just taken (as if it were), or the stopped one's.
            s := CASE WHEN c >= 0 THEN c ELSE (SELECT last_value FROM snowflake.next_id_last) END;
            floor_slot := greatest(now_ms << 12, (mark_ms + 1) << 12);
            IF s >= 0 AND (s & 1023) = ident THEN
                floor_slot := greatest(floor_slot, (s >> 10) + 1);
            ELSIF s >= 0 AND (s >> 22) - now_ms <= run_ms + wait_ms THEN
                -- Another identity: its next millisecond, so that no ID of it is smaller.
                -- Not where those ran further ahead than a wait: another identity is the way
                -- out of a clock that ran ahead, and its IDs are then below those.
                floor_slot := greatest(floor_slot, ((s >> 22) + 1) << 12);
            END IF;
            IF NOT alive THEN
                -- A crash since the slot was set (or since the claim, when nothing was
                -- issued that the crash kept): past what it may have lost, which ran at most
                -- run_ms ahead of the clock of its time, and that clock at most a second
                -- ahead of this one (a clock set back across the crash).
                floor_slot := greatest(floor_slot, (greatest(CASE WHEN s >= 0 THEN s >> 22 ELSE 0 END, now_ms)
                    + run_ms + 1001) << 12);
            END IF;
            ahead := (floor_slot >> 12) - now_ms;
            IF ahead > run_ms + wait_ms THEN
                RAISE EXCEPTION 'snowflake.next_id(): the clock is % ms behind the IDs issued (the next is at %)',
                    ahead, snowflake._next_id_rfc3339(floor_slot >> 12)
                    USING ERRCODE = '55000',
                    HINT = format('IDs go on at %s, when the clock gets there; or at once under another identity: CALL snowflake.release_identity(); CALL snowflake.claim_identity()',
                        snowflake._next_id_rfc3339((floor_slot >> 12) - run_ms));
            END IF;
            IF floor_slot >> 12 > 2199023255551 THEN
                RAISE EXCEPTION 'snowflake.next_id(): past the last millisecond 41 bits hold (2080-07-10T17:30:30.208Z)'
                    USING ERRCODE = '22003';
            END IF;
            IF ahead > run_ms THEN
                PERFORM pg_catalog.pg_sleep((ahead - run_ms) / 1000.0);
            END IF;
            c := (floor_slot << 10) | ident;
            PERFORM pg_catalog.setval('snowflake.next_id_slot', c);
            IF NOT alive THEN
                PERFORM pg_catalog.setval('snowflake.next_id_alive', 1);
            END IF;
        END IF;
        RAISE SQLSTATE 'SFLET';
    EXCEPTION WHEN SQLSTATE 'SFLET' THEN
        -- The lock let go; an error or a cancel goes on up, the lock let go all the same.
        NULL;
    END;
    -- This session has read the claim since the server started (sessions do not outlive a
    -- restart): its next calls may take the fast path. After the block, whose rollback
    -- would take a setting back.
    PERFORM pg_catalog.set_config('snowflake_kit.next_id_checked_snowflake', pg_catalog.pg_backend_pid()::text, false);
    RETURN snowflake._next_id_of(c);
END
$$;

-- A new ID, from the identity this database holds: usable as a column's DEFAULT and in an
-- INSERT ... SELECT of any number of rows (each reads the clock). The fast path: the next
-- value of the slot under the shared lock, issued when it is neither behind the clock nor
-- more than a second ahead of it, in a session that has taken the slow path.
CREATE OR REPLACE FUNCTION snowflake.next_id() RETURNS bigint
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE AS $$
DECLARE
    now_ms bigint;
    c bigint;
BEGIN
    IF current_setting('snowflake_kit.next_id_checked_snowflake', true) = pg_catalog.pg_backend_pid()::text THEN
        -- Assignments, not PERFORM: PL/pgSQL evaluates them without a query, at a third of
        -- the cost. The lock and nextval in one expression, in CASE's order.
        BEGIN
            c := CASE WHEN pg_catalog.pg_advisory_xact_lock_shared(1936617316,
                    'snowflake.next_id_slot'::regclass::oid::integer) IS NULL THEN NULL
                ELSE nextval('snowflake.next_id_slot') END;
            RAISE SQLSTATE 'SFLET';
        EXCEPTION WHEN SQLSTATE 'SFLET' THEN
            NULL;
        END;
        -- The clock after the value is taken, not before the wait for the lock: a value
        -- judged by a clock read before a wait (behind a slow path's sleep, a claim) could
        -- run further ahead of the clock of its time than the crash's skip covers.
        -- Milliseconds since the epoch (date_part's double holds every µs exactly).
        now_ms := floor(pg_catalog.date_part('epoch', clock_timestamp()) * 1000)::bigint - 1288834974657;
        -- 1000: the slow path's run_ms.
        IF c >= 0 AND (c >> 22) BETWEEN now_ms AND now_ms + 1000 THEN
            RETURN snowflake._next_id_of(c);
        END IF;
    END IF;
    RETURN snowflake._next_id_slow();
END
$$;

-- The database's own (system identifier, oid) against the home and the claim row: a copy
-- is refused, naming what to do. For the procedures, under the exclusive lock.
CREATE OR REPLACE FUNCTION snowflake._next_id_check_home(call text) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    sys_id bigint := (SELECT system_identifier FROM pg_catalog.pg_control_system());
    db_oid oid := (SELECT oid FROM pg_catalog.pg_database WHERE datname = current_database());
    home snowflake.next_id_home;
BEGIN
    SELECT * INTO home FROM snowflake.next_id_home;
    IF home.system_identifier <> sys_id OR home.database_oid <> db_oid THEN
        RAISE EXCEPTION '%: this database is a copy of another (system %, database oid %), whose holders may still issue under what its registry shows held',
            call, home.system_identifier, home.database_oid
            USING ERRCODE = '55000',
            HINT = CASE WHEN home.database_oid = db_oid
                THEN 'If this is that very database after pg_upgrade (not a copy), CALL snowflake.adopt_identity(); if it is a copy, CALL snowflake.forget_copied_claim(), which fences every identity held when it was made, then claim one of its own'
                ELSE 'CALL snowflake.forget_copied_claim(), which fences every identity held when it was made, then claim one of its own' END;
    END IF;
END
$$;

-- Claims an identity for this database, committed before it returns (so no ID is issued
-- under a claim that a rollback takes back): (datacenter, machine) exactly, the first free
-- machine of `datacenter`, or the first free identity of all 1,024. A lease that never runs
-- out in `leases`, the holder named `postgres <system identifier>/<database>`. Called again
-- where this database holds one already, it keeps it.
--
-- The procedures share a shape: COMMIT first (outside a transaction block only), read
-- committed (a snapshot older than the lock would miss what the last one did), the exclusive
-- lock, the writes, the new generation last (an error before it leaves the claim in force as
-- it was), then COMMIT, which lets the lock go with the writes: nobody sees them half done,
-- and a cancel anywhere, on the COMMIT too, aborts the transaction and lets the lock go.
CREATE OR REPLACE PROCEDURE snowflake.claim_identity(datacenter integer DEFAULT NULL,
    machine integer DEFAULT NULL)
LANGUAGE plpgsql AS $$
DECLARE
    sys_id bigint := (SELECT system_identifier FROM pg_catalog.pg_control_system());
    db_oid oid := (SELECT oid FROM pg_catalog.pg_database WHERE datname = current_database());
    next_generation bigint;
    own snowflake.next_id_claim;
    held boolean;
    fence snowflake.next_id_fenced;
    chosen record;
    alive boolean;
    taken boolean := false;
    lease bigint;
BEGIN
    COMMIT;
    SET TRANSACTION ISOLATION LEVEL READ COMMITTED;
    IF machine IS NOT NULL AND datacenter IS NULL THEN
        RAISE EXCEPTION 'claim_identity: a machine needs its datacenter' USING ERRCODE = '22023';
    END IF;
    IF datacenter NOT BETWEEN 0 AND 31 THEN
        RAISE EXCEPTION 'claim_identity: datacenter % is out of range 0..=31 (5 bits)', datacenter USING ERRCODE = '22003';
    END IF;
    IF machine NOT BETWEEN 0 AND 31 THEN
        RAISE EXCEPTION 'claim_identity: machine % is out of range 0..=31 (5 bits)', machine USING ERRCODE = '22003';
    END IF;
    PERFORM pg_catalog.pg_advisory_xact_lock(1936617316, 'snowflake.next_id_slot'::regclass::oid::integer);
    next_generation := (SELECT last_value + 1 FROM snowflake.next_id_generation);
    SELECT * INTO own FROM snowflake.next_id_claim;
    held := FOUND;
    IF held AND (own.system_identifier <> sys_id OR own.database_oid <> db_oid) THEN
        RAISE EXCEPTION 'claim_identity: the claim of (%, %) is another database''s (system %, database oid %): a copy, a replica or an upgrade',
            own.datacenter, own.machine, own.system_identifier, own.database_oid
            USING ERRCODE = '55000',
            HINT = CASE WHEN own.database_oid = db_oid
                THEN 'If this is that very database after pg_upgrade (not a copy), CALL snowflake.adopt_identity(); if it is a copy, CALL snowflake.forget_copied_claim(), which fences every identity held when it was made, then claim one of its own'
                ELSE 'CALL snowflake.forget_copied_claim(), which fences every identity held when it was made, then claim one of its own' END;
    END IF;
    PERFORM snowflake._next_id_check_home('claim_identity');
    IF held THEN
        IF (datacenter IS NOT NULL AND datacenter <> own.datacenter)
            OR (machine IS NOT NULL AND machine <> own.machine) THEN
            RAISE EXCEPTION 'claim_identity: this database holds (%, %) already', own.datacenter, own.machine
                USING ERRCODE = '55000', HINT = 'CALL snowflake.release_identity() first';
        END IF;
        -- Its own claim again (after a release that failed, say): current again, at the
        -- generation that is, with no new one, so that a cancel anywhere in this call leaves
        -- the claim as it was.
        UPDATE snowflake.next_id_claim SET generation = next_generation - 1;
    ELSE
        -- As PgStore's claim: the identity's row locked first, then its lease's, whose
        -- end is read again under the lock (a keep-alive may have moved it), a run-out
        -- lease deleted. Never a fenced one (on a copy: held when it was made).
        FOR chosen IN
            SELECT i.datacenter, i.machine, i.lease_id FROM snowflake.identities i
            WHERE (claim_identity.datacenter IS NULL OR i.datacenter = claim_identity.datacenter)
                AND (claim_identity.machine IS NULL OR i.machine = claim_identity.machine)
                AND NOT EXISTS (SELECT FROM snowflake.leases l
                    WHERE l.id = i.lease_id AND l.expires_at > clock_timestamp())
                AND NOT EXISTS (SELECT FROM snowflake.next_id_fenced f
                    WHERE f.datacenter = i.datacenter AND f.machine = i.machine)
            ORDER BY i.datacenter, i.machine
            FOR UPDATE OF i SKIP LOCKED
        LOOP
            IF chosen.lease_id IS NOT NULL THEN
                SELECT l.expires_at > clock_timestamp() INTO alive FROM snowflake.leases l
                WHERE l.id = chosen.lease_id FOR UPDATE;
                CONTINUE WHEN alive;
                DELETE FROM snowflake.leases WHERE id = chosen.lease_id;
            END IF;
            taken := true;
            EXIT;
        END LOOP;
        IF NOT taken THEN
            SELECT * INTO fence FROM snowflake.next_id_fenced f
            WHERE f.datacenter = claim_identity.datacenter AND f.machine = claim_identity.machine;
            IF FOUND THEN
                RAISE EXCEPTION 'claim_identity: (%, %) was held by % when this database was copied from another, and may be still',
                    datacenter, machine, coalesce(fence.holder, 'a holder')
                    USING ERRCODE = '55000',
                    HINT = format('Claim another, or CALL snowflake.unfence_identity(%s, %s) once nothing that shares this keyspace issues under it',
                        datacenter, machine);
            END IF;
            RAISE EXCEPTION 'claim_identity: no free identity%',
                CASE WHEN machine IS NOT NULL THEN format(': (%s, %s) is held', datacenter, machine)
                    WHEN datacenter IS NOT NULL THEN format(' in datacenter %s: its 32 machines are held or fenced', datacenter)
                    ELSE ': all 1,024 are held or fenced' END
                USING ERRCODE = '55000';
        END IF;
        -- Never kept alive, never run out: held until released.
        INSERT INTO snowflake.leases (ttl_ms, expires_at) VALUES (1, 'infinity') RETURNING id INTO lease;
        UPDATE snowflake.identities SET lease_id = lease,
            holder = format('postgres %s/%s', sys_id, current_database())
        WHERE identities.datacenter = chosen.datacenter AND identities.machine = chosen.machine;
        INSERT INTO snowflake.next_id_claim (datacenter, machine, lease_id, system_identifier,
            database_oid, generation)
        VALUES (chosen.datacenter, chosen.machine, lease, sys_id, db_oid, next_generation);
        PERFORM snowflake._next_id_stop();
        -- Nothing is issued under it yet: a crash from here on skips (the marker unset
        -- again), and no crash before it can have lost an ID of this identity, whose mark
        -- covers every earlier holder's.
        PERFORM pg_catalog.setval('snowflake.next_id_alive', 1);
        own.datacenter := chosen.datacenter;
        own.machine := chosen.machine;
        PERFORM pg_catalog.setval('snowflake.next_id_generation', next_generation);
    END IF;
    -- Where the claim was made: its registry is this database's schema, which every holder
    -- that issues into the same keyspace must lease from (or claim distinct identities).
    RAISE NOTICE 'claim_identity: database % holds (%, %) in the registry snowflake.identities; every database and Rust holder that issues into the same keyspace must lease from this registry, or claim distinct identities',
        current_database(), own.datacenter, own.machine;
    COMMIT;
END
$$;

-- Lets this database's identity go, committed before it returns: the slot stopped, the
-- identity's mark raised to the last millisecond issued (past what a crash may have lost,
-- if one came since), the lease and the claim deleted. The next holder, Rust or database,
-- starts above every ID this database issued.
CREATE OR REPLACE PROCEDURE snowflake.release_identity()
LANGUAGE plpgsql AS $$
DECLARE
    own snowflake.next_id_claim;
    s bigint;
    last_ms bigint;
BEGIN
    COMMIT;
    SET TRANSACTION ISOLATION LEVEL READ COMMITTED;
    PERFORM pg_catalog.pg_advisory_xact_lock(1936617316, 'snowflake.next_id_slot'::regclass::oid::integer);
    SELECT * INTO own FROM snowflake.next_id_claim
    WHERE system_identifier = (SELECT system_identifier FROM pg_catalog.pg_control_system())
        AND database_oid = (SELECT oid FROM pg_catalog.pg_database WHERE datname = current_database());
    IF NOT FOUND THEN
        RAISE EXCEPTION 'release_identity: this database holds no identity' USING ERRCODE = '55000';
    END IF;
    PERFORM snowflake._next_id_stop();
    s := (SELECT last_value FROM snowflake.next_id_last);
    last_ms := CASE WHEN s >= 0 THEN s >> 22 ELSE 0 END;
    IF NOT (SELECT is_called FROM snowflake.next_id_alive) THEN
        -- A crash since the slot was last set: past what it may have lost, as the slow
        -- path's skip (run_ms and a second).
        last_ms := greatest(last_ms, snowflake._next_id_now_ms()) + 2001;
    END IF;
    UPDATE snowflake.identities
    SET hwm_ms = greatest(hwm_ms, last_ms + 1288834974657), lease_id = NULL, holder = NULL
    WHERE datacenter = own.datacenter AND machine = own.machine AND lease_id = own.lease_id;
    DELETE FROM snowflake.next_id_claim;
    DELETE FROM snowflake.leases WHERE id = own.lease_id;
    PERFORM snowflake._next_id_generation();
    COMMIT;
END
$$;

-- After pg_upgrade of this very database (a new system identifier, the same database oid,
-- the same sequences), its home and claim made its own again. Never on a copy: both would
-- issue under the identity.
CREATE OR REPLACE PROCEDURE snowflake.adopt_identity()
LANGUAGE plpgsql AS $$
DECLARE
    sys_id bigint := (SELECT system_identifier FROM pg_catalog.pg_control_system());
    db_oid oid := (SELECT oid FROM pg_catalog.pg_database WHERE datname = current_database());
BEGIN
    COMMIT;
    SET TRANSACTION ISOLATION LEVEL READ COMMITTED;
    PERFORM pg_catalog.pg_advisory_xact_lock(1936617316, 'snowflake.next_id_slot'::regclass::oid::integer);
    IF EXISTS (SELECT FROM snowflake.next_id_home WHERE database_oid <> db_oid)
        OR EXISTS (SELECT FROM snowflake.next_id_claim WHERE database_oid <> db_oid) THEN
        RAISE EXCEPTION 'adopt_identity: this database is a copy (another database oid), not the same database upgraded'
            USING ERRCODE = '55000',
            HINT = 'CALL snowflake.forget_copied_claim(), then claim one of its own';
    END IF;
    UPDATE snowflake.next_id_home SET system_identifier = sys_id WHERE system_identifier <> sys_id;
    UPDATE snowflake.next_id_claim SET system_identifier = sys_id,
        generation = (SELECT last_value + 1 FROM snowflake.next_id_generation)
    WHERE system_identifier <> sys_id;
    IF NOT FOUND AND NOT EXISTS (SELECT FROM snowflake.next_id_home WHERE system_identifier = sys_id) THEN
        RAISE EXCEPTION 'adopt_identity: there is no claim to adopt' USING ERRCODE = '55000';
    END IF;
    PERFORM snowflake._next_id_stop();
    PERFORM snowflake._next_id_generation();
    COMMIT;
END
$$;

-- On a copy of a database (pg_dump and restore, a template's copy, a clone, a logical
-- replica of these tables): the original's claim forgotten, and every identity that the
-- copy's registry shows held, whose holders may still issue under it against the
-- original's registry, fenced (never claimed here until unfence_identity), so that the copy
-- can claim one of its own. The copy becomes its own home.
CREATE OR REPLACE PROCEDURE snowflake.forget_copied_claim()
LANGUAGE plpgsql AS $$
DECLARE
    sys_id bigint := (SELECT system_identifier FROM pg_catalog.pg_control_system());
    db_oid oid := (SELECT oid FROM pg_catalog.pg_database WHERE datname = current_database());
BEGIN
    COMMIT;
    SET TRANSACTION ISOLATION LEVEL READ COMMITTED;
    PERFORM pg_catalog.pg_advisory_xact_lock(1936617316, 'snowflake.next_id_slot'::regclass::oid::integer);
    IF NOT EXISTS (SELECT FROM snowflake.next_id_home
            WHERE system_identifier <> sys_id OR database_oid <> db_oid)
        AND NOT EXISTS (SELECT FROM snowflake.next_id_claim
            WHERE system_identifier <> sys_id OR database_oid <> db_oid) THEN
        RAISE EXCEPTION 'forget_copied_claim: this database is no copy of another, and holds no other database''s claim'
            USING ERRCODE = '55000';
    END IF;
    -- Held by a lease, run out or not: the copy's clock says nothing of the original's.
    INSERT INTO snowflake.next_id_fenced (datacenter, machine, holder)
    SELECT i.datacenter, i.machine, i.holder FROM snowflake.identities i
    WHERE i.lease_id IS NOT NULL
    ON CONFLICT DO NOTHING;
    DELETE FROM snowflake.next_id_claim;
    UPDATE snowflake.next_id_home SET system_identifier = sys_id, database_oid = db_oid;
    PERFORM snowflake._next_id_stop();
    PERFORM snowflake._next_id_generation();
    COMMIT;
END
$$;

-- An identity fenced on a copy (forget_copied_claim) made claimable here again: by an
-- operator who knows that nothing sharing this keyspace issues under it any more (the
-- original released it, or the copy's IDs never meet the original's).
CREATE OR REPLACE PROCEDURE snowflake.unfence_identity(datacenter integer, machine integer)
LANGUAGE plpgsql AS $$
BEGIN
    COMMIT;
    SET TRANSACTION ISOLATION LEVEL READ COMMITTED;
    PERFORM pg_catalog.pg_advisory_xact_lock(1936617316, 'snowflake.next_id_slot'::regclass::oid::integer);
    DELETE FROM snowflake.next_id_fenced f
    WHERE f.datacenter = unfence_identity.datacenter AND f.machine = unfence_identity.machine;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'unfence_identity: (%, %) is not fenced', datacenter, machine USING ERRCODE = '55000';
    END IF;
    COMMIT;
END
$$;

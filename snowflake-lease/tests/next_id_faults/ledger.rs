//! What the run saw, and the oracle that reads it: every ID received, each identity's
//! holders in turn, the errors answered.

use crate::*;

/// What the run saw, for the oracle.
#[derive(Default)]
pub(crate) struct Ledger {
    /// Every ID received, with who received it.
    pub(crate) seen: HashMap<u64, String>,
    /// Each identity's holders, in the order they took it.
    pub(crate) tenures: HashMap<(u64, u64), Vec<Tenure>>,
    /// What broke a promise; the run stops at the first.
    pub(crate) breaches: Vec<String>,
    /// Calls whose holder's tenure was not written yet when their IDs came.
    pub(crate) pending: Vec<Call>,
    /// What the run did, ms from its start: claims, releases, crashes, clock steps, copies.
    pub(crate) events: Vec<(u128, String)>,
    /// Counts, for the floor of what the run must have done.
    pub(crate) ids: u64,
    pub(crate) claims: u64,
    pub(crate) holder_tenures: u64,
    pub(crate) crashes: u64,
    /// The highest ID each database gave out of each identity, and what it was when the
    /// database last crashed, with when.
    pub(crate) highest: HashMap<(String, (u64, u64)), u64>,
    pub(crate) crash_floors: HashMap<(String, (u64, u64)), (Instant, u64)>,
    pub(crate) copies: u64,
    pub(crate) fresh: u64,
    pub(crate) cancels: u64,
    pub(crate) errors: HashMap<String, u64>,
}

/// A call's IDs, by identity (the lowest and highest of each), and who received them when.
pub(crate) struct Call {
    pub(crate) who: String,
    pub(crate) holder: String,
    pub(crate) from: Instant,
    pub(crate) to: Instant,
    pub(crate) ids: Vec<((u64, u64), u64, u64)>,
}

impl Ledger {
    /// The tenure of the call's holder on `identity` that overlaps the call.
    pub(crate) fn tenure_of(&mut self, call: &Call, identity: (u64, u64)) -> Option<&mut Tenure> {
        self.tenures.get_mut(&identity)?.iter_mut().rev().find(|t| {
            t.holder == call.holder
                && t.from <= call.to
                && t.until.is_none_or(|until| until >= call.from)
        })
    }

    /// Gives each of the call's IDs to its tenure; false when one has none (yet).
    pub(crate) fn assign(&mut self, call: &Call) -> bool {
        if call
            .ids
            .iter()
            .any(|&(identity, ..)| self.tenure_of(call, identity).is_none())
        {
            return false;
        }
        for &(identity, low, high) in &call.ids {
            let tenure = self.tenure_of(call, identity).expect("checked above");
            tenure.low = Some(tenure.low.map_or(low, |l| l.min(low)));
            tenure.high = Some(tenure.high.map_or(high, |h| h.max(high)));
        }
        true
    }
}

/// One holder's hold of an identity, from before its claim to after its release, and
/// surely from after its claim to before its release.
pub(crate) struct Tenure {
    pub(crate) holder: String,
    pub(crate) from: Instant,
    pub(crate) until: Option<Instant>,
    pub(crate) sure_from: Instant,
    pub(crate) sure_until: Option<Instant>,
    /// The smallest and largest ID it issued.
    pub(crate) low: Option<u64>,
    pub(crate) high: Option<u64>,
}

/// The run's shared state.
pub(crate) struct Run {
    pub(crate) seed: u64,
    pub(crate) deadline: Instant,
    pub(crate) pg: Arc<Postgres>,
    /// The functions and `next_id`, as loaded.
    pub(crate) sql: String,
    /// Another cluster, for copies that keep the database's oid (as a restore into a new
    /// cluster may, and `pg_upgrade` does) under another system identifier, and for fresh
    /// databases whose first claim a crash follows (on a server where nothing else writes,
    /// as on a quiet one); its clock is libfaketime's too.
    pub(crate) elsewhere: Arc<Postgres>,
    pub(crate) ledger: Mutex<Ledger>,
    /// Set at the first breach: every task stops.
    pub(crate) stop: AtomicBool,
    /// The faked clock's offset from the real one, in ms, as last set.
    pub(crate) offset_ms: AtomicI64,
    /// The other cluster's, which only steps back, at each of its crashes.
    pub(crate) elsewhere_offset_ms: AtomicI64,
    /// Until when (ms since the run began) the clock may read outside the format's span in
    /// some backend (each reads it within a second or two of a step): `u64::MAX` while it is.
    pub(crate) odd_until: AtomicU64,
    /// When the clock was last stepped back, in ms since the run began.
    pub(crate) stepped_back_at: AtomicU64,
    /// Every step back so far, in ms (a stay before the epoch counts as long as it was).
    pub(crate) stepped_back_ms: AtomicU64,
    pub(crate) began: Instant,
    /// Claims and releases of the database, one at a time, so that the ledger knows what
    /// it holds; held across a crash until the answer is known.
    pub(crate) operator: AsyncMutex<()>,
    /// Read by a live Rust holder; written while the clock leaves the present (a lease
    /// granted in 2009 would run out at once back in the present: the docs' precondition).
    pub(crate) present: RwLock<()>,
    /// The sessions' backends, for cancels and kills.
    pub(crate) pids: Mutex<Vec<i32>>,
}

impl Run {
    pub(crate) fn breach(&self, what: String) {
        let at = self.began.elapsed().as_millis();
        let mut ledger = self.ledger();
        if ledger.breaches.is_empty() {
            eprintln!("NEXT_ID_FAULTS: seed {}: at {at} ms: {what}", self.seed);
        }
        ledger.breaches.push(what);
        self.stop.store(true, Ordering::SeqCst);
    }

    pub(crate) fn ledger(&self) -> std::sync::MutexGuard<'_, Ledger> {
        self.ledger.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub(crate) fn going(&self) -> bool {
        !self.stop.load(Ordering::SeqCst) && Instant::now() < self.deadline
    }

    pub(crate) fn since_began_ms(&self) -> u64 {
        u64::try_from(self.began.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    /// The faked clock now, in Unix ms, as the run last set it (each backend reads it
    /// within two seconds).
    pub(crate) fn faked_now_ms(&self) -> i64 {
        real_now_ms() + self.offset_ms.load(Ordering::SeqCst)
    }

    /// Records IDs received by `who` (of `database`, or the Rust holder when `None`) from a
    /// call that began at `from` and ended at `to`: each new, of an identity its issuer held
    /// then.
    pub(crate) fn received(
        &self,
        who: &str,
        holder: &str,
        ids: &[Snowflake],
        from: Instant,
        to: Instant,
    ) {
        let mut ledger = self.ledger();
        let mut breaches = Vec::new();
        let mut call = Call {
            who: who.to_owned(),
            holder: holder.to_owned(),
            from,
            to,
            ids: Vec::new(),
        };
        for id in ids {
            ledger.ids += 1;
            if let Some(first) = ledger.seen.insert(id.as_u64(), who.to_owned()) {
                breaches.push(format!(
                    "{id:?} ({}) issued twice: to {first}, then to {who}",
                    describe(*id)
                ));
                continue;
            }
            let identity = (u64::from(id.datacenter()), u64::from(id.machine()));
            match call.ids.iter_mut().find(|(i, ..)| *i == identity) {
                Some((_, low, high)) => {
                    *low = (*low).min(id.as_u64());
                    *high = (*high).max(id.as_u64());
                }
                None => call.ids.push((identity, id.as_u64(), id.as_u64())),
            }
        }
        // After a crash, a database's IDs of an identity are above all it gave out of it before
        // (the skip past what the crash may have lost).
        for &(identity, low, high) in &call.ids {
            let key = (holder.to_owned(), identity);
            if let Some(&(at, floor)) = ledger.crash_floors.get(&key)
                && from > at
                && low <= floor
            {
                let (low, floor) = (Snowflake::try_from(low), Snowflake::try_from(floor));
                breaches.push(format!(
                    "{who}: {low:?} after a crash of its database, not above {floor:?}, given out \
                     before it"
                ));
            }
            let highest = ledger.highest.entry(key).or_default();
            *highest = (*highest).max(high);
        }
        // Its holder's tenure may be written a moment after another session's IDs come
        // (the claim's answer, then the ledger): checked now, and again until it is.
        if !ledger.assign(&call) {
            ledger.pending.push(call);
        }
        drop(ledger);
        for breach in breaches {
            self.breach(breach);
        }
    }

    /// Checks the calls whose tenure was not written yet (a breach once one has waited
    /// `grace`: none at the end of the run), and the hand-overs so far.
    pub(crate) fn settle(&self, grace: Duration) {
        let mut ledger = self.ledger();
        let pending = std::mem::take(&mut ledger.pending);
        let mut breaches = Vec::new();
        for call in pending {
            if ledger.assign(&call) {
                continue;
            }
            if call.to.elapsed() < grace {
                ledger.pending.push(call);
                continue;
            }
            let at = |t: Instant| t.saturating_duration_since(self.began).as_millis();
            for &(identity, low, _) in &call.ids {
                if ledger.tenure_of(&call, identity).is_some() {
                    continue;
                }
                let tenures: Vec<String> =
                    ledger.tenures.get(&identity).map_or(Vec::new(), |tenures| {
                        tenures
                            .iter()
                            .map(|t| {
                                format!("{} {}..{:?} ms", t.holder, at(t.from), t.until.map(at))
                            })
                            .collect()
                    });
                let id = Snowflake::try_from(low).expect("an ID");
                breaches.push(format!(
                    "{id:?} ({}) received by {}, whose issuer {} did not hold {identity:?} during \
                     the call ({}..{} ms into the run); its holders: {tenures:?}",
                    describe(id),
                    call.who,
                    call.holder,
                    at(call.from),
                    at(call.to)
                ));
            }
        }
        // Once a hand-over is below the last holder's IDs it stays so: checked as the run
        // goes, so that it stops at the first.
        breaches.extend(hand_overs(&mut ledger));
        drop(ledger);
        for breach in breaches {
            self.breach(breach);
        }
    }

    /// `holder` took `identity` in a call from `from` to now.
    /// `holder`, a database, crashed: its IDs of each identity from calls begun after `at`
    /// are above the highest it gave out before now.
    pub(crate) fn crashed(&self, holder: &str, at: Instant) {
        let mut ledger = self.ledger();
        let floors: Vec<_> = ledger
            .highest
            .iter()
            .filter(|((h, _), _)| h == holder)
            .map(|(key, &high)| (key.clone(), (at, high)))
            .collect();
        ledger.crash_floors.extend(floors);
    }

    pub(crate) fn hold(&self, holder: &str, identity: (u64, u64), from: Instant) {
        let mut ledger = self.ledger();
        ledger.tenures.entry(identity).or_default().push(Tenure {
            holder: holder.to_owned(),
            from,
            until: None,
            sure_from: Instant::now(),
            sure_until: None,
            low: None,
            high: None,
        });
    }

    /// `holder` let `identity` go in a call from `sure_until` to now.
    pub(crate) fn let_go(&self, holder: &str, identity: (u64, u64), sure_until: Instant) {
        let until = Instant::now();
        let mut ledger = self.ledger();
        if let Some(tenure) = ledger
            .tenures
            .get_mut(&identity)
            .and_then(|tenures| tenures.iter_mut().rev().find(|t| t.holder == holder))
            .filter(|t| t.until.is_none())
        {
            tenure.until = Some(until);
            tenure.sure_until = Some(sure_until);
        }
    }

    /// Whether an identity surely had a holder all through `from..=to` (so at the instant a
    /// dump read it), and who.
    pub(crate) fn held_throughout(
        &self,
        identity: (u64, u64),
        from: Instant,
        to: Instant,
    ) -> Option<String> {
        self.ledger()
            .tenures
            .get(&identity)?
            .iter()
            .find(|t| t.sure_from <= from && t.sure_until.is_none_or(|until| until >= to))
            .map(|t| t.holder.clone())
    }

    /// Whether the Rust holder holds an identity now.
    pub(crate) fn holder_live(&self) -> bool {
        self.ledger()
            .tenures
            .values()
            .flatten()
            .any(|t| t.holder == HOLDER && t.until.is_none())
    }

    /// Notes what the run did, for the account of a breach.
    pub(crate) fn event(&self, what: String) {
        let at = self.began.elapsed().as_millis();
        self.ledger().events.push((at, what));
    }

    pub(crate) fn count_error(&self, what: &str) {
        *self.ledger().errors.entry(what.to_owned()).or_default() += 1;
    }
}

pub(crate) fn describe(id: Snowflake) -> String {
    format!(
        "{} ms, ({}, {}), seq {}",
        id.timestamp_ms(),
        id.datacenter(),
        id.machine(),
        id.sequence()
    )
}

/// Each identity's holders in turn: every ID of a later tenure above every ID of the one
/// before (the mark, and the floor above it).
pub(crate) fn hand_overs(ledger: &mut Ledger) -> Vec<String> {
    let mut breaches = Vec::new();
    for (identity, tenures) in &mut ledger.tenures {
        // In the order they took it: a tenure's claim ended before the next one's, which
        // began after the one before let go (the registry's own order).
        tenures.sort_by_key(|t| t.sure_from);
        let mut previous: Option<(&str, u64)> = None;
        for tenure in tenures.iter() {
            let (Some(low), Some(high)) = (tenure.low, tenure.high) else {
                continue;
            };
            if let Some((holder, high_before)) = previous
                && low <= high_before
            {
                let (low, before) = (Snowflake::try_from(low), Snowflake::try_from(high_before));
                breaches.push(format!(
                    "{identity:?} passed from {holder} to {}, whose first ID {low:?} is not above \
                     the last before it, {before:?}",
                    tenure.holder
                ));
            }
            previous = Some((
                tenure.holder.as_str(),
                previous.map_or(high, |(_, h)| h.max(high)),
            ));
        }
    }
    breaches
}

/// What an error says, for the oracle: a class the docs name for what the run did, or
/// `None` for one they do not.
pub(crate) fn answer(run: &Run, error: &tokio_postgres::Error) -> Option<&'static str> {
    let Some(db) = error.as_db_error() else {
        // The connection went: a kill, a stop.
        return Some("connection lost");
    };
    let code = db.code();
    let message = db.message();
    Some(if *code == SqlState::QUERY_CANCELED {
        "cancelled"
    } else if code.code().starts_with("57P") || code.code().starts_with("08") {
        "server going or starting"
    } else if *code == SqlState::T_R_SERIALIZATION_FAILURE {
        "serialization failure"
    } else if *code == SqlState::IN_FAILED_SQL_TRANSACTION {
        "transaction aborted before"
    } else if message == "snowflake.next_id(): this database holds no identity to issue under" {
        "no identity"
    } else if let Some(rest) = message.strip_prefix("snowflake.next_id(): the clock is ") {
        // Behind an identity's mark or the IDs issued: after a step back, a Rust holder's
        // reservation, a crash's skip; by seconds. Behind by years is a clock outside the
        // format's span, which the docs say is named as such.
        let behind: u64 = rest.split(' ').next()?.parse().ok()?;
        if behind > 86_400_000 {
            return None;
        }
        "clock behind"
    } else if message.starts_with("snowflake.next_id(): the clock reads ") {
        if run.since_began_ms() > run.odd_until.load(Ordering::SeqCst) {
            return None;
        }
        "clock outside the span"
    } else if message.starts_with("claim_identity: no free identity")
        || message.starts_with("claim_identity: this database holds")
    {
        "claim refused"
    } else if message == "release_identity: this database holds no identity" {
        "nothing to release"
    } else if *code == SqlState::INVALID_TRANSACTION_TERMINATION {
        "claim inside a transaction block"
    } else {
        return None;
    })
}

/// Counts an error, or records it as a breach when the docs do not name it.
pub(crate) fn judge(run: &Run, who: &str, what: &str, error: &tokio_postgres::Error) {
    match answer(run, error) {
        Some(kind) => run.count_error(kind),
        None => run.breach(format!(
            "{who}: {what}: an error the docs do not name: {error:?}"
        )),
    }
}

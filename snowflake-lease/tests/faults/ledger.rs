//! What the store really did (grants, renewals, commits, won claims, as the links saw
//! them executed) and what every holder issued, with the checks each ID must pass.

use std::collections::{HashMap, HashSet, VecDeque};
use std::fmt;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use snowflake_kit::Snowflake;
use snowflake_lease::LeaseId;
use tokio::time::Instant;

use crate::STALE;
use crate::clock::SkewedClock;

/// One process of one holder: the holder's number and which of its starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Incarnation {
    pub(crate) holder: usize,
    pub(crate) start: u32,
}

impl fmt::Display for Incarnation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "h{}#{}", self.holder, self.start)
    }
}

/// What an ID can get wrong, in the order the report lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Breach {
    /// Two holders issued in one millisecond: the guarantee itself.
    SameMillisecond,
    /// The same ID twice.
    Duplicate,
    /// Stamped above every mark the store committed under the holder's lease.
    AboveCommittedMark,
    /// Stamped at or past the end of the holder's lease at the store, as its clock read
    /// it (revocations aside, which a holder cannot see coming).
    PastLease,
}

/// A lease as the store had it.
struct Lease {
    /// When it runs out unless renewed: the last grant or renewal executed, plus the TTL.
    until: Instant,
    /// The highest mark committed under it.
    hwm_ms: Option<u64>,
}

#[derive(Default)]
struct Books {
    leases: HashMap<i64, Lease>,
    /// The lease of each process's last won claim: the one its IDs are issued under.
    current: HashMap<Incarnation, i64>,
    /// Which process issued in each millisecond.
    by_ms: HashMap<u64, Incarnation>,
    ids: HashSet<u64>,
    checked: u64,
    /// The process that issued the last ID checked, and how often the next ID came from
    /// another: the identity changed hands.
    last_issuer: Option<Incarnation>,
    handovers: u64,
    breaches: HashMap<Breach, (u64, String)>,
    trace: VecDeque<String>,
    /// The trace when the first breach was seen.
    trace_at_breach: Option<Vec<String>>,
}

/// How many events the trace keeps: enough to see the faults that led to a breach.
const TRACE: usize = 300;

pub(crate) struct Ledger {
    start: Instant,
    books: Mutex<Books>,
}

/// The outcome of one seed.
pub(crate) struct Report {
    pub(crate) checked: u64,
    /// How often an ID came from another process than the one before it.
    pub(crate) handovers: u64,
    /// Each kind of breach seen: how many, and the first.
    pub(crate) breaches: Vec<(Breach, u64, String)>,
    pub(crate) trace: Vec<String>,
}

impl Ledger {
    pub(crate) fn new() -> Ledger {
        Ledger {
            start: Instant::now(),
            books: Mutex::default(),
        }
    }

    fn books(&self) -> MutexGuard<'_, Books> {
        self.books.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Seconds since the run began, for the trace.
    fn at(&self) -> f64 {
        self.start.elapsed().as_secs_f64()
    }

    pub(crate) fn note(&self, event: impl fmt::Display) {
        let line = format!("{:9.3} s  {event}", self.at());
        let mut books = self.books();
        if books.trace.len() == TRACE {
            books.trace.pop_front();
        }
        books.trace.push_back(line);
    }

    /// A grant or a renewal executed by the store.
    pub(crate) fn alive(&self, lease: LeaseId, ttl: Duration) {
        let until = Instant::now() + ttl;
        let mut books = self.books();
        let entry = books.leases.entry(lease.get()).or_insert(Lease {
            until,
            hwm_ms: None,
        });
        entry.until = until;
    }

    pub(crate) fn committed(&self, lease: LeaseId, hwm_ms: u64) {
        let mut books = self.books();
        if let Some(entry) = books.leases.get_mut(&lease.get()) {
            entry.hwm_ms = entry.hwm_ms.max(Some(hwm_ms));
        }
    }

    /// A won claim whose answer reached its process.
    pub(crate) fn won(&self, incarnation: Incarnation, lease: LeaseId) {
        self.books().current.insert(incarnation, lease.get());
    }

    /// Every check of one ID, issued just now on `clock`.
    pub(crate) fn check(&self, incarnation: Incarnation, id: Snowflake, clock: &SkewedClock) {
        let at = self.at();
        let ms = id.timestamp_ms();
        let mut books = self.books();
        books.checked += 1;
        if books.last_issuer.is_some_and(|last| last != incarnation) {
            books.handovers += 1;
        }
        books.last_issuer = Some(incarnation);
        let mut found = Vec::new();
        match books.by_ms.get(&ms) {
            Some(other) if *other != incarnation => found.push((
                Breach::SameMillisecond,
                format!("{incarnation} issued {id} in ms {ms}, which {other} issued in too"),
            )),
            Some(_) => {}
            None => {
                books.by_ms.insert(ms, incarnation);
            }
        }
        if !books.ids.insert(id.as_u64()) {
            found.push((
                Breach::Duplicate,
                format!("{incarnation} issued {id} again"),
            ));
        }
        let lease = books
            .current
            .get(&incarnation)
            .and_then(|lease| books.leases.get(lease).map(|life| (*lease, life)));
        match lease {
            None => found.push((
                Breach::PastLease,
                format!("{incarnation} issued {id} without a won claim"),
            )),
            Some((lease, life)) => {
                if life.hwm_ms.is_none_or(|hwm_ms| ms > hwm_ms) {
                    found.push((
                        Breach::AboveCommittedMark,
                        format!(
                            "{incarnation} issued {id} at ms {ms}, above every mark committed \
                             under lease {lease} (highest {:?})",
                            life.hwm_ms
                        ),
                    ));
                }
                // Its holder's ceiling is below the lease's end as its clock read it at the
                // last publication, at most `STALE` ago; the store's end is later still.
                let end_ms = clock.reading_at(life.until, STALE);
                if ms >= end_ms {
                    found.push((
                        Breach::PastLease,
                        format!(
                            "{incarnation} issued {id} at ms {ms}, at or past ms {end_ms}, when \
                             lease {lease} ran out at the store as its clock read it"
                        ),
                    ));
                }
            }
        }
        for (breach, message) in found {
            if books.trace_at_breach.is_none() {
                let trace = books.trace.iter().cloned().collect();
                books.trace_at_breach = Some(trace);
            }
            books
                .breaches
                .entry(breach)
                .and_modify(|(count, _)| *count += 1)
                .or_insert((1, format!("{at:9.3} s  {message}")));
        }
    }

    pub(crate) fn report(&self) -> Report {
        let mut books = self.books();
        let mut breaches: Vec<_> = books
            .breaches
            .iter()
            .map(|(breach, (count, first))| (*breach, *count, first.clone()))
            .collect();
        breaches.sort_by_key(|(breach, _, _)| *breach);
        Report {
            checked: books.checked,
            handovers: books.handovers,
            breaches,
            trace: books
                .trace_at_breach
                .take()
                .unwrap_or_else(|| books.trace.iter().cloned().collect()),
        }
    }
}

//! The fault schedule: every so often, one fault on one holder (most often the one that
//! owns the identity, where faults matter), drawn from the seed.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use snowflake_lease::{Identity, MemStore};
use tokio::time::{Instant, sleep};

use crate::clock::SkewedClock;
use crate::ledger::Ledger;
use crate::link::{Cut, Faults, lock};
use crate::rng::Rng;
use crate::{MAX_SKEW_MS, TTL};

/// What the chaos can do to one holder.
pub(crate) struct Control {
    pub(crate) clock: SkewedClock,
    pub(crate) faults: Arc<Mutex<Faults>>,
    /// Set to make the holder's process exit and start again.
    pub(crate) restart: Arc<AtomicBool>,
}

pub(crate) struct Chaos {
    pub(crate) rng: Rng,
    pub(crate) holders: Vec<Control>,
    pub(crate) store: Arc<MemStore>,
    pub(crate) identity: Identity,
    pub(crate) ledger: Arc<Ledger>,
}

/// The TTL in ms, the unit the draws are made in.
fn ttl() -> u64 {
    u64::try_from(TTL.as_millis()).expect("seconds")
}

impl Chaos {
    /// Injects faults until the run ends (the task is dropped with its runtime).
    pub(crate) async fn run(mut self) {
        loop {
            sleep(self.rng.ms(200, 2_500)).await;
            let h = self.target();
            self.strike(h).await;
        }
    }

    /// The owner's holder seven times in ten, else any.
    fn target(&mut self) -> usize {
        // Owner keys read `h{holder}#{start}`.
        let owning = self.store.owner(self.identity).and_then(|(name, _)| {
            name.strip_prefix('h')?
                .split('#')
                .next()?
                .parse::<usize>()
                .ok()
        });
        match owning {
            Some(h) if self.rng.chance(700) => h,
            _ => usize::try_from(self.rng.between(0, 2)).expect("small"),
        }
    }

    async fn strike(&mut self, h: usize) {
        let ttl = ttl();
        let now = Instant::now();
        let how = if self.rng.chance(500) {
            Cut::Refused
        } else {
            Cut::Silent
        };
        let faults = Arc::clone(&self.holders[h].faults);
        match self.rng.between(0, 12) {
            0 => {
                let d = self.rng.ms(200, ttl * 5 / 2);
                self.cut_off(h, d, how);
            }
            // Twice as likely: the one fault that tells a holder's lease deadline apart.
            1 | 2 => {
                let d = self.rng.ms(ttl / 2, ttl * 2);
                lock(&faults).keep_alive_cut = Some((now + d, how));
                self.note(format_args!("h{h} keep-alives cut for {d:?} ({how:?})"));
            }
            3 => {
                let (d, per_mille) = (self.rng.ms(1_000, 6_000), self.rng.between(200, 700));
                lock(&faults).lossy = Some((now + d, per_mille));
                self.note(format_args!("h{h} loses {per_mille}‰ of answers for {d:?}"));
            }
            4 => {
                let (d, per_mille) = (self.rng.ms(1_000, 6_000), self.rng.between(200, 700));
                lock(&faults).late = Some((now + d, per_mille));
                self.note(format_args!("h{h} {per_mille}‰ of calls late for {d:?}"));
            }
            5 | 6 => self.revoke(h, how).await,
            7 => {
                let d = self.rng.ms(100, ttl * 3 / 2);
                lock(&faults).paused_until = Some(now + d);
                self.note(format_args!("h{h} paused for {d:?}"));
            }
            8..=10 => self.step_clock(h),
            11 => {
                self.holders[h].restart.store(true, Ordering::SeqCst);
                self.note(format_args!("h{h} restarts"));
            }
            _ => {
                let d = self.rng.ms(200, ttl * 2);
                for holder in &self.holders {
                    lock(&holder.faults).cut = Some((now + d, how));
                }
                self.note(format_args!("the store is down for {d:?} ({how:?})"));
            }
        }
    }

    fn note(&self, event: std::fmt::Arguments<'_>) {
        self.ledger.note(format_args!("chaos: {event}"));
    }

    fn cut_off(&self, h: usize, d: Duration, how: Cut) {
        lock(&self.holders[h].faults).cut = Some((Instant::now() + d, how));
        self.note(format_args!("h{h} cut off for {d:?} ({how:?})"));
    }

    /// Revokes the owner's lease; often cuts `h` off first (the owner, most often), so
    /// that it cannot hear of it and goes on with what it reserved.
    async fn revoke(&mut self, h: usize, how: Cut) {
        let ttl = ttl();
        if self.rng.chance(600) {
            let d = self.rng.ms(ttl / 3, ttl * 2);
            self.cut_off(h, d, how);
            sleep(self.rng.ms(0, ttl / 2)).await;
        }
        if let Some((name, lease)) = self.store.owner(self.identity) {
            self.store.revoke(lease);
            self.note(format_args!("revoked lease {} of {name}", lease.get()));
        }
    }

    /// A skew anew within the bound, a step back within the generator's tolerance (1 s),
    /// or a jump ahead by seconds that is undone later.
    fn step_clock(&mut self, h: usize) {
        let ttl = ttl();
        let clock = self.holders[h].clock.clone();
        match self.rng.between(0, 2) {
            0 => {
                let skew = self.rng.signed(MAX_SKEW_MS);
                clock.set_skew_ms(skew);
                self.note(format_args!("h{h} clock skewed {skew} ms"));
            }
            1 => {
                let back = self.rng.between(100, 900);
                let skew = clock.skew_ms() - i64::try_from(back).expect("small");
                clock.set_skew_ms(skew);
                self.note(format_args!("h{h} clock set back {back} ms, to {skew}"));
            }
            _ => {
                let (ahead, d) = (self.rng.between(1_000, ttl * 4), self.rng.ms(500, ttl * 3));
                clock.set_skew_ms(clock.skew_ms() + i64::try_from(ahead).expect("small"));
                self.note(format_args!("h{h} clock jumps {ahead} ms ahead for {d:?}"));
                let (ledger, back) = (Arc::clone(&self.ledger), self.rng.signed(MAX_SKEW_MS));
                tokio::spawn(async move {
                    sleep(d).await;
                    clock.set_skew_ms(back);
                    ledger.note(format_args!("chaos: h{h} clock back to {back} ms"));
                });
            }
        }
    }
}

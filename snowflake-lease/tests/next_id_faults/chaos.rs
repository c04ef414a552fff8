//! The server's and the clock's faults, one at a time: crashes, kills, steps of the clock,
//! a stay before the epoch, and, every few seconds, a copy or a fresh database.

use crate::*;

/// The server's and the clock's faults, one at a time, at random moments.
pub(crate) async fn chaos(run: Arc<Run>, mut rng: Rng) {
    let (mut copies, mut fresh) = (0, 0);
    let mut next_copy = run.began + Duration::from_secs(8);
    let mut next_fresh = run.began + Duration::from_secs(4);
    while run.going() {
        tokio::time::sleep(rng.ms(300, 1_200)).await;
        run.settle(Duration::from_secs(3));
        if !run.going() {
            break;
        }
        let pick = rng.between(0, 99);
        let offset = run.offset_ms.load(Ordering::SeqCst);
        let since_back = run.since_began_ms() - run.stepped_back_at.load(Ordering::SeqCst);
        if Instant::now() >= next_copy {
            next_copy = Instant::now() + rng.ms(8_000, 14_000);
            copies += 1;
            copy(&run, copies, &mut rng).await;
        } else if Instant::now() >= next_fresh {
            next_fresh = Instant::now() + rng.ms(5_000, 10_000);
            fresh += 1;
            fresh_claim_then_crash(&run, fresh, &mut rng).await;
        } else if pick < 6 {
            crash(&run, &mut rng, true).await;
        } else if pick < 11 {
            crash(&run, &mut rng, false).await;
        } else if pick < 14 {
            // A crash moments after a claim, while the IDs of its first milliseconds may be
            // the last the server wrote.
            let who = "the chaos, as an operator";
            if let Ok(client) = connect(&run.pg, "faults").await {
                if claimed(&run).await.is_some() {
                    release(&run, &client, who).await;
                }
                claim(&run, &client, who, &mut rng).await;
                tokio::time::sleep(rng.ms(0, 60)).await;
                crash(&run, &mut rng, false).await;
            }
        } else if (14..30).contains(&pick) && offset > -1_000 && since_back > 8_000 {
            // Back by up to 5 s: waited out, within the docs' wait. Sometimes new sessions
            // come at once then, each taking the slow path first (a pool that opens
            // connections): one waits for the clock, the others behind it, not again.
            let back = i64::try_from(rng.between(100, 5_000)).unwrap();
            set_clock(&run, offset - back).await;
            if back < 4_000 && rng.chance(400) {
                take_the_hint(&run, &mut rng).await;
            }
            if rng.chance(700) {
                tokio::time::sleep(Duration::from_millis(1_200)).await;
                run.event(format!(
                    "six new sessions at once, {back} ms after the step"
                ));
                let burst: Vec<_> = (0..6)
                    .map(|n| {
                        let run = run.clone();
                        tokio::spawn(async move {
                            let Ok(client) = connect(&run.pg, "faults").await else {
                                return;
                            };
                            let who = format!("new session {n} of a burst");
                            let sql = "SELECT snowflake.next_id()";
                            issue(&run, &client, (&who, DATABASE), &mut None, sql, 1).await;
                        })
                    })
                    .collect();
                for task in burst {
                    let _ = task.await;
                }
            }
        } else if (30..36).contains(&pick) {
            // Before the epoch for a moment, the database holding an identity: every call an
            // error that says so, never an ID.
            if let Ok(client) = connect(&run.pg, "faults").await
                && claimed(&run).await.is_none()
            {
                claim(&run, &client, "the chaos, as an operator", &mut rng).await;
            }
            let present = run.present.write().await;
            run.odd_until.store(u64::MAX, Ordering::SeqCst);
            let pg = run.pg.clone();
            let away = Instant::now();
            tokio::task::spawn_blocking(move || pg.freeze_clock("2009-06-01 00:00:00"))
                .await
                .unwrap();
            tokio::time::sleep(rng.ms(1_200, 2_500)).await;
            // A sleep under way stood still meanwhile: a step back as long as the stay,
            // counted before the clock comes back and the sleep ends.
            let stay = u64::try_from(away.elapsed().as_millis()).unwrap() + 1_500;
            run.stepped_back_ms.fetch_add(stay, Ordering::SeqCst);
            set_clock(&run, offset).await;
            run.odd_until
                .store(run.since_began_ms() + 3_000, Ordering::SeqCst);
            tokio::time::sleep(Duration::from_secs(3)).await;
            drop(present);
        } else if (33..45).contains(&pick) && (offset < -2_500 || rng.chance(400)) {
            // Forward, as a clock being corrected, to anywhere from 2.5 s behind the Rust
            // holder's clock to 1.5 s ahead of it, so that the database's IDs may run
            // behind the holder's or ahead of them. At once, while no Rust holder is live: a lease's end is on
            // the database's clock, which may not jump forward past a tenth of the lease
            // under a live holder (the docs' precondition).
            let present = run.present.write().await;
            let to = i64::try_from(rng.between(0, 4_000)).unwrap() - 2_500;
            if to > run.offset_ms.load(Ordering::SeqCst) {
                set_clock(&run, to).await;
            }
            drop(present);
        }
    }
    set_clock(&run, 0).await;
}

/// The way out that a clock-behind error's hint names: another identity, at once, whose IDs
/// must still come after those just issued.
async fn take_the_hint(run: &Run, rng: &mut Rng) {
    let who = "the chaos, as an operator taking the hint";
    if let Ok(client) = connect(&run.pg, "faults").await {
        if claimed(run).await.is_some() {
            release(run, &client, who).await;
        }
        claim(run, &client, who, rng).await;
    }
}

pub(crate) async fn set_clock(run: &Run, offset: i64) {
    run.event(format!("the clock at {offset:+} ms from the real one"));
    let before = run.offset_ms.swap(offset, Ordering::SeqCst);
    if offset < before {
        run.stepped_back_ms
            .fetch_add(before.abs_diff(offset), Ordering::SeqCst);
        run.stepped_back_at
            .store(run.since_began_ms(), Ordering::SeqCst);
    }
    let pg = run.pg.clone();
    tokio::task::spawn_blocking(move || pg.move_clock(offset))
        .await
        .unwrap();
}

/// A backend killed (`kill -9`: the server recovers from a crash), or the server stopped at
/// once and started again, the clock set back by up to the docs' second across it.
pub(crate) async fn crash(run: &Run, rng: &mut Rng, kill: bool) {
    run.ledger().crashes += 1;
    let pg = run.pg.clone();
    if kill {
        let pid = run.pids.lock().unwrap_or_else(PoisonError::into_inner)[index(rng, SESSIONS)];
        run.event(format!("kill -9 of backend {pid}"));
        if pid > 0 {
            let _ = std::process::Command::new("kill")
                .args(["-9", &pid.to_string()])
                .status();
            // The calls begun once the server has recovered (within a second): what came
            // back in the moment before its other backends were stopped is checked by none.
            run.crashed(DATABASE, Instant::now() + Duration::from_secs(1));
        }
        return;
    }
    let back = i64::try_from(rng.between(0, 950)).unwrap();
    let offset = run.offset_ms.load(Ordering::SeqCst) - back;
    run.event("the server stopped at once".to_owned());
    let at = Instant::now();
    tokio::task::spawn_blocking(move || pg.stop())
        .await
        .unwrap();
    run.crashed(DATABASE, at);
    set_clock(run, offset).await;
    let pg = run.pg.clone();
    tokio::task::spawn_blocking(move || pg.start_again())
        .await
        .unwrap();
    run.event("the server started again".to_owned());
}

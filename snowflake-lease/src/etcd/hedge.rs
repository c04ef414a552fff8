//! Hedged calls: a call that may run twice is asked of the next member too when its own is
//! slow to answer, and the rules for which of the two answers counts.

use std::future::Future;
use std::sync::atomic::Ordering;
use std::time::Duration;

use etcd_client::Client;

use super::errors::answered;
use super::members::Members;
use crate::events::event;

/// How long a call that may run twice waits for its member before asking the next one
/// too: well above an answer's usual time on a loaded machine (tens of ms), well below
/// the holder's bound on a call (half the window).
/// Less with a small window: a third of the holder's bound, so that the second run has
/// time to answer.
pub(super) const HEDGE: Duration = Duration::from_millis(200);

impl Members {
    /// As [`call`](Members::call), and if the member has not answered within the hedge
    /// delay `hedge` (at most [`HEDGE`]), the same call to the next member too: the first
    /// answer wins, and the next calls go to the member that gave it. For calls that may
    /// run twice: a keep-alive, a read, a revoke, an unclaim; and a reservation, a
    /// compare-and-set whose second run finds the mark it asks for already there, an
    /// answer that is not `settled`: it waits for the other run's, and with none, the call
    /// counts as unanswered (the holder then knows the mark may be committed).
    ///
    /// Why: a member that still follows a leader that has died or hangs takes the call
    /// and forwards it to nowhere, and a member that hangs itself holds it; either keeps
    /// the call for its whole bound, and the server refuses meanwhile.
    pub(super) async fn hedged<T, F, Fut>(
        &self,
        op: &'static str,
        hedge: Duration,
        call: F,
        settled: impl Fn(&T) -> bool,
    ) -> Result<T, etcd_client::Error>
    where
        F: Fn(Client) -> Fut,
        Fut: Future<Output = Result<T, etcd_client::Error>>,
    {
        let first = self.current.load(Ordering::Relaxed);
        let second = (first + 1) % self.endpoints.len();
        // On the heap: two calls' futures (tonic's, with TLS) would overflow a worker's
        // stack in a debug build.
        let mut asked = Box::pin(self.attempt(op, first, &call));
        if second == first {
            return asked.await;
        }
        tokio::select! {
            biased;
            // Run once: whatever it says is the answer.
            result = &mut asked => return result,
            () = tokio::time::sleep(hedge) => {}
        }
        event!(DEBUG, op, member = %self.endpoints[second], "etcd asked again, of another member");
        let mut again = Box::pin(self.attempt(op, second, &call));
        // Bound again after `again`, so dropped before it if both are given up: the first
        // member's watch moves the calls to the second, then the second's to the third
        // (the other order would leave them on the second, which hung too).
        let mut asked = asked;
        // The first settled answer; an unsettled one only if the other run's is one too;
        // an answer about the request (no such lease) at once.
        let (answer, by) = tokio::select! {
            biased;
            result = &mut asked => match result {
                Ok(answer) if settled(&answer) => (answer, first),
                Ok(answer) => (other(again.await, answer, &settled)?, second),
                Err(e) if answered(&e) => return Err(e),
                // The failed run may have run all the same: an unsettled answer from
                // the other is no answer.
                Err(e) => (settle(again.await, &settled, &e)?, second),
            },
            result = &mut again => match result {
                Ok(answer) if settled(&answer) => (answer, second),
                Ok(answer) => (other(asked.await, answer, &settled)?, first),
                Err(e) if answered(&e) => return Err(e),
                Err(e) => (settle(asked.await, &settled, &e)?, first),
            },
        };
        // To the member that answered, unless a failure elsewhere moved them already.
        let _ = self
            .current
            .compare_exchange(first, by, Ordering::Relaxed, Ordering::Relaxed);
        Ok(answer)
    }
}

/// With one run's answer unsettled: the other run's if it is settled, the unsettled one
/// if both are (each run saw the same), and unanswered if the other has no answer.
fn other<T>(
    result: Result<T, etcd_client::Error>,
    unsettled: T,
    settled: &impl Fn(&T) -> bool,
) -> Result<T, etcd_client::Error> {
    match result {
        Ok(answer) if settled(&answer) => Ok(answer),
        Ok(_) => Ok(unsettled),
        Err(e) => Err(etcd_client::Error::Internal(format!(
            "asked of two members: one found what it was to write already there, the other \
             did not answer ({e}): unanswered"
        ))),
    }
}

/// The other run's answer, after one run failed with `failed`: a settled one, or an
/// error (the failed run may have run, so an unsettled answer is no answer).
fn settle<T>(
    result: Result<T, etcd_client::Error>,
    settled: &impl Fn(&T) -> bool,
    failed: &etcd_client::Error,
) -> Result<T, etcd_client::Error> {
    match result {
        Ok(answer) if settled(&answer) => Ok(answer),
        Ok(_) => Err(etcd_client::Error::Internal(format!(
            "asked of two members: one failed ({failed}), the other found what it was to \
             write already there: unanswered"
        ))),
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::{other, settle};
    use crate::store::Reservation;

    /// A reservation asked of two members: the run that found its own mark is settled by
    /// the other's answer, and without one it is unanswered, never taken as committed.
    #[test]
    fn an_unsettled_answer_waits_for_the_other_run() {
        let new_ms = 1_796_000_000_000;
        let moved = Reservation::MarkMoved { found_ms: new_ms };
        let settled = |answer: &Reservation| *answer != moved;
        assert_eq!(
            other(Ok(Reservation::Committed), moved.clone(), &settled).unwrap(),
            Reservation::Committed
        );
        assert_eq!(
            other(Ok(Reservation::NotOwner), moved.clone(), &settled).unwrap(),
            Reservation::NotOwner
        );
        // Both found it there: someone wrote it before either ran.
        assert_eq!(
            other(Ok(moved.clone()), moved.clone(), &settled).unwrap(),
            moved
        );
        let silent = Err(etcd_client::Error::InvalidArgs("timed out".to_owned()));
        let error = other(silent, moved.clone(), &settled).unwrap_err();
        assert!(error.to_string().contains("unanswered"), "{error}");
    }

    /// One run failed (it may have committed all the same): the other's settled answer
    /// is the answer; its finding the mark there is no answer at all.
    #[test]
    fn after_a_failed_run_only_a_settled_answer_counts() {
        let new_ms = 1_796_000_000_000;
        let moved = Reservation::MarkMoved { found_ms: new_ms };
        let settled = |answer: &Reservation| *answer != moved;
        let failed = etcd_client::Error::InvalidArgs("leader changed".to_owned());
        assert_eq!(
            settle(Ok(Reservation::Committed), &settled, &failed).unwrap(),
            Reservation::Committed
        );
        let other_mark = Reservation::MarkMoved {
            found_ms: new_ms - 1,
        };
        assert_eq!(
            settle(Ok(other_mark.clone()), &settled, &failed).unwrap(),
            other_mark
        );
        let error = settle(Ok(moved.clone()), &settled, &failed).unwrap_err();
        assert!(error.to_string().contains("unanswered"), "{error}");
        assert!(error.to_string().contains("leader changed"), "{error}");
    }
}

//! The lease's events reach the subscriber of the application that embeds it: the
//! claim, the loss, the reclaim and the release, each with its fields.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use snowflake_lease::{Identity, LeaseOptions, LeasedGenerator, MemStore, State};
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};

/// An event as heard: its level, message and other fields, as text.
#[derive(Debug)]
struct Heard {
    level: tracing::Level,
    message: String,
    fields: Vec<(String, String)>,
}

/// A subscriber that keeps every event of this crate.
#[derive(Clone, Default)]
struct Ears(Arc<Mutex<Vec<Heard>>>);

struct Fields<'a>(&'a mut Heard);

impl Visit for Fields<'_> {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        let text = format!("{value:?}");
        if field.name() == "message" {
            self.0.message = text;
        } else {
            self.0.fields.push((field.name().to_owned(), text));
        }
    }
}

impl Subscriber for Ears {
    fn enabled(&self, metadata: &Metadata<'_>) -> bool {
        metadata.target().starts_with("snowflake_lease")
    }
    fn new_span(&self, _: &Attributes<'_>) -> Id {
        Id::from_u64(1)
    }
    fn record(&self, _: &Id, _: &Record<'_>) {}
    fn record_follows_from(&self, _: &Id, _: &Id) {}
    fn event(&self, event: &Event<'_>) {
        let mut heard = Heard {
            level: *event.metadata().level(),
            message: String::new(),
            fields: Vec::new(),
        };
        event.record(&mut Fields(&mut heard));
        self.0.lock().unwrap().push(heard);
    }
    fn enter(&self, _: &Id) {}
    fn exit(&self, _: &Id) {}
}

#[tokio::test]
async fn an_embedding_application_hears_the_claim_the_loss_the_reclaim_and_the_release() {
    let ears = Ears::default();
    let _listening = tracing::subscriber::set_default(ears.clone());
    let identity = Identity::new(4, 5).unwrap();
    let store = Arc::new(MemStore::new());
    let mut options = LeaseOptions::default().exact(identity);
    options.ttl = Duration::from_secs(2);
    options.window = Duration::from_millis(500);
    let generator = LeasedGenerator::start(Arc::clone(&store), options)
        .await
        .unwrap();
    // An operator revokes the lease: the next keep-alive finds it gone.
    let (_, lease) = store.owner(identity).unwrap();
    store.revoke(lease);
    let started = Instant::now();
    while generator.status().lease_losses == 0 || generator.status().state != State::Holding {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "{:?}",
            generator.status()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    generator.release().await;

    let heard = ears.0.lock().unwrap();
    let field = |event: &Heard, name: &str| {
        event
            .fields
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, value)| value.clone())
    };
    let mut at = 0;
    for (level, message, fields) in [
        (
            tracing::Level::INFO,
            "identity claimed",
            &[("datacenter", "4"), ("machine", "5"), ("ttl_s", "2")][..],
        ),
        (
            tracing::Level::WARN,
            "lease lost: issuing stopped",
            &[("reclaim", "true")],
        ),
        (
            tracing::Level::INFO,
            "identity reclaimed: issuing again",
            &[("datacenter", "4"), ("machine", "5")],
        ),
        (
            tracing::Level::INFO,
            "identity released",
            &[("datacenter", "4"), ("machine", "5")],
        ),
    ] {
        let found = heard[at..]
            .iter()
            .position(|event| event.level == level && event.message == message)
            .unwrap_or_else(|| panic!("no {level} {message:?} after event {at}: {heard:#?}"));
        at += found;
        for (name, value) in fields {
            assert_eq!(
                field(&heard[at], name).as_deref(),
                Some(*value),
                "{message}: {name}"
            );
        }
        at += 1;
    }
    // Whichever call noticed first: the keep-alive, or a reservation's ownership check.
    let lost = heard
        .iter()
        .find(|event| event.message == "lease lost: issuing stopped")
        .unwrap();
    let why = field(lost, "loss").unwrap();
    assert!(
        [
            "the lease is gone: the keep-alive found no lease",
            "the ownership check failed: the lease is off the owner key"
        ]
        .contains(&why.as_str()),
        "{why}"
    );
}

//! The leased generator against a real etcd on loopback (Debian's `etcd-server`),
//! each test with its own server: the store suite (`tests/suite`), and what only etcd has.
//! Holders in other processes, so that they can be killed and stopped, run the crate's
//! `snowflake-lease-holder` binary.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use etcd_client::GetOptions;
use snowflake_lease::{EtcdStore, Identity, LeaseError, LeaseOptions, LeasedGenerator, State};
use snowflake_test_support::Etcd;

use crate::suite::{Fixture, options, store_suite};

mod suite;
mod support;

use crate::support::said;

store_suite!(
    Etcd,
    needs: "needs etcd: bash scripts/test.sh installs it",
    partition needs: "needs etcd, and root with iproute2 for a network namespace: bash scripts/test.sh installs them"
);

async fn client(etcd: &Etcd) -> etcd_client::Client {
    etcd_client::Client::connect([etcd.endpoint()], None)
        .await
        .unwrap()
}

impl Fixture for Etcd {
    type Store = EtcdStore;

    async fn store(&self, options: &LeaseOptions) -> EtcdStore {
        EtcdStore::connect(&self.endpoint(), options).await.unwrap()
    }

    /// The owner keys: etcd deletes each with its lease.
    async fn owners(&self) -> usize {
        let prefix = format!("{}/owner/", LeaseOptions::default().prefix);
        let owners = client(self)
            .await
            .get(
                prefix,
                Some(GetOptions::new().with_prefix().with_count_only()),
            )
            .await
            .unwrap();
        usize::try_from(owners.count()).unwrap()
    }

    /// The mark's key, read by another client.
    async fn mark(&self, identity: Identity, options: &LeaseOptions) -> u64 {
        let answer = client(self)
            .await
            .get(format!("{}/hwm/{identity}", options.prefix), None)
            .await
            .unwrap();
        answer
            .kvs()
            .first()
            .map_or(0, |kv| kv.value_str().unwrap().parse().unwrap())
    }

    /// Another client revokes the lease on the owner key.
    async fn end_lease(&self, identity: Identity, options: &LeaseOptions) {
        let mut client = client(self).await;
        let owner = client
            .get(format!("{}/owner/{identity}", options.prefix), None)
            .await
            .unwrap();
        let lease = owner.kvs()[0].lease();
        client.lease_revoke(lease).await.unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_endpoints_and_silence_are_clear_errors() {
    let options = LeaseOptions::default();
    for (endpoint, reason) in [
        ("ftp://127.0.0.1:2379", "scheme `ftp`"),
        (
            "https://127.0.0.1:2379",
            "https:// members need the CA certificate",
        ),
        (
            "http://127.0.0.1:2379,https://127.0.0.1:2380",
            "mix http:// and https://",
        ),
        ("127.0.0.1", "expected host:port"),
        ("http://127.0.0.1:0", "port"),
        ("http://bad host:1", "host"),
    ] {
        let error = EtcdStore::connect(endpoint, &options).await.unwrap_err();
        assert!(
            matches!(&error, LeaseError::InvalidEndpoint { .. }),
            "{error}"
        );
        let text = said(&error);
        assert!(text.contains(endpoint) && text.contains(reason), "{text}");
    }
    let mut bad_prefix = LeaseOptions::default();
    bad_prefix.prefix = "no-slash".to_owned();
    assert_eq!(
        EtcdStore::connect("http://127.0.0.1:2379", &bad_prefix)
            .await
            .unwrap_err(),
        LeaseError::InvalidPrefix("no-slash".to_owned())
    );
    // Nobody listens there: it fails after the connect timeout, naming the address.
    let port = snowflake_test_support::free_port();
    let mut quick = LeaseOptions::default();
    quick.connect_timeout = Duration::from_millis(500);
    let started = Instant::now();
    let error = EtcdStore::connect(&format!("127.0.0.1:{port}"), &quick)
        .await
        .unwrap_err();
    assert!(started.elapsed() < Duration::from_secs(3));
    // The step, then the client's cause, each once in the chain.
    let text = format!("{:#}", anyhow::Error::new(error));
    assert!(
        text.starts_with(&format!(
            "cannot reach etcd at http://127.0.0.1:{port} (giving up after 500ms): "
        )),
        "{text}"
    );
}

/// What others write under the prefix: a key of another shape among the owners is no
/// identity, and a mark nobody can read is no fence to build on (the owner is told to stop).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs etcd: bash scripts/test.sh installs it"]
async fn keys_others_wrote_are_no_owner_and_no_mark() {
    use snowflake_lease::{Reservation, Store};

    let etcd = Etcd::start();
    let opts = options(3, 3, 5);
    let store = etcd.store(&opts).await;
    let identity = Identity::new(3, 3).unwrap();
    let lease = store.grant(Duration::from_secs(5)).await.unwrap();
    store.claim(identity, lease, "me").await.unwrap();
    let mut client = client(&etcd).await;
    client
        .put(format!("{}/owner/not-an-identity", opts.prefix), "x", None)
        .await
        .unwrap();
    assert_eq!(store.held().await.unwrap(), HashSet::from([identity]));
    client
        .put(format!("{}/hwm/03/03", opts.prefix), "garbage", None)
        .await
        .unwrap();
    assert_eq!(
        store.reserve(identity, lease, 0, 300).await.unwrap(),
        Reservation::NotOwner
    );
}

/// A high-water mark written by hand as `999` (not 13 zero-padded digits, so the
/// reservations' string comparisons cannot fence with it) is refused once, naming the
/// key: at a start, and by a holder whose mark is overwritten, which stops instead of
/// retrying for good.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs etcd: bash scripts/test.sh installs it"]
async fn a_mark_written_by_hand_is_refused_once_naming_its_key() {
    let etcd = Etcd::start();
    let mut client = etcd_client::Client::connect([etcd.endpoint()], None)
        .await
        .unwrap();
    let key = "/snowflake-kit/v1/default/hwm/09/09";
    client.put(key, "999", None).await.unwrap();
    let error = LeasedGenerator::start(etcd.store(&options(9, 9, 3)).await, options(9, 9, 3))
        .await
        .unwrap_err();
    assert!(matches!(error, LeaseError::BadMark { .. }), "{error}");
    assert!(
        said(&error).starts_with(&format!(
            "the high-water mark of identity 09/09 at {key} is \"999\", not 13 zero-padded digits"
        )),
        "{error}"
    );
    // Let go at once: the owner key is not left to its TTL.
    let owners = client
        .get("/snowflake-kit/v1/default/owner/09/09", None)
        .await
        .unwrap();
    assert!(owners.kvs().is_empty());

    let holder = LeasedGenerator::start(etcd.store(&options(10, 10, 3)).await, options(10, 10, 3))
        .await
        .unwrap();
    client
        .put("/snowflake-kit/v1/default/hwm/10/10", "999", None)
        .await
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let state = holder.status().state;
        if let State::Stopped(snowflake_lease::Loss::Unclaimable(LeaseError::BadMark {
            key,
            text,
            ..
        })) = &state
        {
            assert_eq!(
                (key.as_str(), text.as_str()),
                ("/snowflake-kit/v1/default/hwm/10/10", "999")
            );
            break;
        }
        assert!(Instant::now() < deadline, "{state}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(holder.try_next_id().is_err());
}

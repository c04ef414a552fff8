//! Where the service's IDs come from: nothing, a fixed identity, or a leased one.

use std::time::Duration;

use serde::Serialize;
use sf::{Clock, GenerateError, Generator, Snowflake, SystemClock};
use snowflake_lease::{LeasedGenerator, State};

/// The service's source of IDs.
pub(crate) enum Issuer {
    /// No identity was given: the page, compose and decode work; IDs do not.
    None,
    /// `--dc N --machine N`.
    Fixed(Generator),
    /// `--etcd URL`, with `--auto` or a fixed pair.
    Leased(LeasedGenerator),
}

/// Why no ID was issued, for a 503.
pub(crate) struct Unavailable(pub(crate) String);

impl From<GenerateError> for Unavailable {
    fn from(e: GenerateError) -> Unavailable {
        let reason = match e {
            GenerateError::Halted => "the identity's lease was lost; claiming it again".to_owned(),
            GenerateError::AboveCeiling { .. } => {
                format!(
                    "{e}: the reservation of time ahead has not been renewed (is etcd reachable?)"
                )
            }
            other => other.to_string(),
        };
        Unavailable(reason)
    }
}

/// `GET /v1/identity`.
#[derive(Serialize)]
pub(crate) struct IdentityJson {
    mode: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    datacenter: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    machine: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    state: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    lease_valid_until: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    ceiling: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    lease_losses: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<&'static str>,
}

/// What a 503 for a missing identity says.
pub(crate) const NO_IDENTITY: &str =
    "no identity: start snowflake-server with --dc N --machine N, or --etcd URL --auto";

fn rfc3339(ms: u64) -> Option<String> {
    sf::Rfc3339::new(ms).map(|time| time.to_string())
}

impl Issuer {
    /// One ID.
    pub(crate) fn next_id(&self) -> Result<Snowflake, Unavailable> {
        match self {
            Issuer::None => Err(Unavailable(NO_IDENTITY.to_owned())),
            Issuer::Fixed(generator) => Ok(generator.try_next_id()?),
            Issuer::Leased(generator) => Ok(generator.try_next_id()?),
        }
    }

    /// `out.len()` IDs, increasing.
    pub(crate) fn fill(&self, out: &mut [Snowflake]) -> Result<(), Unavailable> {
        match self {
            Issuer::None => Err(Unavailable(NO_IDENTITY.to_owned())),
            Issuer::Fixed(generator) => Ok(generator.try_fill(out)?),
            Issuer::Leased(generator) => Ok(generator.try_fill(out)?),
        }
    }

    /// Whether an ID could be issued now: an identity held, its ceiling ahead of the clock.
    pub(crate) fn ready(&self) -> Result<(), Unavailable> {
        match self {
            Issuer::None => Err(Unavailable(NO_IDENTITY.to_owned())),
            Issuer::Fixed(_) => {
                // Without taking an ID: can the clock's reading be one?
                let now_ms = SystemClock.now_ms();
                if (sf::TWITTER_EPOCH_MS..=sf::MAX_TIMESTAMP_MS).contains(&now_ms) {
                    Ok(())
                } else {
                    Err(Unavailable(format!(
                        "the clock reads {now_ms} ms, outside the times an ID can carry"
                    )))
                }
            }
            Issuer::Leased(generator) => {
                let status = generator.status();
                if status.state != State::Holding {
                    return Err(Unavailable(format!(
                        "the lease is not held: {:?}",
                        status.state
                    )));
                }
                if status.ceiling_ms < SystemClock.now_ms() {
                    return Err(Unavailable(
                        "the reserved time has run out (is etcd reachable?)".to_owned(),
                    ));
                }
                Ok(())
            }
        }
    }

    /// How many times the lease was lost, for the metrics.
    pub(crate) fn lease_losses(&self) -> u64 {
        match self {
            Issuer::Leased(generator) => generator.status().lease_losses,
            _ => 0,
        }
    }

    pub(crate) fn identity_json(&self) -> IdentityJson {
        let mut json = IdentityJson {
            mode: "none",
            datacenter: None,
            machine: None,
            state: None,
            lease_valid_until: None,
            ceiling: None,
            lease_losses: None,
            message: None,
        };
        match self {
            Issuer::None => json.message = Some(NO_IDENTITY),
            Issuer::Fixed(generator) => {
                json.mode = "fixed";
                json.datacenter = Some(generator.datacenter());
                json.machine = Some(generator.machine());
            }
            Issuer::Leased(generator) => {
                let status = generator.status();
                json.mode = "leased";
                json.datacenter = Some(status.identity.datacenter);
                json.machine = Some(status.identity.machine);
                json.state = Some(match status.state {
                    State::Holding => "holding".to_owned(),
                    State::Reclaiming(why) => format!("reclaiming: {why}"),
                    State::Stopped(why) => format!("stopped: {why}"),
                    State::Released => "released".to_owned(),
                    _ => "unknown".to_owned(),
                });
                json.lease_valid_until = rfc3339(status.lease_valid_until_ms);
                json.ceiling = rfc3339(status.ceiling_ms);
                json.lease_losses = Some(status.lease_losses);
            }
        }
        json
    }

    /// Releases a leased identity, so that the next holder need not wait for its TTL.
    pub(crate) async fn release(&self) {
        if let Issuer::Leased(generator) = self {
            // Bounded: a shutdown must not hang on a silent etcd.
            let _ = tokio::time::timeout(Duration::from_secs(5), generator.release()).await;
        }
    }
}

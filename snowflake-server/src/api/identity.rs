//! [`IdentityJson`]: the body of `GET /v1/identity`.

use serde::Serialize;

use snowflake_lease::Choice;

use crate::issuer::{Issuer, NO_IDENTITY, UNLEASED, kind, rfc3339};
use crate::openapi::fields;

/// The state of a leased identity not held yet: not one of the lease's own states.
pub(crate) const CLAIMING: &str = "claiming";

/// `GET /v1/identity`: where the IDs' identity comes from, and a lease's state.
#[derive(Debug, Default, Serialize, utoipa::ToSchema)]
pub(crate) struct IdentityJson {
    /// Which kind of identity: `none`; `unleased`, a pair given with `--dc N --machine N`
    /// and no store; or leased from a store: `exact` (exactly the pair given), `datacenter`
    /// (any free machine of one, `--dc N --auto`) or `auto` (any free one of all 1,024,
    /// `--auto`). The same words as the start-up event and `/metrics`.
    pub(crate) kind: &'static str,
    /// Where a leased identity comes from: `etcd` or `postgres`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) store: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(schema_with = fields::datacenter)]
    pub(crate) datacenter: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(schema_with = fields::machine)]
    pub(crate) machine: Option<u8>,
    /// A leased identity's state, a key to branch on: `claiming` (not held yet),
    /// `holding`, `reclaiming` (lost, claiming it again), `stopped` or `released`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) state: Option<&'static str>,
    /// The state in words, with its reason: `reclaiming: the lease ran out while the store
    /// was silent`. For a person; it may change between releases, the key may not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) state_detail: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) lease_valid_until: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) ceiling: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) lease_losses: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) message: Option<String>,
}

impl IdentityJson {
    /// The identity `issuer` issues with, as `/v1/identity` says it.
    pub(crate) fn of(issuer: &Issuer) -> IdentityJson {
        let mut json = IdentityJson {
            kind: "none",
            ..IdentityJson::default()
        };
        match issuer {
            Issuer::None => json.message = Some(NO_IDENTITY.to_owned()),
            Issuer::Unleased(generator) => {
                json.kind = UNLEASED;
                json.datacenter = Some(generator.datacenter());
                json.machine = Some(generator.machine());
            }
            Issuer::Leased(lease) => {
                json.store = Some(lease.store.key());
                let generator = match lease.generator() {
                    Ok(generator) => generator,
                    Err(refusal) => {
                        let waiting = refusal.to_string();
                        json.kind = kind(lease.choice);
                        match lease.choice {
                            Choice::Exact(identity) => {
                                json.datacenter = Some(identity.datacenter());
                                json.machine = Some(identity.machine());
                            }
                            Choice::Datacenter(datacenter) => json.datacenter = Some(datacenter),
                            Choice::Auto => {}
                        }
                        json.state = Some(CLAIMING);
                        json.state_detail = Some(waiting.clone());
                        json.message = Some(waiting);
                        return json;
                    }
                };
                let status = generator.status();
                json.kind = kind(generator.choice());
                json.datacenter = Some(status.identity.datacenter());
                json.machine = Some(status.identity.machine());
                json.state = Some(status.state.key());
                json.state_detail = Some(status.state.to_string());
                json.lease_valid_until = rfc3339(status.lease_valid_until_ms);
                json.ceiling = rfc3339(status.ceiling_ms);
                json.lease_losses = Some(status.lease_losses);
            }
        }
        json
    }
}

//! The options that more than one subcommand takes: the identity (`--dc`, `--machine`) and
//! `--json`.

use snowflake_kit::Field;

use crate::input::{self, Problems};
use crate::output::Format;

/// The identity: `--dc` and `--machine`, each read by the runtime's rule for its field.
#[derive(clap::Args, Debug)]
pub(crate) struct IdentityArgs {
    /// Datacenter id, 0..=31.
    // Strings, parsed by `input`: clap's own parsing would print several lines and
    // read `-1` as a flag.
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    dc: String,
    /// Machine id, 0..=31.
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    machine: String,
}

impl IdentityArgs {
    /// `--dc` and `--machine`, each bad one recorded in `problems`.
    pub(crate) fn parse(&self, problems: &mut Problems) -> (Option<u64>, Option<u64>) {
        (
            problems.record(input::field(Field::Datacenter, &self.dc)),
            problems.record(input::field(Field::Machine, &self.machine)),
        )
    }
}

#[derive(clap::Args, Debug)]
pub(crate) struct FormatArgs {
    /// Write one JSON object per ID and per line (JSON Lines), the ID as a decimal string
    /// and in base32.
    #[arg(long)]
    json: bool,
    /// Write each ID in 13 characters of base32 (sorted as the IDs are), not in decimal.
    #[arg(long, conflicts_with = "json")]
    base32: bool,
}

impl FormatArgs {
    pub(crate) fn format(&self) -> Format {
        match (self.json, self.base32) {
            (true, _) => Format::Json,
            (false, true) => Format::Base32,
            (false, false) => Format::Human,
        }
    }
}

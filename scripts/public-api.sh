#!/usr/bin/env bash
# The public API of every publishable crate with a library, item by item, as committed in
# docs/api/CRATE.txt: cargo-public-api (pinned, from crates.io) lists what rustdoc's JSON
# says a user can name, with every feature on. A change of API shows as a change of these
# files in review; CI fails when they are stale.
#   bash scripts/public-api.sh           write docs/api/*.txt anew (after an API change)
#   bash scripts/public-api.sh --check   compare with the committed files; fail on a difference
# Blanket impls are left out (`-s`: they follow from the rest); auto traits (Send, Sync,
# Unpin) stay in, since losing one breaks users. Items hidden from the docs (`__private`)
# are not API and are not listed. rustdoc's JSON is unstable: the stable toolchain writes
# it with RUSTC_BOOTSTRAP=1, in the format the cargo-public-api of scripts/tools.sh reads.
# One `cargo doc` writes every crate's JSON, with the docs step's features (the workspace's,
# all of them), so that the docs step after it builds no dependency again; RUSTC_BOOTSTRAP
# is set for rustdoc alone (a wrapper), since cargo would otherwise build every dependency
# again for it, and once more for the next step without it.
# The `snowflake` command has no library: nothing to list.
set -euo pipefail
cd "$(dirname "$0")/.."

crates=(snowflake-kit snowflake-runtime snowflake-macros snowflake-lease snowflake-page snowflake-server)

bash scripts/tools.sh cargo-public-api

out=docs/api
if [ "${1:-}" = --check ]; then
    out=$(mktemp -d)
fi
mkdir -p target
rustdoc=$(mktemp "$PWD/target/rustdoc.XXXXXX")
trap 'rm -f "$rustdoc"; [ "${1:-}" != --check ] || rm -rf "$out"' EXIT
printf '#!/bin/sh\nRUSTC_BOOTSTRAP=1 exec "%s" "$@"\n' "$(rustc --print sysroot)/bin/rustdoc" >"$rustdoc"
chmod +x "$rustdoc"
RUSTDOC=$rustdoc RUSTDOCFLAGS="-Z unstable-options --output-format json" \
    cargo doc --workspace --all-features --no-deps --lib --locked --quiet
doc=${CARGO_TARGET_DIR:-target}/doc
for crate in "${crates[@]}"; do
    cargo public-api --rustdoc-json "$doc/${crate//-/_}.json" --simplified --color never \
        >"$out/$crate.txt"
done

# The roots of the facade and the runtime at uuid's size: what a reader of the first page
# meets. The rest lives in modules named for their job (layout, rfc3339, input, sql, fence,
# as_string).
for crate in snowflake_kit snowflake_runtime; do
    # An item of the root: its name right after `crate::`, and no `>::` of a generic
    # type's member (`Generator<C>::halt`) before its arguments.
    root_names=$(grep -E "^(#\[[^]]*\] )*pub (use|mod|macro|const fn|fn|struct|enum|trait|type|const|static) $crate::[A-Za-z_][A-Za-z0-9_]*(!|<|\(|: |\$)" \
        "$out/${crate//_/-}.txt" | grep -cvE '^[^(]*>::')
    if [ "$root_names" -gt 20 ]; then
        echo "The root of $crate has $root_names names; at most 20 (a new item belongs in a module)." >&2
        exit 1
    fi
done

if [ "${1:-}" = --check ]; then
    if ! diff -ru docs/api "$out"; then
        echo "The public API differs from docs/api/ (above: - committed, + the code's)." >&2
        echo "If the change is meant, run \`bash scripts/public-api.sh\` and commit docs/api/." >&2
        exit 1
    fi
    echo "public API: ${crates[*]} as committed in docs/api/"
fi

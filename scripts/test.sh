#!/usr/bin/env bash
# The tests on a fresh machine: installs the system parts they need when missing
# (protoc for etcd-client, etcd for the lease and server tests, openssl for their
# certificates, iproute2 for the partition test's network namespace, Chromium and chromedriver
# for the page's browser tests, wasm-opt (binaryen) for the static site's module, Node's npm
# for axe-core and Lighthouse, their audits, strace
# for the command's write sizes, libfaketime to move the wall clock under a running process, Node to run the runtime built for WebAssembly, PostgreSQL for the database tests and libpq for diesel's
# PostgreSQL connection, podman and runc for the container image, systemd-analyze for the
# unit, schemathesis and kubernetes-validate from PyPI for the HTTP contract and the
# Kubernetes manifests), then runs every test of the workspace. The tests that need one of those are `#[ignore = "needs etcd: ..."]`
# in the code, so that a plain `cargo test` reports them ignored rather than passed; this
# runs them too (`--include-ignored`), and run without what it needs, such a test fails,
# saying what to install.
#   bash scripts/test.sh              install what is missing, then test
#   bash scripts/test.sh --deps-only  install what is missing, nothing else (used by .ci/run)
#   bash scripts/test.sh --skip NAME  every test but those whose names hold NAME (.ci/run runs
#                                     next_id's fault run beside the planted bugs instead)
# Debian or Ubuntu package names; elsewhere it says what to install.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
command -v protoc >/dev/null 2>&1 || missing+=(protobuf-compiler libprotobuf-dev)
command -v etcd >/dev/null 2>&1 || missing+=(etcd-server)
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v chromedriver >/dev/null 2>&1 || missing+=(chromium-driver)
command -v npm >/dev/null 2>&1 || missing+=(nodejs npm)
command -v node >/dev/null 2>&1 || missing+=(nodejs)
# wasm-opt for the static site's module (scripts/site.sh), which it brings under its budget.
command -v wasm-opt >/dev/null 2>&1 || missing+=(binaryen)
command -v strace >/dev/null 2>&1 || missing+=(strace)
# libfaketime, to move the wall clock under a running process (the runtime's wall_clock test).
ls /usr/lib/*/faketime/libfaketime.so.1 >/dev/null 2>&1 || missing+=(faketime)
# Certificates for the TLS cluster tests, and the network namespace of the partition test.
command -v openssl >/dev/null 2>&1 || missing+=(openssl)
command -v ip >/dev/null 2>&1 || missing+=(iproute2)
# The database tests start their own server with initdb and pg_ctl, which Debian keeps
# off PATH, in /usr/lib/postgresql/<version>/bin.
{ ls /usr/lib/postgresql/*/bin/initdb /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 ||
    { command -v initdb && command -v pg_ctl; } >/dev/null 2>&1; } || missing+=(postgresql)
command -v pg_config >/dev/null 2>&1 || missing+=(libpq-dev)
# The container image's test (snowflake-server/tests/deploy.rs): podman builds it, runc runs
# it (crun cannot set resource limits on our machines); and the systemd unit's check.
command -v podman >/dev/null 2>&1 || missing+=(podman)
command -v runc >/dev/null 2>&1 || missing+=(runc)
command -v systemd-analyze >/dev/null 2>&1 || missing+=(systemd)

if [ ${#missing[@]} -gt 0 ]; then
    sudo=""
    [ "$(id -u)" = 0 ] || sudo="sudo"
    if command -v apt-get >/dev/null 2>&1 && { [ -z "$sudo" ] || command -v sudo >/dev/null 2>&1; }; then
        echo "installing ${missing[*]}"
        $sudo apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    else
        echo "missing system packages: ${missing[*]} (Debian/Ubuntu names); install them and run again" >&2
        # Without protoc or libpq the workspace does not build.
        command -v protoc >/dev/null 2>&1 || exit 1
        command -v pg_config >/dev/null 2>&1 || exit 1
        # Without etcd, Chromium, wasm-opt, strace or PostgreSQL those tests fail, each
        # saying what to install; under CI, stop here.
        [ "${CI:-}" != true ] || exit 1
    fi
fi

# schemathesis, the HTTP contract's client that we did not write, from PyPI.
if ! command -v st >/dev/null 2>&1; then
    if command -v python3 >/dev/null 2>&1 && python3 -m pip --version >/dev/null 2>&1; then
        echo "installing schemathesis (PyPI)"
        python3 -m pip install --quiet --disable-pip-version-check schemathesis >/dev/null
    else
        echo "missing schemathesis: \`pip install schemathesis\` (needs Python 3 and pip)" >&2
        [ "${CI:-}" != true ] || exit 1
    fi
fi

# kubernetes-validate, the Kubernetes schemas offline, for deploy/kubernetes/.
if ! command -v kubernetes-validate >/dev/null 2>&1; then
    if command -v python3 >/dev/null 2>&1 && python3 -m pip --version >/dev/null 2>&1; then
        echo "installing kubernetes-validate (PyPI)"
        python3 -m pip install --quiet --disable-pip-version-check kubernetes-validate >/dev/null
    else
        echo "missing kubernetes-validate: \`pip install kubernetes-validate\` (needs Python 3 and pip)" >&2
        [ "${CI:-}" != true ] || exit 1
    fi
fi

# axe-core for the page's accessibility audit (snowflake-server/tests/browser.rs), from
# npm into target/axe. The version is pinned: a new release's new rules should arrive as
# a change here, not as a red run.
axe_version=4.14.1
axe=target/axe/node_modules/axe-core
if ! grep -qs "\"version\": \"$axe_version\"" "$axe/package.json" || [ ! -f "$axe/axe.min.js" ]; then
    echo "installing axe-core $axe_version into target/axe"
    if ! npm install --prefix target/axe --no-audit --no-fund --no-save "axe-core@$axe_version" >/dev/null; then
        echo "could not install axe-core with npm; the accessibility audit will fail" >&2
        [ "${CI:-}" != true ] || exit 1
    fi
fi

# Lighthouse for the page's audits (snowflake-server/tests/browser.rs) and its figures
# (scripts/bench/lighthouse.sh), from npm into target/lighthouse: 12.8.2, the last release
# that runs on Debian's Node 20 (13 wants Node 22). Pinned for the same reason as axe-core.
lighthouse_version=12.8.2
lighthouse=target/lighthouse/node_modules/lighthouse
if ! grep -qs "\"version\": \"$lighthouse_version\"" "$lighthouse/package.json"; then
    echo "installing lighthouse $lighthouse_version into target/lighthouse"
    if ! npm install --prefix target/lighthouse --no-audit --no-fund --no-save "lighthouse@$lighthouse_version" >/dev/null; then
        echo "could not install lighthouse with npm; the page's audits will fail" >&2
        [ "${CI:-}" != true ] || exit 1
    fi
fi

# The targets without std: tests/wasm builds the runtime for wasm32-unknown-unknown and runs
# it in Node.
bash scripts/targets.sh

[ "${1:-}" = --deps-only ] && exit 0
# `--include-ignored` runs the tests ignored for what they need, installed above. No test is
# ignored for another reason: a long check runs on demand from a target of its own
# (tests/model's code_durations, `test = false`), never from here.
exec cargo test --workspace --all-features --locked -- --include-ignored "$@"

#!/usr/bin/env bash
# The project's test command (README: "Set up"): installs the simulators and yosys when they are
# missing, checks the formatting (rustfmt.toml) and clippy's lints (each allowed one says why at
# its #[allow]) and that the library builds without its default features (no command line, no
# flows: what a crate that uses the blocks gets), as docs/src/library.md's snippets use it from a
# crate of their own (scripts/library-snippet.sh), and that its documentation builds without a
# warning (broken or private links), then runs the whole test suite with
# cargo-nextest (`.config/nextest.toml`: every test in its own process, the tests of all
# binaries side by side on every core, the longest first; the examples' tests too) and the doc
# tests with `cargo test --doc`. The iverilog, Verilator and yosys tests are part of it and never
# skipped. Arguments go to nextest: `bash scripts/test.sh -E 'binary(formal)'`. Each step prints
# its wall time (`test.sh: STEP took N s`); scripts/test-time.sh reads them.
set -euo pipefail
cd "$(dirname "$0")/.."

step() {
    local name="$1" start=$SECONDS
    shift
    "$@"
    echo "test.sh: $name took $((SECONDS - start)) s" >&2
}

step tools bash scripts/install-tools.sh
step fmt cargo fmt --check
step clippy cargo clippy --locked --all-targets --quiet -- -D warnings
step library bash scripts/library-snippet.sh
step doc env RUSTDOCFLAGS="-D warnings" cargo doc --locked --no-deps --quiet
step build cargo nextest run --locked --no-run
step tests cargo nextest run --locked "$@"
step doctests cargo test --locked --doc --quiet

#!/usr/bin/env bash
# The project's test command (README: "Set up"): installs the simulators and yosys when they are
# missing, checks the formatting (rustfmt.toml) and clippy's lints (each allowed one says why at
# its #[allow]), then runs the whole test suite. The iverilog, Verilator and yosys tests are
# part of it and never skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-tools.sh
cargo fmt --check
cargo clippy --locked --all-targets --quiet -- -D warnings
cargo test --locked "$@"

#!/usr/bin/env bash
# The project's test command (README: "Run every test"): installs the simulators and yosys when
# they are missing, then runs the whole test suite. The iverilog, Verilator and yosys tests are
# part of it and never skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-tools.sh
cargo test --locked "$@"

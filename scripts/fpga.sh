#!/usr/bin/env bash
# The README's first command: on a fresh Debian/Ubuntu machine, installs the FPGA tools when they
# are missing (scripts/install-tools.sh), regenerates rtl_out/, builds the Alchitry Cu self-test
# bitstream (build/alchitry_cu/top.bin) and prints the per-block resource/Fmax report.
# Extra arguments go to `build` (e.g. --rev v2, --freq 100). Exits non-zero when a step fails or
# the board top misses timing.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-tools.sh
cargo build --release --locked
bin=target/release/simt-rtl
"$bin" gen
"$bin" build --board alchitry-cu --preset cu "$@"
"$bin" report --preset cu

#!/usr/bin/env bash
# The README's first command: on a fresh Debian/Ubuntu machine, installs the FPGA tools when they
# are missing (scripts/install-tools.sh), regenerates rtl_out/, and builds a board's bitstreams.
#   bash scripts/fpga.sh                      the Alchitry Cu: the cu self-test bitstream
#                                             (build/alchitry_cu/top.bin), then the per-block
#                                             resource/Fmax report
#   bash scripts/fpga.sh --board ulx3s-85f    the ULX3S: the cu self-test top, then the seed-core
#                                             board top behind the serial port (build/ulx3s_85f/
#                                             and build/ulx3s_85f_core/; the seed core takes hours)
# Other arguments go to each `build` (e.g. --rev v2, --freq 100). Exits non-zero when a step
# fails or a board top misses timing.
set -euo pipefail
cd "$(dirname "$0")/.."
board=alchitry-cu
args=()
while [ $# -gt 0 ]; do
    case "$1" in
        --board) board="${2:?fpga: --board needs a board name}"; shift 2 ;;
        --board=*) board="${1#--board=}"; shift ;;
        *) args+=("$1"); shift ;;
    esac
done
case "$board" in
    alchitry-cu|alchitry-cu-v2|ulx3s-85f) ;;
    *) echo "fpga: --board must be alchitry-cu, alchitry-cu-v2 or ulx3s-85f, got '$board'" >&2; exit 2 ;;
esac
bash scripts/install-tools.sh
cargo build --release --locked
bin=target/release/simt-rtl
"$bin" gen
if [ "$board" = ulx3s-85f ]; then
    "$bin" build --board ulx3s-85f --preset cu ${args[@]+"${args[@]}"}
    "$bin" build --board ulx3s-85f --top core --out build/ulx3s_85f_core ${args[@]+"${args[@]}"}
else
    "$bin" build --board "$board" --preset cu ${args[@]+"${args[@]}"}
    "$bin" report --preset cu
fi

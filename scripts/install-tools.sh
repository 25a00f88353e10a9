#!/usr/bin/env bash
# Installs the external tools the tests and the board flow need (yosys, iverilog, verilator,
# nextpnr-ice40, icestorm's icepack/icetime/iceprog) when they are missing.
# Debian/Ubuntu only; needs root (or sudo). Idempotent: does nothing when every tool is present.
set -euo pipefail
need=()
command -v yosys     >/dev/null 2>&1 || need+=(yosys)
command -v iverilog  >/dev/null 2>&1 || need+=(iverilog)
command -v verilator >/dev/null 2>&1 || need+=(verilator)
command -v nextpnr-ice40 >/dev/null 2>&1 || need+=(nextpnr-ice40)
command -v icepack   >/dev/null 2>&1 || need+=(fpga-icestorm)
if [ "${#need[@]}" -eq 0 ]; then exit 0; fi
echo "install-tools: installing ${need[*]}" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq "${need[@]}" >/dev/null

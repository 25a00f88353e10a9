#!/bin/sh
# EDALIZE_LAUNCHER for FuseSoC's ULX3S target (edalize's trellis flow): runs nextpnr-ecp5 and
# ecppack from YoWASP, as scripts/install-tools.sh installs them (SIMT_YOWASP_DIR: their bin
# directory), and every other tool as it is.
#   EDALIZE_LAUNCHER=$PWD/scripts/edalize-yowasp.sh fusesoc --cores-root . run --target ulx3s_85f ::simt-rtl:0.1.0
tool="$1"
shift
case "$tool" in
    nextpnr-ecp5 | ecppack) exec "${SIMT_YOWASP_DIR:-$HOME/.local/share/simt-rtl/yowasp/bin}/yowasp-$tool" "$@" ;;
    *) exec "$tool" "$@" ;;
esac

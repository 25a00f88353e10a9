#!/usr/bin/env bash
# Proves that a change left the hardware alone: every file of rtl_out/ that differs between git
# revision REV (default HEAD) and the working tree is checked with yosys (equiv_make,
# equiv_simple, equiv_induct, equiv_status -assert). Files equal byte for byte, or apart from
# comment lines, need no proof and are counted. Where both files hold the same modules, each
# module whose text differs is proven alone with its own children flattened in: fast, its
# memories paired by structure (mapped to flip-flops only where that does not close, which is
# slow for the stack RAM). Otherwise (modules added, removed or renamed, or a child not equal
# alone) the old top is proven against the new with every child flattened into it, which for large
# tops (the SIMT core, anything holding the 256-entry stack RAM) can take longer than is
# practical; compare those under random stimulus instead (`speed --rtl`, see the book's
# verification page). A module that differs only in `ram_style` attributes (which RAM primitive
# synthesis picks) is equal without a proof, and counted as such. Prints one line per file;
# exit 1 when a proof fails. The PLL and a board
# top's self_test are black boxes (their own files are checked on their own). A module may gain
# ports: new inputs (e.g. for a feature its preset leaves out) are left free in the proof, which
# then also shows that nothing depends on them; new outputs have nothing to be compared with and
# are left out (their own tests check them). Files named after
# REV are the only ones checked. With --record, when every file is equal or proven, each file
# proven or equal apart from comments (not byte-equal) is appended to docs/src/results/proven-equal.txt as `PATH OLD NEW REV`
# (git blob hashes): a generated table measured on OLD stays fresh on NEW (tests/docs.rs).
#   bash scripts/equiv.sh [--record] [REV [FILE...]]
set -euo pipefail
cd "$(dirname "$0")/.."
record=0
if [ "${1:-}" = "--record" ]; then record=1; shift; fi
rev="${1:-HEAD}"
shift $(( $# > 0 ? 1 : 0 ))
only=("$@")
for f in "${only[@]}"; do [ -f "$f" ] || { echo "equiv: error: \`$f\` is not a file" >&2; exit 1; }; done
git rev-parse --verify --quiet "$rev^{commit}" >/dev/null || { echo "equiv: error: \`$rev\` is not a git revision" >&2; exit 1; }
command -v yosys >/dev/null || { echo "equiv: error: yosys not found (bash scripts/install-tools.sh)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/bb.v" <<'BB'
(* blackbox *) module self_test(input clk, input rst_n, output [7:0] led, input usb_rx, output usb_tx); endmodule
BB
# The module names a Verilog file declares, in order; one module's text.
modules() { sed -n 's/^module \([A-Za-z_0-9$]*\)(.*/\1/p' "$1"; }
module_text() { awk -v m="$2" '$0 ~ "^module " m "[(]" {on=1} on {print} on && /^endmodule/ {exit}' "$1"; }
# The ports of direction $3 (input, output) module $2 of file $1 declares.
ports() { module_text "$1" "$2" | sed -n "s/^ *$3 \(wire\|reg\) *\(\[[^]]*\] *\)\{0,1\}\([^ ;]*\);.*/\3/p" | sort; }
# The ports of direction $5 module $4 of file $2 has and module $3 of file $1 lacks.
new_ports() { comm -13 <(ports "$1" "$3" "$5") <(ports "$2" "$4" "$5"); }
# Module $3 of file $1 against module $4 of file $2, each with its own children flattened in;
# ports of $4 that $3 lacks are deleted (new inputs become free, undriven wires):
# first with its RAMs kept whole, paired by structure (equiv_struct: a RAM is equal when its
# addresses, data and enables are, so no RAM is unrolled into flip-flops) and its ROMs (the
# decoder's) mapped to logic, which the SAT solver can see through; where that does not
# close, with its memories mapped to flip-flops.
prove() { prove_with "memory -nomap; memory_map -rom-only" "equiv_struct;" "$@" || prove_with "memory" "" "$@"; }
prove_with() {
    local memory=$1 pair=$2 free=""; shift 2
    for port in $(new_ports "$@" input; new_ports "$@" output); do free="$free delete -port gate/$port;"; done
    yosys -q -p "read_verilog -lib +/ice40/cells_sim.v; read_verilog $work/bb.v;
read_verilog $1; hierarchy -top $3; proc; flatten; $memory; opt_clean; rename $3 gold; design -stash gold;
read_verilog -lib +/ice40/cells_sim.v; read_verilog $work/bb.v;
read_verilog $2; hierarchy -top $4; proc; flatten; $memory; opt_clean; rename $4 gate; $free design -stash gate;
design -copy-from gold -as gold gold; design -copy-from gate -as gate gate;
read_verilog -lib +/ice40/cells_sim.v; read_verilog $work/bb.v;
equiv_make gold gate equiv; hierarchy -top equiv; $pair equiv_simple -seq 5; equiv_induct -seq 5; equiv_status -assert"
}
# ", new inputs unused: ...", ", new outputs not compared: ..." for file $2's top against $1's.
new_inputs() {
    local top new; top=$(modules "$2" | head -n 1)
    new=$(new_ports "$1" "$2" "$top" "$top" input | tr '\n' ' ')
    [ -z "$new" ] || echo -n "; new inputs unused: ${new% }"
    new=$(new_ports "$1" "$2" "$top" "$top" output | tr '\n' ' ')
    [ -z "$new" ] || echo -n "; new outputs not compared: ${new% }"
}
# A module's text without `ram_style` attributes: a hint to synthesis of which RAM primitive to
# use (block RAM, LUT RAM), with no meaning in simulation and none to the function yosys reads.
without_hints() { sed -E 's/, ram_style = "[a-z_]+"//; s/\(\* ram_style = "[a-z_]+" \*\)//'; }
same=0; proven=0; failed=0
: > "$work/proven"
# File $1 is proven equal to its text at $rev: remembered for --record.
remember() { echo "$1 $(git rev-parse "$rev:$1") $(git hash-object -- "$1") $(git rev-parse --short=12 "$rev")" >> "$work/proven"; }
files=$(git ls-files rtl_out; git ls-files --others --exclude-standard rtl_out)
files=$(grep '\.v$' <<<"$files" || true)
[ ${#only[@]} -eq 0 ] || files="${only[*]}"
for file in $files; do
    if ! git cat-file -e "$rev:$file" 2>/dev/null; then echo "$file: new (nothing to compare)"; continue; fi
    [ -f "$file" ] || { echo "$file: removed"; continue; }
    if git show "$rev:$file" | cmp -s - "$file"; then same=$((same + 1)); continue; fi
    git show "$rev:$file" > "$work/gold.v"
    if cmp -s <(grep -v '^ *//' "$work/gold.v") <(grep -v '^ *//' "$file"); then
        echo "$file: equal to $rev apart from comment lines"; same=$((same + 1)); remember "$file"; continue
    fi
    if [ "$(modules "$work/gold.v")" = "$(modules "$file")" ]; then
        changed=0; hinted=0; bad=""
        for m in $(modules "$file"); do
            if cmp -s <(module_text "$work/gold.v" "$m") <(module_text "$file" "$m"); then continue; fi
            if cmp -s <(module_text "$work/gold.v" "$m" | without_hints) <(module_text "$file" "$m" | without_hints); then
                hinted=$((hinted + 1)); continue
            fi
            changed=$((changed + 1))
            prove "$work/gold.v" "$file" "$m" "$m" > "$work/module.log" 2>&1 || { bad="$bad $m"; cp "$work/module.log" "$work/log"; }
        done
        if [ -z "$bad" ]; then
            hints=""; [ "$hinted" -eq 0 ] || hints=", $hinted apart from a ram_style hint"
            echo "$file: proven equal to $rev, module by module ($changed changed$hints$(new_inputs "$work/gold.v" "$file"))"; proven=$((proven + 1)); remember "$file"
            continue
        fi
        # A child that changed on purpose (a ROM gaining a column for a new output) is not
        # equal alone; its parents may still be: prove the whole top.
        echo "$file: module(s)$bad not equal alone; proving the whole top"
    fi
    top=$(modules "$file" | head -n 1)
    old_top=$(modules "$work/gold.v" | head -n 1)
    if prove "$work/gold.v" "$file" "$old_top" "$top" > "$work/log" 2>&1; then
        echo "$file: proven equal to $rev ($old_top -> $top$(new_inputs "$work/gold.v" "$file"))"; proven=$((proven + 1)); remember "$file"
    else
        echo "$file: NOT proven equal to $rev ($old_top -> $top):"; tail -5 "$work/log"; failed=$((failed + 1))
    fi
done
echo "equiv: $same files equal to $rev (bytes or all but comments), $proven proven equal, $failed not proven"
[ "$failed" -eq 0 ] || exit 1
if [ "$record" -eq 1 ] && [ -s "$work/proven" ]; then
    log=docs/src/results/proven-equal.txt
    [ -f "$log" ] || printf '%s\n' "# Files of rtl_out/ proven equal by \`bash scripts/equiv.sh --record REV\`: PATH OLD-BLOB NEW-BLOB REV." \
        "# A table measured on OLD-BLOB stays fresh on NEW-BLOB (tests/docs.rs). Do not edit: written by equiv.sh." > "$log"
    cat "$work/proven" >> "$log"
    echo "equiv: recorded $(wc -l < "$work/proven") proof(s) in $log"
fi

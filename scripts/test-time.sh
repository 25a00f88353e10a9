#!/usr/bin/env bash
# Measures the test command as CI meets it and writes docs/src/results/test-time.md (and, from
# the cycles the tests log in run 1, docs/src/results/ci-cycles.md: what CI compares): the
# committed tree cloned fresh, an empty target/, engine cache ($SIMT_RTL_CACHE) and ccache per
# run, `bash scripts/test.sh` run RUNS times (default 2) one after another; the table gives each
# step's wall time, each test binary's test time and the slowest tests (nextest's JUnit report),
# and a last line `Total: N min`, the median run. Tools and the cargo registry are used as
# installed; the machine should be otherwise idle. Needs a clean work tree (the table is stamped
# with the commit). The table's own age check is skipped in these runs (SIMT_REWRITING_TEST_TIME).
# Usage: bash scripts/test-time.sh [--runs N]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=2
case "${1:-}" in
    "") ;;
    --runs)
        runs="${2:-}"
        [[ "$runs" =~ ^[1-9][0-9]?$ ]] || { echo "test-time: --runs must be a whole number from 1 to 99, got '${2:-}'" >&2; exit 2; }
        ;;
    *) echo "test-time: unknown argument '$1' (usage: bash scripts/test-time.sh [--runs N])" >&2; exit 2 ;;
esac
if [ -n "$(git status --porcelain)" ]; then
    echo "test-time: the work tree has changes; commit them first (the table names the commit)" >&2
    exit 1
fi
repo="$PWD"
# The commit measured, read now: commits made while the run goes on are not what it measured.
commit="$(git rev-parse HEAD)"
out="$repo/docs/src/results/test-time.md"
cycles_out="$repo/docs/src/results/ci-cycles.md"
work="$(mktemp -d "${TMPDIR:-/tmp}/simt-rtl-test-time.XXXXXX")"
trap 'rm -rf "$work"' EXIT
git clone -q "$repo" "$work/clone"
for run in $(seq 1 "$runs"); do
    echo "test-time: run $run of $runs in $work/clone (fresh target/ and engine cache)" >&2
    rm -rf "$work/clone/target" "$work/cache" "$work/ccache"
    start=$SECONDS
    if ! (cd "$work/clone" && SIMT_RTL_CACHE="$work/cache" CCACHE_DIR="$work/ccache" \
        SIMT_CYCLE_LOG="$work/cycles-$run.tsv" SIMT_REWRITING_TEST_TIME=1 bash scripts/test.sh 2>&1) \
        | tee "$work/log-$run.txt"; then
        echo "test-time: the test command failed in run $run; nothing written" >&2
        exit 1
    fi
    echo "test.sh: total took $((SECONDS - start)) s" >> "$work/log-$run.txt"
    cp "$work/clone/target/nextest/default/junit.xml" "$work/junit-$run.xml"
done
python3 scripts/test_time_table.py "$work" "$runs" "$commit" > "$work/table.md"
python3 scripts/ci_cycles_table.py "$work/cycles-1.tsv" "$commit" > "$work/cycles.md"
mv "$work/table.md" "$out"
mv "$work/cycles.md" "$cycles_out"
echo "test-time: wrote $out and $cycles_out" >&2

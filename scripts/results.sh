#!/usr/bin/env bash
# Regenerates the book's measured tables (docs/src/results/), each written by the command that
# measures it and stamped with that command, the commit and the tool versions. About three hours on
# 2 cores, and then the seed core on the ECP5: three placements without routing (about 25
# minutes each), then its board build and five placements routed, which have not finished here
# (routing alone ran for more than two hours); run it on a clean checkout so that the stamp names a commit without local changes.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-tools.sh
cargo build --release --locked
bin=target/release/simt-rtl
out=docs/src/results
"$bin" kernels kernels/*.s --markdown "$out/kernels-cu.md"
"$bin" kernels --preset seed-core kernels/*.s kernels/seed-core/*.s --markdown "$out/kernels-seed-core.md"
for size in "8 2" "4 4" "8 4"; do
    set -- $size
    "$bin" kernels kernels/*.s --warps "$1" --collector-units "$2" --markdown "$out/kernels-cu-w$1-u$2.md"
done
"$bin" explore kernels/*.s --placements 3 --markdown "$out/explore-core.md"
"$bin" explore --preset seed-core kernels/*.s kernels/seed-core/*.s --markdown "$out/explore-seed-core.md"
"$bin" explore --extensions kernels/*.s --placements 3 --markdown "$out/explore-extensions-cu.md"
"$bin" report --preset seed --block simt_core --family ecp5 --by-block --markdown "$out/synth-seed-core-ecp5.md"
# The seed-size bank arbiter mapped (the test command checks its structure only: its mapping takes minutes).
"$bin" report --preset seed --block bank_arbiter --family ecp5 --markdown "$out/synth-seed-bank-arbiter-ecp5.md"
"$bin" report --preset seed --block simt_core --family xilinx7 --markdown "$out/synth-seed-core-xilinx7.md"
"$bin" bench --fmax --placements 5 --markdown "$out/bench.md"
"$bin" report --preset cu --markdown "$out/report-cu.md"
"$bin" report --block simt_core --block simt_core_gpgpu_sim --placements 5 --markdown "$out/report-core.md"
"$bin" report --preset seed --markdown "$out/report-seed.md"
"$bin" report --preset seed --block warp_scheduler --block warp_scheduler_registered --placements 5 --markdown "$out/report-seed-scheduler.md"
"$bin" report --block self_test --mapper abc --mapper abc9 --mapper abc9-dff --placements 5 --markdown "$out/toolchain-self-test.md"
"$bin" report --block simt_core --block core_board --mapper abc --mapper abc9 --mapper abc9-dff --placements 5 --markdown "$out/toolchain-core.md"
"$bin" speed --preset cu --cycles 20000 --markdown "$out/speed-cu.md"
"$bin" speed --kernel kernels/vector_add.s --kernel kernels/loop.s --kernel kernels/spin.s --markdown "$out/engines-cu.md"
"$bin" speed --kernel kernels/seed-core/dot.s --kernel kernels/spin.s --core seed-core --engine-only --markdown "$out/engines-seed-core.md"
"$bin" speed --kernel kernels/seed-core/dot.s --kernel kernels/loop.s --core seed-core --markdown "$out/engines-seed-core-short.md"
"$bin" prove --preset cu --markdown "$out/prove-cu.md"
# The long run: the seed core on rust-hdl beside its model for 1,000,000 cycles, replayed on Verilator.
"$bin" soak --preset seed --block simt_core --cycles 1000000 --rust-hdl-cycles 1000000 --markdown "$out/soak-seed-core.md"
# The seed core's host link (checked, not exported), 10,000,000 cycles.
"$bin" soak --preset seed --block host_link --cycles 10000000 --markdown "$out/soak-seed-host-link.md"
"$bin" prove --synth --preset cu --markdown "$out/synth-equiv-cu.md"
"$bin" build --out build/alchitry_cu --markdown "$out/build-self-test.md"
"$bin" speed --bitstream build/alchitry_cu --cycles 20000 --markdown "$out/readback-speed.md"
"$bin" build --top core --out build/core --markdown "$out/build-core.md"
"$bin" speed --bitstream build/core --cycles 20000 --markdown "$out/readback-speed-core.md"
"$bin" build --board ulx3s-85f --markdown "$out/build-ulx3s-self-test.md"
"$bin" build --board ulx3s-85f --top core --preset cu-core --out build/ulx3s_85f_cu_core --markdown "$out/build-ulx3s-cu-core.md"
# The seed core on the ULX3S's LFE5U-85F: placed only, then placed and routed.
"$bin" explore --preset seed-core --route --place-only --placements 3 kernels/*.s kernels/seed-core/*.s --out build/explore-seed-placed --markdown "$out/explore-seed-core-placed.md"
"$bin" build --board ulx3s-85f --top core --preset seed-core --out build/ulx3s_85f_seed_core --markdown "$out/build-ulx3s-seed-core.md"
"$bin" explore --preset seed-core --route --placements 5 kernels/*.s kernels/seed-core/*.s --out build/explore-seed-routed --markdown "$out/explore-seed-core-routed.md"

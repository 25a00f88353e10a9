//! The formal properties (`src/hw/*/*/*.sv`) hold on the committed `rtl_out/`, and have teeth:
//! each deliberately broken variant of the exported Verilog is caught.

use std::path::{Path, PathBuf};

use simt_rtl::flow::prove::{
    fails_at, peek_commands, property_names, prove, prove_only, prove_within, Outcome,
};
use simt_rtl::hw::collector::operand_collector::module_name;
use simt_rtl::params::{CollectorTiming, CU};

fn work_dir(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join("formal").join(name);
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn block(module: &str) -> simt_rtl::registry::FormalBlock {
    let entry = simt_rtl::registry::entry_of::<simt_rtl::registry::CuBlocks>(module).unwrap();
    entry.formal().expect("block with properties")
}

/// The properties built into the crate are the files the registry names, so that `prove` in a
/// crate that depends on this one checks what the book and the tests show.
#[test]
fn built_in_properties_are_the_files() {
    let presets = simt_rtl::registry::entries::<simt_rtl::registry::CuBlocks>();
    let blocks: Vec<_> = presets.iter().filter_map(|e| e.formal()).collect();
    assert!(blocks.len() >= 10, "{} blocks with properties", blocks.len());
    for b in blocks {
        let file = Path::new(env!("CARGO_MANIFEST_DIR")).join(b.properties);
        assert_eq!(std::fs::read_to_string(&file).unwrap(), b.text, "{}", file.display());
    }
}

/// Every property of `module` holds on `rtl_out/cu/<module>.v` to depth 20; `proven` must close
/// by induction (hold in every reachable state).
fn properties_hold(module: &str, at_least: usize, proven: &[&str]) {
    let rtl = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("rtl_out/cu/{module}.v"));
    let results = prove(&block(module), &CU, &rtl, 20, &work_dir(module)).unwrap();
    assert!(results.len() >= at_least, "{results:?}");
    for (name, outcome) in &results {
        println!("{module}: {name}: {outcome}");
        assert!(
            matches!(outcome, Outcome::Proven { .. } | Outcome::Bounded { depth: 20 }),
            "{name}: {outcome}"
        );
    }
    assert_proven(&results, proven);
}

/// Each of `proven` is among `results`, proven (it holds in every reachable state).
fn assert_proven(results: &[(String, Outcome)], proven: &[&str]) {
    for p in proven {
        assert!(
            results.iter().any(|(n, o)| n == p && matches!(o, Outcome::Proven { .. })),
            "{p} not proven: {results:?}"
        );
    }
}

/// What the checker establishes for the one property `name` of `module` on `rtl`, sized for `preset`.
fn one_property(
    module: &str,
    preset: &simt_rtl::params::Preset,
    rtl: &Path,
    dir: &Path,
    name: &str,
) -> Outcome {
    let results = prove_only(&block(module), preset, rtl, 20, dir, &[name.to_string()]).unwrap();
    println!("{module}: {name}: {}", results[0].1);
    results.into_iter().next().unwrap().1
}

#[test]
fn simt_stack_properties_hold_from_reset_to_depth_20() {
    properties_hold(
        "simt_stack",
        8,
        &[
            "occupancy_within_depth",
            "occupancy_is_pushes_minus_pops",
            "top_is_last_pushed_not_popped",
            "sticky_flags_as_contract",
        ],
    );
}

#[test]
fn bank_arbiter_properties_hold_from_reset_to_depth_20() {
    properties_hold(
        "bank_arbiter",
        9,
        &[
            "no_read_on_written_bank",
            "waiting_bank_without_write_is_granted",
            "idle_grant_fields_are_zero",
        ],
    );
}

#[test]
fn round_robin_arbiter_properties_hold_from_reset_to_depth_20() {
    properties_hold(
        "round_robin_arbiter",
        6,
        &[
            "grant_is_one_requester",
            "index_names_the_grant",
            "steady_request_granted_within_n_grants",
        ],
    );
}

#[test]
fn warp_scheduler_properties_hold_from_reset_to_depth_20() {
    properties_hold(
        "warp_scheduler",
        9,
        &[
            "idle_warp_is_never_active",
            "fetch_only_an_active_warp",
            "never_idle_and_fetched",
            "command_lands_in_an_idle_warp",
            "idle_changes_only_by_command_and_end",
        ],
    );
}

/// Breaks `rtl_out/cu/<module>.v` by replacing the first `from` with `to` and expects one of
/// `properties` (`|`-separated) to fail (each property is checked alone, and only those are
/// checked: one that the break leaves true but not inductive could take long to bound).
fn mutant_is_caught(module: &str, tag: &str, from: &str, to: &str, properties: &str) {
    let (mutant, prove_dir) = write_mutant(module, tag, from, to);
    let only: Vec<String> = properties.split('|').map(String::from).collect();
    let results = prove_only(&block(module), &CU, &mutant, 20, &prove_dir, &only).unwrap();
    let failed: Vec<&String> = results
        .iter()
        .filter(|(_, o)| matches!(o, Outcome::Failed { .. }))
        .map(|(n, _)| n)
        .collect();
    assert!(
        failed.iter().any(|n| properties.split('|').any(|p| p == n.as_str())),
        "mutant `{tag}` should fail `{properties}`, failed: {failed:?}"
    );
    let vcd = results
        .iter()
        .find_map(
            |(_, o)| if let Outcome::Failed { vcd, .. } = o { Some(vcd.clone()) } else { None },
        )
        .unwrap();
    assert!(vcd.is_file(), "no counterexample trace at {}", vcd.display());
}

/// As [`mutant_is_caught`], for a mutant whose shortest failing run is known to end in cycle
/// `step`: only that cycle is checked ([`fails_at`]), where the bounded check of every cycle
/// before it grows too slow.
fn mutant_is_caught_at(module: &str, tag: &str, from: &str, to: &str, property: &str, step: usize) {
    let (mutant, prove_dir) = write_mutant(module, tag, from, to);
    match fails_at(&block(module), &CU, &mutant, step, &prove_dir, property).unwrap() {
        Some(Outcome::Failed { step: at, vcd }) => {
            assert_eq!(at, step, "the counterexample should end in the cycle checked");
            assert!(vcd.is_file(), "no counterexample trace at {}", vcd.display());
        }
        other => panic!("mutant `{tag}` should fail `{property}` in cycle {step}: {other:?}"),
    }
}

/// `rtl_out/cu/<module>.v` with `from` replaced by `to`, written to a work directory; and the
/// directory the checker runs in.
fn write_mutant(module: &str, tag: &str, from: &str, to: &str) -> (PathBuf, PathBuf) {
    let rtl = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("rtl_out/cu/{module}.v"));
    let text = std::fs::read_to_string(&rtl).unwrap();
    assert!(
        text.contains(from),
        "the mutation's text is not in {}: the mutant would be the original",
        rtl.display()
    );
    let dir = work_dir(tag);
    std::fs::create_dir_all(&dir).unwrap();
    let mutant = dir.join(format!("{module}.v"));
    std::fs::write(&mutant, text.replacen(from, to, 1)).unwrap();
    // A relative working directory on purpose (as `--out build/prove` is): the tools run inside
    // it, and the counterexample must still land there.
    let prove_dir = PathBuf::from("target/formal-relative").join(tag);
    let _ = std::fs::remove_dir_all(&prove_dir);
    (mutant, prove_dir)
}

#[test]
fn mutant_without_overflow_flag_is_caught() {
    mutant_is_caught(
        "simt_stack",
        "no_overflow_flag",
        "overflow_q$d = 1'b1;",
        "overflow_q$d = overflow_q$q;",
        "full_push_sets_overflow",
    );
}

#[test]
fn mutant_without_full_check_is_caught() {
    let from = "            if (full) begin\n                overflow_q$d = 1'b1;\n            end\n            else begin\n                sp$d = sp$q + 32'h1;\n            end";
    // The first violation: the push on a full stack moves the pointer.
    mutant_is_caught(
        "simt_stack",
        "no_full_check",
        from,
        "            sp$d = sp$q + 32'h1;",
        "full_push_changes_no_entry",
    );
}

#[test]
fn mutant_top_from_the_wrong_slot_is_caught() {
    // Two entries on the stack, and the top's mask is read from slot 0 instead of slot 1.
    mutant_is_caught(
        "simt_stack",
        "top_wrong_slot",
        "tos_mask = mask_mem$1$q;",
        "tos_mask = mask_mem$0$q;",
        "top_is_last_pushed_not_popped",
    );
}

// The warp scheduler's mutants are the seed's quirks put back into the fixed mode (warp 0 only).

#[test]
fn mutant_control_activates_idle_warp_is_caught() {
    mutant_is_caught(
        "warp_scheduler",
        "ctl_activates_idle",
        "if (hit_ctl & ~is_idle) begin",
        "if (hit_ctl) begin",
        "idle_warp_is_never_active|active_changes_only_as_commanded",
    );
}

#[test]
fn mutant_end_keeps_active_is_caught() {
    let from = "                w_idle = 1'b1;\n                w_active = 1'b0;";
    mutant_is_caught(
        "warp_scheduler",
        "end_keeps_active",
        from,
        "                w_idle = 1'b1;",
        "idle_warp_is_never_active|active_changes_only_as_commanded",
    );
}

#[test]
fn mutant_command_without_idle_warp_is_caught() {
    // A command offered while no warp is idle lands in a running warp.
    mutant_is_caught(
        "warp_scheduler",
        "cmd_without_idle",
        "new_cmd_w = cmd_grant;",
        "new_cmd_w = cmd_grant | {3'h0, ~(|cmd_grant)};",
        "active_changes_only_as_commanded",
    );
}

#[test]
fn mutant_without_write_priority_is_caught() {
    // Bank 0 no longer blocked by a write-back: a read and a write land on it in the same cycle.
    mutant_is_caught(
        "bank_arbiter",
        "no_write_priority",
        "blocked = (blocked & ~(1 << (0)) | ((write_valid & (write_bank == 0)) << (0)));",
        "blocked = blocked;",
        "no_read_on_written_bank",
    );
}

/// booksim's mode (one bank per unit) is the tiny preset's: its no-starvation bound
/// (`head_waits_fewer_than_n_cycles`, whose invariant ties each head's wait to the diagonal)
/// closes by induction there in about a second.
#[test]
fn booksim_arbiter_bound_is_proven_at_tiny_sizes() {
    use simt_rtl::hw::collector::bank_arbiter::preset::AtPreset as _;
    use simt_rtl::registry::TinyBlocks;
    #[allow(clippy::assertions_on_constants)] // guards the test's premise if the preset changes
    {
        assert!(
            simt_rtl::params::TINY.collector.one_bank_per_cu,
            "tiny is the booksim-mode preset"
        );
    }
    let mut dut = TinyBlocks::bank_arbiter().unwrap();
    let (rtl, dir) = export_for_checker(
        &mut dut,
        "bank_arbiter",
        "// bank_arbiter, tiny sizes (test)\n",
        "bank_arbiter_tiny",
        None,
    );
    let results = prove(&block("bank_arbiter"), &simt_rtl::params::TINY, &rtl, 20, &dir).unwrap();
    all_hold("bank_arbiter (tiny)", &results, 9);
    assert_proven(&results, &["one_bank_per_unit", "head_waits_fewer_than_n_cycles"]);
    // The priority diagonal stuck: two banks whose heads belong to one unit, and the same bank
    // wins every time.
    let mut dut = TinyBlocks::bank_arbiter().unwrap();
    let stuck = Some(("pri$d = pri$q + 32'h1;", "pri$d = pri$q;"));
    let (rtl, dir) = export_for_checker(
        &mut dut,
        "bank_arbiter",
        "// bank_arbiter, tiny sizes, stuck diagonal (test)\n",
        "bank_arbiter_tiny_stuck",
        stuck,
    );
    let outcome = one_property(
        "bank_arbiter",
        &simt_rtl::params::TINY,
        &rtl,
        &dir,
        "head_waits_fewer_than_n_cycles",
    );
    assert!(matches!(outcome, Outcome::Failed { .. }), "{outcome}");
}

#[test]
fn mutant_fixed_priority_is_caught() {
    // The seed's PriorityEncoder back in place of the rotation: the lowest request always wins.
    mutant_is_caught(
        "round_robin_arbiter",
        "fixed_priority",
        "req_above = req & above_now;",
        "req_above = 4'h0;",
        "steady_request_granted_within_n_grants",
    );
}

#[test]
fn operand_collector_properties_hold_from_reset_to_depth_20() {
    // All but the queue bound, which CI checks at tiny sizes (`tiny_collector`).
    let only: Vec<String> = property_names(block("operand_collector").text)
        .into_iter()
        .filter(|n| n != "bank_queues_never_overflow")
        .collect();
    let rtl = Path::new(env!("CARGO_MANIFEST_DIR")).join("rtl_out/cu/operand_collector.v");
    let results = prove_only(
        &block("operand_collector"),
        &CU,
        &rtl,
        20,
        &work_dir("operand_collector"),
        &only,
    )
    .unwrap();
    all_hold("operand_collector", &results, 8);
    assert_proven(
        &results,
        &[
            "busy_is_taken_and_not_dispatched",
            "instruction_taken_into_a_free_unit",
            "each_dispatch_fills_one_output",
            "dispatched_operands_all_collected",
        ],
    );
}

/// The queue bound (`bank_queues_never_overflow`, with its invariant over the queues' contents)
/// closes by induction at tiny sizes (2 banks, 2 units, booksim's one bank per unit: seconds on
/// bitwuzla) and, since bitwuzla, at cu's 4 banks too (`prove --block operand_collector`); CI
/// checks it on tiny's export. Returns that export, with the first `from` replaced by `to` when a
/// mutation is given, and a directory for the checker.
fn tiny_collector(tag: &str, mutation: Option<(&str, &str)>) -> (PathBuf, PathBuf) {
    tiny_collector_timed(CollectorTiming::GpgpuSim, tag, mutation)
}

/// As [`tiny_collector`], with the collector's `timing` (exported under its registry name).
fn tiny_collector_timed(
    timing: CollectorTiming,
    tag: &str,
    mutation: Option<(&str, &str)>,
) -> (PathBuf, PathBuf) {
    use simt_rtl::hw::collector::operand_collector::preset::AtPreset as _;
    use simt_rtl::registry::TinyBlocks;
    let mut dut = TinyBlocks::operand_collector(timing).unwrap();
    let module = module_name(timing);
    export_for_checker(
        &mut dut,
        module,
        &format!("// {module}, tiny sizes (test)\n"),
        &format!("{module}_tiny_{tag}"),
        mutation,
    )
}

/// The queue bound of one collector timing (an induction step of minutes on z3, seconds on
/// bitwuzla: one test per timing, so that the two run side by side).
fn collector_queues_never_overflow(timing: CollectorTiming) {
    let (rtl, dir) = tiny_collector_timed(timing, "original", None);
    let outcome = one_property(
        module_name(timing),
        &simt_rtl::params::TINY,
        &rtl,
        &dir,
        "bank_queues_never_overflow",
    );
    assert!(matches!(outcome, Outcome::Proven { .. }), "{}: {outcome}", timing.name());
}

#[test]
fn collector_queues_never_overflow_at_tiny_sizes_gpgpu_sim() {
    collector_queues_never_overflow(CollectorTiming::GpgpuSim);
}

#[test]
fn collector_queues_never_overflow_at_tiny_sizes_pipelined() {
    collector_queues_never_overflow(CollectorTiming::Pipelined);
}

/// A timing added to `CollectorTiming` stops the compile here until it has its test above.
const _: fn(CollectorTiming) = |timing| match timing {
    CollectorTiming::GpgpuSim | CollectorTiming::Pipelined => (),
};

#[test]
fn mutant_collector_queues_a_stalled_instruction_is_caught() {
    // The operands of an instruction that found no free unit are queued anyway, every cycle it
    // waits: requests nobody collects pile up until a queue overflows.
    let push = "arbiter$push_valid$0 = take & src_ok[0];";
    let (rtl, dir) = tiny_collector(
        "stalled_pushed",
        Some((push, "arbiter$push_valid$0 = in_valid$0 & src_ok[0];")),
    );
    let outcome = one_property(
        "operand_collector",
        &simt_rtl::params::TINY,
        &rtl,
        &dir,
        "bank_queues_never_overflow",
    );
    assert!(matches!(outcome, Outcome::Failed { .. }), "{outcome}");
}

#[test]
fn pipelined_collector_properties_hold_from_reset_to_depth_20() {
    // All but the queue bound, which CI checks at tiny sizes, as the GPGPU-Sim collector's.
    let module = "operand_collector_pipelined";
    let only: Vec<String> = property_names(block(module).text)
        .into_iter()
        .filter(|n| n != "bank_queues_never_overflow")
        .collect();
    let rtl = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("rtl_out/cu/{module}.v"));
    let results = prove_only(&block(module), &CU, &rtl, 20, &work_dir(module), &only).unwrap();
    all_hold(module, &results, 8);
    assert_proven(
        &results,
        &[
            "busy_is_taken_and_not_dispatched",
            "instruction_taken_into_a_free_unit",
            "dispatched_operands_all_collected",
            "pipelined_gives_only_units_free_before",
        ],
    );
}

#[test]
fn mutant_pipelined_unit_reused_at_once_is_caught() {
    // The GPGPU-Sim timing's allocation back in the pipelined block: a unit freed by this
    // cycle's dispatch is given out at once.
    mutant_is_caught(
        "operand_collector_pipelined",
        "pipelined_unit_reused_at_once",
        "free = ~cu_busy$q;",
        "free = ~cu_busy$q | taken;",
        "pipelined_gives_only_units_free_before",
    );
}

#[test]
fn mutant_unit_taken_while_busy_is_caught() {
    // Unit 0 counts as free while it holds an instruction: a new one overwrites it (dropped).
    mutant_is_caught(
        "operand_collector",
        "unit_taken_while_busy",
        "if (~found & free[0] & allowed[0]) begin",
        "if (~found & allowed[0]) begin",
        "instruction_taken_into_a_free_unit|busy_is_taken_and_not_dispatched",
    );
}

#[test]
fn mutant_dispatch_lost_is_caught() {
    // Collector unit 0's dispatch into output register 0 leaves it empty: the instruction is
    // dropped. (A dispatch over a full output register, caught by `output_held_until_taken`,
    // took 4.5 minutes to find; this one is found in a few steps.)
    mutant_is_caught(
        "operand_collector",
        "dispatch_lost",
        "o_valid$0$d = 1'b1;",
        "o_valid$0$d = o_valid$0$q;",
        "each_dispatch_fills_one_output",
    );
}

#[test]
fn peeks_connect_every_bit_and_refuse_unknown_signals() {
    let rtl = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("rtl_out/cu/operand_collector.v"),
    )
    .unwrap();
    let c = CU.collector;
    let text = "// peek: nr = cu_not_ready$#$q\n// peek: cnt = arbiter.count$#$q\n";
    let script = peek_commands(text, &rtl, "operand_collector", "w").unwrap();
    // One `connect` per signal, `<wire>[hi:lo]`; the slices of a wire tile it from bit 0 up.
    let bits = |script: &str, wire: &str| {
        let mut next = 0;
        for l in
            script.lines().filter_map(|l| l.strip_prefix(&format!("connect -nounset -set {wire}[")))
        {
            let (hi, rest) = l.split_once(':').unwrap();
            let lo: usize = rest.split_once(']').unwrap().0.parse().unwrap();
            assert_eq!(lo, next, "{script}");
            next = hi.parse::<usize>().unwrap() + 1;
        }
        next
    };
    assert_eq!(bits(&script, "nr"), 3 * c.collector_units, "{script}");
    assert_eq!(
        bits(&script, "cnt"),
        c.banks * simt_rtl::params::clog2(c.queue_depth() + 1),
        "{script}"
    );
    let count_bits = simt_rtl::params::clog2(c.queue_depth() + 1);
    assert!(
        script.contains(&format!(
            "connect -nounset -set cnt[{}:0] dut.arbiter.count$0$q\n",
            count_bits - 1
        )),
        "{script}"
    );
    assert!(script.starts_with("cd w\n") && script.ends_with("cd ..\n"), "{script}");
    // A RAM's words: every word, after the memories are mapped to flip-flops.
    let stack_rtl = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("rtl_out/cu/simt_stack_ram.v"),
    )
    .unwrap();
    let words =
        peek_commands("// peek: m = mask_ram.mem[#]\n", &stack_rtl, "simt_stack_ram", "w").unwrap();
    assert!(words.starts_with("memory -nomap\nmemory_map\ncd w\n"), "{words}");
    assert_eq!(bits(&words, "m"), 256 * CU.scheduler.threads, "{words}");
    assert!(
        words.contains(&format!(
            "connect -nounset -set m[{}:0] dut.mask_ram.mem[0]\n",
            CU.scheduler.threads - 1
        )),
        "{words}"
    );
    assert!(!script.contains("memory_map"), "{script}");
    assert_eq!(peek_commands("// no peeks\n", &rtl, "operand_collector", "w").unwrap(), "");
    for (bad, names) in [
        ("// peek: x = arbiter.nothere$#$q", "nothere"),
        ("// peek: x = nowhere.count$#$q", "has no instance `nowhere`"),
        ("// peek: x cu_busy$q", "<wire> = <signal>"),
    ] {
        let e = peek_commands(bad, &rtl, "operand_collector", "w").unwrap_err().to_string();
        assert!(e.contains(names), "`{bad}`: {e}");
    }
}

#[test]
fn mutant_dispatch_before_operands_collected_is_caught() {
    // Collector unit 0 is ready without waiting for its operands' bank reads.
    mutant_is_caught(
        "operand_collector",
        "dispatch_before_collected",
        "if (cu_busy$q[0] & (cu_not_ready$0$q == 32'h0)",
        "if (cu_busy$q[0]",
        "dispatched_operands_all_collected",
    );
}

#[test]
fn combinational_block_properties_hold() {
    for module in ["priority_encoder_lowest", "priority_encoder_highest"] {
        properties_hold(
            module,
            3,
            &[
                "valid_when_anyone_requests",
                "grant_is_the_first_request_in_order",
                "index_names_the_grant",
            ],
        );
    }
    properties_hold(
        "register_map",
        3,
        &[
            "two_registers_never_share_a_bank_row",
            "row_inside_the_bank",
            "bank_of_the_warps_scheduler",
        ],
    );
}

#[test]
fn mutant_row_without_warp_is_caught() {
    // The warp's part of the row dropped: two warps' registers land on one row.
    mutant_is_caught(
        "register_map",
        "row_without_warp",
        "row = warp_row | ((reg_row) & 4'hf);",
        "row = ((reg_row) & 4'hf);",
        "two_registers_never_share_a_bank_row",
    );
}

#[test]
fn mutant_highest_encoder_keeps_a_lower_request_is_caught() {
    // Requester 0 is granted whenever it requests, beside the highest one.
    mutant_is_caught(
        "priority_encoder_highest",
        "highest_two_bits",
        "grant = one_hot;",
        "grant = one_hot | (req & 4'h1);",
        "grant_is_the_first_request_in_order",
    );
}

#[test]
fn local_data_share_properties_hold_from_reset_to_depth_20() {
    properties_hold(
        "local_data_share",
        5,
        &[
            "response_only_for_a_taken_access",
            "one_access_in_flight",
            "answered_within_lanes_plus_one_cycles",
            "busy_only_with_an_open_access",
            "accesses_counts_taken_requests",
        ],
    );
}

#[test]
fn mutant_ready_while_busy_is_caught() {
    // The local data share takes a new request while an access is still being served.
    mutant_is_caught(
        "local_data_share",
        "ready_while_busy",
        "req_ready = ~active$q | ~|left;",
        "req_ready = 1'b1;",
        "one_access_in_flight|response_only_for_a_taken_access",
    );
}

#[test]
fn mutant_access_never_answered_is_caught() {
    // The last served row never raises resp_valid: the requester waits for ever.
    mutant_is_caught(
        "local_data_share",
        "never_answered",
        "done$d = active$q & ~|left;",
        "done$d = 1'b0;",
        "answered_within_lanes_plus_one_cycles",
    );
}

/// Exports `dut` as `module` into a fresh work directory `name`, with the first `from` replaced
/// by `to` when a mutation is given: the Verilog file, and a directory for the checker.
fn export_for_checker(
    dut: &mut impl rust_hdl::prelude::Block,
    module: &str,
    header: &str,
    name: &str,
    mutation: Option<(&str, &str)>,
) -> (PathBuf, PathBuf) {
    let dir = work_dir(name);
    std::fs::create_dir_all(&dir).unwrap();
    dut.connect_all();
    let mut text = simt_rtl::export::export_module(dut, module, header).unwrap();
    if let Some((from, to)) = mutation {
        assert!(text.contains(from), "the mutation's text is not in {name}'s {module}");
        text = text.replacen(from, to, 1);
    }
    let file = dir.join(format!("{module}.v"));
    std::fs::write(&file, text).unwrap();
    (file, dir.join("prove"))
}

#[test]
fn scoreboard_properties_hold_from_reset_to_depth_20() {
    properties_hold(
        "scoreboard",
        4,
        &[
            "hazard_is_a_register_in_flight",
            "pending_is_a_warp_with_registers_in_flight",
            "double_reservation_flagged",
            "release_of_a_free_register_flagged",
        ],
    );
}

/// `results` has `count` properties, each proven or bounded to depth 20.
fn all_hold(label: &str, results: &[(String, Outcome)], count: usize) {
    assert_eq!(results.len(), count, "{results:?}");
    for (name, outcome) in results {
        println!("{label}: {name}: {outcome}");
        assert!(
            matches!(outcome, Outcome::Proven { .. } | Outcome::Bounded { depth: 20 }),
            "{name}: {outcome}"
        );
    }
}

#[test]
fn mutant_scoreboard_without_same_cycle_release_is_caught() {
    // The checked warp's release in the same cycle no longer clears the hazard (GPGPU-Sim's
    // writeback-before-issue order lost): an instruction waits a cycle longer than it must.
    let from = "row = (row & ~(1 << (release_reg)) | ((1'b0) << (release_reg)));";
    mutant_is_caught(
        "scoreboard",
        "no_bypass",
        from,
        "row = row;",
        "hazard_is_a_register_in_flight",
    );
}

#[test]
fn ibuffer_properties_hold_from_reset_to_depth_20() {
    properties_hold(
        "ibuffer",
        4,
        &[
            "at_most_two_per_warp",
            "space_and_head_as_counted",
            "filled_into_empty_warp_is_the_head",
            "empty_warp_shows_no_instruction",
        ],
    );
}

#[test]
fn mutant_ibuffer_flush_ignored_is_caught() {
    mutant_is_caught(
        "ibuffer",
        "flush_ignored",
        "if ((flush_valid & (flush_warp == 0)) | reset) begin",
        "if (reset) begin",
        "space_and_head_as_counted",
    );
}

#[test]
fn mutant_ibuffer_fill_into_wrong_slot_is_caught() {
    // Warp 0's instruction filled into an empty buffer lands in the second slot: the head is stale.
    mutant_is_caught(
        "ibuffer",
        "wrong_slot",
        "inst0$0$d = fill_inst;",
        "inst1$0$d = fill_inst;",
        "filled_into_empty_warp_is_the_head",
    );
}

#[test]
fn mutant_ibuffer_head_of_the_issued_warp_is_caught() {
    // Warp 0's head shown when warp 0 issues, not when it is the warp asked for.
    mutant_is_caught(
        "ibuffer",
        "head_of_issued_warp",
        "if ((head_warp == 0) & (count$0$q != 32'h0)) begin",
        "if ((issue_warp == 0) & (count$0$q != 32'h0)) begin",
        "filled_into_empty_warp_is_the_head",
    );
}

/// The counts close by induction; the head is checked from reset to depth 10 (enough for a
/// warp's ring of four rows to wrap): its RAM of 128 rows makes each step of the bounded check
/// slow (step 10 takes minutes where the counts' take none).
#[test]
fn ibuffer_ram_properties_hold_from_reset_to_depth_10() {
    let rtl = Path::new(env!("CARGO_MANIFEST_DIR")).join("rtl_out/cu/ibuffer_ram.v");
    let names =
        ["at_most_two_per_warp", "space_and_head_as_counted", "head_is_the_named_warps_oldest"];
    let only: Vec<String> = names.iter().map(|n| n.to_string()).collect();
    let results =
        prove_only(&block("ibuffer_ram"), &CU, &rtl, 10, &work_dir("ibuffer_ram"), &only).unwrap();
    assert_eq!(results.len(), 3, "{results:?}");
    for (name, outcome) in &results {
        println!("ibuffer_ram: {name}: {outcome}");
        assert!(
            matches!(outcome, Outcome::Proven { .. } | Outcome::Bounded { depth: 10 }),
            "{name}: {outcome}"
        );
    }
    assert_proven(&results, &names[..2]);
}

#[test]
fn mutant_ibuffer_ram_head_from_the_next_row_is_caught() {
    // Warp 0's head read from the row after its oldest.
    mutant_is_caught(
        "ibuffer_ram",
        "ram_head_next_row",
        "read_slot = oldest$0$q;",
        "read_slot = oldest$0$q + 1'b1;",
        "head_is_the_named_warps_oldest",
    );
}

#[test]
fn mutant_ibuffer_ram_fill_over_the_oldest_is_caught() {
    // Warp 0's fills all written over its oldest row.
    mutant_is_caught(
        "ibuffer_ram",
        "ram_fill_over_oldest",
        "write_slot = oldest$0$q + count$0$q;",
        "write_slot = oldest$0$q;",
        "head_is_the_named_warps_oldest",
    );
}

#[test]
fn mutant_ibuffer_ram_empty_warp_shows_a_stale_row_is_caught() {
    // Warp 0 named while empty shows what its oldest row held.
    mutant_is_caught(
        "ibuffer_ram",
        "ram_stale_head",
        "shown$d = count$0$q != 32'h0;",
        "shown$d = 1'b1;",
        "head_is_the_named_warps_oldest",
    );
}

#[test]
fn host_link_properties_hold_from_reset_to_depth_20() {
    properties_hold(
        "host_link",
        7,
        &[
            "one_control_at_a_time",
            "answer_byte_held_until_taken",
            "start_is_a_pulse",
            "reset_clears_everything",
        ],
    );
}

#[test]
fn mutant_answer_byte_dropped_is_caught() {
    // The answer moves on whether the transmitter took its byte or not: bytes are lost.
    mutant_is_caught(
        "host_link",
        "answer_dropped",
        "if (is_sending & tx_ready) begin",
        "if (is_sending) begin",
        "answer_byte_held_until_taken",
    );
}

#[test]
fn simt_stack_ram_properties_hold_from_reset_to_depth_20() {
    // Its RAM's words are peeked (mapped to flip-flops): about 30 s at cu sizes.
    properties_hold(
        "simt_stack_ram",
        7,
        &[
            "top_is_last_pushed_not_popped",
            "empty_and_full_flags",
            "empty_top_is_zero",
            "sticky_flags_as_contract",
            "full_push_sets_overflow",
            "full_push_keeps_the_stack_full",
            "empty_pop_sets_underflow",
        ],
    );
}

#[test]
fn register_file_returns_the_last_write() {
    properties_hold("register_file", 1, &["read_returns_last_write"]);
}

#[test]
fn mutant_register_file_ignoring_a_lane_mask_is_caught() {
    // Lane 1 of a row is written whether its mask bit is set or not.
    let from = "if (write_mask[1]) mem[write_address][7:4] <= write_data[7:4];";
    mutant_is_caught(
        "register_file",
        "lane_mask_ignored",
        from,
        "mem[write_address][7:4] <= write_data[7:4];",
        "read_returns_last_write",
    );
}

#[test]
fn mutant_register_file_reading_a_written_bank_is_caught() {
    // Bank 0 is read in a cycle that the write port takes it: the block RAM's undefined
    // read-during-write (the checker's RAM gives the old row) shows instead of 0.
    mutant_is_caught(
        "register_file",
        "written_bank_read",
        "if (written$0$q) begin",
        "if (1'b0) begin",
        "read_returns_last_write",
    );
}

#[test]
fn mutant_stack_ram_without_overflow_flag_is_caught() {
    // Warp 0's push on its full stack is dropped without raising the flag.
    let from = "overflow_next = (overflow_next & ~(1 << (0)) | ((1'b1) << (0)));";
    mutant_is_caught(
        "simt_stack_ram",
        "ram_no_overflow_flag",
        from,
        "overflow_next = overflow_next;",
        "full_push_sets_overflow",
    );
}

#[test]
fn mutant_stack_ram_top_not_refilled_is_caught() {
    // In the cycle after a pop uncovered an entry of warp 0, its top shows the stale register
    // instead of the entry read from the RAM. The shortest run: reset (cycle 0), two pushes
    // (1, 2; the entry below the top is in the RAM), a pop (3), and the top shown in cycle 4.
    let from = "tops_mask$0 = mask_ram$read_data;\n            tops_pc$0 = pc_ram$read_data;";
    let to = "tops_mask$0 = top_mask_q$0$q;\n            tops_pc$0 = top_pc_q$0$q;";
    mutant_is_caught_at(
        "simt_stack_ram",
        "ram_top_not_refilled",
        from,
        to,
        "top_is_last_pushed_not_popped",
        4,
    );
}

/// A property whose check outlasts its time budget is reported as timed out (the checker and
/// its solver stopped), neither proven nor failed: the queue bound at cu sizes, which takes tens
/// of seconds, given 3 seconds.
#[test]
fn a_property_past_its_time_budget_is_timed_out() {
    let rtl = Path::new(env!("CARGO_MANIFEST_DIR")).join("rtl_out/cu/operand_collector.v");
    let only = ["bank_queues_never_overflow".to_string()];
    let budget = Some(std::time::Duration::from_secs(3));
    let dir = work_dir("operand_collector_timeout");
    let results =
        prove_within(&block("operand_collector"), &CU, &rtl, 20, &dir, &only, budget).unwrap();
    assert_eq!(results, vec![(only[0].clone(), Outcome::TimedOut { secs: 3 })]);
}

/// SIGINT or SIGTERM to `prove` ends every tool it started, `yosys-smtbmc` in its own process
/// group and its solver below it included: `prove` runs in a session of its own, and once a solver
/// of that session runs, the signal leaves no process of the session 5 s later, and the exit code
/// is 128 + the signal.
#[test]
fn an_interrupted_prove_leaves_no_tool_running() {
    use std::os::unix::process::CommandExt;
    for (signal, code) in [(libc::SIGINT, 130), (libc::SIGTERM, 143)] {
        let out = work_dir(&format!("interrupted_{signal}"));
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_simt-rtl"));
        cmd.args(["prove", "--block", "operand_collector", "--out", out.to_str().unwrap()])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped());
        // SAFETY: setsid alone between fork and exec.
        unsafe {
            cmd.pre_exec(|| {
                (libc::setsid() >= 0).then_some(()).ok_or_else(std::io::Error::last_os_error)
            })
        };
        let mut prove = cmd.spawn().unwrap();
        let session = prove.id() as i32;
        let started = std::time::Instant::now();
        let solver = |name: &str| ["bitwuzla", "yices-smt2"].contains(&name);
        while !session_processes(session).iter().any(|(_, name)| solver(name)) {
            assert!(started.elapsed().as_secs() < 600, "no solver started within 600 s");
            assert!(prove.try_wait().unwrap().is_none(), "prove ended before a solver ran");
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        // SAFETY: a signal to the child this test started.
        unsafe { libc::kill(session, signal) };
        let status = prove.wait().unwrap();
        std::thread::sleep(std::time::Duration::from_secs(5));
        let left = session_processes(session);
        assert!(left.is_empty(), "signal {signal}: processes left: {left:?}");
        let mut stderr = String::new();
        std::io::Read::read_to_string(&mut prove.stderr.take().unwrap(), &mut stderr).unwrap();
        assert_eq!(status.code(), Some(code), "signal {signal}: {stderr}");
        let last = stderr.lines().last().unwrap_or_default();
        assert!(last.starts_with("simt-rtl: interrupted by SIG"), "{stderr}");
    }
}

/// The processes of session `sid` (pid and command name), from `/proc`.
fn session_processes(sid: i32) -> Vec<(i32, String)> {
    let mut found = vec![];
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<i32>() else { continue };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else { continue };
        let Some((head, tail)) = stat.rsplit_once(')') else { continue };
        let name = head.split_once('(').map_or("", |(_, n)| n).to_string();
        // After the name: state, ppid, pgrp, session.
        if tail.split_whitespace().nth(3).and_then(|s| s.parse::<i32>().ok()) == Some(sid) {
            found.push((pid, name));
        }
    }
    found
}

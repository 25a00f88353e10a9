// Formal properties of WarpScheduler in its fixed mode (src/hw/scheduler/warp_scheduler/mod.rs), checked on
// the exported rtl_out/<preset>/warp_scheduler.v by `simt-rtl prove` (see simt_stack.sv for how).
//
// Every input is free from the first cycle on (runs start in reset): commands, warp control,
// branches, pops, ends and fetch handshakes arrive in any combination, aimed at any warp, idle
// or not. The properties state what the block promises whatever it is given.
// `simt-rtl prove` writes dut_ports.vh: `DUT_PORTS connects every port of the exported module.
`include "dut_ports.vh"

module warp_scheduler_props #(
    parameter W = 4,    // warps
    parameter WW = 2,   // warp id bits, clog2(W)
    parameter T = 8,    // threads (mask bits)
    parameter A = 16    // pc bits
) (
    input wire clock,
    input wire reset,
    input wire warp_cmd_valid,
    input wire [A-1:0] warp_cmd_pc,
    input wire [T-1:0] warp_cmd_mask,
    input wire warp_ctl_valid,
    input wire [WW-1:0] warp_ctl_wid,
    input wire warp_ctl_active,
    input wire branch_ctl_valid,
    input wire [WW-1:0] branch_ctl_wid,
    input wire [T-1:0] branch_ctl_mask,
    input wire [A-1:0] branch_ctl_pc,
    input wire end_ctl_valid,
    input wire [WW-1:0] end_ctl_wid,
    input wire warp_pop_valid,
    input wire [WW-1:0] warp_pop_wid,
    input wire warp_set_valid,
    input wire [WW-1:0] warp_set_wid,
    input wire [A-1:0] warp_set_pc,
    input wire [T-1:0] warp_set_mask,
    input wire inst_fetch_ready
);
    wire warp_cmd_ready, warp_ctl_ready, branch_ctl_ready, end_ctl_ready, inst_fetch_valid;
    wire [WW-1:0] warp_cmd_wid, inst_fetch_wid;
    wire [T-1:0] pop_data_mask, inst_fetch_mask;
    wire [A-1:0] pop_data_pc, inst_fetch_pc;
    wire [W-1:0] idle_mask, active_mask, stack_empty, stack_full;
    wire [W-1:0] err_overflow, err_underflow, err_end_idle, err_branch_idle, err_pop_idle, err_ctl_idle;
    warp_scheduler dut(`DUT_PORTS);

    // Runs start in reset.
    reg started = 1'b0;
    always @(posedge clock) started <= 1'b1;
    always @(*) if (!started) assume (reset);

    wire cmd_taken = warp_cmd_valid && warp_cmd_ready;
    wire fetch_taken = inst_fetch_valid && inst_fetch_ready;
    // An end lands on a warp that is not idle; on an idle one it is dropped (and flagged).
    wire [W-1:0] cmd_bit = cmd_taken ? (1 << warp_cmd_wid) : 0;
    wire [W-1:0] end_bit = (end_ctl_valid && !idle_mask[end_ctl_wid]) ? (1 << end_ctl_wid) : 0;
    // A warp set lands on a warp that is not idle (and activates it).
    wire [W-1:0] set_bit = (warp_set_valid && !idle_mask[warp_set_wid]) ? (1 << warp_set_wid) : 0;

    // What each warp's active bit must be after this cycle: a command starts its warp, warp
    // control sets a running warp's bit, a fetch clears its warp's, a warp set sets it, an end
    // clears its warp's
    // (later ones win, as the block documents).
    reg [W-1:0] want_active;
    integer w;
    always @(*) begin
        for (w = 0; w < W; w = w + 1) begin
            want_active[w] = active_mask[w];
            if (cmd_bit[w]) want_active[w] = 1'b1;
            if (warp_ctl_valid && warp_ctl_wid == w && !idle_mask[w]) want_active[w] = warp_ctl_active;
            if (fetch_taken && inst_fetch_wid == w) want_active[w] = 1'b0;
            if (set_bit[w]) want_active[w] = 1'b1;
            if (end_bit[w]) want_active[w] = 1'b0;
        end
    end

    // Every cycle. Two properties that follow from `idle_warp_is_never_active` state it with
    // them, so that each closes by induction on its own.
    wire no_idle_active = (idle_mask & active_mask) == 0;
    always @(*) if (started) begin
        idle_warp_is_never_active: assert (no_idle_active);
        fetch_only_an_active_warp: assert (inst_fetch_valid == (active_mask != 0) && (!inst_fetch_valid || active_mask[inst_fetch_wid]));
        never_idle_and_fetched: assert (no_idle_active && (!inst_fetch_valid || !idle_mask[inst_fetch_wid]));
        command_ready_names_an_idle_warp: assert (warp_cmd_ready == (idle_mask != 0) && (!warp_cmd_ready || idle_mask[warp_cmd_wid]));
    end

    // Over one clock edge.
    reg past = 1'b0, was_reset = 1'b0, was_cmd = 1'b0, was_fetch = 1'b0;
    reg [WW-1:0] old_cmd_wid = 0, old_fetch_wid = 0;
    reg [W-1:0] old_idle = 0, old_cmd_bit = 0, old_end_bit = 0, old_set_bit = 0, old_want_active = 0;
    always @(posedge clock) begin
        past <= 1'b1;
        was_reset <= reset;
        was_cmd <= cmd_taken;
        was_fetch <= fetch_taken;
        old_cmd_wid <= warp_cmd_wid;
        old_fetch_wid <= inst_fetch_wid;
        old_idle <= idle_mask;
        old_cmd_bit <= cmd_bit;
        old_end_bit <= end_bit;
        old_set_bit <= set_bit;
        old_want_active <= want_active;
    end
    // The command's warp was idle and now runs: it is neither idle nor inactive (no fetch can
    // have deactivated it, as no idle warp is active).
    always @(*) if (started) begin
        command_lands_in_an_idle_warp: assert (no_idle_active && (!past || was_reset || !was_cmd
            || (old_idle[old_cmd_wid] && !idle_mask[old_cmd_wid] && active_mask[old_cmd_wid])));
    end
    always @(*) if (past && !was_reset) begin
        // ... and it is the only warp that left the idle set: idle warps change by commands
        // (one warp each) and by ends, nothing else.
        idle_changes_only_by_command_and_end: assert (idle_mask == ((old_idle & ~old_cmd_bit) | old_end_bit));
        // Active bits change by commands, warp control and sets of running warps, fetches and
        // ends only.
        active_changes_only_as_commanded: assert (active_mask == old_want_active);
        // A fetched warp waits for warp control (or a warp set) to run again.
        fetched_warp_is_deactivated: assert (!was_fetch || old_set_bit[old_fetch_wid] || !active_mask[old_fetch_wid]);
    end
    always @(*) if (past && was_reset) begin
        reset_makes_every_warp_idle: assert (idle_mask == {W{1'b1}} && active_mask == 0 && stack_empty == {W{1'b1}});
    end
endmodule

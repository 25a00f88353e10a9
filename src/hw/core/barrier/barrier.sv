// Formal properties of Barrier (src/hw/core/barrier/mod.rs), checked on the exported
// rtl_out/<preset>/barrier.v by `simt-rtl prove` (see simt_stack.sv for how).
//
// The inputs are free but for the core's contract: runs start in reset, and a warp that has
// arrived at `bar` (waiting, or released and not yet re-activated) does not arrive again (it
// fetches nothing until it is re-activated). A shadow written from the ports runs beside the
// block: which warps have arrived, and which of them have seen every present warp arrive with
// the launch over.
`include "dut_ports.vh"

module barrier_props #(
    parameter W = 4,   // warps
    parameter WW = 2   // warp id bits
) (
    input wire clock,
    input wire reset,
    input wire arrive,
    input wire [WW-1:0] arrive_warp,
    input wire diverged,
    input wire [W-1:0] present,
    input wire launching,
    input wire ctl_busy
);
    wire ctl_valid, any_waiting, err_diverged;
    wire [WW-1:0] ctl_wid;
    `DUT_MODULE dut(`DUT_PORTS);

    // Runs start in reset.
    reg started = 1'b0;
    always @(posedge clock) started <= 1'b1;
    always @(*) if (!started) assume (reset);

    // The shadow: warps arrived and not re-activated; of them, those that may leave (every
    // present warp had arrived, launch over, at some edge since they arrived); the sticky error.
    reg [W-1:0] arrived = 0, may_leave = 0;
    reg err_expected = 1'b0;
    wire [W-1:0] gone = ctl_valid ? (1 << ctl_wid) : 0;
    wire all_arrived = !launching && (present & ~arrived) == 0;
    always @(*) if (arrive && !reset) assume (!arrived[arrive_warp]);
    always @(posedge clock) begin
        if (reset) begin
            arrived <= 0;
            may_leave <= 0;
            err_expected <= 1'b0;
        end else begin
            arrived <= (arrived & ~gone) | (arrive ? (1 << arrive_warp) : 0);
            may_leave <= (may_leave | (all_arrived ? arrived : 0)) & ~gone;
            err_expected <= err_expected | (arrive && diverged);
        end
    end

    // The block's waiting and released warps (peeked) are the shadow's arrived warps, apart,
    // and the released ones may leave: stated with the two properties below, the invariant
    // that lets their induction close.
    // peek: peek_waiting = waiting$q
    // peek: peek_releasing = releasing$q
    wire [W-1:0] peek_waiting, peek_releasing;
    wire agrees = (peek_waiting | peek_releasing) == arrived
        && (peek_waiting & peek_releasing) == 0 && (peek_releasing & ~may_leave) == 0;

    always @(*) begin
        if (started) begin
            reactivates_only_a_waiting_warp: assert (agrees && (!ctl_valid || arrived[ctl_wid]));
            no_warp_leaves_before_every_present_warp_arrived: assert (agrees && (!ctl_valid || may_leave[ctl_wid]));
            reactivates_only_when_the_fill_leaves_control_free: assert (!ctl_valid || !ctl_busy);
            error_is_sticky_and_set_by_a_diverged_arrival: assert (err_diverged == err_expected);
        end
    end
endmodule

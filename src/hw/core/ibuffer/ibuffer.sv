// Formal properties of IBuffer (src/hw/core/ibuffer/mod.rs), checked on the exported
// rtl_out/<preset>/ibuffer.v by `simt-rtl prove` (see simt_stack.sv for how).
//
// Every input is free from the first cycle on (runs start in reset). A shadow counts each
// warp's instructions from the ports (issue, then fill, then flush) and remembers the pc of the
// last instruction filled into an empty warp: the buffer never holds more than two, shows
// space and a head exactly as the shadow says, and an instruction filled into an empty warp is
// the head the next cycle (nothing is reordered or lost at the head).
`include "dut_ports.vh"

module ibuffer_props #(
    parameter W = 4,        // warps
    parameter WW = 2,       // warp id bits
    parameter A = 16        // pc bits
) (
    input wire clock,
    input wire reset,
    input wire fill_valid,
    input wire [WW-1:0] fill_warp,
    input wire [31:0] fill_inst,
    input wire [A-1:0] fill_pc,
    input wire [WW-1:0] head_warp,
    input wire [WW-1:0] issue_warp,
    input wire issue_valid,
    input wire flush_valid,
    input wire [WW-1:0] flush_warp
);
    wire [W-1:0] space, head_valid;
    wire [31:0] head_inst;
    wire [A-1:0] head_pc;
    wire err_fill_full, err_issue_empty;
    ibuffer dut(`DUT_PORTS);

    // Runs start in reset.
    reg started = 1'b0;
    always @(posedge clock) started <= 1'b1;
    always @(*) if (!started) assume (reset);

    reg [1:0] held [0:W-1];
    reg [1:0] after_issue;
    // The last fill into an empty warp, to be its head in the next cycle.
    reg fresh = 1'b0;
    reg [WW-1:0] fresh_warp;
    reg [31:0] fresh_inst;
    reg [A-1:0] fresh_pc;
    integer w;
    initial for (w = 0; w < W; w = w + 1) held[w] = 0;
    always @(posedge clock) begin
        fresh <= 1'b0;
        for (w = 0; w < W; w = w + 1) begin
            after_issue = held[w] - ((issue_valid && issue_warp == w && held[w] != 0) ? 1 : 0);
            if (reset || (flush_valid && flush_warp == w))
                held[w] <= 0;
            else if (fill_valid && fill_warp == w && after_issue != 2) begin
                held[w] <= after_issue + 1;
                if (after_issue == 0) begin
                    fresh <= 1'b1;
                    {fresh_warp, fresh_inst, fresh_pc} <= {fill_warp, fill_inst, fill_pc};
                end
            end else
                held[w] <= after_issue;
        end
    end

    reg [W-1:0] shadow_space, shadow_head;
    always @(*)
        for (w = 0; w < W; w = w + 1) begin
            shadow_space[w] = held[w] < 2;
            shadow_head[w] = held[w] != 0;
        end

    // The block's own counts (peeked) equal the shadow's: the invariant that lets the two
    // properties below close by induction.
    // peek: peek_count = count$#$q
    wire [W*2-1:0] peek_count;
    reg counts_agree;
    always @(*) begin
        counts_agree = 1'b1;
        for (w = 0; w < W; w = w + 1)
            if (peek_count[w*2 +: 2] != held[w] || held[w] > 2) counts_agree = 1'b0;
    end

    always @(*) if (started) begin
        at_most_two_per_warp: assert ((space | head_valid) == {W{1'b1}});
        space_and_head_as_counted: assert (counts_agree && space == shadow_space && head_valid == shadow_head);
        filled_into_empty_warp_is_the_head: assert (counts_agree && (!fresh || head_warp != fresh_warp || (head_inst == fresh_inst && head_pc == fresh_pc)));
        empty_warp_shows_no_instruction: assert (head_valid[head_warp] || (head_inst == 0 && head_pc == 0));
    end
endmodule

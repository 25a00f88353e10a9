// Formal properties of IBufferRam (src/hw/core/ibuffer/ram.rs), checked on the exported
// rtl_out/<preset>/ibuffer_ram.v by `simt-rtl prove` (see simt_stack.sv for how).
//
// Every input is free from the first cycle on (runs start in reset). A shadow keeps each
// warp's instructions from the ports (issue, then fill, then flush): the buffer never holds
// more than two, shows space and a head exactly as the shadow counts, and after each edge shows
// the oldest instruction the warp named before it held then, or 0 when it held none.
`include "dut_ports.vh"

module ibuffer_ram_props #(
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
    ibuffer_ram dut(`DUT_PORTS);

    // Runs start in reset.
    reg started = 1'b0;
    always @(posedge clock) started <= 1'b1;
    always @(*) if (!started) assume (reset);

    // The shadow: each warp's count and its two instructions, oldest first.
    reg [1:0] held [0:W-1];
    reg [31+A:0] oldest [0:W-1];
    reg [31+A:0] second [0:W-1];
    reg [1:0] after_issue;
    reg issued;
    // The head of the warp the last edge named: valid from the second edge on (the first is in
    // reset, from unknown counts).
    reg named = 1'b0;
    reg [31+A:0] named_head;
    integer w;
    initial for (w = 0; w < W; w = w + 1) held[w] = 0;
    always @(posedge clock) begin
        named <= started;
        named_head <= held[head_warp] != 0 ? oldest[head_warp] : 0;
        for (w = 0; w < W; w = w + 1) begin
            issued = issue_valid && issue_warp == w && held[w] != 0;
            after_issue = held[w] - issued;
            if (issued)
                oldest[w] <= second[w];
            if (fill_valid && fill_warp == w && after_issue != 2) begin
                if (after_issue == 0)
                    oldest[w] <= {fill_pc, fill_inst};
                else
                    second[w] <= {fill_pc, fill_inst};
            end
            if (reset || (flush_valid && flush_warp == w))
                held[w] <= 0;
            else if (fill_valid && fill_warp == w && after_issue != 2)
                held[w] <= after_issue + 1;
            else
                held[w] <= after_issue;
        end
    end

    reg [W-1:0] shadow_space, shadow_head;
    always @(*)
        for (w = 0; w < W; w = w + 1) begin
            shadow_space[w] = held[w] < 2;
            shadow_head[w] = held[w] != 0;
        end

    // The block's own counts (peeked) equal the shadow's: the invariant that lets the count
    // properties close by induction.
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
        head_is_the_named_warps_oldest: assert (!named || {head_pc, head_inst} == named_head);
    end
endmodule

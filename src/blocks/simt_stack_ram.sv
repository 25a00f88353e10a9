// Formal properties of SimtStackRam (src/blocks/simt_stack_ram.rs), checked on the exported
// rtl_out/<preset>/simt_stack_ram.v by `simt-rtl prove` (see simt_stack.sv for how).
//
// Every warp's stack behaves as a SimtStack. A shadow of every warp's pointer and flags, written
// from that contract (pop, then push; a push on a full stack and a pop on an empty one are
// dropped and raise the warp's sticky flag; clear empties; reset empties and clears the flags),
// runs beside the block; the properties compare the two. Inputs are free within the block's
// contract: at most one warp pushed and one popped per cycle, each named by its warp id. The
// exported block is the fixed mode's, whose empty stack shows a zero top.
//
// Not here, and why: that the top is the entry last pushed and not popped. The entries live in
// a block RAM, which the checker models as an SMT array; with a shadow of every entry (or of one
// watched entry) each bounded step took about twice as long as the one before (step 12 after a
// minute at 2 warps of 1 thread and a 3-bit pc; step 8 after 40 s at cu sizes), so depth 20 is
// out of reach. The random tests compare the top with the SimtStack model every cycle.
`include "dut_ports.vh"

module simt_stack_ram_props #(
    parameter W = 4,    // warps
    parameter WW = 2,   // warp id bits
    parameter T = 8,    // threads (mask bits)
    parameter A = 16,   // pc bits
    parameter D = 4     // entries per stack
) (
    input wire clock,
    input wire reset,
    input wire [W-1:0] push,
    input wire [WW-1:0] push_wid,
    input wire [T-1:0] push_mask,
    input wire [A-1:0] push_pc,
    input wire [W-1:0] pop,
    input wire [WW-1:0] pop_wid,
    input wire [W-1:0] clear,
    input wire [WW-1:0] top_wid
);
    wire [T-1:0] top_mask;
    wire [A-1:0] top_pc;
    wire [W-1:0] empty, full, overflow, underflow;
    simt_stack_ram dut(`DUT_PORTS);

    // Runs start in reset; one warp pushed and one popped at most, named by its id.
    reg started = 1'b0;
    always @(posedge clock) started <= 1'b1;
    always @(*) begin
        if (!started) assume (reset);
        assume (push == 0 || push == (1 << push_wid));
        assume (pop == 0 || pop == (1 << pop_wid));
    end

    // The shadow stacks' pointers and flags.
    reg [W*8-1:0] ssp = 0;
    reg [W-1:0] s_overflow = 0, s_underflow = 0;
    reg [W-1:0] pop_ok, push_ok;
    reg [W*8-1:0] after_pop;
    integer w;
    always @(*)
        for (w = 0; w < W; w = w + 1) begin
            pop_ok[w] = pop[w] && ssp[w*8 +: 8] != 0;
            after_pop[w*8 +: 8] = pop_ok[w] ? ssp[w*8 +: 8] - 1 : ssp[w*8 +: 8];
            push_ok[w] = push[w] && after_pop[w*8 +: 8] != D;
        end
    always @(posedge clock)
        for (w = 0; w < W; w = w + 1)
            if (reset) begin
                ssp[w*8 +: 8] <= 0;
                s_overflow[w] <= 1'b0;
                s_underflow[w] <= 1'b0;
            end else if (clear[w]) begin
                ssp[w*8 +: 8] <= 0;
            end else begin
                if (pop[w] && !pop_ok[w]) s_underflow[w] <= 1'b1;
                if (push[w] && !push_ok[w]) s_overflow[w] <= 1'b1;
                ssp[w*8 +: 8] <= push_ok[w] ? after_pop[w*8 +: 8] + 1 : after_pop[w*8 +: 8];
            end

    // Every warp's flags.
    reg flags_match;
    always @(*) begin
        flags_match = 1'b1;
        for (w = 0; w < W; w = w + 1)
            if (empty[w] != (ssp[w*8 +: 8] == 0) || full[w] != (ssp[w*8 +: 8] == D)) flags_match = 1'b0;
    end

    // Every cycle.
    always @(*) if (started) begin
        empty_and_full_flags: assert (flags_match);
        // An empty stack's top reads zero (the fixed mode's choice).
        empty_top_is_zero: assert (ssp[top_wid*8 +: 8] != 0 || {top_mask, top_pc} == 0);
        sticky_flags_as_contract: assert (overflow == s_overflow && underflow == s_underflow);
    end

    // Over one clock edge: a push on a full stack and a pop on an empty one.
    reg past = 1'b0;
    reg [W-1:0] was_full_push = 0, was_empty_pop = 0;
    always @(posedge clock) begin
        past <= 1'b1;
        was_full_push <= reset ? 0 : push & ~pop & ~clear & full;
        was_empty_pop <= reset ? 0 : pop & ~push & ~clear & empty;
    end
    always @(*) if (past) begin
        full_push_sets_overflow: assert ((was_full_push & ~overflow) == 0);
        full_push_keeps_the_stack_full: assert ((was_full_push & ~full) == 0);
        empty_pop_sets_underflow: assert ((was_empty_pop & ~(underflow & empty)) == 0);
    end
endmodule

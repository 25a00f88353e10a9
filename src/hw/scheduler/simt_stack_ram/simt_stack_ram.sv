// Formal properties of SimtStackRam (src/hw/scheduler/simt_stack_ram/mod.rs), checked on the exported
// rtl_out/<preset>/simt_stack_ram.v by `simt-rtl prove` (see simt_stack.sv for how).
//
// Every warp's stack behaves as a SimtStack. A shadow of every warp's pointer and flags, written
// from that contract (pop, then push; a push on a full stack and a pop on an empty one are
// dropped and raise the warp's sticky flag; clear empties; reset empties and clears the flags),
// runs beside the block; the properties compare the two. Inputs are free within the block's
// contract: at most one warp pushed and one popped per cycle, each named by its warp id. The
// exported block is the fixed mode's, whose empty stack shows a zero top.
//
// The shadow also keeps every entry, and the properties carry the invariant that ties it to the
// block: the same pointers, every occupied slot of the RAM (its words peeked, which maps the RAM
// to flip-flops for the checker) holding the shadow's entry, and each warp's top as shown being
// its last entry. With it every property closes by induction (k = 1; about 30 s at cu sizes).
// Without the tie, a shadow compared with the top alone took about twice as long per bounded
// step as the step before.
`include "dut_ports.vh"

module simt_stack_ram_props #(
    parameter W = 4,    // warps
    parameter WW = 2,   // warp id bits
    parameter T = 8,    // threads (mask bits)
    parameter A = 16,   // pc bits
    parameter D = 4,    // entries per stack
    parameter SPW = 3,  // stack pointer bits, clog2(D + 1)
    parameter DP = 4    // RAM words per warp: D rounded up to a power of two
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
    wire [W-1:0] empty, full, overflow, underflow, empty_next;
    wire [W*T-1:0] tops_mask;
    wire [W*A-1:0] tops_pc;
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

    // The block's own pointers and tops (peeked), for the invariant that lets the comparisons
    // with the shadow close by induction: every warp's pointer equals the shadow's, an empty
    // stack's top register holds zero, and the entry a pop reads from the RAM belongs to one warp
    // that is not empty.
    // peek: peek_sp = sp$#$q
    // peek: peek_top_mask = top_mask_q$#$q
    // peek: peek_top_pc = top_pc_q$#$q
    // peek: peek_refills = refills$q
    wire [W*SPW-1:0] peek_sp;
    wire [W*T-1:0] peek_top_mask;
    wire [W*A-1:0] peek_top_pc;
    wire [W-1:0] peek_refills;
    reg agrees;
    always @(*) begin
        agrees = (peek_refills & (peek_refills - 1'b1)) == 0;
        for (w = 0; w < W; w = w + 1) begin
            if (peek_refills[w] && ssp[w*8 +: 8] == 0) agrees = 1'b0;
            if (peek_sp[w*SPW +: SPW] != ssp[w*8 +: 8] || ssp[w*8 +: 8] > D) agrees = 1'b0;
            if (ssp[w*8 +: 8] == 0 && {peek_top_mask[w*T +: T], peek_top_pc[w*A +: A]} != 0) agrees = 1'b0;
        end
    end

    // The shadow's entries: slot k of warp w holds the entry pushed at depth k.
    localparam E = T + A;
    reg [W*D*E-1:0] sent = 0;
    integer k;
    always @(posedge clock)
        for (w = 0; w < W; w = w + 1)
            for (k = 0; k < D; k = k + 1)
                if (!reset && !clear[w] && push_ok[w] && after_pop[w*8 +: 8] == k)
                    sent[(w*D + k)*E +: E] <= {push_mask, push_pc};

    // The RAM's words (warp w's slot k at w * DP + k) and its read register (peeked): every
    // occupied slot holds the shadow's entry, and each warp's top as shown (the top register, or
    // the RAM's output in the cycle after a pop uncovered it) is its last entry.
    // peek: peek_ram_mask = mask_ram.mem[#]
    // peek: peek_ram_pc = pc_ram.mem[#]
    // peek: peek_read_mask = mask_ram$read_data
    // peek: peek_read_pc = pc_ram$read_data
    wire [256*T-1:0] peek_ram_mask;
    wire [256*A-1:0] peek_ram_pc;
    wire [T-1:0] peek_read_mask;
    wire [A-1:0] peek_read_pc;
    reg entries_agree;
    reg [E-1:0] shown;
    always @(*) begin
        entries_agree = 1'b1;
        for (w = 0; w < W; w = w + 1) begin
            for (k = 0; k < D; k = k + 1)
                if (k < ssp[w*8 +: 8] && {peek_ram_mask[(w*DP + k)*T +: T], peek_ram_pc[(w*DP + k)*A +: A]} != sent[(w*D + k)*E +: E])
                    entries_agree = 1'b0;
            shown = peek_refills[w] ? {peek_read_mask, peek_read_pc} : {peek_top_mask[w*T +: T], peek_top_pc[w*A +: A]};
            for (k = 0; k < D; k = k + 1)
                if (ssp[w*8 +: 8] == k + 1 && shown != sent[(w*D + k)*E +: E]) entries_agree = 1'b0;
        end
    end
    reg [E-1:0] last_sent;
    always @(*) begin
        last_sent = 0;
        for (k = 0; k < D; k = k + 1)
            if (ssp[top_wid*8 +: 8] == k + 1) last_sent = sent[(top_wid*D + k)*E +: E];
    end

    // Every cycle.
    always @(*) if (started) begin
        top_is_last_pushed_not_popped: assert (agrees && entries_agree && (ssp[top_wid*8 +: 8] == 0 || {top_mask, top_pc} == last_sent));
        empty_and_full_flags: assert (agrees && flags_match);
        // An empty stack's top reads zero (the fixed mode's choice).
        empty_top_is_zero: assert (agrees && (ssp[top_wid*8 +: 8] != 0 || {top_mask, top_pc} == 0));
        sticky_flags_as_contract: assert (agrees && overflow == s_overflow && underflow == s_underflow);
        // Every warp's top port shows what `top_*` shows for it.
        every_top_as_shown: assert ({top_mask, top_pc} == {tops_mask[top_wid*T +: T], tops_pc[top_wid*A +: A]});
    end

    // Over one clock edge: a push on a full stack and a pop on an empty one.
    reg past = 1'b0;
    reg [W-1:0] was_full_push = 0, was_empty_pop = 0, was_empty_next = 0;
    always @(posedge clock) begin
        past <= 1'b1;
        was_empty_next <= empty_next;
        was_full_push <= reset ? 0 : push & ~pop & ~clear & full;
        was_empty_pop <= reset ? 0 : pop & ~push & ~clear & empty;
    end
    always @(*) if (past) begin
        full_push_sets_overflow: assert ((was_full_push & ~overflow) == 0);
        full_push_keeps_the_stack_full: assert ((was_full_push & ~full) == 0);
        empty_pop_sets_underflow: assert ((was_empty_pop & ~(underflow & empty)) == 0);
        empty_next_is_the_next_empty: assert (empty == was_empty_next);
    end
endmodule

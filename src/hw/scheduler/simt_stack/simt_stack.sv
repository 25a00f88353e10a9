// Formal properties of SimtStack (src/hw/scheduler/simt_stack/mod.rs), checked on the exported
// rtl_out/<preset>/simt_stack.v by `simt-rtl prove` (yosys read_verilog -formal, yosys-smtbmc
// with z3): bounded from reset, and by k-induction where it closes.
//
// A shadow stack written from the block's contract (pop, then push; a push on a full stack and
// a pop on an empty one are dropped and raise their sticky flag; clear empties; reset empties
// and clears the flags) runs beside the block; the properties compare the two.
// Each labelled assertion is one property: `simt-rtl prove` checks them all together from
// reset (bounded), then tries k-induction on each alone.
module simt_stack_props #(
    parameter T = 8,    // threads (mask bits)
    parameter A = 16,   // pc bits
    parameter D = 4,    // entries
    parameter SPW = 3   // stack pointer bits, clog2(D + 1)
) (
    input wire clock,
    input wire reset,
    input wire push,
    input wire pop,
    input wire clear,
    input wire [T-1:0] push_mask,
    input wire [A-1:0] push_pc
);
    localparam E = T + A;
    wire [T-1:0] top_mask;
    wire [A-1:0] top_pc;
    wire empty, full, overflow, underflow;
    wire [SPW-1:0] occupancy;
    simt_stack dut (
        .clock(clock), .reset(reset), .push(push), .pop(pop), .clear(clear),
        .push_mask(push_mask), .push_pc(push_pc),
        .top_mask(top_mask), .top_pc(top_pc), .empty(empty), .full(full),
        .occupancy(occupancy), .overflow(overflow), .underflow(underflow)
    );

    // Runs start in reset.
    reg started = 1'b0;
    always @(posedge clock) started <= 1'b1;
    always @(*) if (!started) assume (reset);

    // The shadow stack.
    reg [D*E-1:0] shadow = 0;
    reg [SPW:0] ssp = 0;
    reg s_overflow = 1'b0, s_underflow = 1'b0;
    // One slot per entry: slot k holds the entry pushed at depth k.
    wire pop_ok = pop && ssp != 0;
    wire [SPW:0] after_pop = pop_ok ? ssp - 1 : ssp;
    wire push_ok = push && after_pop != D;
    integer k;
    always @(posedge clock) begin
        if (reset) begin
            ssp <= 0;
            s_overflow <= 1'b0;
            s_underflow <= 1'b0;
        end else if (clear) begin
            ssp <= 0;
        end else begin
            if (pop && !pop_ok) s_underflow <= 1'b1;
            if (push && !push_ok) s_overflow <= 1'b1;
            for (k = 0; k < D; k = k + 1)
                if (push_ok && after_pop == k) shadow[k*E +: E] <= {push_mask, push_pc};
            ssp <= push_ok ? after_pop + 1 : after_pop;
        end
    end
    reg [E-1:0] shadow_top;
    always @(*) begin
        shadow_top = shadow[E-1:0];
        for (k = 1; k < D; k = k + 1)
            if (ssp == k + 1) shadow_top = shadow[k*E +: E];
    end

    // The block's own entries (peeked), for the invariant that lets the comparisons with the
    // shadow close by induction: the same pointer, within the depth, and the same entry in
    // every occupied slot.
    // peek: peek_mask = mask_mem$#$q
    // peek: peek_pc = pc_mem$#$q
    wire [D*T-1:0] peek_mask;
    wire [D*A-1:0] peek_pc;
    reg agrees;
    always @(*) begin
        agrees = occupancy <= D && occupancy == ssp;
        for (k = 0; k < D; k = k + 1)
            if (k < ssp && {peek_mask[k*T +: T], peek_pc[k*A +: A]} != shadow[k*E +: E]) agrees = 1'b0;
    end

    // Every cycle.
    always @(*) begin
        occupancy_within_depth: assert (occupancy <= D);
        occupancy_is_pushes_minus_pops: assert (occupancy == ssp && agrees);
        empty_and_full_flags: assert (empty == (occupancy == 0) && full == (occupancy == D));
        top_is_last_pushed_not_popped: assert (agrees && (empty || {top_mask, top_pc} == shadow_top));
        sticky_flags_as_contract: assert (agrees && overflow == s_overflow && underflow == s_underflow);
    end

    // Over one clock edge.
    reg past = 1'b0;
    reg was_full_push = 1'b0, was_empty_pop = 1'b0;
    reg [SPW-1:0] old_occupancy = 0;
    reg [E-1:0] old_top = 0;
    always @(posedge clock) begin
        past <= 1'b1;
        was_full_push <= push && !pop && !clear && !reset && full;
        was_empty_pop <= pop && !push && !clear && !reset && empty;
        old_occupancy <= occupancy;
        old_top <= {top_mask, top_pc};
    end
    always @(*) if (past) begin
        full_push_sets_overflow: assert (!was_full_push || overflow);
        full_push_changes_no_entry: assert (!was_full_push || (occupancy == old_occupancy && {top_mask, top_pc} == old_top));
        empty_pop_sets_underflow: assert (!was_empty_pop || (underflow && occupancy == 0));
    end
endmodule

// Formal properties of BankArbiter (src/hw/collector/bank_arbiter/mod.rs), checked on the exported
// rtl_out/<preset>/bank_arbiter.v by `simt-rtl prove` (see simt_stack.sv for how).
//
// Every input is free from the first cycle on (runs start in reset): pushes on any lane into any
// bank, full queues included, and write-backs on any bank. The properties are about what the
// ports show, except the booksim-mode wait bound's invariant, which peeks at the queues. FIFO
// order is checked by the random differential tests against the model (a shadow of the queue
// contents made the solver stall after 5 or 6 cycles, and "a queue not granted keeps its
// requests" neither closed by induction within 8 steps nor reached depth 20 in reasonable time:
// 21 s at depth 8 alone). The queue bound under the collector units' contract is in
// operand_collector.sv.
`include "dut_ports.vh"

module bank_arbiter_props #(
    parameter B = 4,        // banks
    parameter BW = 2,       // bank id bits
    parameter N = 4,        // collector units
    parameter NW = 2,       // unit id bits
    parameter K = 6,        // push lanes
    parameter RW = 4,       // row bits
    parameter Q = 8,        // entries per bank queue
    parameter QW = 3,       // queue slot bits
    parameter QCW = 4,      // queue count bits
    parameter ONE_BANK = 0  // booksim's one bank per unit per cycle
) (
    input wire clock,
    input wire reset,
    input wire [K-1:0] push_valid,
    input wire [K*BW-1:0] push_bank,
    input wire [K*NW-1:0] push_cu,
    input wire [K*2-1:0] push_slot,
    input wire [K*RW-1:0] push_row,
    input wire write_valid,
    input wire [BW-1:0] write_bank
);
    wire [B-1:0] grant, pending;
    wire [B*NW-1:0] grant_cu;
    wire [B*2-1:0] grant_slot;
    wire [B*RW-1:0] grant_row;
    wire [NW-1:0] diagonal;
    wire err_overflow;
    bank_arbiter dut(`DUT_PORTS);

    // Runs start in reset.
    reg started = 1'b0;
    always @(posedge clock) started <= 1'b1;
    always @(*) if (!started) assume (reset);

    wire [B-1:0] written = write_valid ? (1 << write_bank) : 0;

    // Inside the block: the collector unit each queue head belongs to, and each queue's head,
    // tail and count.
    // peek: peek_head_cu = hd_cu$#
    // peek: peek_head = head$#$q
    // peek: peek_tail = tail$#$q
    // peek: peek_count = count$#$q
    wire [B*NW-1:0] peek_head_cu;
    wire [B*QW-1:0] peek_head, peek_tail;
    wire [B*QCW-1:0] peek_count;

    // One-bank mode: cycles each bank's head has waited, granted neither a read nor blocked by a
    // write-back (write-back has priority, so a bank written every cycle waits by design).
    reg [7:0] waited [0:B-1];
    integer b, c;
    always @(posedge clock)
        for (b = 0; b < B; b = b + 1)
            waited[b] <= (reset || !pending[b] || grant[b] || written[b]) ? 0 : waited[b] + 1;
    initial for (b = 0; b < B; b = b + 1) waited[b] = 0;

    reg fields_zero, units_distinct, waits_bounded;
    always @(*) begin
        fields_zero = 1'b1;
        units_distinct = 1'b1;
        waits_bounded = 1'b1;
        for (b = 0; b < B; b = b + 1) begin
            if (!grant[b] && (grant_cu[b*NW +: NW] != 0 || grant_slot[b*2 +: 2] != 0 || grant_row[b*RW +: RW] != 0))
                fields_zero = 1'b0;
            for (c = b + 1; c < B; c = c + 1)
                if (grant[b] && grant[c] && grant_cu[b*NW +: NW] == grant_cu[c*NW +: NW])
                    units_distinct = 1'b0;
            // With the invariant that makes induction close: a waiting head's unit comes onto
            // its bank's round-0 diagonal (pri + b) within N - 1 - waited cycles, where it is
            // granted (round 0's banks see distinct units when B <= N) unless written; and a
            // queue holds its entries from head to tail, so a push never lands on its head.
            if (waited[b] >= N || (pending[b] && waited[b] + ((peek_head_cu[b*NW +: NW] - b - diagonal) & (N - 1)) > N - 1))
                waits_bounded = 1'b0;
            if (peek_count[b*QCW +: QCW] > Q || peek_tail[b*QW +: QW] != peek_head[b*QW +: QW] + peek_count[b*QCW +: QW])
                waits_bounded = 1'b0;
        end
    end

    // Every cycle.
    always @(*) begin
        no_read_on_written_bank: assert ((grant & written) == 0);
        grant_only_where_requests_wait: assert ((grant & ~pending) == 0);
        // A bank not granted shows zero in its unit, slot and row (the arbiter carries the slot
        // it was given; a slot of 3 is the collector's to refuse).
        idle_grant_fields_are_zero: assert (fields_zero);
        // GPGPU-Sim's choice: every waiting bank that is not written reads its head this cycle.
        // In booksim's mode it asserts nothing, and `prove` says so (`// only when`).
        waiting_bank_without_write_is_granted: assert (ONE_BANK || grant == (pending & ~written)); // only when ONE_BANK = 0
        // booksim's matching: a unit takes at most one bank per cycle, and a head waits fewer
        // than N cycles in which its bank is not written (the diagonal visits every unit).
        one_bank_per_unit: assert (!ONE_BANK || units_distinct); // only when ONE_BANK = 1
        head_waits_fewer_than_n_cycles: assert (!ONE_BANK || waits_bounded); // only when ONE_BANK = 1
    end

    // Across a clock edge.
    always @(posedge clock) if (started) begin
        reset_empties_queues: assert (!$past(reset) || (pending == 0 && diagonal == 0 && !err_overflow));
        // The priority diagonal is a round-robin pointer: it visits every unit in turn.
        diagonal_advances_by_one: assert ($past(reset) || diagonal == $past(diagonal) + 1'b1);
        overflow_flag_is_sticky: assert ($past(reset) || !$past(err_overflow) || err_overflow);
    end
endmodule

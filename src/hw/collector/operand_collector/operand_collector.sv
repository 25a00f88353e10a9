// Formal properties of OperandCollector (src/hw/collector/operand_collector/mod.rs), checked on the
// exported rtl_out/<preset>/operand_collector.v by `simt-rtl prove` (see simt_stack.sv for how).
//
// Every input is free from the first cycle on (runs start in reset): instructions on every
// port, output back-pressure and write-backs in any pattern. A shadow written from the ports
// records which collector units hold an instruction. Together the properties say that no
// instruction is dispatched twice or dropped: each one taken goes to a free unit, stays there
// until dispatched, and each dispatch fills one output register, which keeps it until the
// execution unit takes it.
//
// Two properties also look inside the block (`// peek:` lines; `simt-rtl prove` connects them
// after flattening): that a dispatched instruction's operands were all granted a bank read, and
// that no bank queue ever overflows. Each states, with its goal, the invariant that makes
// induction close: the units' not-yet-collected operands are the shadow's (taken from the ports,
// cleared by the arbiter's grants), and the bank queues hold exactly those operands, each once.
// Their sum is at most 3 N, and every queue has Q >= 3 N entries.
//
// PIPELINED = 1 checks the pipelined collector (rtl_out/<preset>/operand_collector_pipelined.v):
// the same properties, and its timing: a unit is given only if it was free before the cycle
// (one freed by dispatch waits a cycle).
//
// Not here, and why: that an instruction leaves with its own fields, with the operand values
// its registers held, in program order per warp. Those need a shadow of each unit's contents,
// which does not close by induction (a unit may hold an instruction for any number of cycles),
// and bounded checks of the whole collector stalled: program order alone was still running
// after 12 minutes. The closed-loop random test (src/verify/collector_env.rs) checks them.
`include "dut_ports.vh"

module operand_collector_props #(
    parameter B = 4,        // banks
    parameter N = 4,        // collector units
    parameter NW = 2,       // unit id bits
    parameter P = 2,        // input ports
    parameter WW = 2,       // warp id bits
    parameter RRW = 4,      // register number bits
    parameter T = 8,        // lanes
    parameter DW = 8,       // bits per lane
    parameter U = 2,        // unit types (output ports)
    parameter UW = 1,       // unit type bits
    parameter G = 8,        // tag bits
    parameter Q = 8,        // entries per bank queue
    parameter QW = 3,       // queue slot bits
    parameter QCW = 4,      // queue count bits
    parameter PIPELINED = 0 // 1: the pipelined timing
) (
    input wire clock,
    input wire reset,
    input wire [P-1:0] in_valid,
    input wire [P*WW-1:0] in_warp,
    input wire [P*UW-1:0] in_unit,
    input wire [P*G-1:0] in_tag,
    input wire [P*RRW-1:0] in_dst,
    input wire [P*T-1:0] in_mask,
    input wire [P*3-1:0] in_src_valid,
    input wire [3*P*RRW-1:0] in_src,
    input wire [U-1:0] out_ready,
    input wire wb_valid,
    input wire [WW-1:0] wb_warp,
    input wire [RRW-1:0] wb_reg,
    input wire [T-1:0] wb_mask,
    input wire [T*DW-1:0] wb_data
);
    localparam TD = T * DW;
    // One output register's whole contents.
    localparam OW = WW + G + RRW + T + 3 + 3 * TD;
    wire [P-1:0] in_ready;
    wire [P*NW-1:0] in_cu;
    wire [U-1:0] out_valid;
    wire [U*WW-1:0] out_warp;
    wire [U*G-1:0] out_tag;
    wire [U*RRW-1:0] out_dst;
    wire [U*T-1:0] out_mask;
    wire [U*3-1:0] out_src_valid;
    wire [U*TD-1:0] out_src0, out_src1, out_src2;
    wire [N-1:0] busy, dispatch;
    wire [B-1:0] grant;
    wire [31:0] count_alloc, count_dispatch, count_stall;
    wire [B*32-1:0] count_grant;
    wire err_unit, err_overflow;
    `DUT_MODULE dut(`DUT_PORTS);

    // Inside the block: each unit's operands not yet collected, the arbiter's grants, and its
    // queues (entries of bank b at b*Q .. b*Q+Q-1).
    // peek: peek_not_ready = cu_not_ready$#$q
    // peek: peek_grant_cu = arbiter$grant_cu$#
    // peek: peek_grant_slot = arbiter$grant_slot$#
    // peek: peek_q_cu = arbiter.q_cu$#$q
    // peek: peek_q_slot = arbiter.q_slot$#$q
    // peek: peek_head = arbiter.head$#$q
    // peek: peek_tail = arbiter.tail$#$q
    // peek: peek_count = arbiter.count$#$q
    wire [N*3-1:0] peek_not_ready;
    wire [B*NW-1:0] peek_grant_cu;
    wire [B*2-1:0] peek_grant_slot;
    wire [B*Q*NW-1:0] peek_q_cu;
    wire [B*Q*2-1:0] peek_q_slot;
    wire [B*QW-1:0] peek_head, peek_tail;
    wire [B*QCW-1:0] peek_count;

    // Runs start in reset.
    reg started = 1'b0;
    always @(posedge clock) started <= 1'b1;
    always @(*) if (!started) assume (reset);

    // The units holding an instruction, from the ports: taken at an edge with valid and ready,
    // released by a dispatch.
    integer p, q, u;
    reg [N-1:0] held = 0, taken_now;
    reg fresh_units, free_before;
    always @(*) begin
        taken_now = 0;
        fresh_units = 1'b1;
        free_before = 1'b1;
        for (p = 0; p < P; p = p + 1)
            if (in_valid[p] && in_ready[p]) begin
                taken_now = taken_now | (1 << in_cu[p*NW +: NW]);
                if (busy[in_cu[p*NW +: NW]]) free_before = 1'b0;
                // A unit given to an instruction is free, or dispatched this very cycle ...
                if (busy[in_cu[p*NW +: NW]] && !dispatch[in_cu[p*NW +: NW]]) fresh_units = 1'b0;
                // ... and given to one port only.
                for (q = 0; q < p; q = q + 1)
                    if (in_valid[q] && in_ready[q] && in_cu[q*NW +: NW] == in_cu[p*NW +: NW]) fresh_units = 1'b0;
            end
    end
    always @(posedge clock) held <= reset ? 0 : (held & ~dispatch) | taken_now;

    // Each output register's contents, and what happened to it last cycle.
    reg [U*OW-1:0] contents;
    always @(*)
        for (u = 0; u < U; u = u + 1)
            contents[u*OW +: OW] = {out_warp[u*WW +: WW], out_tag[u*G +: G], out_dst[u*RRW +: RRW], out_mask[u*T +: T],
                out_src_valid[u*3 +: 3], out_src2[u*TD +: TD], out_src1[u*TD +: TD], out_src0[u*TD +: TD]};
    reg past = 1'b0, was_reset = 1'b0;
    reg [N-1:0] was_dispatch = 0;
    reg [U-1:0] was_valid = 0, was_ready = 0;
    reg [U*OW-1:0] was_contents = 0;
    always @(posedge clock) begin
        past <= 1'b1;
        was_reset <= reset;
        was_dispatch <= dispatch;
        was_valid <= out_valid;
        was_ready <= out_ready;
        was_contents <= contents;
    end
    reg kept;
    reg [U-1:0] filled;
    always @(*) begin
        kept = 1'b1;
        for (u = 0; u < U; u = u + 1) begin
            // Not taken: valid still, nothing changed (so nothing was dispatched over it).
            if (was_valid[u] && !was_ready[u] && (!out_valid[u] || contents[u*OW +: OW] != was_contents[u*OW +: OW]))
                kept = 1'b0;
            // Filled at the last edge: valid now, and empty or taken before.
            filled[u] = out_valid[u] && (!was_valid[u] || was_ready[u]);
        end
    end

    // The operands each unit still waits for, from the ports: an instruction taken sets its
    // valid sources, a grant of the arbiter clears its (unit, slot) (the same edge's take wins;
    // slot 3 names no operand, and the block ignores it too).
    reg [N*3-1:0] outstanding = 0, outstanding_next;
    integer b, i, n;
    always @(*) begin
        outstanding_next = outstanding;
        for (b = 0; b < B; b = b + 1)
            if (grant[b] && peek_grant_slot[b*2 +: 2] != 3) outstanding_next[peek_grant_cu[b*NW +: NW]*3 + peek_grant_slot[b*2 +: 2]] = 1'b0;
        for (p = 0; p < P; p = p + 1)
            if (in_valid[p] && in_ready[p]) outstanding_next[in_cu[p*NW +: NW]*3 +: 3] = in_src_valid[p*3 +: 3];
    end
    always @(posedge clock) outstanding <= reset ? 0 : outstanding_next;

    // The invariants. The shadow's: the block waits for the same operands, only in busy units.
    // The queues': each holds at most Q entries from head to tail; every entry names an operand
    // waited for, no two entries the same one, and there are as many entries as such operands.
    // (So at most 3 N, in all queues together. Stated as a count: the solver does not find a
    // pigeonhole argument.)
    reg shadow_ok, queues_ok, collected_ok;
    reg [B*Q-1:0] entry;
    reg [7:0] entries, waiting;
    reg [QW-1:0] offset;
    integer e, f;
    always @(*) begin
        shadow_ok = peek_not_ready == outstanding;
        queues_ok = 1'b1;
        collected_ok = 1'b1;
        for (n = 0; n < N; n = n + 1) begin
            if (peek_not_ready[n*3 +: 3] != 0 && !busy[n]) begin
                shadow_ok = 1'b0;
                queues_ok = 1'b0;
            end
            if (dispatch[n] && outstanding[n*3 +: 3] != 0) collected_ok = 1'b0;
        end
        entries = 0;
        for (b = 0; b < B; b = b + 1) begin
            if (peek_count[b*QCW +: QCW] > Q || peek_tail[b*QW +: QW] != peek_head[b*QW +: QW] + peek_count[b*QCW +: QW])
                queues_ok = 1'b0;
            entries = entries + peek_count[b*QCW +: QCW];
            for (i = 0; i < Q; i = i + 1) begin
                offset = i - peek_head[b*QW +: QW];
                entry[b*Q+i] = {1'b0, offset} < peek_count[b*QCW +: QCW];
            end
        end
        waiting = $countones(peek_not_ready);
        if (entries != waiting) queues_ok = 1'b0;
        for (e = 0; e < B*Q; e = e + 1)
            if (entry[e]) begin
                if (peek_q_slot[e*2 +: 2] == 3 || !peek_not_ready[peek_q_cu[e*NW +: NW]*3 + peek_q_slot[e*2 +: 2]]) queues_ok = 1'b0;
                for (f = 0; f < e; f = f + 1)
                    if (entry[f] && peek_q_cu[e*NW +: NW] == peek_q_cu[f*NW +: NW] && peek_q_slot[e*2 +: 2] == peek_q_slot[f*2 +: 2])
                        queues_ok = 1'b0;
            end
    end

    // Every cycle.
    always @(*) if (started) begin
        busy_is_taken_and_not_dispatched: assert (busy == held);
        dispatch_only_a_busy_unit: assert ((dispatch & ~busy) == 0);
        instruction_taken_into_a_free_unit: assert (fresh_units);
        // Every source operand of a dispatched instruction was granted its bank read.
        dispatched_operands_all_collected: assert (shadow_ok && collected_ok);
        bank_queues_never_overflow: assert (queues_ok && !err_overflow);
        // Pipelined: no unit freed by this cycle's dispatch is given out in the same cycle.
        pipelined_gives_only_units_free_before: assert (!PIPELINED || free_before);
    end

    // Across a clock edge.
    always @(*) if (past && !was_reset) begin
        output_held_until_taken: assert (kept);
        // As many output registers filled as units dispatched: none lost, none made up.
        each_dispatch_fills_one_output: assert ($countones(filled) == $countones(was_dispatch));
    end
    always @(*) if (past && was_reset) begin
        reset_empties_units_and_outputs: assert (busy == 0 && out_valid == 0 && count_alloc == 0 && count_dispatch == 0);
    end
endmodule

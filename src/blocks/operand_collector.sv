// Formal properties of OperandCollector (src/blocks/operand_collector.rs), checked on the
// exported rtl_out/<preset>/operand_collector.v by `simt-rtl prove` (see simt_stack.sv for how).
//
// Every input is free from the first cycle on (runs start in reset): instructions on every
// port, output back-pressure and write-backs in any pattern. A shadow written from the ports
// records which collector units hold an instruction. Together the properties say that no
// instruction is dispatched twice or dropped: each one taken goes to a free unit, stays there
// until dispatched, and each dispatch fills one output register, which keeps it until the
// execution unit takes it.
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
    parameter G = 8         // tag bits
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
    operand_collector dut(`DUT_PORTS);

    // Runs start in reset.
    reg started = 1'b0;
    always @(posedge clock) started <= 1'b1;
    always @(*) if (!started) assume (reset);

    // The units holding an instruction, from the ports: taken at an edge with valid and ready,
    // released by a dispatch.
    integer p, q, u;
    reg [N-1:0] held = 0, taken_now;
    reg fresh_units;
    always @(*) begin
        taken_now = 0;
        fresh_units = 1'b1;
        for (p = 0; p < P; p = p + 1)
            if (in_valid[p] && in_ready[p]) begin
                taken_now = taken_now | (1 << in_cu[p*NW +: NW]);
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

    // Every cycle.
    always @(*) if (started) begin
        busy_is_taken_and_not_dispatched: assert (busy == held);
        dispatch_only_a_busy_unit: assert ((dispatch & ~busy) == 0);
        instruction_taken_into_a_free_unit: assert (fresh_units);
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

// Formal properties of LaneAlu (src/hw/core/lane_alu/mod.rs), checked on the block exported at
// the `tiny` preset's sizes (4 lanes of 8 bits, every extension built in) by `simt-rtl prove`
// (see simt_stack.sv for how). Combinational: each property holds for every op code and every
// operand. An extension left out (MUL, SIGNED = 0, as at `cu`) makes its op codes refused. At
// 32-bit lanes the multiply is beyond the solvers; the differential tests cover it.
`include "dut_ports.vh"

module lane_alu_props #(
    parameter T = 4,   // lanes
    parameter DW = 8,  // bits per lane
    parameter SW = 3,  // shift-amount bits, clog2(DW)
    parameter MUL = 1,    // the `mul` extension is built in
    parameter SIGNED = 1  // the `signed` extension (slts, sra) is built in
) (
    input wire clock,
    input wire [3:0] op,
    input wire [T*DW-1:0] a,
    input wire [T*DW-1:0] b
);
    wire [T*DW-1:0] result;
    wire [T-1:0] zero;
    wire bad_op;
    `DUT_MODULE dut(`DUT_PORTS);

    // Each lane's result as the ISA page defines it, lane by lane.
    reg [T*DW-1:0] product, sum, difference, sra, slts;
    reg [DW-1:0] la, lb;
    integer l;
    always @(*) begin
        for (l = 0; l < T; l = l + 1) begin
            la = a[l*DW +: DW];
            lb = b[l*DW +: DW];
            product[l*DW +: DW] = la * lb;
            sum[l*DW +: DW] = la + lb;
            difference[l*DW +: DW] = la - lb;
            sra[l*DW +: DW] = $signed(la) >>> lb[SW-1:0];
            slts[l*DW +: DW] = ($signed(la) < $signed(lb)) ? 1 : 0;
        end
    end

    // An op code refused: flagged, and every lane's result 0.
    wire refused = bad_op && result == 0;
    always @(*) begin
        mul_is_the_low_product: assert (op != 4'd11 || (MUL ? result == product && !bad_op : refused));
        add_and_sub_wrap: assert ((op != 4'd0 || result == sum) && (op != 4'd1 || result == difference));
        sra_fills_with_the_sign: assert (op != 4'd13 || (SIGNED ? result == sra && !bad_op : refused));
        slts_compares_signed: assert (op != 4'd12 || (SIGNED ? result == slts && !bad_op : refused));
        codes_past_13_are_refused: assert (op <= 4'd13 || refused);
    end
endmodule

// Formal properties of LaneAlu (src/hw/core/lane_alu/mod.rs), checked on the block exported at
// the `tiny` preset's sizes (4 lanes of 8 bits, every extension built in) by `simt-rtl prove`
// (see simt_stack.sv for how). Combinational: each property holds for every op code and every
// operand. An extension left out (MUL, SIGNED, MINMAX, MULHI = 0, as at `cu`) makes its op codes
// refused, and without MINMAX and MULHI `op_high` is not read. At 32-bit lanes the multiply is
// beyond the solvers; the differential tests cover it.
`include "dut_ports.vh"

module lane_alu_props #(
    parameter T = 4,   // lanes
    parameter DW = 8,  // bits per lane
    parameter SW = 3,  // shift-amount bits, clog2(DW)
    parameter MUL = 1,    // the `mul` extension is built in
    parameter SIGNED = 1, // the `signed` extension (slts, sra) is built in
    parameter MINMAX = 1, // the `minmax` extension (min, max, minu, maxu)
    parameter MULHI = 1   // the `mulhi` extension (mulh, mulhu), with `mul`
) (
    input wire clock,
    input wire [3:0] op,
    input wire op_high,
    input wire [T*DW-1:0] a,
    input wire [T*DW-1:0] b
);
    wire [T*DW-1:0] result;
    wire [T-1:0] zero;
    wire bad_op;
    `DUT_MODULE dut(`DUT_PORTS);

    // The op code the ALU reads: bit 4 only when an extension of codes 16 and up is built in.
    wire [4:0] code = {op_high && (MINMAX || MULHI), op};

    // Each lane's result as the ISA page defines it, lane by lane.
    reg [T*DW-1:0] product, sum, difference, sra, slts, min, max, minu, maxu, mulh, mulhu;
    reg [DW-1:0] la, lb;
    reg [2*DW-1:0] wide;
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
            min[l*DW +: DW] = ($signed(la) < $signed(lb)) ? la : lb;
            max[l*DW +: DW] = ($signed(la) < $signed(lb)) ? lb : la;
            minu[l*DW +: DW] = (la < lb) ? la : lb;
            maxu[l*DW +: DW] = (la < lb) ? lb : la;
            wide = $signed({{DW{la[DW-1]}}, la}) * $signed({{DW{lb[DW-1]}}, lb});
            mulh[l*DW +: DW] = wide[2*DW-1:DW];
            wide = {{DW{1'b0}}, la} * {{DW{1'b0}}, lb};
            mulhu[l*DW +: DW] = wide[2*DW-1:DW];
        end
    end

    // An op code refused: flagged, and every lane's result 0.
    wire refused = bad_op && result == 0;
    wire is_minmax = code >= 5'd16 && code <= 5'd19;
    always @(*) begin
        mul_is_the_low_product: assert (code != 5'd11 || (MUL ? result == product && !bad_op : refused));
        add_and_sub_wrap: assert ((code != 5'd0 || result == sum) && (code != 5'd1 || result == difference));
        sra_fills_with_the_sign: assert (code != 5'd13 || (SIGNED ? result == sra && !bad_op : refused));
        slts_compares_signed: assert (code != 5'd12 || (SIGNED ? result == slts && !bad_op : refused));
        min_and_max_pick_a_lane_value: assert (!is_minmax || (MINMAX ? !bad_op
            && (code != 5'd16 || result == min) && (code != 5'd17 || result == max)
            && (code != 5'd18 || result == minu) && (code != 5'd19 || result == maxu) : refused));
        mulh_is_the_high_product: assert ((code != 5'd20 && code != 5'd21) || (MUL && MULHI ? !bad_op
            && (code != 5'd20 || result == mulh) && (code != 5'd21 || result == mulhu) : refused));
        undefined_codes_are_refused: assert (code <= 5'd13 || (code >= 5'd16 && code <= 5'd21) || refused);
    end
endmodule

// Formal properties of ActiveLanes (src/hw/common/active_lanes/mod.rs), checked on the exported
// rtl_out/<preset>/active_lanes.v by `simt-rtl prove` (see simt_stack.sv for how).
// Combinational: every property holds for every mask.
`include "dut_ports.vh"

module active_lanes_props #(
    parameter T = 4,    // lanes
    parameter CW = 6    // count bits
) (
    input wire clock,
    input wire [T-1:0] mask
);
    wire [CW-1:0] count;
    wire any;
    wire all;
    `DUT_MODULE dut(`DUT_PORTS);

    // The set bits of the mask, counted one lane at a time.
    reg [CW-1:0] ones;
    integer l;
    always @(*) begin
        ones = 0;
        for (l = 0; l < T; l = l + 1) ones = ones + mask[l];
    end

    always @(*) begin
        count_is_the_set_bits: assert (count == ones);
        any_and_all: assert (any == (mask != 0) && all == (mask == {T{1'b1}}));
    end
endmodule

// Formal properties of PriorityEncoder in its lowest-index order (src/blocks/priority_encoder.rs),
// checked on the exported rtl_out/<preset>/priority_encoder_lowest.v by `simt-rtl prove` (see
// simt_stack.sv for how). Combinational: every property holds for every request vector.
`include "dut_ports.vh"

module priority_encoder_lowest_props #(
    parameter N = 4,    // requesters
    parameter NW = 2    // index bits, clog2(N)
) (
    input wire clock,
    input wire [N-1:0] req
);
    wire valid;
    wire [NW-1:0] index;
    wire [N-1:0] grant;
    priority_encoder_lowest dut(`DUT_PORTS);

    always @(*) begin
        valid_when_anyone_requests: assert (valid == (req != 0));
        // The lowest set bit, alone (two's complement isolates it).
        grant_is_the_lowest_request: assert (grant == (req & (~req + 1'b1)));
        index_names_the_grant: assert (valid ? grant == (1 << index) : index == 0);
    end
endmodule

// Formal properties of PriorityEncoder in the seed's highest-index order
// (src/blocks/priority_encoder.rs), checked on the exported rtl_out/<preset>/priority_encoder_highest.v by `simt-rtl prove` (see
// simt_stack.sv for how). Combinational: every property holds for every request vector.
`include "dut_ports.vh"

module priority_encoder_highest_props #(
    parameter N = 4,    // requesters
    parameter NW = 2    // index bits, clog2(N)
) (
    input wire clock,
    input wire [N-1:0] req
);
    wire valid;
    wire [NW-1:0] index;
    wire [N-1:0] grant;
    priority_encoder_highest dut(`DUT_PORTS);

    always @(*) begin
        valid_when_anyone_requests: assert (valid == (req != 0));
        // The highest set bit, alone: one bit, requested, and no request above it.
        grant_is_the_highest_request: assert ((grant & req) == grant && (grant & (grant - 1'b1)) == 0
            && (req & ~(grant | (grant - 1'b1))) == 0);
        index_names_the_grant: assert (valid ? grant == (1 << index) : index == 0);
    end
endmodule

// Formal properties of PriorityEncoder (src/hw/common/priority_encoder/mod.rs) in both of its orders,
// checked on the exported rtl_out/<preset>/priority_encoder_lowest.v and
// priority_encoder_highest.v (the seed's order) by `simt-rtl prove` (see simt_stack.sv for how;
// `DUT_MODULE` names the one checked). Combinational: every property holds for every request
// vector.
`include "dut_ports.vh"

module priority_encoder_props #(
    parameter N = 4,        // requesters
    parameter NW = 2,       // index bits, clog2(N)
    parameter HIGHEST = 0   // the highest request wins (the seed's order), else the lowest
) (
    input wire clock,
    input wire [N-1:0] req
);
    wire valid;
    wire [NW-1:0] index;
    wire [N-1:0] grant;
    `DUT_MODULE dut(`DUT_PORTS);

    // One bit or none, and requested.
    wire single = (grant & (grant - 1'b1)) == 0 && (grant & ~req) == 0;
    // No request below the grant, or none above it.
    wire [N-1:0] below = (grant - 1'b1) & ~grant;
    wire none_before = HIGHEST ? (req & ~(grant | below)) == 0 : (req & below & {N{grant != 0}}) == 0;

    always @(*) begin
        valid_when_anyone_requests: assert (valid == (req != 0) && (grant != 0) == valid);
        grant_is_the_first_request_in_order: assert (single && none_before);
        index_names_the_grant: assert (valid ? grant == (1 << index) : index == 0);
    end
endmodule

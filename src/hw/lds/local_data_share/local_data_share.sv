// Formal properties of LocalDataShare (src/hw/lds/local_data_share/mod.rs), checked on the exported
// rtl_out/<preset>/local_data_share.v by `simt-rtl prove` (see simt_stack.sv for how).
//
// Every input is free from the first cycle on (runs start in reset): requests of any kind, mask
// and addresses, changed or withdrawn while not ready, resets at any time. A shadow counts the
// accesses taken and the responses given. The properties say that every access taken is
// answered exactly once, within the bound the block states (one cycle per lane at worst, plus
// one), that only one access is in flight (a second is taken only in the cycle the first one
// ends), and that the `accesses` counter counts what the ports saw.
//
// The claims are checked at the `cu` preset, whose share has no atomics (`req_atomic` is left
// free and ignored); an atomic takes two cycles per lane, which the bound below does not cover.
//
// Not here, and why: which words a store writes and a load returns. Those need a shadow of the
// memory with the highest-lane-wins rule, i.e. the block again; the random differential test
// against src/hw/lds/local_data_share/model.rs checks them every cycle.
`include "dut_ports.vh"

module local_data_share_props #(
    parameter T = 8,        // lanes
    parameter WW = 2,       // warp id bits
    parameter DW = 4        // word bits
) (
    input wire clock,
    input wire reset,
    input wire req_valid,
    input wire req_write,
    input wire req_scatter,
    input wire req_atomic,
    input wire req_exchange,
    input wire [T-1:0] req_mask,
    input wire [WW-1:0] req_warp,
    input wire [6:0] req_index,
    input wire [6:0] req_stride,
    input wire [T*DW-1:0] req_addr,
    input wire [T*DW-1:0] req_data
);
    wire req_ready, resp_valid;
    wire [T*DW-1:0] resp_data;
    wire [31:0] accesses, conflict_cycles;
    local_data_share dut(`DUT_PORTS);

    // Runs start in reset.
    reg started = 1'b0;
    always @(posedge clock) started <= 1'b1;
    always @(*) if (!started) assume (reset);

    // Accesses taken and not yet answered; cycles the oldest of them has waited; accesses taken.
    reg [1:0] open = 0;
    reg [7:0] waited = 0;
    reg [31:0] taken = 0;
    wire take = req_valid && req_ready;
    always @(posedge clock) begin
        if (reset) begin
            open <= 0;
            waited <= 0;
            taken <= 0;
        end else begin
            open <= open + take - resp_valid;
            waited <= (resp_valid || open == 0) ? 0 : waited + 1;
            taken <= taken + take;
        end
    end

    // The block's own state (peeked): an access being served (`active`) and one answered this
    // cycle (`done`) are the open ones, the invariant that lets the properties below that count
    // open accesses close by induction.
    // peek: peek_active = active$q
    // peek: peek_done = done$q
    wire peek_active, peek_done;
    wire open_as_held = open == peek_active + peek_done;

    // The wait bound's invariant: each cycle an access is served, at least one of its pending
    // lanes (peeked) is, so while it is served the cycles waited plus the lanes pending stay
    // within T, with a cycle left for the answer.
    // peek: peek_pending = pending$q
    wire [T-1:0] peek_pending;
    reg [7:0] lanes_pending;
    integer i;
    always @(*) begin
        lanes_pending = 0;
        for (i = 0; i < T; i = i + 1)
            lanes_pending = lanes_pending + peek_pending[i];
    end
    wire progress = !(peek_active && !peek_done) || (waited + lanes_pending <= T && waited < T);

    always @(*) if (started && !reset) begin
        response_only_for_a_taken_access: assert (open_as_held && (!resp_valid || open != 0));
        one_access_in_flight: assert (open_as_held && (open <= 1 || (open == 2 && resp_valid)));
        // Taken at an edge, served within T cycles (at least one lane a cycle), answered in the next.
        answered_within_lanes_plus_one_cycles: assert (open_as_held && progress && waited <= T);
        busy_only_with_an_open_access: assert (open_as_held && (req_ready || open != 0));
        accesses_counts_taken_requests: assert (accesses == taken);
    end
endmodule

// Formal properties of RoundRobinArbiter (src/hw/common/round_robin/mod.rs), checked on the exported
// rtl_out/<preset>/round_robin_arbiter.v by `simt-rtl prove` (see simt_stack.sv for how). The
// dispatch units of the operand collector and the warp scheduler's fetch take their round-robin
// pointers from this block, so its fairness is theirs.
//
// Every input is free from the first cycle on (runs start in reset): requests come and go in any
// pattern, and `advance` (the grant is taken) may be high with no request at all.
`include "dut_ports.vh"

module round_robin_arbiter_props #(
    parameter N = 4,    // requesters
    parameter NW = 2    // index bits, clog2(N)
) (
    input wire clock,
    input wire reset,
    input wire [N-1:0] req,
    input wire [N-1:0] req_taken,   // lookahead only: unused by the arbiter proven here
    input wire advance
);
    wire valid;
    wire [NW-1:0] index;
    wire [N-1:0] grant;
    round_robin_arbiter dut(`DUT_PORTS);

    // Runs start in reset.
    reg started = 1'b0;
    always @(posedge clock) started <= 1'b1;
    always @(*) if (!started) assume (reset);

    // Grants taken by other requesters while requester i kept requesting without being granted.
    reg [7:0] passed_over [0:N-1];
    integer i;
    always @(posedge clock)
        for (i = 0; i < N; i = i + 1)
            passed_over[i] <= (reset || !req[i] || grant[i]) ? 0 : passed_over[i] + (advance && valid);
    initial for (i = 0; i < N; i = i + 1) passed_over[i] = 0;

    // The arbiter's pointer (its `above` register: the requesters after the last grant taken).
    // peek: peek_above = above$q
    wire [N-1:0] peek_above;
    wire [N-1:0] above_shifted = peek_above << 1;
    // The requester granted last (`above` holds every index above it), and for each requester
    // how many lie strictly between that one and it, cyclically.
    integer last;
    integer between [0:N-1];
    always @(*) begin
        last = N - 1;
        for (i = 0; i < N; i = i + 1)
            if (peek_above[i]) last = last - 1;
        for (i = 0; i < N; i = i + 1)
            between[i] = (i - last - 1 + N) % N;
    end

    // Fair, and inductively so: each grant taken while requester i waits goes to a requester
    // between the last grant and i, so the number in between falls by at least one each time,
    // and `passed_over + between <= N - 1`; `above` keeps its shape (every index above one, never
    // index 0).
    reg fair;
    always @(*) begin
        fair = (above_shifted & ~peek_above) == 0 && !peek_above[0];
        for (i = 0; i < N; i = i + 1)
            if (passed_over[i] >= N || passed_over[i] + between[i] > N - 1) fair = 1'b0;
    end

    // Every cycle.
    always @(*) if (started) begin
        grant_is_one_requester: assert ((grant & (grant - 1'b1)) == 0 && (grant & ~req) == 0);
        valid_when_anyone_requests: assert (valid == (req != 0) && (grant != 0) == valid);
        index_names_the_grant: assert (!valid || grant == (1 << index));
        idle_index_is_zero: assert (valid || index == 0);
        // No starvation: a requester that keeps requesting is granted before N other grants
        // have been taken, at most N - 1 (requests after the last grant come first, in index
        // order).
        steady_request_granted_within_n_grants: assert (fair);
    end

    // Across a clock edge.
    always @(posedge clock) if (started) begin
        // After reset requester 0 has the highest priority: the lowest request wins.
        reset_gives_requester_0_priority: assert (!$past(reset) || grant == (req & (~req + 1'b1)));
    end
endmodule

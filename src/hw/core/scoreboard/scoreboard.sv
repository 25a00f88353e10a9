// Formal properties of Scoreboard (src/hw/core/scoreboard/mod.rs), checked on the exported
// rtl_out/<preset>/scoreboard.v by `simt-rtl prove` (see simt_stack.sv for how).
//
// Every input is free from the first cycle on (runs start in reset): checks, reservations and
// releases in any pattern, misuse included. A shadow of GPGPU-Sim's reg_table (the registers each
// warp has in flight), written from the ports, runs beside the block: the hazard, the pending
// bits and the misuse flags must be what the shadow says.
`include "dut_ports.vh"

module scoreboard_props #(
    parameter W = 4,        // warps
    parameter WW = 2,       // warp id bits
    parameter R = 16,       // registers per warp
    parameter RRW = 4       // register number bits
) (
    input wire clock,
    input wire reset,
    input wire [WW-1:0] check_warp,
    input wire [3*RRW-1:0] check_src,
    input wire [2:0] check_src_valid,
    input wire [RRW-1:0] check_dst,
    input wire check_dst_valid,
    input wire reserve_valid,
    input wire [WW-1:0] reserve_warp,
    input wire [RRW-1:0] reserve_reg,
    input wire release_valid,
    input wire [WW-1:0] release_warp,
    input wire [RRW-1:0] release_reg
);
    wire hazard, err_double_reserve, err_release_free;
    wire [W-1:0] pending;
    scoreboard dut(`DUT_PORTS);

    // Runs start in reset.
    reg started = 1'b0;
    always @(posedge clock) started <= 1'b1;
    always @(*) if (!started) assume (reset);

    // The shadow: release, then reserve, at each edge.
    reg [R-1:0] in_flight [0:W-1];
    reg double = 1'b0, free = 1'b0;
    integer w, s;
    initial for (w = 0; w < W; w = w + 1) in_flight[w] = 0;
    always @(posedge clock)
        if (reset) begin
            for (w = 0; w < W; w = w + 1) in_flight[w] <= 0;
            double <= 1'b0;
            free <= 1'b0;
        end else begin
            for (w = 0; w < W; w = w + 1)
                in_flight[w] <= (in_flight[w] & ~((release_valid && release_warp == w) ? (1 << release_reg) : 0))
                    | ((reserve_valid && reserve_warp == w) ? (1 << reserve_reg) : 0);
            if (release_valid && !in_flight[release_warp][release_reg]) free <= 1'b1;
            if (reserve_valid && in_flight[reserve_warp][reserve_reg] && !(release_valid && release_warp == reserve_warp && release_reg == reserve_reg))
                double <= 1'b1;
        end

    // The checked warp's registers in flight once this cycle's release is applied.
    reg [R-1:0] row;
    reg collides;
    reg [W-1:0] busy;
    always @(*) begin
        row = in_flight[check_warp] & ~((release_valid && release_warp == check_warp) ? (1 << release_reg) : 0);
        collides = check_dst_valid && row[check_dst];
        for (s = 0; s < 3; s = s + 1)
            if (check_src_valid[s] && row[check_src[s*RRW +: RRW]]) collides = 1'b1;
        for (w = 0; w < W; w = w + 1) busy[w] = in_flight[w] != 0;
    end

    // The block's own registers in flight (peeked) equal the shadow's: the invariant that lets
    // each property close by induction.
    // peek: peek_reserved = reserved$#$q
    wire [W*R-1:0] peek_reserved;
    reg agrees;
    always @(*) begin
        agrees = 1'b1;
        for (w = 0; w < W; w = w + 1)
            if (peek_reserved[w*R +: R] != in_flight[w]) agrees = 1'b0;
    end

    always @(*) if (started) begin
        hazard_is_a_register_in_flight: assert (agrees && hazard == collides);
        pending_is_a_warp_with_registers_in_flight: assert (agrees && pending == busy);
        double_reservation_flagged: assert (agrees && err_double_reserve == double);
        release_of_a_free_register_flagged: assert (agrees && err_release_free == free);
    end
endmodule

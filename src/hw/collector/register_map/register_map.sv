// Formal properties of RegisterMap (src/hw/collector/register_map/mod.rs), checked on the exported
// rtl_out/<preset>/register_map.v by `simt-rtl prove` (see simt_stack.sv for how).
// Combinational. Two copies of the block see two free (warp, register) pairs: the map is
// one-to-one, so no two registers of any warps share a (bank, row), and it stays inside the
// register file.
`include "dut_ports.vh"

module register_map_props #(
    parameter WW = 2,       // warp id bits
    parameter RRW = 4,      // register number bits
    parameter BW = 2,       // bank bits
    parameter RW = 4,       // row bits
    parameter W = 4,        // warps
    parameter R = 16,       // registers per warp
    parameter B = 4,        // banks
    parameter S = 1         // schedulers (sub-core model when > 1)
) (
    input wire clock,
    input wire [WW-1:0] warp,
    input wire [RRW-1:0] regnum,
    input wire [WW-1:0] warp2,
    input wire [RRW-1:0] regnum2
);
    wire [BW-1:0] bank, bank2;
    wire [RW-1:0] row, row2;
    register_map dut(`DUT_PORTS);
    register_map dut2(.warp(warp2), .regnum(regnum2), .bank(bank2), .row(row2));

    always @(*) begin
        two_registers_never_share_a_bank_row: assert ({warp, regnum} == {warp2, regnum2} || {bank, row} != {bank2, row2});
        row_inside_the_bank: assert (row < W * R / B);
        // Sub-core model: warp w uses only its scheduler's banks, (w mod S) * B/S onwards.
        bank_of_the_warps_scheduler: assert (S == 1 || bank / (B / S) == warp % S);
    end
endmodule

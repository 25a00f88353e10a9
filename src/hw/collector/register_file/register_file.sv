// Formal properties of RegisterFile (src/hw/collector/register_file/mod.rs), checked on the exported
// rtl_out/<preset>/register_file.v by `simt-rtl prove` (see simt_stack.sv for how).
//
// Every input is free from the first cycle on: reads of any row of every bank, and masked writes
// of any row, each cycle. One row of one bank, chosen freely and fixed for the run, is watched:
// a shadow of what it holds (0 at power-up; a write changes the lanes in its mask) runs beside
// the block, and the property compares the row's read data with it. Its invariant, which lets it
// close by induction, is that the RAM word of that row (peeked: the banks' RAMs are then mapped
// to flip-flops for the checker) equals the shadow.
`include "dut_ports.vh"

module register_file_props #(
    parameter B = 4,    // banks
    parameter BW = 2,   // bank bits, clog2(B)
    parameter RW = 4,   // row bits: 2^RW rows per bank
    parameter T = 8,    // lanes
    parameter DW = 4    // bits per lane
) (
    input wire clock,
    input wire [B*RW-1:0] read_row,
    input wire write_valid,
    input wire [BW-1:0] write_bank,
    input wire [RW-1:0] write_row,
    input wire [T-1:0] write_mask,
    input wire [T*DW-1:0] write_data
);
    localparam TD = T * DW;
    wire [B*TD-1:0] read_data;
    register_file dut(`DUT_PORTS);

    // The watched row: any bank and row, fixed for the run.
    (* anyconst *) reg [BW-1:0] wb;
    (* anyconst *) reg [RW-1:0] wr;

    // What it holds.
    reg [TD-1:0] held = 0;
    integer l;
    always @(posedge clock)
        if (write_valid && write_bank == wb && write_row == wr)
            for (l = 0; l < T; l = l + 1)
                if (write_mask[l]) held[l*DW +: DW] <= write_data[l*DW +: DW];

    // Bank wb read the row in the previous cycle: its read data is what the row held then, or 0
    // if the write port addressed bank wb in that cycle (single-ported bank).
    reg was_read = 1'b0;
    reg was_written = 1'b0;
    reg [TD-1:0] held_then = 0;
    always @(posedge clock) begin
        was_read <= read_row[wb*RW +: RW] == wr;
        was_written <= write_valid && write_bank == wb;
        held_then <= held;
    end

    // Every bank's words, bank by bank, row 0 first.
    // peek: peek_ram = banks$#.mem[#]
    wire [B*(1<<RW)*TD-1:0] peek_ram;
    wire [TD-1:0] stored = peek_ram[(wb*(1<<RW) + wr)*TD +: TD];

    always @(*) begin
        read_returns_last_write: assert (stored == held && (!was_read || read_data[wb*TD +: TD] == (was_written ? {TD{1'b0}} : held_then)));
    end
endmodule

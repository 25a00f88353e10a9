// A simulation stand-in for the iCE40's SB_PLL40_CORE in a netlist read back from a bitstream
// (yosys's own model of the PLL is an empty shell). Its outputs are its reference clock, and
// LOCK rises after 16 reference-clock cycles: the design runs one cycle per board-clock cycle,
// whatever the divider settings, which are taken and ignored. Zero-delay and functional, as the
// whole read-back simulation is; the clock's frequency is nextpnr's to check.
module simt_pll_standin #(
    parameter FEEDBACK_PATH = "SIMPLE",
    parameter DELAY_ADJUSTMENT_MODE_FEEDBACK = "FIXED",
    parameter DELAY_ADJUSTMENT_MODE_RELATIVE = "FIXED",
    parameter PLLOUT_SELECT = "GENCLK",
    parameter SHIFTREG_DIV_MODE = 1'b0,
    parameter FDA_FEEDBACK = 4'b0000,
    parameter FDA_RELATIVE = 4'b0000,
    parameter DIVR = 4'b0000,
    parameter DIVF = 7'b0000000,
    parameter DIVQ = 3'b000,
    parameter FILTER_RANGE = 3'b000,
    parameter ENABLE_ICEGATE = 1'b0,
    parameter TEST_MODE = 1'b0,
    parameter EXTERNAL_DIVIDE_FACTOR = 1
) (
    input REFERENCECLK,
    output PLLOUTCORE,
    output PLLOUTGLOBAL,
    input EXTFEEDBACK,
    input [7:0] DYNAMICDELAY,
    output LOCK,
    input BYPASS,
    input RESETB,
    input LATCHINPUTVALUE,
    output SDO,
    input SDI,
    input SCLK
);
    reg [4:0] cycles = 5'd0;
    always @(posedge REFERENCECLK) begin
        if (cycles != 5'd16) cycles <= cycles + 5'd1;
    end
    assign LOCK = cycles == 5'd16;
    assign PLLOUTCORE = REFERENCECLK;
    assign PLLOUTGLOBAL = REFERENCECLK;
    assign SDO = 1'b0;
endmodule

// Formal properties of HostLink (src/hw/link/host_link/mod.rs), checked on the exported
// rtl_out/cu/host_link.v by `simt-rtl prove` (see simt_stack.sv for how).
//
// Every input is free from the first cycle on (runs start in reset): bytes arrive in any
// pattern (even every cycle), the transmitter takes or refuses the answer's bytes at will, the
// core's write-backs and counters are anything. The answer is a valid/ready stream; the core's
// controls are one command's effect at a time; the error flags are sticky.
`include "dut_ports.vh"

module host_link_props #(
    parameter WW = 2,   // warp id bits
    parameter T = 4,    // lanes
    parameter TD = 32,  // register bits
    parameter IA = 8,   // instruction-address bits
    parameter SPW = 3   // stack high-water bits
) (
    input wire clock,
    input wire reset,
    input wire rx_valid,
    input wire [7:0] rx_data,
    input wire rx_err,
    input wire tx_ready,
    input wire running,
    input wire [6:0] core_errors,
    input wire [SPW-1:0] high_water,
    input wire [7*32-1:0] counters,
    input wire wb_valid,
    input wire [WW-1:0] wb_warp,
    input wire [3:0] wb_reg,
    input wire [T-1:0] wb_mask,
    input wire [TD-1:0] wb_data
);
    wire tx_valid, core_reset, start, imem_write_valid, capture_enabled;
    wire [7:0] tx_data;
    wire [IA-1:0] imem_write_addr;
    wire [31:0] imem_write_data;
    wire [3:0] link_errors;
    host_link dut(`DUT_PORTS);

    // Runs start in reset.
    reg started = 1'b0;
    always @(posedge clock) started <= 1'b1;
    always @(*) if (!started) assume (reset);

    // Every cycle.
    always @(*) if (started) begin
        // A completed command does one thing: a word written, a start, or a core reset.
        one_control_at_a_time: assert ((imem_write_valid + start + core_reset) <= 1);
        idle_write_port_is_zero: assert (imem_write_valid || (imem_write_addr == 0 && imem_write_data == 0));
        idle_answer_is_zero: assert (tx_valid || tx_data == 0);
    end

    // Across a clock edge.
    always @(posedge clock) if (started) begin
        reset_clears_everything: assert (!$past(reset) || (!tx_valid && !start && !core_reset && !imem_write_valid && !capture_enabled && link_errors[2:0] == 0));
        // valid/ready: a byte offered and not taken stays, unchanged.
        answer_byte_held_until_taken: assert (!$past(tx_valid && !tx_ready && !reset) || (tx_valid && tx_data == $past(tx_data)));
        // `start` needs two bytes: never two cycles running.
        start_is_a_pulse: assert (!$past(start) || !start);
        // Sticky until reset or the `reset` command (whose core_reset pulse shows it).
        errors_are_sticky: assert ($past(reset) || core_reset || (link_errors[2:0] & $past(link_errors[2:0])) == $past(link_errors[2:0]));
    end
endmodule

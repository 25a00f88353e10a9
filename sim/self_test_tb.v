// Testbench for rtl_out/<preset>/self_test.v (the board top): clocks it with the reset button
// released until the run is done, then prints PASS or FAIL from its LEDs. Used by the FuseSoC
// `sim` target (iverilog) and by tests/board_build.rs (iverilog compiles it, Verilator runs it).
`timescale 1ns/1ps
module self_test_tb;
    reg clk = 1'b0;
    reg rst_n = 1'b1;
    reg usb_rx = 1'b1;
    wire [7:0] led;
    wire usb_tx;
    integer cycles = 0;
    self_test dut(.clk(clk), .rst_n(rst_n), .led(led), .usb_rx(usb_rx), .usb_tx(usb_tx));
    always #5 clk = ~clk;
    always @(posedge clk) begin
        cycles <= cycles + 1;
        if (cycles > 20 && led[2] === 1'b1) begin
            if (led[3] === 1'b1 && led[4] === 1'b0)
                $display("PASS: self-test done after %0d cycles, leds %b", cycles, led);
            else
                $display("FAIL: self-test done after %0d cycles, leds %b", cycles, led);
            $finish;
        end
        if (cycles > 1000000) begin
            $display("FAIL: no result after %0d cycles", cycles);
            $finish;
        end
    end
endmodule

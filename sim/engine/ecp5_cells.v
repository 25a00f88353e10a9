// Simulation models of the ECP5 cells that nextpnr-ecp5 0.11 leaves in a placed-and-routed design
// and that yosys 0.70's own models (share/lattice/common_sim.vh, read beside this file: the LUTs,
// carries and LUT RAM of TRELLIS_COMB) do not simulate, or not with nextpnr's parameters: the
// flip-flop, the global clock buffer, the PLL (a stand-in), the LUT RAM's write port, the block
// RAM and the multiplier. Zero-delay and functional, as the whole post-route simulation is.

// TRELLIS_FF: a slice's flip-flop as nextpnr-ecp5 0.11 configures it: D from DI (SD "1") or M
// (SD "0"); clock, clock enable and set/reset each through a mux ("INV" inverts, "0"/"1" for a
// constant enable); set/reset to REGSET's value, synchronous (LSR_OVER_CE) or ASYNC.
module TRELLIS_FF(input CLK, input LSR, input CE, input DI, input M, output reg Q);
    parameter GSR = "ENABLED";
    parameter CEMUX = "1";
    parameter CLKMUX = "CLK";
    parameter LSRMUX = "LSR";
    parameter SRMODE = "LSR_OVER_CE";
    parameter REGSET = "RESET";
    parameter SD = "1";
    wire ce = CEMUX == "1" ? 1'b1 : CEMUX == "0" ? 1'b0 : CEMUX == "INV" ? ~CE : CE;
    wire lsr = LSRMUX == "INV" ? ~LSR : LSRMUX == "0" ? 1'b0 : LSR;
    wire clk = CLKMUX == "INV" ? ~CLK : CLK;
    wire d = SD == "0" ? M : DI;
    wire srval = REGSET == "SET";
    initial Q = srval;
    generate
        if (SRMODE == "ASYNC") begin : async_reset
            always @(posedge clk or posedge lsr)
                if (lsr) Q <= srval;
                else if (ce) Q <= d;
        end else begin : sync_reset
            always @(posedge clk)
                if (lsr) Q <= srval;
                else if (ce) Q <= d;
        end
    endgenerate
endmodule


// DCCA: a global clock buffer, gated by CE.
module DCCA(input CLKI, input CE, output CLKO);
    assign CLKO = CLKI & CE;
endmodule

// EHXPLLL stand-in: CLKOP is the reference clock, and LOCK rises after 16 reference-clock
// cycles: the design runs one cycle per board-clock cycle, whatever the dividers (taken and
// ignored; their frequency is nextpnr's to check).
module EHXPLLL #(
    parameter CLKI_DIV = 1, parameter CLKFB_DIV = 1, parameter CLKOP_DIV = 8,
    parameter CLKOS_DIV = 8, parameter CLKOS2_DIV = 8, parameter CLKOS3_DIV = 8,
    parameter CLKOP_ENABLE = "ENABLED", parameter CLKOS_ENABLE = "DISABLED",
    parameter CLKOS2_ENABLE = "DISABLED", parameter CLKOS3_ENABLE = "DISABLED",
    parameter CLKOP_CPHASE = 0, parameter CLKOS_CPHASE = 0, parameter CLKOS2_CPHASE = 0,
    parameter CLKOS3_CPHASE = 0, parameter CLKOP_FPHASE = 0, parameter CLKOS_FPHASE = 0,
    parameter CLKOS2_FPHASE = 0, parameter CLKOS3_FPHASE = 0,
    parameter FEEDBK_PATH = "CLKOP", parameter CLKOP_TRIM_POL = "RISING",
    parameter CLKOP_TRIM_DELAY = 0, parameter CLKOS_TRIM_POL = "RISING",
    parameter CLKOS_TRIM_DELAY = 0, parameter OUTDIVIDER_MUXA = "DIVA",
    parameter OUTDIVIDER_MUXB = "DIVB", parameter OUTDIVIDER_MUXC = "DIVC",
    parameter OUTDIVIDER_MUXD = "DIVD", parameter PLL_LOCK_MODE = 0,
    parameter PLL_LOCK_DELAY = 200, parameter STDBY_ENABLE = "DISABLED",
    parameter REFIN_RESET = "DISABLED", parameter SYNC_ENABLE = "DISABLED",
    parameter INT_LOCK_STICKY = "ENABLED", parameter DPHASE_SOURCE = "DISABLED",
    parameter PLLRST_ENA = "DISABLED", parameter INTFB_WAKE = "DISABLED",
    parameter CLKI_FREQ = 0, parameter CLKOP_FREQ = 0, parameter MFG_ENABLE_FILTEROPAMP = 0,
    parameter MFG_GMCREF_SEL = 0, parameter ICP_CURRENT = 0, parameter LPF_RESISTOR = 0,
    parameter LPF_CAPACITOR = 0, parameter KVCO = 0
) (
    input CLKI, input CLKFB, input PHASESEL1, input PHASESEL0, input PHASEDIR,
    input PHASESTEP, input PHASELOADREG, input STDBY, input PLLWAKESYNC, input RST,
    input ENCLKOP, input ENCLKOS, input ENCLKOS2, input ENCLKOS3,
    output CLKOP, output CLKOS, output CLKOS2, output CLKOS3, output LOCK, output INTLOCK,
    output REFCLK, output CLKINTFB
);
    reg [4:0] cycles = 5'd0;
    always @(posedge CLKI) begin
        if (cycles != 5'd16) cycles <= cycles + 5'd1;
    end
    assign LOCK = cycles == 5'd16;
    assign INTLOCK = LOCK;
    assign CLKOP = CLKI;
    assign CLKOS = CLKI;
    assign CLKOS2 = CLKI;
    assign CLKOS3 = CLKI;
    assign REFCLK = CLKI;
    assign CLKINTFB = CLKI;
endmodule

// TRELLIS_RAMW: a slice's LUT RAM write port, which hands its inputs to the two LUT RAMs beside
// it (as nextpnr-ecp5 wires them: A0 -> WADO3, B0 -> WADO1, C0 -> WADO2, D0 -> WADO0; C1 -> WDO0,
// A1 -> WDO1, D1 -> WDO2, B1 -> WDO3).
module TRELLIS_RAMW(
    input A0, input B0, input C0, input D0, input A1, input B1, input C1, input D1,
    output WDO0, output WDO1, output WDO2, output WDO3,
    output WADO0, output WADO1, output WADO2, output WADO3
);
    assign {WADO3, WADO2, WADO1, WADO0} = {A0, C0, B0, D0};
    assign {WDO3, WDO2, WDO1, WDO0} = {B1, D1, A1, C1};
endmodule

// DP16KD: the 18 Kbit block RAM, 1,024 rows of 18 bits, in the configurations yosys maps memories
// onto: both ports the same width (1, 2, 4, 9 or 18 bits, true dual port, AD[13:14-log2(depth)]
// the word and, at 18 bits, AD[1:0] the enables of its two 9-bit bytes), or 36 bits (pseudo
// dual port: port A writes {DIB, DIA} at ADA[13:5] with ADA[3:0] the enables of its four
// bytes, port B reads {DOB, DOA} at ADB[13:5]); writes through port A only; no output register;
// chip selects decoded as CSDECODE says; a pin's *MUX parameter gives the pin, its inverse
// ("INV") or a constant ("0", "1"). The output latch updates on the clock with CE; a write
// leaves it unchanged (NORMAL), shows the new word (WRITETHROUGH) or the old
// (READBEFOREWRITE); a read of a word the other port writes in the same cycle gives the old
// word. RST clears it. Initial contents: INITVAL_00
// .. INITVAL_3F, row r in bits [20 * (r % 16) +: 18] of INITVAL_(r / 16); the 36-bit mode
// stores word w's low half in row 2w and its high half in row 2w + 1. Any other configuration
// stops the simulation at time 0 with the reason.
module DP16KD (
    input DIA17, DIA16, DIA15, DIA14, DIA13, DIA12, DIA11, DIA10, DIA9, DIA8, DIA7, DIA6, DIA5, DIA4, DIA3, DIA2, DIA1, DIA0,
    input ADA13, ADA12, ADA11, ADA10, ADA9, ADA8, ADA7, ADA6, ADA5, ADA4, ADA3, ADA2, ADA1, ADA0,
    input CEA, OCEA, CLKA, WEA, RSTA, CSA2, CSA1, CSA0,
    output DOA17, DOA16, DOA15, DOA14, DOA13, DOA12, DOA11, DOA10, DOA9, DOA8, DOA7, DOA6, DOA5, DOA4, DOA3, DOA2, DOA1, DOA0,
    input DIB17, DIB16, DIB15, DIB14, DIB13, DIB12, DIB11, DIB10, DIB9, DIB8, DIB7, DIB6, DIB5, DIB4, DIB3, DIB2, DIB1, DIB0,
    input ADB13, ADB12, ADB11, ADB10, ADB9, ADB8, ADB7, ADB6, ADB5, ADB4, ADB3, ADB2, ADB1, ADB0,
    input CEB, OCEB, CLKB, WEB, RSTB, CSB2, CSB1, CSB0,
    output DOB17, DOB16, DOB15, DOB14, DOB13, DOB12, DOB11, DOB10, DOB9, DOB8, DOB7, DOB6, DOB5, DOB4, DOB3, DOB2, DOB1, DOB0
);
    parameter DATA_WIDTH_A = 18;
    parameter DATA_WIDTH_B = 18;
    parameter REGMODE_A = "NOREG";
    parameter REGMODE_B = "NOREG";
    parameter RESETMODE = "SYNC";
    parameter ASYNC_RESET_RELEASE = "SYNC";
    parameter CSDECODE_A = "0b000";
    parameter CSDECODE_B = "0b000";
    parameter WRITEMODE_A = "NORMAL";
    parameter WRITEMODE_B = "NORMAL";
    parameter GSR = "ENABLED";
    parameter INIT_DATA = "STATIC";
    // Each mux 8 characters wide, so that a concatenation of them has a fixed layout.
    parameter [63:0] CLKAMUX = "CLKA", CLKBMUX = "CLKB", CEAMUX = "CEA", CEBMUX = "CEB";
    parameter [63:0] OCEAMUX = "OCEA", OCEBMUX = "OCEB", WEAMUX = "WEA", WEBMUX = "WEB";
    parameter [63:0] RSTAMUX = "RSTA", RSTBMUX = "RSTB";
    parameter [63:0] CSA0MUX = "CSA0", CSA1MUX = "CSA1", CSA2MUX = "CSA2";
    parameter [63:0] CSB0MUX = "CSB0", CSB1MUX = "CSB1", CSB2MUX = "CSB2";
    parameter [63:0] DIA17MUX = "DIA17", DIA16MUX = "DIA16", DIA15MUX = "DIA15", DIA14MUX = "DIA14", DIA13MUX = "DIA13", DIA12MUX = "DIA12";
    parameter [63:0] DIA11MUX = "DIA11", DIA10MUX = "DIA10", DIA9MUX = "DIA9", DIA8MUX = "DIA8", DIA7MUX = "DIA7", DIA6MUX = "DIA6";
    parameter [63:0] DIA5MUX = "DIA5", DIA4MUX = "DIA4", DIA3MUX = "DIA3", DIA2MUX = "DIA2", DIA1MUX = "DIA1", DIA0MUX = "DIA0";
    parameter [63:0] DIB17MUX = "DIB17", DIB16MUX = "DIB16", DIB15MUX = "DIB15", DIB14MUX = "DIB14", DIB13MUX = "DIB13", DIB12MUX = "DIB12";
    parameter [63:0] DIB11MUX = "DIB11", DIB10MUX = "DIB10", DIB9MUX = "DIB9", DIB8MUX = "DIB8", DIB7MUX = "DIB7", DIB6MUX = "DIB6";
    parameter [63:0] DIB5MUX = "DIB5", DIB4MUX = "DIB4", DIB3MUX = "DIB3", DIB2MUX = "DIB2", DIB1MUX = "DIB1", DIB0MUX = "DIB0";
    parameter [63:0] ADA13MUX = "ADA13", ADA12MUX = "ADA12", ADA11MUX = "ADA11", ADA10MUX = "ADA10", ADA9MUX = "ADA9", ADA8MUX = "ADA8";
    parameter [63:0] ADA7MUX = "ADA7", ADA6MUX = "ADA6", ADA5MUX = "ADA5", ADA4MUX = "ADA4", ADA3MUX = "ADA3", ADA2MUX = "ADA2";
    parameter [63:0] ADA1MUX = "ADA1", ADA0MUX = "ADA0";
    parameter [63:0] ADB13MUX = "ADB13", ADB12MUX = "ADB12", ADB11MUX = "ADB11", ADB10MUX = "ADB10", ADB9MUX = "ADB9", ADB8MUX = "ADB8";
    parameter [63:0] ADB7MUX = "ADB7", ADB6MUX = "ADB6", ADB5MUX = "ADB5", ADB4MUX = "ADB4", ADB3MUX = "ADB3", ADB2MUX = "ADB2";
    parameter [63:0] ADB1MUX = "ADB1", ADB0MUX = "ADB0";
    parameter [63:0] DOA17MUX = "DOA17", DOA16MUX = "DOA16", DOA15MUX = "DOA15", DOA14MUX = "DOA14", DOA13MUX = "DOA13", DOA12MUX = "DOA12";
    parameter [63:0] DOA11MUX = "DOA11", DOA10MUX = "DOA10", DOA9MUX = "DOA9", DOA8MUX = "DOA8", DOA7MUX = "DOA7", DOA6MUX = "DOA6";
    parameter [63:0] DOA5MUX = "DOA5", DOA4MUX = "DOA4", DOA3MUX = "DOA3", DOA2MUX = "DOA2", DOA1MUX = "DOA1", DOA0MUX = "DOA0";
    parameter [63:0] DOB17MUX = "DOB17", DOB16MUX = "DOB16", DOB15MUX = "DOB15", DOB14MUX = "DOB14", DOB13MUX = "DOB13", DOB12MUX = "DOB12";
    parameter [63:0] DOB11MUX = "DOB11", DOB10MUX = "DOB10", DOB9MUX = "DOB9", DOB8MUX = "DOB8", DOB7MUX = "DOB7", DOB6MUX = "DOB6";
    parameter [63:0] DOB5MUX = "DOB5", DOB4MUX = "DOB4", DOB3MUX = "DOB3", DOB2MUX = "DOB2", DOB1MUX = "DOB1", DOB0MUX = "DOB0";
    parameter [319:0] INITVAL_00 = 320'd0;
    parameter [319:0] INITVAL_01 = 320'd0;
    parameter [319:0] INITVAL_02 = 320'd0;
    parameter [319:0] INITVAL_03 = 320'd0;
    parameter [319:0] INITVAL_04 = 320'd0;
    parameter [319:0] INITVAL_05 = 320'd0;
    parameter [319:0] INITVAL_06 = 320'd0;
    parameter [319:0] INITVAL_07 = 320'd0;
    parameter [319:0] INITVAL_08 = 320'd0;
    parameter [319:0] INITVAL_09 = 320'd0;
    parameter [319:0] INITVAL_0A = 320'd0;
    parameter [319:0] INITVAL_0B = 320'd0;
    parameter [319:0] INITVAL_0C = 320'd0;
    parameter [319:0] INITVAL_0D = 320'd0;
    parameter [319:0] INITVAL_0E = 320'd0;
    parameter [319:0] INITVAL_0F = 320'd0;
    parameter [319:0] INITVAL_10 = 320'd0;
    parameter [319:0] INITVAL_11 = 320'd0;
    parameter [319:0] INITVAL_12 = 320'd0;
    parameter [319:0] INITVAL_13 = 320'd0;
    parameter [319:0] INITVAL_14 = 320'd0;
    parameter [319:0] INITVAL_15 = 320'd0;
    parameter [319:0] INITVAL_16 = 320'd0;
    parameter [319:0] INITVAL_17 = 320'd0;
    parameter [319:0] INITVAL_18 = 320'd0;
    parameter [319:0] INITVAL_19 = 320'd0;
    parameter [319:0] INITVAL_1A = 320'd0;
    parameter [319:0] INITVAL_1B = 320'd0;
    parameter [319:0] INITVAL_1C = 320'd0;
    parameter [319:0] INITVAL_1D = 320'd0;
    parameter [319:0] INITVAL_1E = 320'd0;
    parameter [319:0] INITVAL_1F = 320'd0;
    parameter [319:0] INITVAL_20 = 320'd0;
    parameter [319:0] INITVAL_21 = 320'd0;
    parameter [319:0] INITVAL_22 = 320'd0;
    parameter [319:0] INITVAL_23 = 320'd0;
    parameter [319:0] INITVAL_24 = 320'd0;
    parameter [319:0] INITVAL_25 = 320'd0;
    parameter [319:0] INITVAL_26 = 320'd0;
    parameter [319:0] INITVAL_27 = 320'd0;
    parameter [319:0] INITVAL_28 = 320'd0;
    parameter [319:0] INITVAL_29 = 320'd0;
    parameter [319:0] INITVAL_2A = 320'd0;
    parameter [319:0] INITVAL_2B = 320'd0;
    parameter [319:0] INITVAL_2C = 320'd0;
    parameter [319:0] INITVAL_2D = 320'd0;
    parameter [319:0] INITVAL_2E = 320'd0;
    parameter [319:0] INITVAL_2F = 320'd0;
    parameter [319:0] INITVAL_30 = 320'd0;
    parameter [319:0] INITVAL_31 = 320'd0;
    parameter [319:0] INITVAL_32 = 320'd0;
    parameter [319:0] INITVAL_33 = 320'd0;
    parameter [319:0] INITVAL_34 = 320'd0;
    parameter [319:0] INITVAL_35 = 320'd0;
    parameter [319:0] INITVAL_36 = 320'd0;
    parameter [319:0] INITVAL_37 = 320'd0;
    parameter [319:0] INITVAL_38 = 320'd0;
    parameter [319:0] INITVAL_39 = 320'd0;
    parameter [319:0] INITVAL_3A = 320'd0;
    parameter [319:0] INITVAL_3B = 320'd0;
    parameter [319:0] INITVAL_3C = 320'd0;
    parameter [319:0] INITVAL_3D = 320'd0;
    parameter [319:0] INITVAL_3E = 320'd0;
    parameter [319:0] INITVAL_3F = 320'd0;
    // Row r of the initial contents.
    function automatic [17:0] initval(input integer r);
        reg [319:0] v;
        begin
            case (r / 16)
                0: v = INITVAL_00;
                1: v = INITVAL_01;
                2: v = INITVAL_02;
                3: v = INITVAL_03;
                4: v = INITVAL_04;
                5: v = INITVAL_05;
                6: v = INITVAL_06;
                7: v = INITVAL_07;
                8: v = INITVAL_08;
                9: v = INITVAL_09;
                10: v = INITVAL_0A;
                11: v = INITVAL_0B;
                12: v = INITVAL_0C;
                13: v = INITVAL_0D;
                14: v = INITVAL_0E;
                15: v = INITVAL_0F;
                16: v = INITVAL_10;
                17: v = INITVAL_11;
                18: v = INITVAL_12;
                19: v = INITVAL_13;
                20: v = INITVAL_14;
                21: v = INITVAL_15;
                22: v = INITVAL_16;
                23: v = INITVAL_17;
                24: v = INITVAL_18;
                25: v = INITVAL_19;
                26: v = INITVAL_1A;
                27: v = INITVAL_1B;
                28: v = INITVAL_1C;
                29: v = INITVAL_1D;
                30: v = INITVAL_1E;
                31: v = INITVAL_1F;
                32: v = INITVAL_20;
                33: v = INITVAL_21;
                34: v = INITVAL_22;
                35: v = INITVAL_23;
                36: v = INITVAL_24;
                37: v = INITVAL_25;
                38: v = INITVAL_26;
                39: v = INITVAL_27;
                40: v = INITVAL_28;
                41: v = INITVAL_29;
                42: v = INITVAL_2A;
                43: v = INITVAL_2B;
                44: v = INITVAL_2C;
                45: v = INITVAL_2D;
                46: v = INITVAL_2E;
                47: v = INITVAL_2F;
                48: v = INITVAL_30;
                49: v = INITVAL_31;
                50: v = INITVAL_32;
                51: v = INITVAL_33;
                52: v = INITVAL_34;
                53: v = INITVAL_35;
                54: v = INITVAL_36;
                55: v = INITVAL_37;
                56: v = INITVAL_38;
                57: v = INITVAL_39;
                58: v = INITVAL_3A;
                59: v = INITVAL_3B;
                60: v = INITVAL_3C;
                61: v = INITVAL_3D;
                62: v = INITVAL_3E;
                63: v = INITVAL_3F;
                default: v = 320'd0;
            endcase
            initval = v[(r % 16) * 20 +: 18];
        end
    endfunction

    // A pin through its mux: the pin ("<name>"), inverted ("INV") or a constant ("0", "1").
    function automatic pin(input [8*8-1:0] mux, input value);
        pin = mux == "0" ? 1'b0 : mux == "1" ? 1'b1 : mux == "INV" ? ~value : value;
    endfunction
    // The word of 14 address pins and 14 muxes.
    function automatic [13:0] address(input [14*8*8-1:0] muxes, input [13:0] pins);
        integer i;
        for (i = 0; i < 14; i = i + 1) address[i] = pin(muxes[i*64 +: 64], pins[i]);
    endfunction
    function automatic [17:0] data(input [18*8*8-1:0] muxes, input [17:0] pins);
        integer i;
        for (i = 0; i < 18; i = i + 1) data[i] = pin(muxes[i*64 +: 64], pins[i]);
    endfunction
    function automatic [2:0] decode(input [8*8-1:0] cs);
        decode = {cs[23:16] == "1", cs[15:8] == "1", cs[7:0] == "1"};
    endfunction

    wire [13:0] ad_a = address({ADA13MUX, ADA12MUX, ADA11MUX, ADA10MUX, ADA9MUX, ADA8MUX, ADA7MUX, ADA6MUX, ADA5MUX, ADA4MUX, ADA3MUX, ADA2MUX, ADA1MUX, ADA0MUX},
        {ADA13, ADA12, ADA11, ADA10, ADA9, ADA8, ADA7, ADA6, ADA5, ADA4, ADA3, ADA2, ADA1, ADA0});
    wire [13:0] ad_b = address({ADB13MUX, ADB12MUX, ADB11MUX, ADB10MUX, ADB9MUX, ADB8MUX, ADB7MUX, ADB6MUX, ADB5MUX, ADB4MUX, ADB3MUX, ADB2MUX, ADB1MUX, ADB0MUX},
        {ADB13, ADB12, ADB11, ADB10, ADB9, ADB8, ADB7, ADB6, ADB5, ADB4, ADB3, ADB2, ADB1, ADB0});
    wire [17:0] di_a = data({DIA17MUX, DIA16MUX, DIA15MUX, DIA14MUX, DIA13MUX, DIA12MUX, DIA11MUX, DIA10MUX, DIA9MUX, DIA8MUX, DIA7MUX, DIA6MUX, DIA5MUX, DIA4MUX, DIA3MUX, DIA2MUX, DIA1MUX, DIA0MUX},
        {DIA17, DIA16, DIA15, DIA14, DIA13, DIA12, DIA11, DIA10, DIA9, DIA8, DIA7, DIA6, DIA5, DIA4, DIA3, DIA2, DIA1, DIA0});
    wire [17:0] di_b = data({DIB17MUX, DIB16MUX, DIB15MUX, DIB14MUX, DIB13MUX, DIB12MUX, DIB11MUX, DIB10MUX, DIB9MUX, DIB8MUX, DIB7MUX, DIB6MUX, DIB5MUX, DIB4MUX, DIB3MUX, DIB2MUX, DIB1MUX, DIB0MUX},
        {DIB17, DIB16, DIB15, DIB14, DIB13, DIB12, DIB11, DIB10, DIB9, DIB8, DIB7, DIB6, DIB5, DIB4, DIB3, DIB2, DIB1, DIB0});
    wire clk_a = pin(CLKAMUX, CLKA), clk_b = pin(CLKBMUX, CLKB);
    wire ce_a = pin(CEAMUX, CEA), ce_b = pin(CEBMUX, CEB);
    wire we_a = pin(WEAMUX, WEA), we_b = pin(WEBMUX, WEB);
    wire rst_a = pin(RSTAMUX, RSTA), rst_b = pin(RSTBMUX, RSTB);
    wire [2:0] cs_a = {pin(CSA2MUX, CSA2), pin(CSA1MUX, CSA1), pin(CSA0MUX, CSA0)};
    wire [2:0] cs_b = {pin(CSB2MUX, CSB2), pin(CSB1MUX, CSB1), pin(CSB0MUX, CSB0)};
    wire sel_a = cs_a == decode(CSDECODE_A[39:0]), sel_b = cs_b == decode(CSDECODE_B[39:0]);

    localparam WIDE = DATA_WIDTH_A == 36;
    localparam W = WIDE ? 18 : DATA_WIDTH_A;
    // Address bits below the word: 18 -> 4, 9 -> 3, 4 -> 2, 2 -> 1, 1 -> 0 (36 -> 5).
    localparam LOW = WIDE ? 5 : W == 18 ? 4 : W == 9 ? 3 : W == 4 ? 2 : W == 2 ? 1 : 0;

    reg [17:0] mem [0:1023];
    reg [17:0] do_a = 18'd0, do_b = 18'd0, wide_lo = 18'd0;
    integer r;
    initial begin
        for (r = 0; r < 1024; r = r + 1) mem[r] = initval(r);
        if (DATA_WIDTH_A != DATA_WIDTH_B) begin
            $display("DP16KD: ports of different widths (%0d, %0d) are not modelled", DATA_WIDTH_A, DATA_WIDTH_B);
            $finish;
        end
        if (!(W == 1 || W == 2 || W == 4 || W == 9 || W == 18) || REGMODE_A != "NOREG" || REGMODE_B != "NOREG") begin
            $display("DP16KD: width %0d or an output register (%s, %s) is not modelled", DATA_WIDTH_A, REGMODE_A, REGMODE_B);
            $finish;
        end
    end

    // The bits of row `row` a W-bit port at address `ad` reaches: a mask of the row.
    function automatic [17:0] lanes(input [13:0] ad);
        integer k;
        lanes = 18'd0;
        if (W == 18) lanes = {{9{ad[1]}}, {9{ad[0]}}};
        else if (W == 9) lanes = ad[3] ? 18'h3fe00 : 18'h001ff;
        else for (k = 0; k < W; k = k + 1) lanes[(ad[3:0] >> LOW) * W + k] = 1'b1;
    endfunction
    function automatic [17:0] spread(input [17:0] d, input [13:0] ad);
        spread = W >= 18 ? d : W == 9 ? {d[8:0], d[8:0]} : d << ((ad[3:0] >> LOW) * W);
    endfunction
    function automatic [17:0] pick(input [17:0] row, input [13:0] ad);
        pick = W >= 18 ? row : W == 9 ? (ad[3] ? {9'd0, row[17:9]} : {9'd0, row[8:0]}) : (row >> ((ad[3:0] >> LOW) * W)) & ((18'd1 << W) - 1);
    endfunction
    wire [9:0] row_a = ad_a[13:4], row_b = ad_b[13:4];
    wire [8:0] word_a = ad_a[13:5], word_b = ad_b[13:5];

    always @(posedge clk_a or posedge rst_a) begin
        if (rst_a) do_a <= 18'd0;
        else if (ce_a && sel_a) begin
            if (WIDE) begin
                if (we_a && ad_a[0]) mem[{word_a, 1'b0}][8:0] <= di_a[8:0];
                if (we_a && ad_a[1]) mem[{word_a, 1'b0}][17:9] <= di_a[17:9];
                if (we_a && ad_a[2]) mem[{word_a, 1'b1}][8:0] <= di_b[8:0];
                if (we_a && ad_a[3]) mem[{word_a, 1'b1}][17:9] <= di_b[17:9];
            end else if (we_a) begin
                mem[row_a] <= (mem[row_a] & ~lanes(ad_a)) | (spread(di_a, ad_a) & lanes(ad_a));
                if (WRITEMODE_A == "WRITETHROUGH") do_a <= W >= 18 ? (mem[row_a] & ~lanes(ad_a)) | (di_a & lanes(ad_a)) : di_a;
                else if (WRITEMODE_A == "READBEFOREWRITE") do_a <= pick(mem[row_a], ad_a);
            end else do_a <= pick(mem[row_a], ad_a);
        end
    end
    // Port B reads (a write on it stops the simulation: no design here writes through both ports).
    always @(posedge clk_b or posedge rst_b) begin
        if (rst_b) begin
            do_b <= 18'd0;
            wide_lo <= 18'd0;
        end else if (ce_b && sel_b) begin
            if (we_b && !WIDE) begin
                $display("DP16KD: a write through port B is not modelled");
                $finish;
            end
            if (WIDE) begin
                wide_lo <= mem[{word_b, 1'b0}];
                do_b <= mem[{word_b, 1'b1}];
            end else do_b <= pick(mem[row_b], ad_b);
        end
    end
    wire [17:0] out_a = WIDE ? wide_lo : do_a;
    assign {DOA17, DOA16, DOA15, DOA14, DOA13, DOA12, DOA11, DOA10, DOA9, DOA8, DOA7, DOA6, DOA5, DOA4, DOA3, DOA2, DOA1, DOA0} = out_a;
    assign {DOB17, DOB16, DOB15, DOB14, DOB13, DOB12, DOB11, DOB10, DOB9, DOB8, DOB7, DOB6, DOB5, DOB4, DOB3, DOB2, DOB1, DOB0} = do_b;
endmodule

// MULT18X18D: the sysDSP slice's 18 x 18 multiplier as yosys maps a multiply onto it
// (`synth_ecp5`'s $__MUL18X18) and nextpnr-ecp5 0.11 places it: no input, pipeline or output
// register, so P is combinational; A and B extended to 36 bits as signed when SIGNEDA or
// SIGNEDB is 1 (else with zeros) and multiplied, P their product's 36 bits, SIGNEDP =
// SIGNEDA | SIGNEDB (Lattice's ECP5 sysDSP usage guide). Each data pin goes through its *MUX
// parameter as nextpnr sets it for a constant: the pin, "0", "1" or "INV". Any register, a
// cascade source (SOURCEA or SOURCEB 1) or the bypass mode stops the simulation with the reason:
// no design here uses them.
module MULT18X18D (
    input A0, A1, A2, A3, A4, A5, A6, A7, A8, A9, A10, A11, A12, A13, A14, A15, A16, A17,
    input B0, B1, B2, B3, B4, B5, B6, B7, B8, B9, B10, B11, B12, B13, B14, B15, B16, B17,
    input C0, C1, C2, C3, C4, C5, C6, C7, C8, C9, C10, C11, C12, C13, C14, C15, C16, C17,
    input SIGNEDA, SIGNEDB, SOURCEA, SOURCEB,
    input CLK0, CLK1, CLK2, CLK3, CE0, CE1, CE2, CE3, RST0, RST1, RST2, RST3,
    input SRIA0, SRIA1, SRIA2, SRIA3, SRIA4, SRIA5, SRIA6, SRIA7, SRIA8, SRIA9, SRIA10, SRIA11, SRIA12, SRIA13, SRIA14, SRIA15, SRIA16, SRIA17,
    input SRIB0, SRIB1, SRIB2, SRIB3, SRIB4, SRIB5, SRIB6, SRIB7, SRIB8, SRIB9, SRIB10, SRIB11, SRIB12, SRIB13, SRIB14, SRIB15, SRIB16, SRIB17,
    output SROA0, SROA1, SROA2, SROA3, SROA4, SROA5, SROA6, SROA7, SROA8, SROA9, SROA10, SROA11, SROA12, SROA13, SROA14, SROA15, SROA16, SROA17,
    output SROB0, SROB1, SROB2, SROB3, SROB4, SROB5, SROB6, SROB7, SROB8, SROB9, SROB10, SROB11, SROB12, SROB13, SROB14, SROB15, SROB16, SROB17,
    output ROA0, ROA1, ROA2, ROA3, ROA4, ROA5, ROA6, ROA7, ROA8, ROA9, ROA10, ROA11, ROA12, ROA13, ROA14, ROA15, ROA16, ROA17,
    output ROB0, ROB1, ROB2, ROB3, ROB4, ROB5, ROB6, ROB7, ROB8, ROB9, ROB10, ROB11, ROB12, ROB13, ROB14, ROB15, ROB16, ROB17,
    output ROC0, ROC1, ROC2, ROC3, ROC4, ROC5, ROC6, ROC7, ROC8, ROC9, ROC10, ROC11, ROC12, ROC13, ROC14, ROC15, ROC16, ROC17,
    output P0, P1, P2, P3, P4, P5, P6, P7, P8, P9, P10, P11, P12, P13, P14, P15, P16, P17, P18, P19, P20, P21, P22, P23, P24, P25, P26, P27, P28, P29, P30, P31, P32, P33, P34, P35,
    output SIGNEDP
);
    parameter REG_INPUTA_CLK = "NONE";
    parameter REG_INPUTA_CE = "CE0";
    parameter REG_INPUTA_RST = "RST0";
    parameter REG_INPUTB_CLK = "NONE";
    parameter REG_INPUTB_CE = "CE0";
    parameter REG_INPUTB_RST = "RST0";
    parameter REG_INPUTC_CLK = "NONE";
    parameter REG_INPUTC_CE = "CE0";
    parameter REG_INPUTC_RST = "RST0";
    parameter REG_PIPELINE_CLK = "NONE";
    parameter REG_PIPELINE_CE = "CE0";
    parameter REG_PIPELINE_RST = "RST0";
    parameter REG_OUTPUT_CLK = "NONE";
    parameter REG_OUTPUT_CE = "CE0";
    parameter REG_OUTPUT_RST = "RST0";
    parameter CLK0_DIV = "ENABLED";
    parameter CLK1_DIV = "ENABLED";
    parameter CLK2_DIV = "ENABLED";
    parameter CLK3_DIV = "ENABLED";
    parameter HIGHSPEED_CLK = "NONE";
    parameter GSR = "ENABLED";
    parameter CAS_MATCH_REG = "FALSE";
    parameter SOURCEB_MODE = "B_SHIFT";
    parameter MULT_BYPASS = "DISABLED";
    parameter RESETMODE = "SYNC";
    parameter A0MUX = "A0", A1MUX = "A1", A2MUX = "A2", A3MUX = "A3", A4MUX = "A4", A5MUX = "A5";
    parameter A6MUX = "A6", A7MUX = "A7", A8MUX = "A8", A9MUX = "A9", A10MUX = "A10", A11MUX = "A11";
    parameter A12MUX = "A12", A13MUX = "A13", A14MUX = "A14", A15MUX = "A15", A16MUX = "A16", A17MUX = "A17";
    parameter B0MUX = "B0", B1MUX = "B1", B2MUX = "B2", B3MUX = "B3", B4MUX = "B4", B5MUX = "B5";
    parameter B6MUX = "B6", B7MUX = "B7", B8MUX = "B8", B9MUX = "B9", B10MUX = "B10", B11MUX = "B11";
    parameter B12MUX = "B12", B13MUX = "B13", B14MUX = "B14", B15MUX = "B15", B16MUX = "B16", B17MUX = "B17";
    parameter C0MUX = "C0", C1MUX = "C1", C2MUX = "C2", C3MUX = "C3", C4MUX = "C4", C5MUX = "C5";
    parameter C6MUX = "C6", C7MUX = "C7", C8MUX = "C8", C9MUX = "C9", C10MUX = "C10", C11MUX = "C11";
    parameter C12MUX = "C12", C13MUX = "C13", C14MUX = "C14", C15MUX = "C15", C16MUX = "C16", C17MUX = "C17";
    // A pin through its mux: a constant, its inverse, or the pin.
    `define MULT18_PIN(mux, pin) (mux == "0" ? 1'b0 : mux == "1" ? 1'b1 : mux == "INV" ? ~pin : pin)
    wire [17:0] a = {
        `MULT18_PIN(A17MUX, A17), `MULT18_PIN(A16MUX, A16), `MULT18_PIN(A15MUX, A15),
        `MULT18_PIN(A14MUX, A14), `MULT18_PIN(A13MUX, A13), `MULT18_PIN(A12MUX, A12),
        `MULT18_PIN(A11MUX, A11), `MULT18_PIN(A10MUX, A10), `MULT18_PIN(A9MUX, A9),
        `MULT18_PIN(A8MUX, A8), `MULT18_PIN(A7MUX, A7), `MULT18_PIN(A6MUX, A6),
        `MULT18_PIN(A5MUX, A5), `MULT18_PIN(A4MUX, A4), `MULT18_PIN(A3MUX, A3),
        `MULT18_PIN(A2MUX, A2), `MULT18_PIN(A1MUX, A1), `MULT18_PIN(A0MUX, A0)};
    wire [17:0] b = {
        `MULT18_PIN(B17MUX, B17), `MULT18_PIN(B16MUX, B16), `MULT18_PIN(B15MUX, B15),
        `MULT18_PIN(B14MUX, B14), `MULT18_PIN(B13MUX, B13), `MULT18_PIN(B12MUX, B12),
        `MULT18_PIN(B11MUX, B11), `MULT18_PIN(B10MUX, B10), `MULT18_PIN(B9MUX, B9),
        `MULT18_PIN(B8MUX, B8), `MULT18_PIN(B7MUX, B7), `MULT18_PIN(B6MUX, B6),
        `MULT18_PIN(B5MUX, B5), `MULT18_PIN(B4MUX, B4), `MULT18_PIN(B3MUX, B3),
        `MULT18_PIN(B2MUX, B2), `MULT18_PIN(B1MUX, B1), `MULT18_PIN(B0MUX, B0)};
    `undef MULT18_PIN
    wire signed_a = SIGNEDA === 1'b1, signed_b = SIGNEDB === 1'b1;
    wire [35:0] wide_a = {{18{signed_a & a[17]}}, a};
    wire [35:0] wide_b = {{18{signed_b & b[17]}}, b};
    wire [35:0] p = wide_a * wide_b;
    assign {P35, P34, P33, P32, P31, P30, P29, P28, P27, P26, P25, P24, P23, P22, P21, P20, P19, P18,
            P17, P16, P15, P14, P13, P12, P11, P10, P9, P8, P7, P6, P5, P4, P3, P2, P1, P0} = p;
    assign SIGNEDP = signed_a | signed_b;
    initial begin
        if (REG_INPUTA_CLK != "NONE" || REG_INPUTB_CLK != "NONE" || REG_INPUTC_CLK != "NONE"
            || REG_PIPELINE_CLK != "NONE" || REG_OUTPUT_CLK != "NONE") begin
            $display("MULT18X18D: its input, pipeline and output registers are not modelled");
            $finish;
        end
        if (MULT_BYPASS != "DISABLED") begin
            $display("MULT18X18D: the bypass mode is not modelled");
            $finish;
        end
    end
    always @(SOURCEA or SOURCEB)
        if (SOURCEA === 1'b1 || SOURCEB === 1'b1) begin
            $display("MULT18X18D: a cascaded source (SOURCEA, SOURCEB) is not modelled");
            $finish;
        end
endmodule

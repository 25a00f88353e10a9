// A board top (ports clk, rst_n, led[7:0], usb_rx, usb_tx) under Verilator, its serial lines
// driven from stdin and decoded to stdout, so that the host's side of the link (simt-rtl's
// link::Host) runs on it as on the board: the read-back bitstreams of `simt-rtl build`; built
// with -DBYTE_PORT, `simt-rtl run`'s fast engine (the board top with its byte port,
// core_engine: usb_rx and usb_tx carry a byte in bits 7:0 and whether it is there in bit 8, a
// byte a cycle). simt-rtl (src/verify/fast_engine.rs) builds it with the Verilog (Verilator's
// --prefix Vboard) and speaks this line protocol to it:
//   "s HEX"        send these bytes on usb_rx, 8N1 at CPB clocks per bit (the byte port: one a
//                  cycle, then 10 x CPB idle cycles, a frame's time); answer "k CYCLE"
//   "r N LIMIT"    run until N bytes came on usb_tx or LIMIT more cycles passed; answer
//                  "b CYCLE HEX" (the N bytes) or "t GOT CYCLE" (they did not come)
//   "l MASK LIMIT" run until an LED of MASK is on or LIMIT more cycles passed; answer
//                  "l CYCLE LEDS" (hex) or "t 0 CYCLE"
//   "i N"          run N cycles with usb_rx idle (bytes that come on usb_tx are kept for the
//                  next "r"); answer "k CYCLE"
// Each cycle sets the inputs, samples usb_tx, then clocks a rising edge. The board starts with 20
// idle cycles (its power-on reset). CPB is the first argument.
#include "Vboard.h"
#include "verilated.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <iostream>
#include <string>

static Vboard* top;
static uint64_t cycle = 0;
static int cpb = 4;
static std::deque<uint8_t> received;

#ifdef BYTE_PORT
// The byte port: usb_tx's bit 8 says its byte (bits 7:0) leaves this cycle.
static const int IDLE = 0;
static void sample(unsigned line) {
    if (line & 0x100) received.push_back(line & 0xff);
}
#else
static const int IDLE = 1;
// The receiver of usb_tx: a falling edge starts a frame, each bit is sampled in its middle.
struct Decoder {
    int state = 0, count = 0, bit = 0;
    uint8_t byte = 0;
    void sample(int line) {
        switch (state) {
        case 0:
            if (!line) { state = 1; count = cpb / 2; }
            break;
        case 1:
            if (--count <= 0) {
                if (line) state = 0;
                else { state = 2; count = cpb; bit = 0; byte = 0; }
            }
            break;
        case 2:
            if (--count <= 0) {
                byte |= (line & 1) << bit;
                count = cpb;
                if (++bit == 8) state = 3;
            }
            break;
        default:
            if (--count <= 0) {
                if (line) received.push_back(byte);
                state = 0;
            }
        }
    }
} decoder;
static void sample(int line) { decoder.sample(line); }
#endif

static void tick(int rx) {
    top->rst_n = 1;
    top->usb_rx = rx;
    top->clk = 0;
    top->eval();
    sample(top->usb_tx);
    top->clk = 1;
    top->eval();
    cycle++;
}

static int hex(char c) { return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10; }

// One byte on usb_rx: on the byte port a cycle; on the serial line a start bit, eight data bits
// (least significant first) and a stop bit, CPB cycles each.
static void send(int b) {
#ifdef BYTE_PORT
    tick(0x100 | b);
#else
    for (int bit = 0; bit < 10; bit++) {
        int level = bit == 0 ? 0 : bit == 9 ? 1 : (b >> (bit - 1)) & 1;
        for (int c = 0; c < cpb; c++) tick(level);
    }
#endif
}

int main(int argc, char** argv) {
    Verilated::commandArgs(argc, argv);
    if (argc > 1) cpb = std::atoi(argv[1]);
    top = new Vboard;
    for (int i = 0; i < 20; i++) tick(IDLE);
    std::ios::sync_with_stdio(false);
    std::string line;
    while (std::getline(std::cin, line)) {
        if (line.size() > 2 && line[0] == 's') {
            for (size_t k = 2; k + 1 < line.size(); k += 2) send(hex(line[k]) << 4 | hex(line[k + 1]));
#ifdef BYTE_PORT
            for (int c = 0; c < 10 * cpb; c++) tick(IDLE);
#endif
            std::printf("k %llu\n", (unsigned long long)cycle);
        } else if (line[0] == 'i') {
            unsigned long long n = 0;
            std::sscanf(line.c_str() + 1, "%llu", &n);
            for (unsigned long long c = 0; c < n; c++) tick(IDLE);
            std::printf("k %llu\n", (unsigned long long)cycle);
        } else if (line[0] == 'r') {
            unsigned long long n = 0, limit = 0;
            std::sscanf(line.c_str() + 1, "%llu %llu", &n, &limit);
            uint64_t end = cycle + limit;
            while (received.size() < n && cycle < end) tick(IDLE);
            if (received.size() < n) {
                std::printf("t %zu %llu\n", received.size(), (unsigned long long)cycle);
            } else {
                std::printf("b %llu ", (unsigned long long)cycle);
                for (unsigned long long k = 0; k < n; k++) std::printf("%02x", received[k]);
                received.erase(received.begin(), received.begin() + n);
                std::printf("\n");
            }
        } else if (line[0] == 'l') {
            unsigned long long mask = 0, limit = 0;
            std::sscanf(line.c_str() + 1, "%llx %llu", &mask, &limit);
            uint64_t end = cycle + limit;
            while (!(top->led & mask) && cycle < end) tick(IDLE);
            if (top->led & mask) {
                std::printf("l %llu %02x\n", (unsigned long long)cycle, (unsigned)top->led);
            } else {
                std::printf("t 0 %llu\n", (unsigned long long)cycle);
            }
        } else {
            break;
        }
        std::fflush(stdout);
    }
    top->final();
    delete top;
    return 0;
}

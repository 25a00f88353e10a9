//! Decode and execute agree with the ISA: random ALU, immediate, `li`, `lane`, `warp` and
//! `threads` instructions are decoded by the rust-hdl `Decoder`, their operands chosen as its
//! `b_sel` says (register `rb`, the immediate cut to the lane width, the warp's index or the
//! lanes per warp) and executed
//! by the rust-hdl `LaneAlu`; the lanes it writes must equal what the reference interpreter
//! leaves in `rd`, for every preset's lane count and width.

use simt_rtl::hw::core::decoder::{BSel, Kind};
use simt_rtl::hw::Decoder;
use simt_rtl::isa::interp::{Config, Machine};
use simt_rtl::isa::{AluOp, AtomicOp, Extensions, ImmOp, Inst, REGISTERS};
use simt_rtl::registry::*;
use simt_rtl::sim::differential::{cycle_outputs, prepare};
use simt_rtl::sim::rng::mask;
use simt_rtl::sim::Dut;
use simt_rtl::sim::Rng;

/// A random instruction that writes `rd` through the lane ALU, of the base set or of the
/// extensions `isa`.
fn random_alu_inst(rng: &mut Rng, isa: Extensions) -> Inst {
    loop {
        let inst = any_alu_inst(rng);
        if isa.allows(inst.extensions()) {
            return inst;
        }
    }
}

fn any_alu_inst(rng: &mut Rng) -> Inst {
    let r = |rng: &mut Rng| rng.below(REGISTERS as u64) as u8;
    let imm = |rng: &mut Rng| rng.below(1 << 14) as i32 - (1 << 13);
    match rng.below(7) {
        0 => Inst::Alu {
            op: AluOp::ALL[rng.below(AluOp::ALL.len() as u64) as usize],
            rd: r(rng),
            ra: r(rng),
            rb: r(rng),
        },
        5 => Inst::Lui { rd: r(rng), imm: rng.bits(18) as u32 },
        1 => Inst::Imm {
            op: ImmOp::ALL[rng.below(ImmOp::ALL.len() as u64) as usize],
            rd: r(rng),
            ra: r(rng),
            imm: imm(rng),
        },
        2 => Inst::Li { rd: r(rng), imm: imm(rng) },
        3 => Inst::Lane { rd: r(rng) },
        6 => Inst::Threads { rd: r(rng) },
        _ => Inst::Warp { rd: r(rng) },
    }
}

fn decode_and_execute<B: PresetBlocks>(instructions: usize) {
    let p = B::PRESET;
    let (warps, lanes, bits) = (p.scheduler.warps, p.scheduler.threads, p.collector.lane_bits);
    let config = Config::of_preset(&p, u64::MAX);
    let mut machine = Machine::new(config, &[]).unwrap();
    let mut rng = Rng::new(0xDA7A_2026);
    for v in machine.regs.iter_mut() {
        *v = rng.bits(bits) as u32;
    }
    let isa = p.isa();
    let (mut decoder, mut alu) = (Decoder::new(isa).unwrap(), B::lane_alu().unwrap());
    prepare(&mut decoder).unwrap();
    prepare(&mut alu).unwrap();
    let pack = |vals: &[u64]| {
        vals.iter().enumerate().fold(0u64, |w, (l, v)| w | (v & mask(bits)) << (l * bits))
    };
    let broadcast = |v: u64| pack(&vec![v; lanes]);
    for k in 0..instructions {
        let inst = random_alu_inst(&mut rng, isa);
        let w = rng.below(warps as u64) as usize;
        let lane_mask = if rng.chance(50) { mask(lanes) } else { rng.bits(lanes).max(1) };
        let d = cycle_outputs(&mut decoder, &[inst.encode() as u64], k).unwrap();
        let [kind, exec_op, exec_op_high, b_sel, rd_valid, rd, ra, rb, imm] =
            ["kind", "exec_op", "exec_op_high", "b_sel", "rd_valid", "rd", "ra", "rb", "imm"]
                .map(|name| decoder.output(&d, name).unwrap());
        assert_eq!((kind, rd_valid), (Kind::Alu as u64, 1), "{inst}");
        let reg = |r: u64| {
            pack(&(0..lanes).map(|l| machine.reg(w, l, r as usize) as u64).collect::<Vec<_>>())
        };
        let b = match b_sel {
            x if x == BSel::Register as u64 => reg(rb),
            x if x == BSel::Immediate as u64 => broadcast(imm),
            x if x == BSel::Warp as u64 => broadcast(w as u64),
            x if x == BSel::Threads as u64 => broadcast(lanes as u64),
            other => panic!("{inst}: b_sel {other}"),
        };
        let out = cycle_outputs(&mut alu, &[exec_op, exec_op_high, reg(ra), b], k).unwrap();
        machine.warps[w].mask = lane_mask as u32;
        machine.warps[w].pc = 0;
        machine.step(w, &[inst]).unwrap();
        for l in (0..lanes).filter(|l| lane_mask >> l & 1 == 1) {
            let got = alu.output(&out, "result").unwrap() >> (l * bits) & mask(bits);
            assert_eq!(
                got,
                machine.reg(w, l, rd as usize) as u64,
                "{inst} on warp {w}, lane {l}: decode + lane ALU differ from the interpreter"
            );
        }
    }
}

#[test]
fn cu_decode_and_execute_agree_with_the_interpreter() {
    decode_and_execute::<CuBlocks>(20_000);
}

#[test]
fn seed_decode_and_execute_agree_with_the_interpreter() {
    decode_and_execute::<SeedBlocks>(5_000);
}

#[test]
fn tiny_decode_and_execute_agree_with_the_interpreter() {
    decode_and_execute::<TinyBlocks>(20_000);
}

/// The decode table itself, checked against a specification written by hand: the ISA
/// encodings page's table (`docs/src/isa-encodings.md`, between its `decode table` markers)
/// gives each opcode's control word, and the decoder's (`Controls::of` on `Inst::decode`, which
/// its ROM and its model both read) must hold exactly that for each of the 64 opcodes; an
/// opcode the table does not list is illegal and does nothing.
#[test]
fn every_opcode_decodes_as_the_isa_page_says() {
    use simt_rtl::hw::core::decoder::Controls;
    use simt_rtl::hw::core::lane_alu::ExecOp;
    let page = std::fs::read_to_string("docs/src/isa-encodings.md").unwrap();
    let table = page
        .split("<!-- decode table: begin -->")
        .nth(1)
        .and_then(|t| t.split("<!-- decode table: end -->").next())
        .expect("the ISA encodings page's decode table");
    let mut listed = std::collections::BTreeMap::new();
    for row in table.lines().filter(|l| l.starts_with("| `")) {
        let cells: Vec<&str> = row.trim_matches('|').split(" | ").map(str::trim).collect();
        let syntax = cells[0].trim_matches('`');
        let mnemonic = syntax.split_whitespace().next().unwrap();
        let op = u32::from_str_radix(cells[1].trim_start_matches("0x"), 16).unwrap();
        let word = |name: &str, names: &[&str]| -> usize {
            names.iter().position(|n| *n == name).unwrap_or_else(|| panic!("{row}: `{name}`"))
        };
        let kinds = [
            "nop", "alu", "st", "ld", "branch", "join", "jmp", "bany", "exit", "bar", "stx",
            "atomic",
        ];
        let alus = [
            "add", "sub", "and", "or", "xor", "shl", "shr", "slt", "seq", "passb", "lane", "mul",
            "slts", "sra", "min", "max", "minu", "maxu", "mulh", "mulhu",
        ];
        let want = Controls {
            legal: true,
            kind: Kind::ALL[word(cells[2], &kinds)],
            exec_op: ExecOp::ALL[word(cells[3], &alus)],
            b_sel: [BSel::Register, BSel::Immediate, BSel::Warp, BSel::Threads]
                [word(cells[4], &["register", "immediate", "warp", "threads"])],
            rd_valid: cells[5] == "yes",
            src_valid: [0, 0b01, 0b11][word(cells[6], &["-", "ra", "ra rb"])] as u64,
            ra_high: cells[7] == "25:22",
            target_low: cells[8] == "10:0",
            if_zero: mnemonic == "bz",
        };
        assert!(listed.insert(op, (mnemonic.to_string(), want)).is_none(), "opcode {op:#x} twice");
    }
    assert!(listed.len() >= 30, "{} rows read from the ISA page", listed.len());
    for op in 0..64u32 {
        let inst = Inst::decode(op << 26);
        let got = Controls::of(inst);
        match listed.get(&op) {
            Some((mnemonic, want)) => {
                assert_eq!(&got, want, "opcode {op:#04x} ({mnemonic})");
                let shown = inst.unwrap().to_string();
                assert_eq!(
                    shown.split_whitespace().next(),
                    Some(mnemonic.as_str()),
                    "opcode {op:#04x}"
                );
            }
            None => {
                assert!(inst.is_none() && !got.legal, "opcode {op:#04x} is not on the ISA page");
                assert_eq!((got.kind, got.rd_valid, got.src_valid), (Kind::Nop, false, 0));
            }
        }
    }
}

/// The lane ALU with every extension at lane widths no preset has yet (16 and 32 bits, where
/// `mul` takes one and three 16 x 16-bit products), against its model every cycle: the rust-hdl
/// block for 20,000 cycles, then its exported Verilog under Verilator for all 40,000.
#[test]
fn wide_lanes_with_every_extension_agree_with_the_model() {
    use simt_rtl::export::differential_via_verilog;
    use simt_rtl::hw::core::lane_alu::{model::LaneAluModel, stimulus::alu_stimulus, LaneAlu};
    fn check<const T: usize, const DW: usize, const SW: usize, const TD: usize>() {
        let mut model = LaneAluModel { lanes: T, lane_bits: DW, isa: Extensions::ALL };
        let make = || LaneAlu::<T, DW, SW, TD>::new(Extensions::ALL).unwrap();
        let name = format!("lane_alu_{T}x{DW}_all_extensions");
        let rec = differential_via_verilog(&name, make, &mut model, 7, 40_000, alu_stimulus(T, DW))
            .unwrap();
        let muls = rec.inputs.iter().filter(|i| i[0] == 11).count();
        assert!(muls > 1_000, "{name}: {muls} multiplies");
    }
    check::<2, 32, 5, 64>();
    check::<4, 16, 4, 64>();
}

/// A mutant per instruction of the `imm`, `threads`, `minmax`, `mulhi`, `offset` and `atomic`
/// extensions: the instruction's row of the decoder's ROM, in the exported Verilog of a decoder
/// with every extension, given a neighbour's ALU op (`ori` as `xor`, `xori` as `or`, `slti` as
/// `slts`, `sltsi` as `slt`, `srai` as `shr`, `min` as `minu` and back, `max` as `maxu` and
/// back, `mulh` as `mulhu` and back, `atadd` as `atxch` and back), operand (`threads` as
/// `warp`) or reads (`ld rd, imm(ra)` reading no `ra`, `stx rs, imm(ra)` no `rs`). The decoder's
/// random differential, replayed under iverilog, passes on the original and fails on each.
#[test]
fn a_wrong_decoder_row_for_each_new_instruction_is_caught() {
    use simt_rtl::export::{check_exported, export_module};
    use simt_rtl::hw::core::decoder::{model::DecoderModel, stimulus::decoder_stimulus, Controls};
    use simt_rtl::hw::core::lane_alu::ExecOp;
    use simt_rtl::sim::verilog_sim::{check_against_rust, Simulator, VerilogDut};
    let isa = Extensions::ALL;
    let make = || Decoder::new(isa).unwrap();
    let connected = || {
        let mut d = make();
        rust_hdl::prelude::Block::connect_all(&mut d);
        d
    };
    let mut model = DecoderModel { isa };
    let rec = simt_rtl::sim::run_differential(
        "decoder_all",
        make,
        &mut model,
        69,
        3_000,
        decoder_stimulus(isa),
    )
    .unwrap();
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/verilog-sim/decoder_rows");
    let _ = std::fs::remove_dir_all(&dir);
    check_exported(Simulator::Iverilog, make(), ("decoder_all", ""), &rec, &dir.join("original"))
        .unwrap();
    let text = export_module(&connected(), "decoder_all", "").unwrap();
    let imm = |op| Inst::Imm { op, rd: 0, ra: 0, imm: 0 };
    let alu = |op| Inst::Alu { op, rd: 0, ra: 0, rb: 0 };
    let atomic = |op| Inst::Atomic { op, rd: 0, ra: 0, rb: 0 };
    let op = |e: ExecOp| move |c: Controls| Controls { exec_op: e, ..c };
    let reads = |src_valid: u64| move |c: Controls| Controls { src_valid, ..c };
    let mutants: [(Inst, &dyn Fn(Controls) -> Controls); 16] = [
        (imm(ImmOp::Ori), &op(ExecOp::Xor)),
        (imm(ImmOp::Xori), &op(ExecOp::Or)),
        (imm(ImmOp::Slti), &op(ExecOp::Slts)),
        (imm(ImmOp::Sltsi), &op(ExecOp::Slt)),
        (imm(ImmOp::Srai), &op(ExecOp::Shr)),
        (Inst::Threads { rd: 0 }, &|c| Controls { b_sel: BSel::Warp, ..c }),
        (alu(AluOp::Min), &op(ExecOp::Minu)),
        (alu(AluOp::Max), &op(ExecOp::Maxu)),
        (alu(AluOp::Minu), &op(ExecOp::Min)),
        (alu(AluOp::Maxu), &op(ExecOp::Max)),
        (alu(AluOp::Mulh), &op(ExecOp::Mulhu)),
        (alu(AluOp::Mulhu), &op(ExecOp::Mulh)),
        (Inst::Ld { rd: 0, ra: 0, offset: Some(0) }, &reads(0)),
        (Inst::Stx { ra: 0, rb: 0, offset: Some(0) }, &reads(0b01)),
        (atomic(AtomicOp::Add), &op(ExecOp::PassB)),
        (atomic(AtomicOp::Exchange), &op(ExecOp::Add)),
    ];
    for (inst, mutate) in mutants {
        let code = inst.encode() >> 26;
        let right = Controls::of(Some(inst));
        let wrong = mutate(right);
        let row = |c: Controls| format!("6'b{code:b}: data = 18'b{:b};", c.word());
        assert_eq!(
            text.matches(&row(right)).count(),
            1,
            "{inst}: its ROM row is not in the Verilog once"
        );
        let work = dir.join(inst.to_string().split_whitespace().next().unwrap());
        std::fs::create_dir_all(&work).unwrap();
        let file = work.join("decoder_all.v");
        std::fs::write(&file, text.replacen(&row(right), &row(wrong), 1)).unwrap();
        let dut = VerilogDut::of(&make(), "decoder_all", file);
        let caught = check_against_rust(Simulator::Iverilog, &dut, &rec, &work);
        assert!(caught.is_err(), "{inst}: the mutant row passed the decoder's replay");
    }
}

//! Selection of small SASS-layer functions on every SM family; the
//! expected texts are what ptxas 13.5 emits for the same operations
//! (checked with `-O3` on sm_75, 80, 90, 100, 120), on virtual registers.

use super::select_function;
use crate::ir::{Attrs, Cmp, DataType, Function, FunctionBuilder, FunctionKind, InstData, Opcode, Param, SpecialReg, Type, Value};
use crate::target::Sm;

const SMS: [u16; 5] = [75, 80, 90, 100, 120];

/// A kernel with parameters `p: u64 @0, n: u32 @8, m: u32 @12` whose
/// body `body` fills one block ending in EXIT.
fn kernel(body: impl FnOnce(&mut FunctionBuilder, [Value; 3])) -> Function {
    let mut f = Function::new("k", FunctionKind::Kernel);
    for (name, size, offset) in [("p", 8, 0), ("n", 4, 8), ("m", 4, 12)] {
        f.params.push(Param { name: name.into(), size, align: size, offset, pointer: size == 8 });
    }
    let mut b = FunctionBuilder::new(&mut f);
    let entry = b.create_block();
    b.switch_to_block(entry);
    b.seal_block(entry);
    let mut params = Vec::new();
    for (off, ty) in [(0, Type::R64), (8, Type::R32), (12, Type::R32)] {
        let mut d = InstData::new(Opcode::Ldc, Attrs { ty: Some(if ty == Type::R64 { DataType::U64 } else { DataType::U32 }), ..Attrs::default() });
        // Bank 0, offset relative to the parameter block: `for_sm` adds
        // the SM's base, as legalization would have.
        d.offset = off;
        params.push(b.ins_value(d, ty));
    }
    body(&mut b, [params[0], params[1], params[2]]);
    b.exit();
    b.finish();
    f
}

/// The fixture as legalization would have made it for `sm`: bank-0
/// loads at absolute offsets (the parameter block's base added), special
/// registers by their number on the SM.
fn for_sm(f: &Function, sm: u16) -> Function {
    let mut f = f.clone();
    let base = crate::legalize::launch_abi::param_base(Sm::new(sm)) as i32;
    let insts: Vec<_> = f.insts.keys().collect();
    for i in insts {
        let d = &mut f.insts[i];
        if d.opcode == Opcode::Ldc && d.imm == 0 {
            d.offset += base;
        }
        // Legalization writes the special register's number on the SM.
        if let (Opcode::S2r | Opcode::Cs2r, Some(r)) = (d.opcode, d.attrs.sreg) {
            d.imm = crate::legalize::launch_abi::sr_number(r, Sm::new(sm)).map_or(0, u64::from);
        }
    }
    f
}

fn text(f: &Function, sm: u16) -> String {
    match select_function(&for_sm(f, sm), Sm::new(sm)) {
        Ok(m) => m.text(),
        Err(e) => format!("error: {e}"),
    }
}

fn sreg(b: &mut FunctionBuilder, r: SpecialReg) -> Value {
    b.ins_value(InstData::new(Opcode::S2r, Attrs { sreg: Some(r), ..Attrs::default() }), Type::R32)
}

fn op(b: &mut FunctionBuilder, opcode: Opcode, attrs: Attrs, args: &[Value], imm: u64, ty: Type) -> Value {
    let mut d = InstData::new(opcode, attrs);
    d.args = args.iter().copied().collect();
    d.imm = imm;
    b.ins_value(d, ty)
}

/// `tid + n`, then `(tid + n) ^ m`, compared with 1000 (the kernel of the
/// module documentation's ptxas comparison).
fn add_xor_compare() -> Function {
    kernel(|b, [_, n, m]| {
        let tid = sreg(b, SpecialReg::TidX);
        let zero = b.iconst(Type::R32, 0);
        let s = op(b, Opcode::Iadd3, Attrs::default(), &[tid, n, zero], 0, Type::R32);
        let x = op(b, Opcode::Lop3, Attrs::default(), &[s, m, zero], 0x3c, Type::R32);
        let k = b.iconst(Type::R32, 1000);
        let mut a = Attrs::typed(DataType::U32);
        a.cmp = Some(Cmp::Lt);
        let p = op(b, Opcode::Isetp, a, &[x, k], 0, Type::P);
        let r = op(b, Opcode::Sel, Attrs::default(), &[s, x, p], 0, Type::R32);
        let mut st = InstData::new(Opcode::Stg, Attrs { ty: Some(DataType::U32), ..Attrs::default() });
        let addr = b.iconst(Type::R64, 0x1000);
        st.args = [addr, r].into_iter().collect();
        b.ins(st, &[]);
    })
}

#[test]
fn parameters_fold_into_constant_bank_or_uniform_operands() {
    let f = add_xor_compare();
    // ptxas: `IADD3 R5, R2, c[0x0][0x168], RZ` and `LOP3.LUT R0, R5, c[0x0][0x16c], RZ, 0x3c, !PT`.
    let sm80 = text(&f, 80);
    assert!(sm80.contains("IADD3 %R5, %R3, c[0x0][0x168], RZ"), "{sm80}");
    assert!(sm80.contains("LOP3.LUT %R6, %R5, c[0x0][0x16c], RZ, 0x3c, !PT"), "{sm80}");
    assert!(sm80.contains("ISETP.LT.U32.AND %P8, PT, %R6, 0x3e8, PT"), "{sm80}");
    assert!(sm80.contains("ULDC.64 %UR"), "{sm80}");
    assert!(!sm80.contains("LDC "), "every parameter use folded: {sm80}");
    // sm_90: parameters at 0x210.
    assert!(text(&f, 90).contains("c[0x0][0x218]"));
    assert!(text(&f, 75).contains("c[0x0][0x168]"));
    // sm_100+: no constant-bank ALU operands; LDCU into a uniform register
    // (ptxas: `LDCU.64 UR4, c[0x0][0x388]` … `IADD R5, R7, UR4`).
    for sm in [100, 120] {
        let t = text(&f, sm);
        assert!(t.contains("LDCU %UR"), "{t}");
        assert!(t.contains("c[0x0][0x388]") && t.contains("c[0x0][0x38c]"), "{t}");
        assert!(t.contains("IADD3 %R5, PT, PT, %R3, %UR"), "{t}");
        assert!(t.contains("LDCU.64 %UR"), "the descriptor: {t}");
    }
    // sm_75: no descriptor, `.SYS` spelled.
    let t75 = text(&f, 75);
    assert!(t75.contains("STG.E.SYS [0x1000]"), "{t75}");
    assert!(!t75.contains("UR"), "{t75}");
}

#[test]
fn the_whole_dump_on_sm_80() {
    let f = add_xor_compare();
    let expected = "\
bb0:
    ULDC.64 %UR11, c[0x0][0x118]
    S2R %R3, SR_TID.X
    IADD3 %R5, %R3, c[0x0][0x168], RZ
    LOP3.LUT %R6, %R5, c[0x0][0x16c], RZ, 0x3c, !PT
    ISETP.LT.U32.AND %P8, PT, %R6, 0x3e8, PT
    SEL %R9, %R5, %R6, %P8
    STG.E [RZ.64+0x1000], %R9
    EXIT
";
    assert_eq!(text(&f, 80), expected);
}

#[test]
fn foldable_operands_move_to_the_b_slot() {
    let f = kernel(|b, [_, n, _]| {
        let tid = sreg(b, SpecialReg::TidX);
        let k = b.iconst(Type::R32, 5);
        // 5 + tid + n: the constant moves to b (IADD3 is commutative).
        let s = op(b, Opcode::Iadd3, Attrs::default(), &[k, tid, n], 0, Type::R32);
        // 7 < s: mirrored to s > 7.
        let seven = b.iconst(Type::R32, 7);
        let mut a = Attrs::typed(DataType::S32);
        a.cmp = Some(Cmp::Lt);
        let p = op(b, Opcode::Isetp, a, &[seven, s], 0, Type::P);
        // sel(9, s, p): exchanged, predicate inverted.
        let nine = b.iconst(Type::R32, 9);
        let r = op(b, Opcode::Sel, Attrs::default(), &[nine, s, p], 0, Type::R32);
        // LOP3 (0xf0 = a) with the constant in a: table permuted to b.
        let l = op(b, Opcode::Lop3, Attrs::default(), &[k, r, tid], 0xf0, Type::R32);
        let mut st = InstData::new(Opcode::Sts, Attrs { ty: Some(DataType::U32), ..Attrs::default() });
        st.args = [r, l].into_iter().collect();
        st.offset = 16;
        b.ins(st, &[]);
    });
    let t = text(&f, 80);
    // 5 and n both fold, and only one b slot: n (in c) is loaded into a register.
    assert!(t.contains("IADD3 %R5, %R3, 0x5, %R1"), "{t}");
    assert!(t.contains("MOV %R1, c[0x0][0x168]"), "{t}");
    assert!(t.contains("ISETP.GT.AND %P7, PT, %R5, 0x7, PT"), "{t}");
    assert!(t.contains("SEL %R9, %R5, 0x9, !%P7"), "{t}");
    assert!(t.contains("LOP3.LUT %R10, %R9, 0x5, %R3, 0xcc, !PT"), "{t}");
    assert!(t.contains("STS [%R9+0x10], %R10"), "{t}");
    // The constants were all folded: no other MOV.
    assert_eq!(t.matches("MOV").count(), 1, "{t}");
}

#[test]
fn constants_in_register_slots_are_materialised_once() {
    let f = kernel(|b, [_, _, _]| {
        let tid = sreg(b, SpecialReg::TidX);
        let k = b.iconst(Type::R32, 0x1234);
        // k in a and c of two IADD3s whose b is taken by another constant.
        let two = b.iconst(Type::R32, 2);
        let x = op(b, Opcode::Iadd3, Attrs::default(), &[k, two, tid], 0, Type::R32);
        let y = op(b, Opcode::Iadd3, Attrs::default(), &[x, two, k], 0, Type::R32);
        let mut st = InstData::new(Opcode::Sts, Attrs { ty: Some(DataType::U32), ..Attrs::default() });
        st.args = [tid, y].into_iter().collect();
        b.ins(st, &[]);
    });
    for sm in SMS {
        let t = text(&f, sm);
        assert_eq!(t.matches("MOV %R4, 0x1234").count(), 1, "{t}");
        assert!(!t.contains("MOV %R5"), "2 always folds: {t}");
    }
}

#[test]
fn min_max_follows_the_sm() {
    let f = kernel(|b, [_, n, _]| {
        let tid = sreg(b, SpecialReg::TidX);
        let m = op(b, Opcode::Imnmx, Attrs::typed(DataType::U32), &[tid, n], 0, Type::R32);
        let mut st = InstData::new(Opcode::Sts, Attrs { ty: Some(DataType::U32), ..Attrs::default() });
        st.args = [tid, m].into_iter().collect();
        b.ins(st, &[]);
    });
    assert!(text(&f, 80).contains("IMNMX.U32 %R4, %R3, c[0x0][0x168], PT"));
    assert!(text(&f, 90).contains("VIMNMX.U32 %R4, %R3, c[0x0][0x218], PT"));
    assert!(text(&f, 100).contains("VIMNMX.U32 %R4, PT, PT, %R3, %UR"));
    assert!(text(&f, 120).contains("VIMNMX.U32 %R4, %R3, %UR"));
}

#[test]
fn float_immediates_and_modifiers() {
    let f = kernel(|b, [_, _, _]| {
        let tid = sreg(b, SpecialReg::TidX);
        let one = b.iconst(Type::R32, 1.0f32.to_bits() as u64);
        // FADD(-tid, 1.0) and FFMA(tid, 2.0, -|x|).
        let x = op(b, Opcode::Fadd, Attrs { neg: 1, ..Attrs::default() }, &[tid, one], 0, Type::R32);
        let two = b.iconst(Type::R32, 2.0f32.to_bits() as u64);
        let y = op(b, Opcode::Ffma, Attrs { neg: 4, abs: 4, ..Attrs::default() }, &[two, tid, x], 0, Type::R32);
        let d = b.iconst(Type::R64, 1.5f64.to_bits());
        let w = op(b, Opcode::I2f, Attrs { ty: Some(DataType::F64), src_ty: Some(DataType::S32), ..Attrs::default() }, &[y], 0, Type::R64);
        let z = op(b, Opcode::Dadd, Attrs::default(), &[d, w], 0, Type::R64);
        let mut st = InstData::new(Opcode::Stl, Attrs { ty: Some(DataType::U64), ..Attrs::default() });
        st.args = [tid, z].into_iter().collect();
        b.ins(st, &[]);
    });
    for sm in SMS {
        let t = text(&f, sm);
        assert!(t.contains("FADD %R5, -%R3, 1"), "{t}");
        assert!(t.contains("FFMA %R7, %R3, 2, -|%R5|"), "{t}");
        assert!(t.contains("I2F.F64 %R9, %R7"), "{t}");
        assert!(t.contains("DADD %R10, %R9, 1.5"), "{t}");
        assert!(t.contains("STL.64 [%R3], %R10"), "{t}");
    }
}

#[test]
fn control_flow_keeps_blocks_and_arguments() {
    let mut f = Function::new("loop", FunctionKind::Device);
    let mut b = FunctionBuilder::new(&mut f);
    let entry = b.create_block();
    let body = b.create_block();
    let done = b.create_block();
    b.switch_to_block(entry);
    b.seal_block(entry);
    let zero = b.iconst(Type::R32, 0);
    b.jump(body, &[zero]);
    b.switch_to_block(body);
    let i = b.append_block_param(body, Type::R32);
    let one = b.iconst(Type::R32, 1);
    let z = b.iconst(Type::R32, 0);
    let next = op(&mut b, Opcode::Iadd3, Attrs::default(), &[i, one, z], 0, Type::R32);
    let ten = b.iconst(Type::R32, 10);
    let mut a = Attrs::typed(DataType::S32);
    a.cmp = Some(Cmp::Lt);
    let more = op(&mut b, Opcode::Isetp, a, &[next, ten], 0, Type::P);
    b.brif(more, false, body, &[next], done, &[]);
    b.seal_block(body);
    b.switch_to_block(done);
    b.seal_block(done);
    b.ret(&[next]);
    b.finish();
    let m = select_function(&for_sm(&f, 80), Sm::new(80)).unwrap();
    let expected = "\
bb0:
    MOV %R0, 0x0
    BRA bb1(%R0)
bb1(%R1):
    IADD3 %R4, %R1, 0x1, RZ
    ISETP.LT.AND %P6, PT, %R4, 0xa, PT
    @%P6 BRA bb1(%R4)
    BRA bb2
bb2:
    RET.REL.NODEC R20 0x10
";
    assert_eq!(m.text(), expected);
    assert_eq!(m.blocks[1].succs.len(), 2);
    assert_eq!(m.blocks[1].succ_args[0].len(), 1);
}

#[test]
fn guarded_results_are_tied_to_their_prior_values() {
    let f = kernel(|b, [_, n, _]| {
        let tid = sreg(b, SpecialReg::TidX);
        let mut a = Attrs::typed(DataType::U32);
        a.cmp = Some(Cmp::Ge);
        let k = b.iconst(Type::R32, 1000);
        let p = op(b, Opcode::Isetp, a, &[tid, k], 0, Type::P);
        let big = b.iconst(Type::R32, 0x12345);
        let z = b.iconst(Type::R32, 0);
        let mut d = InstData::new(Opcode::Iadd3, Attrs::default());
        d.args = [n, big, z].into_iter().collect();
        let inst = b.ins(d, &[Type::R32]);
        b.set_guard(inst, crate::ir::Guard { pred: p, negated: false }, &[tid]);
        let r = b.func.insts[inst].results[0];
        let mut st = InstData::new(Opcode::Sts, Attrs { ty: Some(DataType::U32), ..Attrs::default() });
        st.args = [tid, r].into_iter().collect();
        b.ins(st, &[]);
    });
    let t = text(&f, 90);
    assert!(t.contains("@%P5 IADD3 %R8, %R1, 0x12345, RZ ; %R8 keeps %R3"), "{t}");
    // n is needed in a register (a slot): LDC from sm_90.
    assert!(t.contains("LDC %R1, c[0x0][0x218]"), "{t}");
    assert!(text(&f, 80).contains("MOV %R1, c[0x0][0x168]"));
}

#[test]
fn errors_are_values_with_the_instruction() {
    let f = kernel(|b, [_, n, _]| {
        let _ = op(b, Opcode::Add, Attrs::typed(DataType::S32), &[n, n], 0, Type::R32);
        let mut st = InstData::new(Opcode::Bar, Attrs::default());
        st.args = [n].into_iter().collect();
        b.ins(st, &[]);
    });
    let e = select_function(&for_sm(&f, 80), Sm::new(80)).unwrap_err();
    assert!(e.message.contains("register barrier"), "{e}");
    assert!(select_function(&f, Sm::new(61)).is_err());
}

/// A conversion or an atomic whose types no form of its machine
/// instruction spells is refused with the instruction's attributes: I2FP
/// rounds only to nearest or toward zero (`.RZ`), ATOMS has no float types
/// (the form table's I2FP and ATOMS rows).
#[test]
fn combinations_no_form_spells_are_refused() {
    use crate::ir::{RedOp, Round};
    let i2fp = kernel(|b, [p, n, _]| {
        let at = Attrs { ty: Some(DataType::F32), src_ty: Some(DataType::S32), round: Some(Round::Rm), ..Attrs::default() };
        let x = op(b, Opcode::I2fp, at, &[n], 0, Type::R32);
        let mut st = InstData::new(Opcode::Stg, Attrs::typed(DataType::U32));
        st.args = [p, x].into_iter().collect();
        b.ins(st, &[]);
    });
    let e = select_function(&for_sm(&i2fp, 90), Sm::new(90)).unwrap_err();
    assert!(e.message.contains("has no form converting Some(S32) to Some(F32) with rounding Some(Rm)"), "{e}");
    let atoms = kernel(|b, [p, n, m]| {
        let at = Attrs { ty: Some(DataType::F32), red: Some(RedOp::Add), ..Attrs::default() };
        let x = op(b, Opcode::AtomShared, at, &[n, m], 0, Type::R32);
        let mut st = InstData::new(Opcode::Stg, Attrs::typed(DataType::U32));
        st.args = [p, x].into_iter().collect();
        b.ins(st, &[]);
    });
    let e = select_function(&for_sm(&atoms, 80), Sm::new(80)).unwrap_err();
    assert!(e.message.contains("has no form for Some(Add) of Some(F32)"), "{e}");
}

/// Every machine instruction the tests above select, with its virtual
/// registers replaced by physical ones (aligned to the value's width),
/// must encode, and nvdisasm must print the word as `Inst::text` does.
#[test]
fn selected_instructions_encode_and_print_as_nvdisasm_does() {
    use crate::isa::ctrl::Ctrl;
    use crate::isa::family::nvdisasm_name;
    use crate::isa::inst::Inst as MInst;
    use crate::isa::operand::{Operand, Reg, RegFile, RegNum};
    let Some(nvdisasm) = crate::reference::require("nvdisasm", "selected_instructions_encode_and_print_as_nvdisasm_does") else { return };
    let functions = [add_xor_compare(), min_max_kernel(), float_kernel()];
    let phys = |r: &mut Reg, width: u8| {
        if let RegNum::Virt(n) = r.num {
            let n = n.get();
            let w = u32::from(width.max(1));
            r.num = RegNum::Phys(match r.file {
                RegFile::Gpr => (w * (n % 40) + 4) as u8,
                RegFile::Uniform => (2 * (n % 20) + 4) as u8,
                _ => (n % 6) as u8,
            });
        }
    };
    let scratch = std::env::temp_dir().join(format!("ptx2sass-select-oracle-{}.bin", std::process::id()));
    let mut failures = Vec::new();
    let mut checked = 0;
    for sm in SMS {
        let sm = Sm::new(sm);
        let mut insts: Vec<MInst> = Vec::new();
        for f in &functions {
            let m = select_function(&for_sm(f, sm.number), sm).unwrap_or_else(|e| panic!("{e}"));
            for block in &m.blocks {
                for mi in &block.insts {
                    let (super::MachKind::Inst(i) | super::MachKind::Branch { inst: i, .. } | super::MachKind::Call { inst: i, .. }) = &mi.kind else { continue };
                    let mut i = i.clone();
                    let width = |r: &Reg| match r.num {
                        RegNum::Virt(n) => m.vregs.get(n.get() as usize).map_or(1, |t| t.regs()),
                        _ => 1,
                    };
                    for op in i.operands.iter_mut() {
                        match op {
                            Operand::Reg { reg, .. } => phys(reg, width(&reg.clone())),
                            Operand::Mem(mem) => {
                                // The base by its value's width; a uniform register (the descriptor) is a pair.
                                *mem = mem
                                    .map_regs(|mut r| {
                                        let w = if r.file == RegFile::Uniform { 2 } else { width(&r) };
                                        phys(&mut r, w);
                                        Ok::<_, ()>(r.num)
                                    })
                                    .unwrap_or(*mem);
                            }
                            Operand::ConstAddr { index, .. } => phys(index, 1),
                            _ => {}
                        }
                    }
                    phys(&mut i.guard.0, 1);
                    i.ctrl = Ctrl::NONE.with_stall(1).with_yield(true);
                    insts.push(i);
                }
            }
        }
        let mut words = Vec::new();
        for i in &insts {
            match i.encode(sm) {
                Ok(w) => words.push(w),
                Err(e) => failures.push(format!("{sm} `{}` does not encode: {}", i.text(sm, 0), e.0)),
            }
        }
        if words.len() != insts.len() {
            continue;
        }
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        std::fs::write(&scratch, bytes).expect("scratch file");
        let out = std::process::Command::new(&nvdisasm).arg("-b").arg(nvdisasm_name(sm)).arg("-hex").arg(&scratch).output().expect("run nvdisasm");
        let listing = String::from_utf8_lossy(&out.stdout);
        let mut texts = vec![None; insts.len()];
        for l in listing.lines() {
            let Some(rest) = l.trim_start().strip_prefix("/*") else { continue };
            let Some((address, rest)) = rest.split_once("*/") else { continue };
            let Some(at) = rest.rfind("/* 0x") else { continue };
            if let Some(t) = usize::from_str_radix(address, 16).ok().and_then(|a| texts.get_mut(a / 16)) {
                *t = Some(rest[..at].trim().to_string());
            }
        }
        for (k, (i, theirs)) in insts.iter().zip(texts).enumerate() {
            let ours = i.text(sm, 16 * k as u64);
            checked += 1;
            if theirs.as_deref() != Some(ours.as_str()) {
                failures.push(format!("{sm}: ours `{ours}`, nvdisasm `{theirs:?}` ({})", String::from_utf8_lossy(&out.stderr).trim()));
            }
        }
    }
    let _ = std::fs::remove_file(&scratch);
    assert!(checked > 50 && failures.is_empty(), "{checked} checked; {}", failures.join("\n"));
}

fn min_max_kernel() -> Function {
    kernel(|b, [p, n, m]| {
        let tid = sreg(b, SpecialReg::TidX);
        let mn = op(b, Opcode::Imnmx, Attrs::typed(DataType::U32), &[tid, n], 0, Type::R32);
        let mx = op(b, Opcode::Imnmx, Attrs { negated: true, ..Attrs::typed(DataType::S32) }, &[mn, m], 0, Type::R32);
        let four = b.iconst(Type::R32, 4);
        let w = op(b, Opcode::ImadWide, Attrs::typed(DataType::U32), &[tid, four, p], 0, Type::R64);
        let sh = op(b, Opcode::Shf, Attrs { left: true, ..Attrs::typed(DataType::U32) }, &[mx, four, mx], 0, Type::R32);
        let mut ld = InstData::new(Opcode::Ldg, Attrs { ty: Some(DataType::U32), vector: 2, ..Attrs::default() });
        ld.args = [w].into_iter().collect();
        ld.offset = 8;
        let li = b.ins(ld, &[Type::R32, Type::R32]);
        let (x, y) = (b.func.insts[li].results[0], b.func.insts[li].results[1]);
        let s = op(b, Opcode::Iadd3, Attrs::default(), &[x, y, sh], 0, Type::R32);
        let mut st = InstData::new(Opcode::Stg, Attrs { ty: Some(DataType::U32), ..Attrs::default() });
        st.args = [w, s].into_iter().collect();
        b.ins(st, &[]);
    })
}

fn float_kernel() -> Function {
    kernel(|b, [_, n, _]| {
        let tid = sreg(b, SpecialReg::TidX);
        let one = b.iconst(Type::R32, 1.0f32.to_bits() as u64);
        let x = op(b, Opcode::Fadd, Attrs { neg: 1, ..Attrs::default() }, &[tid, one], 0, Type::R32);
        let y = op(b, Opcode::Fmul, Attrs::default(), &[x, n], 0, Type::R32);
        let mut lt = Attrs::default();
        lt.cmp = Some(Cmp::Lt);
        let p = op(b, Opcode::Fsetp, lt, &[y, one], 0, Type::P);
        let z = op(b, Opcode::Fsel, Attrs::default(), &[x, y, p], 0, Type::R32);
        let r = op(b, Opcode::Mufu, Attrs { mufu: Some(crate::ir::MufuFunc::Rcp), ..Attrs::default() }, &[z], 0, Type::R32);
        let i = op(b, Opcode::F2i, Attrs { ty: Some(DataType::S32), src_ty: Some(DataType::F32), round: Some(crate::ir::Round::Rzi), ..Attrs::default() }, &[r], 0, Type::R32);
        let mut st = InstData::new(Opcode::Sts, Attrs { ty: Some(DataType::U32), ..Attrs::default() });
        st.args = [tid, i].into_iter().collect();
        b.ins(st, &[]);
    })
}

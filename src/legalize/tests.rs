//! Legalization of small functions built with the builder API, checked
//! against the instruction choices ptxas 13.5 makes for the same PTX (see
//! the comments in `isle/legalize.isle`).

use super::*;
use crate::ir::{Attrs, BoolOp, Cmp, DataType, FunctionBuilder, FunctionKind, Guard, InstData, Layer, MulMode, Opcode, Param, Space, SpecialReg, Type, Value};

const SMS: [u16; 5] = [75, 80, 90, 100, 120];

/// A kernel with one 64-bit pointer parameter whose entry block runs
/// `body` on values it loads, stores nothing and exits.
fn kernel(body: impl FnOnce(&mut FunctionBuilder, &Inputs)) -> Function {
    let mut f = Function::new("k", FunctionKind::Kernel);
    f.params.push(Param { name: "p".into(), size: 8, align: 8, offset: 0, pointer: true });
    let mut b = FunctionBuilder::new(&mut f);
    let entry = b.create_block();
    b.switch_to_block(entry);
    b.seal_block(entry);
    let ld = |b: &mut FunctionBuilder, ty: DataType, rt: Type, off: i32, addr: Option<Value>| {
        let mut a = Attrs::typed(ty);
        a.space = Some(if addr.is_some() { Space::Global } else { Space::Param });
        let mut data = InstData::new(Opcode::Ld, a);
        data.args.extend(addr);
        data.offset = off;
        b.ins_value(data, rt)
    };
    let p = ld(&mut b, DataType::U64, Type::R64, 0, None);
    let inputs = Inputs {
        p,
        x: ld(&mut b, DataType::U32, Type::R32, 0, Some(p)),
        y: ld(&mut b, DataType::U32, Type::R32, 4, Some(p)),
        z: ld(&mut b, DataType::U32, Type::R32, 8, Some(p)),
        xx: ld(&mut b, DataType::U64, Type::R64, 16, Some(p)),
        yy: ld(&mut b, DataType::U64, Type::R64, 24, Some(p)),
    };
    body(&mut b, &inputs);
    b.exit();
    b.finish();
    f
}

/// Loaded inputs: a pointer, three 32-bit and two 64-bit values.
struct Inputs {
    p: Value,
    x: Value,
    y: Value,
    z: Value,
    xx: Value,
    yy: Value,
}

/// A 32-bit store of `v` (keeps it alive, as a kernel's result).
fn store(b: &mut FunctionBuilder, i: &Inputs, v: Value) {
    let mut a = Attrs::typed(if b.func.value_type(v) == Type::R64 { DataType::U64 } else { DataType::U32 });
    a.space = Some(Space::Global);
    let mut data = InstData::new(Opcode::St, a);
    data.args.extend([i.p, v]);
    data.offset = 64;
    b.ins(data, &[]);
}

fn attrs(ty: DataType, f: impl FnOnce(&mut Attrs)) -> Attrs {
    let mut a = Attrs::typed(ty);
    f(&mut a);
    a
}

/// The legalized function's operations after the loads of the inputs, as
/// `NAME.words` (constants, register-pair plumbing, stores and the exit
/// left out), checking no PTX-layer operation remains anywhere.
fn legalized(f: &Function, sm: u16) -> Vec<String> {
    let out = legalize(f, Sm::new(sm)).unwrap_or_else(|e| panic!("sm_{sm}: {e}"));
    verified(&out, sm);
    let mut ops = Vec::new();
    for &b in &out.layout {
        for &i in &out.blocks[b].insts {
            let d = &out.insts[i];
            assert_ne!(d.opcode.layer(), Layer::Ptx, "sm_{sm}: {d:?} left");
            if matches!(d.opcode, Opcode::Iconst | Opcode::Extract | Opcode::Concat | Opcode::Exit | Opcode::Ldg | Opcode::Ldc | Opcode::Stg) {
                continue;
            }
            ops.push(format!("{}{}", d.opcode.name(), d.attrs.words()));
        }
    }
    ops
}

/// Runs the verifier at the legal stage (which also rejects PTX-layer
/// operations).
fn verified(f: &Function, sm: u16) {
    let mut m = crate::ir::Module::new(Sm::new(sm));
    m.functions.push(f.clone());
    if let Err(errors) = crate::ir::verify::verify_module(&m, crate::ir::verify::Stage::Legal) {
        let text: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
        panic!("sm_{sm}: {}", text.join("\n"));
    }
}

/// Checks the operations on every SM.
fn check_all(f: &Function, expected: &[&str]) {
    for sm in SMS {
        assert_eq!(legalized(f, sm), expected, "sm_{sm}");
    }
}

#[test]
fn add_s32_is_iadd3_with_rz() {
    // ptxas: IADD3 R0, R0, R3, RZ on every SM.
    let f = kernel(|b, i| {
        let v = b.binary(Opcode::Add, Attrs::typed(DataType::S32), i.x, i.y);
        store(b, i, v);
    });
    check_all(&f, &["IADD3"]);
}

#[test]
fn sub_s64_is_a_carry_chain() {
    // ptxas: IADD3 R2, P0, R2, -R4, RZ ; IADD3.X R3, R3, ~R5, RZ, P0, !PT.
    let f = kernel(|b, i| {
        let v = b.binary(Opcode::Sub, Attrs::typed(DataType::S64), i.xx, i.yy);
        store(b, i, v);
    });
    check_all(&f, &["IADD3.neg2", "IADD3.x.neg2"]);
    // The carry-out of the first is the carry-in of the second.
    let out = legalize(&f, Sm::new(90)).unwrap();
    let adds: Vec<&InstData> = out.insts.iter().map(|(_, d)| d).filter(|d| d.opcode == Opcode::Iadd3).collect();
    assert_eq!(adds[0].results.len(), 2);
    assert_eq!(out.value_type(adds[0].results[1]), Type::P);
    assert_eq!(adds[1].args[3], adds[0].results[1]);
}

#[test]
fn multiplies() {
    // ptxas: mul.wide.u32 -> IMAD.WIDE.U32; mul.hi.s32 -> IMAD.HI;
    // mul.lo.s64 -> IMAD, IMAD.WIDE.U32, IMAD, IADD3.
    let f = kernel(|b, i| {
        let wide = b.binary_to(Opcode::Mul, attrs(DataType::U32, |a| a.mul = Some(MulMode::Wide)), i.x, i.y, Type::R64);
        store(b, i, wide);
        let hi = b.binary(Opcode::Mul, attrs(DataType::S32, |a| a.mul = Some(MulMode::Hi)), i.x, i.y);
        store(b, i, hi);
        let lo64 = b.binary(Opcode::Mul, attrs(DataType::S64, |a| a.mul = Some(MulMode::Lo)), i.xx, i.yy);
        store(b, i, lo64);
    });
    check_all(&f, &["IMAD.WIDE.u32", "IMAD.hi.s32", "IMAD.u32", "IMAD.u32", "IMAD.WIDE.u32", "IADD3"]);
}

#[test]
fn compares_and_the_sm_120_64_bit_compare() {
    // ptxas: setp.lt.s64 -> ISETP.GE.U32.AND + ISETP.GE.AND.EX up to sm_100
    // (it inverted the condition for its consumer), ISETP.GE.S64 on sm_120.
    let f = kernel(|b, i| {
        let p = b.binary_to(Opcode::Setp, attrs(DataType::S64, |a| a.cmp = Some(Cmp::Lt)), i.xx, i.yy, Type::P);
        let q = b.binary_to(Opcode::Setp, attrs(DataType::U32, |a| a.cmp = Some(Cmp::Lo)), i.x, i.y, Type::P);
        let both = b.binary(Opcode::And, Attrs::typed(DataType::Pred), p, q);
        let v = b.op(Opcode::Selp, Attrs::typed(DataType::B32), &[i.x, i.y, both], Type::R32);
        store(b, i, v);
    });
    let pre = ["ISETP.lt.and.u32", "ISETP.lt.and.x.s32", "ISETP.lt.and.u32", "PLOP3", "SEL"];
    for sm in [75, 80, 90, 100] {
        assert_eq!(legalized(&f, sm), pre, "sm_{sm}");
    }
    assert_eq!(legalized(&f, 120), ["ISETP.lt.and.s64", "ISETP.lt.and.u32", "PLOP3", "SEL"]);
    // and.pred's table is a & b.
    let out = legalize(&f, Sm::new(80)).unwrap();
    let plop = out.insts.iter().find(|(_, d)| d.opcode == Opcode::Plop3).unwrap().1;
    assert_eq!(plop.imm, 0xc0);
}

#[test]
fn combining_compare_keeps_its_negated_predicate() {
    // ptxas: setp.gt.or.s32 p, a, b, !q -> ISETP.GT.OR P0, PT, R0, R3, P0
    // with q's compare inverted: the negation lives on the combine operand.
    let f = kernel(|b, i| {
        let q = b.binary_to(Opcode::Setp, attrs(DataType::S32, |a| a.cmp = Some(Cmp::Lt)), i.z, i.y, Type::P);
        let a = attrs(DataType::S32, |a| {
            a.cmp = Some(Cmp::Gt);
            a.combine = Some(BoolOp::Or);
            a.negated = true;
        });
        let p = b.op(Opcode::Setp, a, &[i.x, i.y, q], Type::P);
        let v = b.op(Opcode::Selp, Attrs::typed(DataType::B32), &[i.x, i.y, p], Type::R32);
        store(b, i, v);
    });
    check_all(&f, &["ISETP.lt.and.s32", "ISETP.gt.or.not.s32", "SEL"]);
}

#[test]
fn min_max_by_generation() {
    // ptxas: min.s32 -> IMNMX (sm_75/80), VIMNMX (sm_90+).
    let f = kernel(|b, i| {
        let v = b.binary(Opcode::Min, Attrs::typed(DataType::S32), i.x, i.y);
        store(b, i, v);
    });
    assert_eq!(legalized(&f, 75), ["IMNMX.s32"]);
    assert_eq!(legalized(&f, 80), ["IMNMX.s32"]);
    for sm in [90, 100, 120] {
        assert_eq!(legalized(&f, sm), ["VIMNMX.s32"], "sm_{sm}");
    }
}

#[test]
fn conversions() {
    // ptxas: cvt.rn.f32.s32 -> I2F (sm_75/80), I2FP.F32.S32 (sm_90+);
    // cvt.s64.s32 -> SHF.R.S32.HI; cvt.s32.s8 -> PRMT 0x8880;
    // cvt.rzi.s32.f32 -> F2I.TRUNC.NTZ; cvt.u32.u64 -> nothing.
    let f = kernel(|b, i| {
        let cvt = |from: DataType, to: DataType, round: Option<crate::ir::Round>| {
            let mut a = Attrs::typed(to);
            a.src_ty = Some(from);
            a.round = round;
            a
        };
        let fl = b.unary(Opcode::Cvt, cvt(DataType::S32, DataType::F32, Some(crate::ir::Round::Rn)), i.x);
        store(b, i, fl);
        let wide = b.unary_to(Opcode::Cvt, cvt(DataType::S32, DataType::S64, None), i.x, Type::R64);
        store(b, i, wide);
        let byte = b.unary(Opcode::Cvt, cvt(DataType::S8, DataType::S32, None), i.y);
        store(b, i, byte);
        let int = b.unary(Opcode::Cvt, cvt(DataType::F32, DataType::S32, Some(crate::ir::Round::Rzi)), fl);
        store(b, i, int);
        let narrow = b.unary_to(Opcode::Cvt, cvt(DataType::U64, DataType::U32, None), i.xx, Type::R32);
        store(b, i, narrow);
    });
    let tail = ["SHF.hi.s32", "PRMT", "F2I.rzi.s32.f32"];
    let mut old = vec!["I2F.rn.f32.s32"];
    old.extend(tail);
    let mut new = vec!["I2FP.rn.f32.s32"];
    new.extend(tail);
    assert_eq!(legalized(&f, 75), old);
    assert_eq!(legalized(&f, 80), old);
    for sm in [90, 100, 120] {
        assert_eq!(legalized(&f, sm), new, "sm_{sm}");
    }
}

#[test]
fn kernel_parameters_come_from_the_sms_parameter_base() {
    // ptxas reads the first parameter at c[0x0][0x160] (sm_75/80),
    // c[0x0][0x210] (sm_90), c[0x0][0x380] (sm_100/120).
    let f = kernel(|_, _| {});
    for (sm, base) in [(75, 0x160), (80, 0x160), (90, 0x210), (100, 0x380), (120, 0x380)] {
        let out = legalize(&f, Sm::new(sm)).unwrap();
        let ldc = out.insts.iter().find(|(_, d)| d.opcode == Opcode::Ldc).unwrap().1;
        assert_eq!((ldc.imm, ldc.offset, ldc.args.len()), (0, base, 0), "sm_{sm}");
        assert_eq!(out.value_type(ldc.results[0]), Type::R64);
    }
}

#[test]
fn special_registers() {
    // ptxas: %tid.x -> S2R SR_TID.X (0x21); %clock64 -> CS2R SR_CLOCKLO (0x50).
    let f = kernel(|b, i| {
        let mut a = Attrs::default();
        a.sreg = Some(SpecialReg::TidX);
        let t = b.ins_value(InstData::new(Opcode::Sreg, a), Type::R32);
        store(b, i, t);
        a.sreg = Some(SpecialReg::Clock64);
        let c = b.ins_value(InstData::new(Opcode::Sreg, a), Type::R64);
        store(b, i, c);
    });
    check_all(&f, &["S2R.tid_x", "CS2R.clock64"]);
    let out = legalize(&f, Sm::new(90)).unwrap();
    let imms: Vec<u64> = out.insts.iter().filter(|(_, d)| matches!(d.opcode, Opcode::S2r | Opcode::Cs2r)).map(|(_, d)| d.imm).collect();
    assert_eq!(imms, [0x21, 0x50]);
}

#[test]
fn a_guarded_single_instruction_stays_guarded() {
    // ptxas predicates the instruction itself: @P0 IADD3.
    let f = kernel(|b, i| {
        let p = b.binary_to(Opcode::Setp, attrs(DataType::S32, |a| a.cmp = Some(Cmp::Lt)), i.z, i.y, Type::P);
        let v = b.binary(Opcode::Add, Attrs::typed(DataType::S32), i.x, i.y);
        let inst = b.func.value_inst(v).unwrap();
        b.set_guard(inst, Guard { pred: p, negated: false }, &[i.z]);
        store(b, i, v);
    });
    let out = legalize(&f, Sm::new(80)).unwrap();
    let add = out.insts.iter().find(|(_, d)| d.opcode == Opcode::Iadd3).unwrap().1;
    assert!(add.guard.is_some());
    assert_eq!(add.prior.len(), 1);
    assert_eq!(legalized(&f, 80), ["ISETP.lt.and.s32", "IADD3"]);
}

#[test]
fn a_guarded_expansion_is_merged_and_a_guarded_store_stays_guarded() {
    // @p add.s64 is two adds computed unconditionally, then two SELs pick
    // new or prior words; @p st.global keeps its guard.
    let f = kernel(|b, i| {
        let p = b.binary_to(Opcode::Setp, attrs(DataType::S32, |a| a.cmp = Some(Cmp::Lt)), i.z, i.y, Type::P);
        let v = b.binary(Opcode::Add, Attrs::typed(DataType::S64), i.xx, i.yy);
        let inst = b.func.value_inst(v).unwrap();
        b.set_guard(inst, Guard { pred: p, negated: true }, &[i.xx]);
        store(b, i, v);
        let st = *b.func.blocks[b.current_block().unwrap()].insts.last().unwrap();
        b.set_guard(st, Guard { pred: p, negated: false }, &[]);
    });
    assert_eq!(legalized(&f, 90), ["ISETP.lt.and.s32", "IADD3", "IADD3.x", "SEL", "SEL"]);
    let out = legalize(&f, Sm::new(90)).unwrap();
    for (_, d) in out.insts.iter() {
        match d.opcode {
            Opcode::Iadd3 => assert!(d.guard.is_none()),
            Opcode::Stg => assert!(d.guard.is_some()),
            _ => {}
        }
    }
}

#[test]
fn division_is_kept_whole_then_expanded_late() {
    let f = kernel(|b, i| {
        let q = b.binary(Opcode::Div, attrs(DataType::F32, |a| a.approx = true), i.x, i.y);
        store(b, i, q);
    });
    assert_eq!(legalized(&f, 90), ["FDIV.approx.f32"]);
    let late = legalize_late(&legalize(&f, Sm::new(90)).unwrap(), Sm::new(90)).unwrap();
    let ops: Vec<Opcode> = late.insts.iter().map(|(_, d)| d.opcode).filter(|o| matches!(o, Opcode::Mufu | Opcode::Fmul | Opcode::Fdiv)).collect();
    // ptxas: div.approx.f32 -> MUFU.RCP R3, R3 ; FMUL R0, R0, R3.
    assert_eq!(ops, [Opcode::Mufu, Opcode::Fmul]);
}

#[test]
fn unsupported_operations_are_errors_naming_the_instruction() {
    let f = kernel(|b, i| {
        let h = b.binary(Opcode::Copysign, Attrs::typed(DataType::F16), i.x, i.y);
        store(b, i, h);
    });
    let err = legalize(&f, Sm::new(90)).unwrap_err();
    assert_eq!(err.op, "copysign.f16");
    assert!(err.to_string().contains("no legalization rule for copysign.f16 on sm_90"), "{err}");
    // A pseudo operation of a type no late rule takes (built directly:
    // early legalization makes none).
    let g = kernel(|b, i| {
        let q = b.binary(Opcode::Fdiv, attrs(DataType::F16, |a| a.round = Some(crate::ir::Round::Rn)), i.x, i.y);
        store(b, i, q);
    });
    let err = legalize_late(&g, Sm::new(80)).unwrap_err();
    assert!(err.to_string().contains("no late legalization rule for FDIV.rn.f16 on sm_80"), "{err}");
}

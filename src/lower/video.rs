//! The video instructions (PTX ISA, "Scalar Video Instructions" and "SIMD
//! Video Instructions"), lowered to PTX-layer integer operations as
//! ptxas expands them (no video instruction survives on sm_75+ except
//! `VABSDIFF4`: `vabsdiff4.u32.u32.u32{.add}` is one `vabsdiff4`/`sad4`
//! operation, which legalization makes VABSDIFF4 up to sm_100 and the
//! byte lanes of VIMNMX and VIADD on sm_120).
//!
//! Scalar `vadd vsub vabsdiff vmin vmax vset.dtype.atype.btype{.sat}{.op2}
//! d, a, b{, c}`: `a` and `b` extended by their types to 64 bits and
//! operated on (as ptxas does, in register pairs), clamped under `.sat`,
//! then `.add` adds `c` modulo 2^32 and `.min`/`.max` compare with `c`
//! extended by the destination type, with ptxas's departures from the PTX
//! ISA's pseudocode (`interp::ptx::video` lists them). Where 32 bits give
//! the same result the operation is 32-bit.
//!
//! SIMD `vop2`/`vop4.dtype.atype.btype{.sat}{.add} d, a, b, c` and
//! `vset2`/`vset4`: each lane (half or byte) extracted and extended by
//! PRMT, operated on in 32 bits, clamped under `.sat`, then summed into
//! `c` (`.add`) or packed back by PRMT. A source selector (`a.h01`,
//! `b.b0246`) picks lanes of `{b, a}`: one PRMT whose selector is its
//! digits, as ptxas's; a destination mask (`d.h1`, `d.b320`) sums only
//! its lanes under `.add`, and otherwise keeps `c`'s other lanes (a PRMT
//! of the whole result and `c`).
//!
//! Scalar selectors: a source's byte or half (`a.b2`, `b.h1`) extended by
//! its type (one PRMT); a destination selector (`d.b1, ..., c`) puts the
//! result's low byte or half into that lane of `c` (PRMT), where `.sat`
//! clamps the 64-bit result, compared unsigned, to the lane's largest
//! value of the destination type, as ptxas 13.5 does (a negative result
//! becomes that value). `vmad` takes source selectors.
//!
//! The shifts `vshl`/`vshr.dtype.atype.u32{.clamp,.wrap}{.op2} d, a, b{, c}`
//! work on `a` extended to 64 bits by its type: `.clamp` shifts by
//! `min(b, 32)`, `.wrap` by `b & 31`. `.add` wraps to 32 bits;
//! `.min`/`.max` compare the 64-bit shifted value with `c` extended by
//! `dtype`, in its signedness (ptxas's SHF.L.U64.HI/SHF.R.S64 and
//! ISETP.EX pairs), in 32 bits for `vshr` when `atype` and `dtype` have
//! the same signedness. `.sat` clamps bits 0-33 of the 64-bit shifted
//! value, read as a signed number, to the destination type's range (as
//! ptxas 13.5 does: it tests bits 32 and 33 alone), before the secondary
//! operation or the merge; `.min`/`.max` then compare that word
//! sign-extended with `c` extended by `dtype`.
//!
//! `vmad.dtype.atype.btype{.po}{.sat}{.shr7,.shr15} d, {-}a, {-}b, {-}c`
//! as ptxas 13.5 computes it, which departs from the PTX ISA's pseudocode
//! (`interp::ptx::video` has the semantics): `a`, `b` and `c` are
//! sign-extended whatever their types, the 64-bit `a * b + c` (`c - a*b`
//! under one of `-a`/`-b`, `a*b - c` under `-c`, plus one under `.po`) is
//! shifted right arithmetically where a type is signed or a negation is
//! written and logically otherwise, and `.sat` clamps the signed 64-bit
//! value to the `.s32` range in the first case and to `[0, 2^32 - 1]` in
//! the second.

use super::error::LowerError;
use super::function::FnLower;
use crate::ir::{Attrs, Cmp, DataType, InstData, MulMode, Opcode, Type, Value};
use crate::ptx::ast::{Instruction, Operand, OperandKind, ScalarType, VideoSelector};
use crate::ptx::modifier::{CmpOp, Modifier};
use crate::ptx::opcode::Opcode as P;

/// Whether this module lowers the instruction.
pub(super) fn handles(op: P) -> bool {
    matches!(op, P::Vshl | P::Vshr | P::Vmad) || scalar(op).is_some() || simd(op).is_some()
}

/// The operation of a scalar or SIMD video instruction.
#[derive(Clone, Copy, PartialEq, Eq)]
enum VideoOp {
    Add,
    Sub,
    Avrg,
    Absdiff,
    Min,
    Max,
    Set,
}

fn scalar(op: P) -> Option<VideoOp> {
    Some(match op {
        P::Vadd => VideoOp::Add,
        P::Vsub => VideoOp::Sub,
        P::Vabsdiff => VideoOp::Absdiff,
        P::Vmin => VideoOp::Min,
        P::Vmax => VideoOp::Max,
        P::Vset => VideoOp::Set,
        _ => return None,
    })
}

/// The operation and lane count of a SIMD video instruction.
fn simd(op: P) -> Option<(VideoOp, u32)> {
    Some(match op {
        P::Vadd2 => (VideoOp::Add, 2),
        P::Vsub2 => (VideoOp::Sub, 2),
        P::Vavrg2 => (VideoOp::Avrg, 2),
        P::Vabsdiff2 => (VideoOp::Absdiff, 2),
        P::Vmin2 => (VideoOp::Min, 2),
        P::Vmax2 => (VideoOp::Max, 2),
        P::Vset2 => (VideoOp::Set, 2),
        P::Vadd4 => (VideoOp::Add, 4),
        P::Vsub4 => (VideoOp::Sub, 4),
        P::Vavrg4 => (VideoOp::Avrg, 4),
        P::Vabsdiff4 => (VideoOp::Absdiff, 4),
        P::Vmin4 => (VideoOp::Min, 4),
        P::Vmax4 => (VideoOp::Max, 4),
        P::Vset4 => (VideoOp::Set, 4),
        _ => return None,
    })
}

/// The operand without its selector, the selector and whether it is
/// negated (`-a.b0`; a plain `-a` is returned as it is).
fn selected(o: &Operand) -> (Operand, Option<VideoSelector>, bool) {
    match o.kind {
        OperandKind::Selected(s, sel, neg) => (Operand { kind: OperandKind::Name(s, None), loc: o.loc }, Some(sel), neg),
        _ => (o.clone(), None, false),
    }
}

/// The PRMT selector that puts the low byte or half of its first operand
/// in lane `sel` of the second (a destination selector's merge into `c`).
fn merge_selector(sel: VideoSelector) -> u32 {
    let lane = u32::from(sel.lane(0).unwrap_or(0));
    (0..4u32).fold(0, |acc, j| {
        let from = if sel.halves {
            if j / 2 == lane { j % 2 } else { 4 + j }
        } else if j == lane {
            0
        } else {
            4 + j
        };
        acc | from << (4 * j)
    })
}

/// The modifiers of a scalar or SIMD video instruction: its types
/// (destination first; `vset` has none, and ptxas reads and compares its
/// `c` by the first source type), `.sat`, the secondary operation and
/// `vset`'s comparison.
#[derive(Clone, Copy)]
struct Form {
    d: ScalarType,
    a: ScalarType,
    b: ScalarType,
    sat: bool,
    second: Option<Secondary>,
    cmp: Option<Cmp>,
}

/// The secondary operation on the shifted value and `c`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Secondary {
    Add,
    Min,
    Max,
}

impl FnLower<'_, '_, '_> {
    /// Lowers a video instruction of this module.
    pub(super) fn video(&mut self, i: &Instruction) -> Result<(), LowerError> {
        if let Some(op) = scalar(i.opcode) {
            return self.video_scalar(i, op);
        }
        if let Some((op, lanes)) = simd(i.opcode) {
            return self.video_simd(i, op, lanes);
        }
        if i.opcode == P::Vmad {
            return self.video_mad(i);
        }
        self.video_shift(i)
    }

    /// The modifiers of `i`, or unsupported.
    fn video_form(&self, i: &Instruction, set: bool) -> Result<Form, LowerError> {
        let mut types = Vec::new();
        let (mut sat, mut second, mut cmp) = (false, None, None);
        for (m, _) in &i.modifiers {
            match m {
                Modifier::Type(t @ (ScalarType::U32 | ScalarType::S32)) => types.push(*t),
                Modifier::Sat => sat = true,
                Modifier::Cmp(c) if set => {
                    cmp = Some(match c {
                        CmpOp::Eq => Cmp::Eq,
                        CmpOp::Ne => Cmp::Ne,
                        CmpOp::Lt => Cmp::Lt,
                        CmpOp::Le => Cmp::Le,
                        CmpOp::Gt => Cmp::Gt,
                        CmpOp::Ge => Cmp::Ge,
                        _ => return Err(self.unsupported(i)),
                    })
                }
                Modifier::Word(k) => match k.spelling() {
                    ".add" => second = Some(Secondary::Add),
                    ".min" => second = Some(Secondary::Min),
                    ".max" => second = Some(Secondary::Max),
                    _ => return Err(self.unsupported(i)),
                },
                _ => return Err(self.unsupported(i)),
            }
        }
        let (d, a, b) = match (set, &types[..]) {
            (false, &[d, a, b]) => (d, a, b),
            (true, &[a, b]) if cmp.is_some() => (a, a, b),
            _ => return Err(self.unsupported(i)),
        };
        Ok(Form { d, a, b, sat, second, cmp })
    }

    /// `vop.dtype.atype.btype{.sat}{.op2} d, a{.asel}, b{.bsel}{, c}` and
    /// `vop.dtype.atype.btype{.sat} d.dsel, a{.asel}, b{.bsel}, c`.
    fn video_scalar(&mut self, i: &Instruction, op: VideoOp) -> Result<(), LowerError> {
        let mut form = self.video_form(i, op == VideoOp::Set)?;
        let m: &crate::ptx::ast::Module = self.cx.m;
        let ops = m.operands(i.operands);
        // Four operands without a secondary operation: `c` is the merge
        // target of a destination selector (unused without one).
        if ops.len() != if form.second.is_some() { 4 } else { 3 } && !(ops.len() == 4 && form.second.is_none()) {
            return Err(self.error(i.loc.span(), format!("{} takes 3 or 4 operands", i.opcode.name())));
        }
        let (d, dsel, _) = selected(&ops[0]);
        let a = self.video_source(&ops[1], form.a, 1)?;
        let b = self.video_source(&ops[2], form.b, 1)?;
        let Some(dsel) = dsel.filter(|_| ops.len() == 4) else {
            let c = match form.second {
                Some(_) => Some(self.read(&ops[3], form.d)?),
                None => None,
            };
            let r = self.video_scalar_value(i, op, &form, a, b, c)?;
            return self.write(&d, r, false);
        };
        let c = self.read(&ops[3], form.d)?;
        let r = if form.sat && op != VideoOp::Set {
            // ptxas 13.5 clamps the 64-bit value, compared unsigned, to
            // the lane's largest value of the destination type (a negative
            // value becomes it): the unclamped 64-bit value, then a
            // 64-bit unsigned minimum.
            form.sat = false;
            let wide = self.video_scalar_wide(i, op, &form, a, b)?;
            let width = if dsel.halves { 16 } else { 8 };
            let top = if form.d == ScalarType::S32 { (1u64 << (width - 1)) - 1 } else { (1u64 << width) - 1 };
            let top = self.iconst(Type::R64, top);
            let r = self.op(Opcode::Min, Attrs::typed(DataType::U64), &[wide, top], Type::R64);
            self.extract(r, 0)
        } else {
            self.video_scalar_value(i, op, &form, a, b, None)?
        };
        let d_value = self.permute(r, c, merge_selector(dsel));
        self.write(&d, d_value, false)
    }

    /// A video source: operand `o` read as `ty`, or the byte or half its
    /// selector names extended by `ty` (one PRMT). `lanes` is the
    /// instruction's lane count: a SIMD selector picks lanes of `{b, a}`
    /// and is applied by [`Self::video_simd`].
    fn video_source(&mut self, o: &Operand, ty: ScalarType, lanes: u32) -> Result<Value, LowerError> {
        let (plain, sel, _) = selected(o);
        let v = self.read(&plain, ty)?;
        match sel {
            Some(sel) if lanes == 1 => {
                let k = u32::from(sel.lane(0).unwrap_or(0));
                Ok(self.video_lane(v, k, if sel.halves { 2 } else { 4 }, ty == ScalarType::S32))
            }
            _ => Ok(v),
        }
    }

    /// The scalar operation's unclamped 64-bit value: `a` and `b` extended
    /// by their types and operated on (a destination selector's `.sat`
    /// clamps it).
    fn video_scalar_wide(&mut self, i: &Instruction, op: VideoOp, form: &Form, a: Value, b: Value) -> Result<Value, LowerError> {
        let span = i.loc.span();
        let s64 = Attrs::typed(DataType::S64);
        let x = self.coerce(a, Type::R64, form.a == ScalarType::S32, span)?;
        let y = self.coerce(b, Type::R64, form.b == ScalarType::S32, span)?;
        Ok(match self.video_arithmetic(op, s64, x, y, Type::R64) {
            Some(r) => r,
            None => self.video_set(DataType::S64, form.cmp, x, y, Type::R64),
        })
    }

    /// `x op y` for the operations that are one signed Ori operation (or
    /// two, for `absdiff`) at any width: the 64-bit scalar path and each
    /// lane share them. `None` for the operations each path does its own
    /// way (`avrg`, `set`).
    fn video_arithmetic(&mut self, op: VideoOp, attrs: Attrs, x: Value, y: Value, ty: Type) -> Option<Value> {
        Some(match op {
            VideoOp::Add => self.op(Opcode::Add, attrs, &[x, y], ty),
            VideoOp::Sub => self.op(Opcode::Sub, attrs, &[x, y], ty),
            VideoOp::Absdiff => {
                let d = self.op(Opcode::Sub, attrs, &[x, y], ty);
                self.op(Opcode::Abs, attrs, &[d], ty)
            }
            VideoOp::Min => self.op(Opcode::Min, attrs, &[x, y], ty),
            VideoOp::Max => self.op(Opcode::Max, attrs, &[x, y], ty),
            VideoOp::Avrg | VideoOp::Set => return None,
        })
    }

    /// The 32-bit result of a scalar video instruction whose sources are
    /// `a` and `b` (selected and extended) and whose secondary operand is
    /// `c`.
    fn video_scalar_value(&mut self, i: &Instruction, op: VideoOp, form: &Form, a: Value, b: Value, c: Option<Value>) -> Result<Value, LowerError> {
        let form = *form;
        let signed = |t: ScalarType| t == ScalarType::S32;
        let span = i.loc.span();
        let compares = matches!(form.second, Some(Secondary::Min | Secondary::Max));
        let in_a = |t: ScalarType| signed(t) == signed(form.a);
        // Where 32 bits give the same result: a sum or difference without
        // `.sat` (its low word, sign-extended where `c` is compared, which
        // a signed comparison of words is); a minimum, maximum or
        // comparison of two values of one signedness whose clamp and
        // comparison with `c` are in that signedness.
        let narrow = match op {
            VideoOp::Add | VideoOp::Sub => !form.sat && (!compares || signed(form.d)),
            VideoOp::Min | VideoOp::Max => in_a(form.b) && (!form.sat || in_a(form.d)) && (!compares || in_a(form.d)),
            VideoOp::Set => in_a(form.b),
            VideoOp::Absdiff | VideoOp::Avrg => false,
        };
        let u32_ = Attrs::typed(DataType::U32);
        let d = if narrow {
            let ty = if signed(form.a) { DataType::S32 } else { DataType::U32 };
            let r = match op {
                VideoOp::Add => self.op(Opcode::Add, u32_, &[a, b], Type::R32),
                VideoOp::Sub => self.op(Opcode::Sub, u32_, &[a, b], Type::R32),
                VideoOp::Min => self.op(Opcode::Min, Attrs::typed(ty), &[a, b], Type::R32),
                VideoOp::Max => self.op(Opcode::Max, Attrs::typed(ty), &[a, b], Type::R32),
                _ => self.video_set(ty, form.cmp, a, b, Type::R32),
            };
            match (form.second, c) {
                (Some(Secondary::Add), Some(c)) => self.op(Opcode::Add, u32_, &[r, c], Type::R32),
                (Some(op2), Some(c)) => {
                    let ty = if signed(form.d) { DataType::S32 } else { DataType::U32 };
                    let opcode = if op2 == Secondary::Min { Opcode::Min } else { Opcode::Max };
                    self.op(opcode, Attrs::typed(ty), &[r, c], Type::R32)
                }
                _ => r,
            }
        } else {
            let s64 = Attrs::typed(DataType::S64);
            let r = if matches!(op, VideoOp::Add | VideoOp::Sub) && !form.sat {
                // Its low word, sign-extended (compared with c below).
                let opcode = if op == VideoOp::Add { Opcode::Add } else { Opcode::Sub };
                let r = self.op(opcode, u32_, &[a, b], Type::R32);
                self.coerce(r, Type::R64, true, span)?
            } else {
                let x = self.coerce(a, Type::R64, signed(form.a), span)?;
                let y = self.coerce(b, Type::R64, signed(form.b), span)?;
                match op {
                    VideoOp::Add => self.op(Opcode::Add, s64, &[x, y], Type::R64),
                    VideoOp::Sub | VideoOp::Absdiff => {
                        let d = self.op(Opcode::Sub, s64, &[x, y], Type::R64);
                        if op == VideoOp::Absdiff { self.op(Opcode::Abs, s64, &[d], Type::R64) } else { d }
                    }
                    VideoOp::Min => self.op(Opcode::Min, s64, &[x, y], Type::R64),
                    VideoOp::Max => self.op(Opcode::Max, s64, &[x, y], Type::R64),
                    _ => self.video_set(DataType::S64, form.cmp, x, y, Type::R64),
                }
            };
            // `.sat`: a signed destination's range; an unsigned one's
            // from below only (as ptxas does; a sum or difference is its
            // low word sign-extended again).
            let r = match (form.sat, signed(form.d)) {
                (false, _) => r,
                (true, true) => {
                    let lo = self.iconst(Type::R64, i64::from(i32::MIN) as u64);
                    let hi = self.iconst(Type::R64, i32::MAX as u64);
                    let r = self.op(Opcode::Max, s64, &[r, lo], Type::R64);
                    self.op(Opcode::Min, s64, &[r, hi], Type::R64)
                }
                (true, false) => {
                    // Zero where the high word is negative (ISETP, SEL).
                    let (low, high) = (self.extract(r, 0), self.extract(r, 1));
                    let zero = self.iconst(Type::R32, 0);
                    let attrs = Attrs { ty: Some(DataType::S32), cmp: Some(Cmp::Lt), ..Attrs::default() };
                    let negative = self.op(Opcode::Setp, attrs, &[high, zero], Type::P);
                    let low = self.op(Opcode::Selp, u32_, &[zero, low, negative], Type::R32);
                    if matches!(op, VideoOp::Add | VideoOp::Sub) {
                        self.coerce(low, Type::R64, true, span)?
                    } else {
                        let high = self.op(Opcode::Selp, u32_, &[zero, high, negative], Type::R32);
                        self.concat(&[low, high])
                    }
                }
            };
            match (form.second, c) {
                (Some(Secondary::Add), Some(c)) => {
                    let low = self.extract(r, 0);
                    self.op(Opcode::Add, u32_, &[low, c], Type::R32)
                }
                (Some(op2), Some(c)) => {
                    let c = self.coerce(c, Type::R64, signed(form.d), span)?;
                    let ty = if signed(form.d) { DataType::S64 } else { DataType::U64 };
                    let opcode = if op2 == Secondary::Min { Opcode::Min } else { Opcode::Max };
                    let r = self.op(opcode, Attrs::typed(ty), &[r, c], Type::R64);
                    self.extract(r, 0)
                }
                _ => self.extract(r, 0),
            }
        };
        Ok(d)
    }

    /// 1 where `x cmp y` holds (compared as `ty`), else 0.
    fn video_set(&mut self, ty: DataType, cmp: Option<Cmp>, x: Value, y: Value, result: Type) -> Value {
        let attrs = Attrs { ty: Some(ty), cmp, ..Attrs::default() };
        let p = self.op(Opcode::Setp, attrs, &[x, y], Type::P);
        let one = self.iconst(result, 1);
        let zero = self.iconst(result, 0);
        let sel = if result == Type::R64 { DataType::U64 } else { DataType::U32 };
        self.op(Opcode::Selp, Attrs::typed(sel), &[one, zero, p], result)
    }

    /// `prmt.b32 d, a, b, sel` (the default mode).
    fn permute(&mut self, a: Value, b: Value, sel: u32) -> Value {
        let sel = self.iconst(Type::R32, u64::from(sel));
        let mut data = InstData::new(Opcode::Permute, Attrs::typed(DataType::B32));
        data.args.extend([a, b, sel]);
        let inst = self.emit(data, &[Type::R32]);
        self.b.func.insts[inst].results[0]
    }

    /// Lane `k` (a byte of four, a half of two) of `v`, extended by
    /// `signed` to 32 bits: one PRMT (a sign-replicating selector for the
    /// upper bytes, byte 4 of a zero `b` otherwise).
    fn video_lane(&mut self, v: Value, k: u32, lanes: u32, signed: bool) -> Value {
        let zero = self.iconst(Type::R32, 0);
        let sel = if lanes == 4 {
            let fill = if signed { 0x8 | k } else { 4 };
            k | fill << 4 | fill << 8 | fill << 12
        } else {
            let (lo, hi) = (2 * k, 2 * k + 1);
            let fill = if signed { 0x8 | hi } else { 4 };
            lo | hi << 4 | fill << 8 | fill << 12
        };
        self.permute(v, zero, sel)
    }

    /// The whole-word forms ptxas uses for the lanes of a SIMD addition,
    /// subtraction or (of unsigned lanes) average without `.sat` or
    /// `.add`, whose lanes' bits do not depend on the signedness; `None`
    /// for the others. `h` is each lane's top bit.
    fn video_simd_word(&mut self, op: VideoOp, lanes: u32, unsigned: bool, a: Value, b: Value) -> Option<Value> {
        let b32 = Attrs::typed(DataType::B32);
        let u32_ = Attrs::typed(DataType::U32);
        let h: u64 = if lanes == 4 { 0x8080_8080 } else { 0x8000_8000 };
        let k = |s: &mut Self, v: u64| s.iconst(Type::R32, v);
        Some(match (op, lanes) {
            // Lanes of 8 bits: the sums of the low 7 bits, their top bits
            // the top bits' sum (xor) with the carry into them.
            (VideoOp::Add, 4) => {
                let low = k(self, !h & 0xffff_ffff);
                let (x, y) = (self.op(Opcode::And, b32, &[a, low], Type::R32), self.op(Opcode::And, b32, &[b, low], Type::R32));
                let sum = self.op(Opcode::Add, u32_, &[x, y], Type::R32);
                let tops = self.op(Opcode::Xor, b32, &[a, b], Type::R32);
                let high = k(self, h);
                let tops = self.op(Opcode::And, b32, &[tops, high], Type::R32);
                self.op(Opcode::Xor, b32, &[sum, tops], Type::R32)
            }
            // (a | h) - (b & ~h) borrows nothing across lanes; the top
            // bits are then a's xor ~b's xor the borrow.
            (VideoOp::Sub, 4) => {
                let (low, high) = (k(self, !h & 0xffff_ffff), k(self, h));
                let x = self.op(Opcode::Or, b32, &[a, high], Type::R32);
                let y = self.op(Opcode::And, b32, &[b, low], Type::R32);
                let diff = self.op(Opcode::Sub, u32_, &[x, y], Type::R32);
                let nb = self.op(Opcode::Not, b32, &[b], Type::R32);
                let tops = self.op(Opcode::Xor, b32, &[a, nb], Type::R32);
                let tops = self.op(Opcode::And, b32, &[tops, high], Type::R32);
                self.op(Opcode::Xor, b32, &[diff, tops], Type::R32)
            }
            // Two halves: the word's sum less the carry out of the low
            // half (bit 16 of a ^ b ^ sum); its difference plus the borrow.
            (VideoOp::Add | VideoOp::Sub, 2) => {
                let opcode = if op == VideoOp::Add { Opcode::Add } else { Opcode::Sub };
                let r = self.op(opcode, u32_, &[a, b], Type::R32);
                let x = self.op(Opcode::Xor, b32, &[a, b], Type::R32);
                let x = self.op(Opcode::Xor, b32, &[x, r], Type::R32);
                let bit = k(self, 0x1_0000);
                let carry = self.op(Opcode::And, b32, &[x, bit], Type::R32);
                let fix = if op == VideoOp::Add { Opcode::Sub } else { Opcode::Add };
                self.op(fix, u32_, &[r, carry], Type::R32)
            }
            // Unsigned lanes: (a | b) - ((a ^ b) >> 1 within each lane),
            // the average rounded up.
            (VideoOp::Avrg, _) if unsigned => {
                let either = self.op(Opcode::Or, b32, &[a, b], Type::R32);
                let x = self.op(Opcode::Xor, b32, &[a, b], Type::R32);
                let lanes_low = k(self, if lanes == 4 { 0xfefe_fefe } else { 0xfffe_fffe });
                let x = self.op(Opcode::And, b32, &[x, lanes_low], Type::R32);
                let one = k(self, 1);
                let half = self.op(Opcode::Shr, u32_, &[x, one], Type::R32);
                self.op(Opcode::Sub, u32_, &[either, half], Type::R32)
            }
            _ => return None,
        })
    }

    /// `vop2`/`vop4.dtype.atype.btype{.sat}{.add} d, a, b, c` and
    /// `vset2`/`vset4.atype.btype.cmp{.add}`: per lane, as ptxas does
    /// (PRMT, the 32-bit operation, a clamp under `.sat`, PRMT to pack).
    fn video_simd(&mut self, i: &Instruction, op: VideoOp, lanes: u32) -> Result<(), LowerError> {
        let form = self.video_form(i, op == VideoOp::Set)?;
        if matches!(form.second, Some(Secondary::Min | Secondary::Max)) || (form.sat && form.second.is_some()) {
            return Err(self.unsupported(i));
        }
        let ops = self.operands_n(i, 4)?;
        let (d_op, mask, _) = selected(&ops[0]);
        let (a_op, asel, _) = selected(&ops[1]);
        let (b_op, bsel, _) = selected(&ops[2]);
        let a_word = self.read(&a_op, form.a)?;
        let b_word = self.read(&b_op, form.b)?;
        let c = self.read(&ops[3], form.d)?;
        // The selectors pick lanes of `{b, a}`: one PRMT each where not the
        // default (a's lanes for `a`, b's for `b`), as ptxas does.
        let a = self.video_simd_source(a_word, b_word, asel, lanes, false);
        let b = self.video_simd_source(a_word, b_word, bsel, lanes, true);
        // The lanes the destination mask writes (`.add`: sums), a bit each.
        let written = mask.map_or((1u32 << lanes) - 1, |m| m.written().iter().fold(0, |acc, &k| acc | 1 << k));
        let whole = written == (1u32 << lanes) - 1;
        if !whole && form.second != Some(Secondary::Add) {
            // The lanes left out keep `c`'s: the whole result, then a PRMT.
            let width = 4 / lanes;
            let sel = (0..4u32).fold(0, |acc, j| acc | (if written >> (j / width) & 1 != 0 { j } else { 4 + j }) << (4 * j));
            let r = self.video_simd_value(op, lanes, &form, a, b, c, written)?;
            let d = self.permute(r, c, sel);
            return self.write(&d_op, d, false);
        }
        let d = self.video_simd_value(op, lanes, &form, a, b, c, written)?;
        self.write(&d_op, d, false)
    }

    /// A SIMD source's lanes: `word` (`a`'s or `b`'s own) where `sel` is
    /// absent or the default, else the PRMT of `{b, a}` by the selector.
    fn video_simd_source(&mut self, a: Value, b: Value, sel: Option<VideoSelector>, lanes: u32, is_b: bool) -> Value {
        let prmt = |sel: VideoSelector| {
            (0..lanes as usize).fold(0u32, |acc, k| {
                let digit = u32::from(sel.lane(k).unwrap_or(0));
                if lanes == 4 { acc | digit << (4 * k) } else { acc | (2 * digit | (2 * digit + 1) << 4) << (8 * k) }
            })
        };
        // `.b7654`/`.h32` and `.b3210`/`.h10` are the same PRMTs.
        let default = if is_b { 0x7654 } else { 0x3210 };
        match sel.map(prmt) {
            Some(p) if p != default => self.permute(a, b, p),
            _ if is_b => b,
            _ => a,
        }
    }

    /// The SIMD result with the sources' lanes selected: each lane
    /// operated on, clamped under `.sat`, and packed, or summed into `c`
    /// (`.add`, the lanes of `written` only).
    #[allow(clippy::too_many_arguments)]
    fn video_simd_value(&mut self, op: VideoOp, lanes: u32, form: &Form, a: Value, b: Value, c: Value, written: u32) -> Result<Value, LowerError> {
        let form = *form;
        let signed = |t: ScalarType| t == ScalarType::S32;
        let whole = written == (1u32 << lanes) - 1;
        // Unsigned bytes' absolute differences: one operation, which
        // legalization makes ptxas's VABSDIFF4 where the SM has it.
        if whole && op == VideoOp::Absdiff && lanes == 4 && !form.sat && [form.d, form.a, form.b].iter().all(|&t| !signed(t)) {
            let d = if form.second == Some(Secondary::Add) {
                self.op(Opcode::Sad4, Attrs::typed(DataType::U32), &[a, b, c], Type::R32)
            } else {
                self.op(Opcode::Vabsdiff4, Attrs::typed(DataType::U32), &[a, b], Type::R32)
            };
            return Ok(d);
        }
        if !form.sat && form.second.is_none()
            && let Some(d) = self.video_simd_word(op, lanes, [form.d, form.a, form.b].iter().all(|&t| !signed(t)), a, b)
        {
            return Ok(d);
        }
        if whole && form.second == Some(Secondary::Add) && lanes == 4 && matches!(op, VideoOp::Add | VideoOp::Sub) {
            // c plus the sum of a's bytes plus (minus) the sum of b's: two
            // dot products with 0x01010101 (b's with -1 bytes), as ptxas.
            let ty = |t: ScalarType| Some(if signed(t) { DataType::S32 } else { DataType::U32 });
            let ones = self.iconst(Type::R32, 0x0101_0101);
            let sum_a = self.op(Opcode::Dp4a, Attrs { ty: ty(form.a), src_ty: ty(ScalarType::U32), ..Attrs::default() }, &[a, ones, c], Type::R32);
            let (weights, wty) = if op == VideoOp::Add { (ones, ScalarType::U32) } else { (self.iconst(Type::R32, 0xffff_ffff), ScalarType::S32) };
            let zero = self.iconst(Type::R32, 0);
            let sum_b = self.op(Opcode::Dp4a, Attrs { ty: ty(form.b), src_ty: ty(wty), ..Attrs::default() }, &[b, weights, zero], Type::R32);
            return Ok(self.op(Opcode::Add, Attrs::typed(DataType::U32), &[sum_a, sum_b], Type::R32));
        }
        let s32 = Attrs::typed(DataType::S32);
        let width = 32 / lanes;
        let mut results = Vec::new();
        for k in 0..lanes {
            let x = self.video_lane(a, k, lanes, signed(form.a));
            let y = self.video_lane(b, k, lanes, signed(form.b));
            let arithmetic = self.video_arithmetic(op, s32, x, y, Type::R32);
            let r = match (arithmetic, op) {
                (Some(r), _) => r,
                (None, VideoOp::Avrg) => {
                    // (s + 1 + (s >> 31)) >> 1: (s + 1) >> 1 for s >= 0,
                    // s >> 1 below.
                    let sum = self.op(Opcode::Add, s32, &[x, y], Type::R32);
                    let n31 = self.iconst(Type::R32, 31);
                    let sign = self.op(Opcode::Shr, s32, &[sum, n31], Type::R32);
                    let one = self.iconst(Type::R32, 1);
                    let up = self.op(Opcode::Add, s32, &[sum, one], Type::R32);
                    let up = self.op(Opcode::Add, s32, &[up, sign], Type::R32);
                    self.op(Opcode::Shr, s32, &[up, one], Type::R32)
                }
                (None, _) => self.video_set(DataType::S32, form.cmp, x, y, Type::R32),
            };
            let r = if form.sat {
                let (lo, hi) = if signed(form.d) { (-(1i64 << (width - 1)), (1i64 << (width - 1)) - 1) } else { (0, (1i64 << width) - 1) };
                let lo = self.iconst(Type::R32, lo as u32 as u64);
                let hi = self.iconst(Type::R32, hi as u64);
                let r = self.op(Opcode::Max, s32, &[r, lo], Type::R32);
                self.op(Opcode::Min, s32, &[r, hi], Type::R32)
            } else {
                r
            };
            results.push(r);
        }
        Ok(if form.second == Some(Secondary::Add) {
            let summed = results.iter().enumerate().filter(|(k, _)| written >> k & 1 != 0);
            summed.fold(c, |acc, (_, &r)| self.op(Opcode::Add, Attrs::typed(DataType::U32), &[acc, r], Type::R32))
        } else if lanes == 2 {
            self.permute(results[0], results[1], 0x5410)
        } else {
            let low = self.permute(results[0], results[1], 0x0040);
            let high = self.permute(results[2], results[3], 0x0040);
            self.permute(low, high, 0x5410)
        })
    }

    /// `vshl`/`vshr.dtype.atype.u32{.sat}.mode{.op2} d{.dsel}, a{.asel},
    /// b{.bsel}{, c}`.
    fn video_shift(&mut self, i: &Instruction) -> Result<(), LowerError> {
        let mut types = Vec::new();
        let (mut clamp, mut wrap, mut sat, mut second) = (false, false, false, None);
        for (m, _) in &i.modifiers {
            match m {
                Modifier::Type(t) => types.push(*t),
                Modifier::Sat => sat = true,
                Modifier::Word(k) => match k.spelling() {
                    ".clamp" => clamp = true,
                    ".wrap" => wrap = true,
                    ".add" => second = Some(Secondary::Add),
                    ".min" => second = Some(Secondary::Min),
                    ".max" => second = Some(Secondary::Max),
                    _ => return Err(self.unsupported(i)),
                },
                _ => return Err(self.unsupported(i)),
            }
        }
        let int32 = |t: ScalarType| matches!(t, ScalarType::U32 | ScalarType::S32);
        let [dty, aty, bty] = types[..] else { return Err(self.unsupported(i)) };
        if !int32(dty) || !int32(aty) || bty != ScalarType::U32 || clamp == wrap {
            return Err(self.unsupported(i));
        }
        let signed = |t: ScalarType| t == ScalarType::S32;
        let m: &crate::ptx::ast::Module = self.cx.m;
        let ops = m.operands(i.operands);
        // Four operands without a secondary operation: `c` is the merge
        // target of a destination selector (unused without one).
        if ops.len() != if second.is_some() { 4 } else { 3 } && !(ops.len() == 4 && second.is_none()) {
            return Err(self.error(i.loc.span(), format!("{} takes 3 or 4 operands", i.opcode.name())));
        }
        let (d_op, dsel, _) = selected(&ops[0]);
        let dsel = dsel.filter(|_| ops.len() == 4);
        let a = self.video_source(&ops[1], aty, 1)?;
        let mut b = self.video_source(&ops[2], bty, 1)?;
        // `.min`/`.max` compare the whole shifted value, `a` extended by
        // its type to 64 bits (ptxas 13.5: `vshl.u32.u32.u32.clamp.max`
        // of bits shifted past bit 31 compares them, SHF.L.U64.HI, with
        // `c` zero-extended), except `vshr` of `a` and `c` of one
        // signedness, whose 32-bit comparison is the same. `.sat` reads
        // bits 32-33 of the whole value.
        let compares = matches!(second, Some(Secondary::Min | Secondary::Max));
        let wide = sat || (compares && (i.opcode == P::Vshl || signed(dty) != signed(aty)));
        if wrap {
            let mask = self.iconst(Type::R32, 31);
            b = self.op(Opcode::And, Attrs::typed(DataType::B32), &[b, mask], Type::R32);
        } else if wide {
            // A 64-bit shift goes on past 32, where the 32-bit ones clamp.
            let limit = self.iconst(Type::R32, 32);
            b = self.op(Opcode::Min, Attrs::typed(DataType::U32), &[b, limit], Type::R32);
        }
        let span = i.loc.span();
        let shifted = if wide {
            let x = self.coerce(a, Type::R64, signed(aty), span)?;
            if i.opcode == P::Vshl {
                self.op(Opcode::Shl, Attrs::typed(DataType::B64), &[x, b], Type::R64)
            } else {
                let ty = if signed(aty) { DataType::S64 } else { DataType::U64 };
                self.op(Opcode::Shr, Attrs::typed(ty), &[x, b], Type::R64)
            }
        } else if i.opcode == P::Vshl {
            self.op(Opcode::Shl, Attrs::typed(DataType::B32), &[a, b], Type::R32)
        } else {
            let ty = if signed(aty) { DataType::S32 } else { DataType::U32 };
            self.op(Opcode::Shr, Attrs::typed(ty), &[a, b], Type::R32)
        };
        // `.sat` (ptxas 13.5): bits 0-33 of the shifted value as a signed
        // number, clamped to the destination type's range; what follows
        // works on the clamped word as on an unclamped 32-bit one.
        let (shifted, wide) = if sat {
            let s64 = Attrs::typed(DataType::S64);
            let n30 = self.iconst(Type::R32, 30);
            let v = self.op(Opcode::Shl, Attrs::typed(DataType::B64), &[shifted, n30], Type::R64);
            let v = self.op(Opcode::Shr, s64, &[v, n30], Type::R64);
            let (lo, hi) = if signed(dty) { (i64::from(i32::MIN) as u64, i32::MAX as u64) } else { (0, u64::from(u32::MAX)) };
            let (lo, hi) = (self.iconst(Type::R64, lo), self.iconst(Type::R64, hi));
            let v = self.op(Opcode::Max, s64, &[v, lo], Type::R64);
            let v = self.op(Opcode::Min, s64, &[v, hi], Type::R64);
            let word = self.extract(v, 0);
            // `.min`/`.max` compare the clamped word sign-extended with `c`
            // extended by `dtype` (ptxas 13.5: an unsigned clamp of 2^31
            // or more is above every `c`).
            if compares { (self.coerce(word, Type::R64, true, span)?, true) } else { (word, false) }
        } else {
            (shifted, wide)
        };
        let d = match second {
            None => {
                let r = if wide { self.extract(shifted, 0) } else { shifted };
                match dsel {
                    Some(sel) => {
                        let c = self.read(&ops[3], dty)?;
                        self.permute(r, c, merge_selector(sel))
                    }
                    None => r,
                }
            }
            Some(Secondary::Add) => {
                let c = self.read(&ops[3], dty)?;
                let r = if wide { self.extract(shifted, 0) } else { shifted };
                self.op(Opcode::Add, Attrs::typed(DataType::U32), &[r, c], Type::R32)
            }
            Some(op2) => {
                let c = self.read(&ops[3], dty)?;
                let opcode = if op2 == Secondary::Min { Opcode::Min } else { Opcode::Max };
                if wide {
                    let c = self.coerce(c, Type::R64, signed(dty), span)?;
                    let ty = if signed(dty) { DataType::S64 } else { DataType::U64 };
                    let r = self.op(opcode, Attrs::typed(ty), &[shifted, c], Type::R64);
                    self.extract(r, 0)
                } else {
                    let ty = if signed(dty) { DataType::S32 } else { DataType::U32 };
                    self.op(opcode, Attrs::typed(ty), &[shifted, c], Type::R32)
                }
            }
        };
        self.write(&d_op, d, false)
    }

    /// `vmad` (see the module documentation).
    fn video_mad(&mut self, i: &Instruction) -> Result<(), LowerError> {
        let mut types = Vec::new();
        let (mut sat, mut po, mut shift) = (false, false, 0u64);
        for (m, _) in &i.modifiers {
            match m {
                Modifier::Type(t @ (ScalarType::U32 | ScalarType::S32)) => types.push(*t),
                Modifier::Sat => sat = true,
                Modifier::Word(k) => match k.spelling() {
                    ".po" => po = true,
                    ".shr7" if shift == 0 => shift = 7,
                    ".shr15" if shift == 0 => shift = 15,
                    _ => return Err(self.unsupported(i)),
                },
                _ => return Err(self.unsupported(i)),
            }
        }
        let [_, aty, bty] = types[..] else { return Err(self.unsupported(i)) };
        let ops = self.operands_n(i, 4)?;
        // `-r`, `-r.b0`: the register (with its selector) and whether it
        // is negated.
        let plain = |o: &Operand| match o.kind {
            OperandKind::NegReg(s) => (Operand { kind: OperandKind::Name(s, None), loc: o.loc }, true),
            OperandKind::Selected(s, sel, neg) => (Operand { kind: OperandKind::Selected(s, sel, false), loc: o.loc }, neg),
            _ => (o.clone(), false),
        };
        let ((a, na), (b, nb), (c, nc)) = (plain(&ops[1]), plain(&ops[2]), plain(&ops[3]));
        // ptxas refuses a negated `c` beside a negated product, and `.po`
        // beside either (`-a, -b` negate nothing).
        if ((na ^ nb) && nc) || (po && ((na ^ nb) || nc)) {
            return Err(self.unsupported(i));
        }
        let signed = aty == ScalarType::S32 || bty == ScalarType::S32 || (na ^ nb) || nc;
        // A selected byte or half is extended by its type to the 32-bit
        // source (ptxas's PRMT), which is then used as any other.
        let a = self.video_source(&a, aty, 1)?;
        let b = self.video_source(&b, bty, 1)?;
        let c = self.read(&c, ScalarType::U32)?;
        let u32_ = Attrs::typed(DataType::U32);
        let s64 = Attrs::typed(DataType::S64);
        let span = i.loc.span();
        let d = if shift == 0 && !sat {
            // The low word alone: 32-bit arithmetic gives it.
            let p = self.op(Opcode::Mul, Attrs { ty: Some(DataType::U32), mul: Some(MulMode::Lo), ..Attrs::default() }, &[a, b], Type::R32);
            let r = if na ^ nb {
                self.op(Opcode::Sub, u32_, &[c, p], Type::R32)
            } else if nc {
                self.op(Opcode::Sub, u32_, &[p, c], Type::R32)
            } else {
                self.op(Opcode::Add, u32_, &[p, c], Type::R32)
            };
            if po {
                let one = self.iconst(Type::R32, 1);
                self.op(Opcode::Add, u32_, &[r, one], Type::R32)
            } else {
                r
            }
        } else {
            let c64 = self.coerce(c, Type::R64, true, span)?;
            let wide = Attrs { ty: Some(DataType::S32), mul: Some(MulMode::Wide), ..Attrs::default() };
            let mut r = if na ^ nb {
                let p = self.op(Opcode::Mul, wide, &[a, b], Type::R64);
                self.op(Opcode::Sub, s64, &[c64, p], Type::R64)
            } else if nc {
                let p = self.op(Opcode::Mul, wide, &[a, b], Type::R64);
                self.op(Opcode::Sub, s64, &[p, c64], Type::R64)
            } else {
                self.op(Opcode::Mad, wide, &[a, b, c64], Type::R64)
            };
            if po {
                let one = self.iconst(Type::R64, 1);
                r = self.op(Opcode::Add, s64, &[r, one], Type::R64);
            }
            if shift != 0 {
                let n = self.iconst(Type::R32, shift);
                let ty = if signed { DataType::S64 } else { DataType::U64 };
                r = self.op(Opcode::Shr, Attrs::typed(ty), &[r, n], Type::R64);
            }
            if sat {
                let (lo, hi) = if signed { (i64::from(i32::MIN) as u64, i32::MAX as u64) } else { (0, u64::from(u32::MAX)) };
                let (lo, hi) = (self.iconst(Type::R64, lo), self.iconst(Type::R64, hi));
                r = self.op(Opcode::Max, s64, &[r, lo], Type::R64);
                r = self.op(Opcode::Min, s64, &[r, hi], Type::R64);
            }
            self.extract(r, 0)
        };
        self.write(&ops[0], d, false)
    }
}

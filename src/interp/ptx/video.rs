//! The video instructions (PTX ISA, "Scalar Video Instructions" and "SIMD
//! Video Instructions"): `vadd vsub vabsdiff vmin vmax vset vshl vshr` on
//! 32-bit operands, and the two- and four-lane forms `vadd2 vsub2 vavrg2
//! vabsdiff2 vmin2 vmax2 vset2` / `vadd4 ... vset4` on halves and bytes.
//!
//! Scalar forms: `a` and `b` are extended by their types to 64 bits and
//! operated on; `.sat` clamps the result to the destination type's range;
//! then the secondary operation: `.add` adds `c` modulo 2^32, `.min`/`.max`
//! compare the 64-bit result with `c` extended by the destination type, in
//! its signedness. Where ptxas 13.5's code (sm_75 to sm_120) departs from
//! the PTX ISA's pseudocode, this follows ptxas, since that is what a GPU
//! runs: without `.sat` a sum or difference is 32 bits sign-extended (so
//! `vadd.u32.u32.u32.min` of a sum past 2^32 compares its low word);
//! `.sat` on a `.u32` destination clamps negative results to 0 and no
//! others (`vadd.u32.u32.u32.sat` of 0xffffffff and 1 is 0, not
//! 0xffffffff; a clamped sum or difference is again its low word
//! sign-extended, a clamped `vabsdiff` past 2^32 compares whole with `c`);
//! `vset`'s `c` is extended and compared by the first source type.
//! `vshl`/`vshr` shift `a`, extended to 64 bits, by `min(b, 32)`
//! (`.clamp`) or `b & 31` (`.wrap`); `.min`/`.max` compare that 64-bit
//! value with `c` (as ptxas's code does); `.sat` clamps the value's bits
//! 0-33, read as a signed number, to the destination type's range (and
//! `.min`/`.max` compare that word sign-extended).
//!
//! Selectors (ptxas 13.5's reading, which is the PTX ISA's): a scalar
//! source's `.b0`-`.b3`/`.h0`/`.h1` is that byte or half, extended by the
//! source type; a destination selector writes the result's low byte or
//! half into that lane of `c`, the rest of `c` kept, where `.sat` (other
//! than a shift's) clamps the 64-bit result, compared unsigned, to the
//! lane's largest value of the destination type instead of the type's
//! range (a negative result becomes that largest value).
//!
//! SIMD forms: lane `i` of `a` is the byte (half) of the 64-bit `{b, a}`
//! that `asel` names (`.b3210`, `.h10` by default), lane `i` of `b` the one
//! `bsel` names (`.b7654`, `.h32`), each extended by its type; `.sat`
//! clamps each lane to the destination's lane range. With `.add` the
//! lanes the mask selects are summed into `c` (modulo 2^32); otherwise the
//! selected lanes replace those of `c`. `vavrg` is `(x + y + 1) >> 1`
//! for a non-negative sum and `(x + y) >> 1` otherwise (an arithmetic
//! shift); `vset` gives 1 or 0.

use super::lower::{f, Inst, Opnd};
use crate::ptx::ast::VideoSelector;
use crate::interp::error::{ErrorKind, InterpError, Site};
use crate::ptx::ast::{ScalarType, TypeKind};
use crate::ptx::modifier::CmpOp;
use crate::ptx::opcode::Opcode;

type R<T> = Result<T, InterpError>;

fn unsupported(inst: &Inst, what: &str) -> InterpError {
    InterpError::new(ErrorKind::Unsupported, format!("{} {what}", inst.op.name())).at(Site::Ptx(inst.span))
}

fn signed(t: ScalarType) -> bool {
    t.kind() == TypeKind::Signed
}

/// Whether the interpreter runs this opcode here.
pub fn handles(op: Opcode) -> bool {
    matches!(
        op,
        Opcode::Vadd
            | Opcode::Vsub
            | Opcode::Vabsdiff
            | Opcode::Vmin
            | Opcode::Vmax
            | Opcode::Vset
            | Opcode::Vshl
            | Opcode::Vshr
            | Opcode::Vmad
            | Opcode::Vadd2
            | Opcode::Vsub2
            | Opcode::Vavrg2
            | Opcode::Vabsdiff2
            | Opcode::Vmin2
            | Opcode::Vmax2
            | Opcode::Vset2
            | Opcode::Vadd4
            | Opcode::Vsub4
            | Opcode::Vavrg4
            | Opcode::Vabsdiff4
            | Opcode::Vmin4
            | Opcode::Vmax4
            | Opcode::Vset4
    )
}

/// The integer comparison of `vset`.
fn compare(cmp: CmpOp, x: i64, y: i64) -> Option<bool> {
    Some(match cmp {
        CmpOp::Eq => x == y,
        CmpOp::Ne => x != y,
        CmpOp::Lt => x < y,
        CmpOp::Le => x <= y,
        CmpOp::Gt => x > y,
        CmpOp::Ge => x >= y,
        _ => return None,
    })
}

/// The 32-bit operands `a`, `b`, `c` as raw bits; the result's 32 bits.
pub fn eval(inst: &Inst, s: &[u64; 4]) -> R<u64> {
    let (a, b, c) = (s[0] as u32, s[1] as u32, s[2] as u32);
    let has_c = inst.ops.len() > 3;
    let r = match inst.op {
        Opcode::Vadd | Opcode::Vsub | Opcode::Vabsdiff | Opcode::Vmin | Opcode::Vmax | Opcode::Vset | Opcode::Vshl | Opcode::Vshr => {
            scalar(inst, a, b, has_c.then_some(c))?
        }
        Opcode::Vmad => mad(inst, a, b, c)?,
        _ => simd(inst, a, b, c)?,
    };
    Ok(u64::from(r))
}

/// Operand `k`'s selector or mask, if written.
fn selector(inst: &Inst, k: usize) -> Option<VideoSelector> {
    match inst.ops.get(k) {
        Some(Opnd::Selected(_, sel, _)) => Some(*sel),
        _ => None,
    }
}

/// A scalar video source: operand `k`'s value `v`, or the byte or half
/// its selector names, extended by `t` to 64 bits.
fn scalar_source(inst: &Inst, k: usize, v: u32, t: ScalarType) -> i64 {
    let Some(sel) = selector(inst, k) else {
        return if signed(t) { i64::from(v as i32) } else { i64::from(v) };
    };
    let width = if sel.halves { 16 } else { 8 };
    let x = u64::from(v >> (width * u32::from(sel.lane(0).unwrap_or(0)))) & ((1u64 << width) - 1);
    if signed(t) { super::ops::sext(x, width) } else { x as i64 }
}

/// `c` with lane `sel` (a byte or a half) replaced by the low bits of `v`.
fn merge(c: u32, v: u64, sel: VideoSelector) -> u32 {
    let width = if sel.halves { 16 } else { 8 };
    let at = width * u32::from(sel.lane(0).unwrap_or(0));
    let m = ((1u32 << width) - 1) << at;
    (c & !m) | (((v as u32) << at) & m)
}

/// `vop.dtype.atype.btype{.sat}{.op2} d, a, b{, c}` (and `vset.atype.btype.cmp`).
fn scalar(inst: &Inst, a: u32, b: u32, c: Option<u32>) -> R<u32> {
    // vset has no destination type: its result is 0 or 1, and ptxas
    // extends and compares `c` by the first source type.
    let (td, ta, tb) =
        if inst.op == Opcode::Vset { (inst.ty_at(0), inst.ty_at(0), inst.ty_at(1)) } else { (inst.ty_at(0), inst.ty_at(1), inst.ty_at(2)) };
    let ext = |v: u32, t: ScalarType| -> i64 { if signed(t) { i64::from(v as i32) } else { i64::from(v) } };
    let (x, y) = (scalar_source(inst, 1, a, ta), scalar_source(inst, 2, b, tb));
    let shift = |n: i64| -> i64 { if inst.has(f::WRAP) { n & 31 } else { n.clamp(0, 32) } };
    // Without `.sat` a sum or difference is its 32 bits, sign-extended.
    let wrapped = |v: i64| -> i64 { if inst.sat { v } else { i64::from(v as i32) } };
    let r: i64 = match inst.op {
        Opcode::Vadd => wrapped(x + y),
        Opcode::Vsub => wrapped(x - y),
        Opcode::Vabsdiff => (x - y).abs(),
        Opcode::Vmin => x.min(y),
        Opcode::Vmax => x.max(y),
        Opcode::Vset => {
            let cmp = inst.cmp.ok_or_else(|| unsupported(inst, "without a comparison"))?;
            i64::from(compare(cmp, x, y).ok_or_else(|| unsupported(inst, "comparison"))?)
        }
        // `a` extended to 64 bits and shifted by at most 32: no bit is
        // lost, and `.min`/`.max` compare the whole of it.
        Opcode::Vshl => x << shift(y),
        Opcode::Vshr => x >> shift(y),
        _ => return Err(unsupported(inst, "form")),
    };
    // A shift's `.sat` (ptxas 13.5): the shifted value's bits 0-33 as a
    // signed number, clamped to the destination type's range, then
    // merged, added or compared as an unclamped result is.
    let shift_sat = inst.sat && matches!(inst.op, Opcode::Vshl | Opcode::Vshr);
    let r = if shift_sat {
        let v = (r << 30) >> 30;
        let v = if signed(td) { v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) } else { v.clamp(0, i64::from(u32::MAX)) };
        // `.min`/`.max` compare the clamped word sign-extended (an
        // unsigned one of 2^31 or more is above every `c`).
        i64::from(v as i32)
    } else {
        r
    };
    let sat = inst.sat && !shift_sat;
    // A destination selector: `.sat` clamps the 64-bit value, compared
    // unsigned, to the lane's largest value of the destination type
    // (ptxas 13.5: a negative value becomes that largest value), and the
    // lane's bits replace those of `c`.
    if let (Some(sel), Some(c), false) = (selector(inst, 0), c, inst.has(f::ADD | f::MIN | f::MAX)) {
        let width = if sel.halves { 16 } else { 8 };
        let top = if signed(td) { (1u64 << (width - 1)) - 1 } else { (1u64 << width) - 1 };
        let v = if sat { (r as u64).min(top) } else { r as u64 };
        return Ok(merge(c, v, sel));
    }
    // ptxas's `.sat` on an unsigned destination clamps from below only;
    // a clamped sum or difference is again its low word sign-extended.
    let r = match (sat, signed(td)) {
        (false, _) => r,
        (true, true) => r.clamp(i64::from(i32::MIN), i64::from(i32::MAX)),
        (true, false) if matches!(inst.op, Opcode::Vadd | Opcode::Vsub) => i64::from(r.max(0) as i32),
        (true, false) => r.max(0),
    };
    let Some(c) = c else { return Ok(r as u32) };
    let c = ext(c, td);
    let less = |p: i64, q: i64| if signed(td) { p < q } else { (p as u64) < (q as u64) };
    Ok(if inst.has(f::ADD) {
        r.wrapping_add(c) as u32
    } else if inst.has(f::MIN) {
        (if less(c, r) { c } else { r }) as u32
    } else if inst.has(f::MAX) {
        (if less(r, c) { c } else { r }) as u32
    } else {
        // `c` without a selector or secondary operation: unused.
        r as u32
    })
}

/// `vmad.dtype.atype.btype{.po}{.sat}{.shr7,.shr15} d, {-}a, {-}b, {-}c`
/// as ptxas 13.5's code computes it on sm_75 to sm_120, not as the PTX
/// ISA's pseudocode (operands extended by their types, a 128-bit sum): `a`,
/// `b` and `c` sign-extended whatever their types; in 64 bits, the product
/// (one's complement plus one when one of `a`, `b` is negated) plus `c`
/// (one's complement plus one when negated), plus one more under `.po`;
/// shifted right by 7 or 15, arithmetically when the whole is signed (a
/// source type is `.s32` or a negation is written) and logically
/// otherwise; then `.sat` clamps the signed 64-bit value to the `.s32`
/// range (signed) or to `[0, 2^32 - 1]`.
fn mad(inst: &Inst, a: u32, b: u32, c: u32) -> R<u32> {
    let negated = |k: usize| matches!(inst.ops.get(k), Some(Opnd::NotPred(_) | Opnd::Selected(_, _, true)));
    let (na, nb, nc) = (negated(1), negated(2), negated(3));
    // A selected byte or half, extended by its type, is the 32-bit source.
    let (a, b) = (scalar_source(inst, 1, a, inst.ty_at(1)) as u32, scalar_source(inst, 2, b, inst.ty_at(2)) as u32);
    let signed_final = signed(inst.ty_at(1)) || signed(inst.ty_at(2)) || (na ^ nb) || nc;
    let ext = |v: u32| i64::from(v as i32);
    let mut product = ext(a).wrapping_mul(ext(b));
    let mut c = c;
    let mut lsb = 0;
    if inst.has(f::PO) {
        lsb = 1;
    } else if na ^ nb {
        product = !product;
        lsb = 1;
    } else if nc {
        c = !c;
        lsb = 1;
    }
    let mut r = product.wrapping_add(ext(c)).wrapping_add(lsb);
    let shift = if inst.has(f::SHR7) { 7 } else if inst.has(f::SHR15) { 15 } else { 0 };
    r = if signed_final { r >> shift } else { ((r as u64) >> shift) as i64 };
    if inst.sat {
        r = if signed_final { r.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) } else { r.clamp(0, i64::from(u32::MAX)) };
    }
    Ok(r as u32)
}

/// `vop2`/`vop4.dtype.atype.btype{.sat}{.add} d{.mask}, a{.asel},
/// b{.bsel}, c` and `vset2`/`vset4.atype.btype.cmp{.add}`.
fn simd(inst: &Inst, a: u32, b: u32, c: u32) -> R<u32> {
    let four = matches!(inst.op, Opcode::Vadd4 | Opcode::Vsub4 | Opcode::Vavrg4 | Opcode::Vabsdiff4 | Opcode::Vmin4 | Opcode::Vmax4 | Opcode::Vset4);
    let set = matches!(inst.op, Opcode::Vset2 | Opcode::Vset4);
    let (td, ta, tb) = if set { (ScalarType::U32, inst.ty_at(0), inst.ty_at(1)) } else { (inst.ty_at(0), inst.ty_at(1), inst.ty_at(2)) };
    let (lanes, width) = if four { (4usize, 8u32) } else { (2, 16) };
    let pair = (u64::from(b) << 32) | u64::from(a);
    let lane = |k: usize, t: ScalarType| -> i64 {
        let v = (pair >> (width * k as u32)) & ((1u64 << width) - 1);
        if signed(t) { super::ops::sext(v, width) } else { v as i64 }
    };
    let (lo, hi) = if signed(td) { (-(1i64 << (width - 1)), (1i64 << (width - 1)) - 1) } else { (0, (1i64 << width) - 1) };
    let mut t = [0i64; 4];
    // Lane `i` of a source: the lane of `{b, a}` its selector names (by
    // default a's lanes from `a`, b's from `b`).
    let pick = |k: usize, i: usize, default: usize| selector(inst, k).and_then(|s| s.lane(i)).map_or(default, usize::from);
    // The destination lanes written (`.add`: summed); all by default.
    let written = |i: usize| selector(inst, 0).is_none_or(|m| m.written().contains(&(i as u8)));
    for (i, ti) in t.iter_mut().enumerate().take(lanes) {
        let (x, y) = (lane(pick(1, i, i), ta), lane(pick(2, i, i + lanes), tb));
        let r = match inst.op {
            Opcode::Vadd2 | Opcode::Vadd4 => x + y,
            Opcode::Vsub2 | Opcode::Vsub4 => x - y,
            Opcode::Vavrg2 | Opcode::Vavrg4 => {
                let sum = x + y;
                if sum >= 0 { (sum + 1) >> 1 } else { sum >> 1 }
            }
            Opcode::Vabsdiff2 | Opcode::Vabsdiff4 => (x - y).abs(),
            Opcode::Vmin2 | Opcode::Vmin4 => x.min(y),
            Opcode::Vmax2 | Opcode::Vmax4 => x.max(y),
            _ => {
                let cmp = inst.cmp.ok_or_else(|| unsupported(inst, "without a comparison"))?;
                i64::from(compare(cmp, x, y).ok_or_else(|| unsupported(inst, "comparison"))?)
            }
        };
        *ti = if inst.sat { r.clamp(lo, hi) } else { r };
    }
    if inst.has(f::ADD) {
        return Ok((0..lanes).filter(|&i| written(i)).fold(c, |acc, i| acc.wrapping_add(t[i] as u32)));
    }
    // Lanes the mask leaves out keep `c`'s.
    let m = (1u32 << width).wrapping_sub(1);
    Ok((0..lanes).fold(0u32, |acc, i| {
        let v = if written(i) { t[i] as u32 } else { c >> (width * i as u32) };
        acc | (v & m) << (width * i as u32)
    }))
}

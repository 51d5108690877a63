//! The scalar video shifts `vshl`/`vshr` (PTX ISA, "Scalar Video
//! Instructions"): `vshr.dtype.atype.u32{.clamp,.wrap}{.op2} d, a, b{, c}`
//! with the secondary operation `.add`, `.min` or `.max` on `c`. Lowered
//! to PTX-layer shifts, masks, additions and min/max, as ptxas expands
//! them into SHF/IADD3/IMNMX (no video instruction on sm_75+).
//!
//! The shift works on `a` extended to 33 bits by its type: `.clamp` shifts
//! by `min(b, 32)`, which PTX's own `shl`/`shr` do (a shift count above the
//! width gives 0 or the sign), `.wrap` by `b & 31`. `.add` wraps to 32 bits;
//! `.min`/`.max` compare with `c` extended by `dtype`, exact in 32 bits for
//! `vshr` when `atype` and `dtype` have the same signedness (the other
//! mixes, `vshl` with `.min`/`.max`, `.sat` and the other video
//! instructions are reported unsupported).

use super::error::LowerError;
use super::function::FnLower;
use crate::ir::{Attrs, DataType, Opcode, Type};
use crate::ptx::ast::{Instruction, ScalarType};
use crate::ptx::modifier::Modifier;
use crate::ptx::opcode::Opcode as P;

/// Whether this module lowers the instruction.
pub(super) fn handles(op: P) -> bool {
    matches!(op, P::Vshl | P::Vshr)
}

/// The secondary operation on the shifted value and `c`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Secondary {
    Add,
    Min,
    Max,
}

impl FnLower<'_, '_, '_> {
    /// `vshl`/`vshr.dtype.atype.u32.mode[.op2] d, a, b[, c]`.
    pub(super) fn video_shift(&mut self, i: &Instruction) -> Result<(), LowerError> {
        let mut types = Vec::new();
        let (mut clamp, mut wrap, mut second) = (false, false, None);
        for (m, _) in &i.modifiers {
            match m {
                Modifier::Type(t) => types.push(*t),
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
        // `vshl` with `.min`/`.max` compares the unwrapped shifted value
        // (ptxas: `vshl.u32.u32.u32.clamp.max` of a value shifted out gives
        // the shifted bits, 0, not c): not lowered yet.
        let compares = matches!(second, Some(Secondary::Min | Secondary::Max));
        if compares && (signed(dty) != signed(aty) || i.opcode == P::Vshl) {
            return Err(self.unsupported(i));
        }
        let ops = self.operands_n(i, if second.is_some() { 4 } else { 3 })?;
        let a = self.read(&ops[1], aty)?;
        let mut b = self.read(&ops[2], bty)?;
        if wrap {
            let mask = self.iconst(Type::R32, 31);
            b = self.op(Opcode::And, Attrs::typed(DataType::B32), &[b, mask], Type::R32);
        }
        let shifted = if i.opcode == P::Vshl {
            self.op(Opcode::Shl, Attrs::typed(DataType::B32), &[a, b], Type::R32)
        } else {
            let ty = if signed(aty) { DataType::S32 } else { DataType::U32 };
            self.op(Opcode::Shr, Attrs::typed(ty), &[a, b], Type::R32)
        };
        let d = match second {
            None => shifted,
            Some(op2) => {
                let c = self.read(&ops[3], dty)?;
                let (opcode, ty) = match op2 {
                    Secondary::Add => (Opcode::Add, DataType::U32),
                    Secondary::Min => (Opcode::Min, if signed(dty) { DataType::S32 } else { DataType::U32 }),
                    Secondary::Max => (Opcode::Max, if signed(dty) { DataType::S32 } else { DataType::U32 }),
                };
                self.op(opcode, Attrs::typed(ty), &[shifted, c], Type::R32)
            }
        };
        self.write(&ops[0], d, false)
    }
}

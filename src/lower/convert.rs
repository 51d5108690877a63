//! The packing integer conversions, `cvt.pack.sat.{u8,s8}.s32.b32 d, a, b,
//! c` and `cvt.pack.sat.{u16,s16}.s32 d, a, b` (PTX ISA, `cvt.pack`): `a`
//! and `b` saturated to the lane type, `a` in the higher lane; the 8-bit
//! form keeps `c`'s low 16 bits above them. One PTX-layer `Cvt` with three
//! operands (`c` zero for the 16-bit form), `I2IP` on every SM.

use super::error::LowerError;
use super::function::FnLower;
use crate::ir::{Attrs, Type};
use crate::ptx::ast::{Instruction, ScalarType};

impl FnLower<'_, '_, '_> {
    /// `cvt.pack.sat.dtype.s32[.b32] d, a, b[, c]`.
    pub(super) fn cvt_pack(&mut self, i: &Instruction, attrs: Attrs) -> Result<(), LowerError> {
        let mut types = i.types();
        let (Some(dty), Some(sty)) = (types.next(), types.next()) else { return Err(self.unsupported(i)) };
        let byte = matches!(dty, ScalarType::U8 | ScalarType::S8);
        let half = matches!(dty, ScalarType::U16 | ScalarType::S16);
        if !attrs.sat || attrs.relu || sty != ScalarType::S32 || !(byte || half) {
            return Err(self.unsupported(i));
        }
        let ops = self.operands_n(i, if byte { 4 } else { 3 }).map_err(|_| self.unsupported(i))?;
        let a = self.read(&ops[1], sty)?;
        let b = self.read(&ops[2], sty)?;
        let c = if byte { self.read(&ops[3], ScalarType::B32)? } else { self.iconst(Type::R32, 0) };
        let v = self.op(crate::ir::Opcode::Cvt, attrs, &[a, b, c], Type::R32);
        self.write(&ops[0], v, false)
    }
}

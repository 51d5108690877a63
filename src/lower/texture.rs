//! Texture fetches: PTX `tex.{1d,2d,3d}.v4.dtype.ctype d, [t, {c..}]`
//! with a module `.texref` or a bindless 64-bit handle becomes one Ori
//! `tex` ([`TexFetch`] in its immediate) whose two results are the pairs
//! of components the hardware writes (red and green, blue and alpha).
//! How the coordinates are placed in registers is the SM's business
//! (selection).

use super::error::LowerError;
use super::function::FnLower;
use crate::ir::texture::TexFetch;
use crate::ir::{Attrs, InstData, Opcode, Type};
use crate::ptx::ast::{Instruction, OperandKind, ScalarType};

impl<'a> FnLower<'_, 'a, '_> {
    /// `tex.{1d,2d,3d}.v4.{f32,s32,u32}.{f32,s32}`: four components of a
    /// 1D, 2D or 3D texture (3D names four coordinates, the last unused,
    /// as the PTX ISA's `tex` section has it).
    pub(super) fn tex(&mut self, i: &Instruction) -> Result<(), LowerError> {
        let mut dim = None;
        let mut v4 = false;
        for (m, _) in &i.modifiers {
            match m.spelling() {
                ".1d" => dim = Some(1u8),
                ".2d" => dim = Some(2),
                ".3d" => dim = Some(3),
                ".v4" => v4 = true,
                ".f32" | ".s32" | ".u32" => {}
                _ => return Err(self.unsupported(i)),
            }
        }
        let mut types = i.types();
        let (Some(dim), true, Some(_dtype), Some(ctype)) = (dim, v4, types.next(), types.next()) else { return Err(self.unsupported(i)) };
        let int_coords = match ctype {
            ScalarType::F32 => false,
            ScalarType::S32 => true,
            _ => return Err(self.unsupported(i)),
        };
        let ops = self.cx.m.operands(i.operands);
        let [d, src] = ops else { return Err(self.unsupported(i)) };
        let (OperandKind::Vector(dlist), OperandKind::BracketList(slist)) = (&d.kind, &src.kind) else { return Err(self.unsupported(i)) };
        let dests = self.cx.m.operands(*dlist);
        let [handle, coords] = self.cx.m.operands(*slist) else { return Err(self.unsupported(i)) };
        let OperandKind::Vector(clist) = &coords.kind else { return Err(self.unsupported(i)) };
        let coords = self.cx.m.operands(*clist);
        let given = if dim == 3 { 4 } else { usize::from(dim) };
        if dests.len() != 4 || coords.len() != given {
            return Err(self.error(src.loc.span(), format!("tex.{dim}d takes 4 results and {given} coordinates")));
        }
        // The handle: a module `.texref` by name, else a 64-bit register.
        let texref = match &handle.kind {
            OperandKind::Name(s, None) => self.cx.texrefs.iter().position(|(t, _)| t == s).map(|k| k as u32),
            _ => None,
        };
        let mut data = InstData::new(Opcode::Tex, Attrs::default());
        if texref.is_none() {
            let h = self.read(handle, ScalarType::U64)?;
            data.args.push(h);
        }
        for c in &coords[..usize::from(dim)] {
            let v = self.read(c, ctype)?;
            data.args.push(v);
        }
        data.imm = TexFetch { dim, int_coords, texref, gather: None }.encode();
        let inst = self.emit(data, &[Type::R64, Type::R64]);
        let pairs = [self.b.func.insts[inst].results[0], self.b.func.insts[inst].results[1]];
        for (k, e) in dests.iter().enumerate() {
            if matches!(e.kind, OperandKind::Sink) {
                continue;
            }
            let v = self.extract(pairs[k / 2], (k % 2) as u8);
            self.write(e, v, false)?;
        }
        Ok(())
    }

    /// `tld4.{r,g,b,a}.2d.v4.{f32,s32,u32}.f32 d, [t, {x, y}]`: the component
    /// of the four texels bilinear filtering at (x, y) reads, in the PTX
    /// ISA's order (counter-clockwise from the lower left).
    pub(super) fn tld4(&mut self, i: &Instruction) -> Result<(), LowerError> {
        let mut component = None;
        let mut two_d = false;
        let mut v4 = false;
        for (m, _) in &i.modifiers {
            match m.spelling() {
                ".r" => component = Some(0u8),
                ".g" => component = Some(1),
                ".b" => component = Some(2),
                ".a" => component = Some(3),
                ".2d" => two_d = true,
                ".v4" => v4 = true,
                ".f32" | ".s32" | ".u32" => {}
                _ => return Err(self.unsupported(i)),
            }
        }
        let mut types = i.types();
        let (Some(component), true, true, Some(_dtype), Some(ScalarType::F32)) = (component, two_d, v4, types.next(), types.next()) else { return Err(self.unsupported(i)) };
        let ops = self.cx.m.operands(i.operands);
        let [d, src] = ops else { return Err(self.unsupported(i)) };
        let (OperandKind::Vector(dlist), OperandKind::BracketList(slist)) = (&d.kind, &src.kind) else { return Err(self.unsupported(i)) };
        let dests = self.cx.m.operands(*dlist);
        let [handle, coords] = self.cx.m.operands(*slist) else { return Err(self.unsupported(i)) };
        let OperandKind::Vector(clist) = &coords.kind else { return Err(self.unsupported(i)) };
        let coords = self.cx.m.operands(*clist);
        if dests.len() != 4 || coords.len() != 2 {
            return Err(self.error(src.loc.span(), "tld4.2d takes 4 results and 2 coordinates"));
        }
        let texref = match &handle.kind {
            OperandKind::Name(s, None) => self.cx.texrefs.iter().position(|(t, _)| t == s).map(|k| k as u32),
            _ => None,
        };
        let mut data = InstData::new(Opcode::Tex, Attrs::default());
        if texref.is_none() {
            let h = self.read(handle, ScalarType::U64)?;
            data.args.push(h);
        }
        for c in coords {
            let v = self.read(c, ScalarType::F32)?;
            data.args.push(v);
        }
        data.imm = TexFetch { dim: 2, int_coords: false, texref, gather: Some(component) }.encode();
        let inst = self.emit(data, &[Type::R64, Type::R64]);
        let pairs = [self.b.func.insts[inst].results[0], self.b.func.insts[inst].results[1]];
        for (k, e) in dests.iter().enumerate() {
            if matches!(e.kind, OperandKind::Sink) {
                continue;
            }
            let v = self.extract(pairs[k / 2], (k % 2) as u8);
            self.write(e, v, false)?;
        }
        Ok(())
    }
}

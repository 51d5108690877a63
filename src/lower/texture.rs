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
use crate::ptx::ast::{Instruction, Operand, OperandKind, ScalarType};

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
        let given = if dim == 3 { 4 } else { usize::from(dim) };
        let (dests, handle, coords) = self.fetch_operands(i, given, || format!("tex.{dim}d takes 4 results and {given} coordinates"))?;
        self.fetch(handle, &coords[..usize::from(dim)], ctype, dests, TexFetch { dim, int_coords, texref: None, gather: None })
    }

    /// The operands `{d0, d1, d2, d3}, [t, {c..}]` of a fetch with `given`
    /// coordinates: the results, the handle and the coordinates.
    fn fetch_operands(&self, i: &Instruction, given: usize, shape: impl FnOnce() -> String) -> Result<(&'a [Operand], &'a Operand, &'a [Operand]), LowerError> {
        let ops = self.cx.m.operands(i.operands);
        let [d, src] = ops else { return Err(self.unsupported(i)) };
        let (OperandKind::Vector(dlist), OperandKind::BracketList(slist)) = (&d.kind, &src.kind) else { return Err(self.unsupported(i)) };
        let dests = self.cx.m.operands(*dlist);
        let [handle, coords] = self.cx.m.operands(*slist) else { return Err(self.unsupported(i)) };
        let OperandKind::Vector(clist) = &coords.kind else { return Err(self.unsupported(i)) };
        let coords = self.cx.m.operands(*clist);
        if dests.len() != 4 || coords.len() != given {
            return Err(self.error(src.loc.span(), shape()));
        }
        Ok((dests, handle, coords))
    }

    /// One Ori `tex` of `fetch` (its texref filled in when the handle names
    /// one, else the handle a 64-bit register argument) at `coords`, its
    /// four components written to `dests` (sinks skipped).
    fn fetch(&mut self, handle: &Operand, coords: &[Operand], ctype: ScalarType, dests: &[Operand], mut fetch: TexFetch) -> Result<(), LowerError> {
        fetch.texref = match &handle.kind {
            OperandKind::Name(s, None) => self.cx.texrefs.iter().position(|(t, _)| t == s).map(|k| k as u32),
            _ => None,
        };
        let mut data = InstData::new(Opcode::Tex, Attrs::default());
        if fetch.texref.is_none() {
            let h = self.read(handle, ScalarType::U64)?;
            data.args.push(h);
        }
        for c in coords {
            let v = self.read(c, ctype)?;
            data.args.push(v);
        }
        data.imm = fetch.encode();
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
        let (dests, handle, coords) = self.fetch_operands(i, 2, || "tld4.2d takes 4 results and 2 coordinates".into())?;
        self.fetch(handle, coords, ScalarType::F32, dests, TexFetch { dim: 2, int_coords: false, texref: None, gather: Some(component) })
    }
}

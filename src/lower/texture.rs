//! Texture fetches: PTX `tex.{1d,2d,3d}.v4.dtype.ctype d, [t, {c..}]`
//! with a module `.texref` or a bindless 64-bit handle becomes one Ori
//! `tex` ([`TexFetch`] in its immediate) whose two results are the pairs
//! of components the hardware writes (red and green, blue and alpha).
//! How the coordinates are placed in registers is the SM's business
//! (selection).
//!
//! Surfaces: `suld.b` and `sust.b` become one Ori `suld` / `sust`
//! ([`SurfaceAccess`]) moving the elements' bytes at once; `txq` and
//! `suq` of a width, height or depth one Ori `txq` ([`HeaderQuery`]).

use super::error::LowerError;
use super::function::FnLower;
use crate::ir::texture::{HeaderQuery, SurfaceAccess, TexFetch};
use crate::ir::{Attrs, InstData, Opcode, Type, Value};
use smallvec::SmallVec;
use crate::ptx::ast::{Instruction, Operand, OperandKind, ScalarType};

impl<'a> FnLower<'_, 'a, '_> {
    /// `tex{.level}.{1d,2d,3d}.v4.{f32,s32,u32}.{f32,s32}`: four components
    /// of a 1D, 2D or 3D texture (3D names four coordinates, the last
    /// unused, as the PTX ISA's `tex` section has it); `.level` takes float
    /// coordinates and an f32 level of detail after them.
    pub(super) fn tex(&mut self, i: &Instruction) -> Result<(), LowerError> {
        let mut dim = None;
        let mut v4 = false;
        let mut level = false;
        for (m, _) in &i.modifiers {
            match m.spelling() {
                ".level" => level = true,
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
        if level && int_coords {
            return Err(self.unsupported_because(i, "tex.level takes float coordinates"));
        }
        let given = if dim == 3 { 4 } else { usize::from(dim) };
        let (dests, handle, coords, lod) = self.fetch_operands(i, given, level, || format!("tex.{dim}d takes 4 results and {given} coordinates"))?;
        self.fetch(handle, &coords[..usize::from(dim)], lod, ctype, dests, TexFetch { dim, int_coords, texref: None, gather: None, level: false })
    }

    /// The operands `{d0, d1, d2, d3}, [t, {c..}]` (and `, lod` with
    /// `level`) of a fetch with `given` coordinates: the results, the
    /// handle, the coordinates and the level of detail.
    #[allow(clippy::type_complexity)]
    fn fetch_operands(&self, i: &Instruction, given: usize, level: bool, shape: impl FnOnce() -> String) -> Result<(&'a [Operand], &'a Operand, &'a [Operand], Option<&'a Operand>), LowerError> {
        let ops = self.cx.m.operands(i.operands);
        let (d, src, lod) = match ops {
            [d, src] if !level => (d, src, None),
            [d, src, lod] if level => (d, src, Some(lod)),
            _ => return Err(self.unsupported(i)),
        };
        let (OperandKind::Vector(dlist), OperandKind::BracketList(slist)) = (&d.kind, &src.kind) else { return Err(self.unsupported(i)) };
        let dests = self.cx.m.operands(*dlist);
        let [handle, coords] = self.cx.m.operands(*slist) else { return Err(self.unsupported(i)) };
        let OperandKind::Vector(clist) = &coords.kind else { return Err(self.unsupported(i)) };
        let coords = self.cx.m.operands(*clist);
        if dests.len() != 4 || coords.len() != given {
            return Err(self.error(src.loc.span(), shape()));
        }
        Ok((dests, handle, coords, lod))
    }

    /// One Ori `tex` of `fetch` (its texref filled in when the handle names
    /// one, else the handle a 64-bit register argument) at `coords`, its
    /// four components written to `dests` (sinks skipped).
    fn fetch(&mut self, handle: &Operand, coords: &[Operand], level: Option<&Operand>, ctype: ScalarType, dests: &[Operand], mut fetch: TexFetch) -> Result<(), LowerError> {
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
        if let Some(lod) = level {
            let v = self.read(lod, ScalarType::F32)?;
            data.args.push(v);
            fetch.level = true;
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
        let (dests, handle, coords, _) = self.fetch_operands(i, 2, false, || "tld4.2d takes 4 results and 2 coordinates".into())?;
        self.fetch(handle, coords, None, ScalarType::F32, dests, TexFetch { dim: 2, int_coords: false, texref: None, gather: Some(component), level: false })
    }
}

/// A surface access's PTX geometry: the SASS number, coordinates PTX
/// names, and the order SASS takes them in (indices into PTX's list: the
/// layer of an array last).
fn surface_geometry(spelling: &str) -> Option<(u8, usize, &'static [usize])> {
    Some(match spelling {
        ".1d" => (0, 1, &[0]),
        ".a1d" => (2, 2, &[1, 0]),
        ".2d" => (3, 2, &[0, 1]),
        ".a2d" => (4, 4, &[1, 2, 0]),
        ".3d" => (5, 4, &[0, 1, 2]),
        _ => return None,
    })
}

impl<'a> FnLower<'_, 'a, '_> {
    /// `suld.b.{1d,a1d,2d,a2d,3d}{,.v2,.v4}.{b8,b16,b32,b64}.{trap,clamp,zero}
    /// d, [s, {c..}]` and `sust.b... [s, {c..}], v`: raw (`.b`) surface
    /// accesses through a `.surfref` or a bindless handle, x in bytes.
    /// The elements are moved as one access of their total size (ptxas:
    /// `suld.b.1d.v2.b8` is `SULD.D.BA.1D.U16`, `v4.b16` `.64`); sub-word
    /// elements are packed into and unpacked from 32-bit words.
    ///
    /// `sust.p.{1d,a1d,2d,a2d,3d}{,.v2,.v4}.b32.{trap,clamp,zero}`: a
    /// formatted store of one, two or four 32-bit components, x in samples
    /// (the PTX ISA's `sust`; ptxas 13.5 accepts only `.b32`).
    pub(super) fn surface(&mut self, i: &Instruction, store: bool) -> Result<(), LowerError> {
        let mut raw = false;
        let mut formatted = false;
        let mut geometry = None;
        let mut clamp = None;
        for (m, _) in &i.modifiers {
            match m.spelling() {
                ".b" => raw = true,
                ".p" if store => formatted = true,
                ".trap" => clamp = Some(2u8),
                ".clamp" => clamp = Some(1),
                ".zero" => clamp = Some(0),
                ".v2" | ".v4" => {}
                ".b8" | ".b16" | ".b32" | ".b64" => {}
                s => match surface_geometry(s) {
                    Some(g) => geometry = Some(g),
                    None => return Err(self.unsupported_because(i, "cache operators and other geometries are not supported")),
                },
            }
        }
        let elem = match i.types().next() {
            Some(ScalarType::B8) => 1u8,
            Some(ScalarType::B16) => 2,
            Some(ScalarType::B32) => 4,
            Some(ScalarType::B64) => 8,
            _ => return Err(self.unsupported(i)),
        };
        let (Some((geometry, given, order)), Some(clamp), true) = (geometry, clamp, raw != formatted) else {
            return Err(self.unsupported_because(i, "only raw (.b) surface accesses and formatted (.p) stores with a clamp mode are supported"));
        };
        if formatted && elem != 4 {
            return Err(self.unsupported_because(i, "a formatted (.p) store takes .b32 components"));
        }
        let n = i.vector().unwrap_or(1);
        let bytes = elem * n;
        let ops = self.cx.m.operands(i.operands);
        let (data, target) = match (store, ops) {
            (false, [d, t]) => (d, t),
            (true, [t, d]) => (d, t),
            _ => return Err(self.unsupported(i)),
        };
        let OperandKind::BracketList(slist) = &target.kind else { return Err(self.unsupported(i)) };
        let [handle, coords] = self.cx.m.operands(*slist) else { return Err(self.unsupported(i)) };
        let coords: &[Operand] = match &coords.kind {
            OperandKind::Vector(list) => self.cx.m.operands(*list),
            _ => std::slice::from_ref(coords),
        };
        if coords.len() != given {
            return Err(self.error(target.loc.span(), format!("this geometry takes {given} coordinates")));
        }
        let elems: &[Operand] = match &data.kind {
            OperandKind::Vector(list) => self.cx.m.operands(*list),
            _ => std::slice::from_ref(data),
        };
        if elems.len() != usize::from(n) {
            return Err(self.error(data.loc.span(), format!("{n} elements are needed")));
        }
        let surfref = match &handle.kind {
            OperandKind::Name(s, None) => self.cx.surfrefs.iter().position(|(t, _)| t == s).map(|k| k as u32),
            _ => None,
        };
        let access = SurfaceAccess { geometry, bytes, clamp, formatted, surfref };
        let opcode = if store { Opcode::Sust } else { Opcode::Suld };
        let mut inst = InstData::new(opcode, Attrs::default());
        if surfref.is_none() {
            let h = self.read(handle, ScalarType::U64)?;
            inst.args.push(h);
        }
        for &k in order {
            let v = self.read(&coords[k], ScalarType::B32)?;
            inst.args.push(v);
        }
        inst.imm = access.encode();
        let ty = match bytes {
            16 => Type::R128,
            8 => Type::R64,
            _ => Type::R32,
        };
        let elem_type = if elem == 8 { ScalarType::B64 } else { ScalarType::B32 };
        if store {
            let mut values: SmallVec<[Value; 4]> = SmallVec::new();
            for e in elems {
                let v = self.read(e, elem_type)?;
                values.push(v);
            }
            let packed = self.pack(&values, u16::from(elem) * 8);
            inst.args.push(packed);
            self.emit(inst, &[]);
        } else {
            let at = self.emit(inst, &[ty]);
            let loaded = self.b.func.insts[at].results[0];
            let parts = self.unpack(loaded, n, u16::from(elem) * 8);
            for (e, v) in elems.iter().zip(parts) {
                if matches!(e.kind, OperandKind::Sink) {
                    continue;
                }
                self.write(e, v, false)?;
            }
        }
        Ok(())
    }

    /// `txq.{width,height,depth}.b32 d, [t]` and `suq.{width,height,depth}.b32
    /// d, [s]`: one dimension of a texture's or surface's header, through a
    /// reference or a bindless handle.
    pub(super) fn header_query(&mut self, i: &Instruction, surface: bool) -> Result<(), LowerError> {
        let mut component = None;
        for (m, _) in &i.modifiers {
            match m.spelling() {
                ".width" => component = Some(0u8),
                ".height" => component = Some(1),
                ".depth" => component = Some(2),
                ".b32" => {}
                _ => return Err(self.unsupported_because(i, "only the width, height and depth are queried")),
            }
        }
        let Some(component) = component else { return Err(self.unsupported(i)) };
        let ops = self.cx.m.operands(i.operands);
        let [d, target] = ops else { return Err(self.unsupported(i)) };
        // `[t]` parses as an address whose base is the handle's register
        // or the reference.
        let named;
        let handle = match &target.kind {
            OperandKind::BracketList(list) => match self.cx.m.operands(*list) {
                [h] => h,
                _ => return Err(self.unsupported(i)),
            },
            OperandKind::Address(a) => match (a.base, a.offset) {
                (Some(s), 0) => {
                    named = Operand { kind: OperandKind::Name(s, None), loc: target.loc };
                    &named
                }
                _ => return Err(self.error(target.loc.span(), "a texture or surface handle with an offset")),
            },
            _ => target,
        };
        let reference = match &handle.kind {
            OperandKind::Name(s, None) => {
                let refs = if surface { &self.cx.surfrefs } else { &self.cx.texrefs };
                refs.iter().position(|(t, _)| t == s).map(|k| k as u32)
            }
            _ => None,
        };
        let mut inst = InstData::new(Opcode::Txq, Attrs::default());
        if reference.is_none() {
            let h = self.read(handle, ScalarType::U64)?;
            inst.args.push(h);
        }
        inst.imm = HeaderQuery { component, surface, reference }.encode();
        let at = self.emit(inst, &[Type::R32]);
        let v = self.b.func.insts[at].results[0];
        self.write(d, v, false)
    }

    /// An unsupported-instruction error that says what is missing.
    fn unsupported_because(&self, i: &Instruction, why: &str) -> LowerError {
        let mut e = self.unsupported(i);
        e.message = format!("{} ({why})", e.message);
        e
    }
}

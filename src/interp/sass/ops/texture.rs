//! Textures and surfaces: TEX, TLD, TLD4, SULD, SUST and TXQ.
//!
//! This module owns these instructions' semantics: [`TextureOp`] (their
//! executable form), their translation from a decoded `Inst` and their
//! execution on a warp.

use super::super::exec::*;
use super::super::op::*;
use crate::interp::{ErrorKind, InterpError};
use crate::isa::form::Slot;
use crate::isa::inst::Inst;
use crate::isa::op::{Mod, Op as Opcode};
use crate::isa::operand::{Operand, RegFile};

/// The executable form of one instruction of this family.
#[derive(Clone, Debug, PartialEq)]
#[allow(missing_docs)]
pub enum TextureOp {
    /// TEX / TLD: the four components of the texture whose handle `handle`
    /// holds at the first `dim` of the values in rows `a..a+na` then
    /// `b..b+nb` (the rest a level of detail, unused by point sampling
    /// without mipmaps), written to `rg`, `rg+1`, `ba`, `ba+1`; TLD4
    /// (`gather`): that component of the four texels bilinear filtering
    /// reads instead. Only the components of `mask` (bit k: component k)
    /// are written, packed in that order.
    Tex { rg: u16, ba: u16, a: u16, na: u8, b: u16, nb: u8, handle: S, dim: u8, int_coords: bool, gather: Option<u8>, mask: u8, textures: std::sync::Arc<[crate::interp::launch::Texture]> },
    /// SULD / SUST (`.D.BA`: raw bytes, x in bytes): `d` the first result
    /// register (a load) or data register (a store), `a` the coordinate
    /// tuple (x, then y, then z or the layer: `coords` words), `bytes`
    /// moved (a sub-word load extends by `signed`), the geometry as SASS
    /// numbers it and the clamp (0 `.IGN`, 1 clamp, 2 `.TRAP`).
    /// `formatted` (SUST.P): x counts samples, and the `bytes / 4`
    /// components (`.R`, `.RG`, all four) are written to the sample's
    /// 32-bit channels (a surface of `element_bytes` 4, 8 or 16: R32,
    /// RG32, RGBA32, stored unconverted); components the sample lacks are
    /// dropped (the PTX ISA's `sust.p`: "source elements that do not occur
    /// in the surface sample are ignored") and channels not given are left
    /// as they were (the ISA leaves them unpredictable).
    Surface { store: bool, d: u16, a: u16, coords: u8, bytes: u8, signed: bool, formatted: bool, geometry: u8, clamp: u8, handle: S, textures: std::sync::Arc<[crate::interp::launch::Texture]> },
    /// TXQ `TEX_HEADER_DIMENSION`: the components of `mask` (0x1 width,
    /// 0x2 height, 0x4 depth) of the bound texture's or surface's size,
    /// written to consecutive registers from `d`.
    TexQuery { d: u16, mask: u8, handle: S, textures: std::sync::Arc<[crate::interp::launch::Texture]> },
}

impl Translator<'_> {
    /// This family's executable form of the instruction `cx` describes;
    /// `None` when it is not of this family.
    pub(in super::super) fn translate_texture(&mut self, cx: &Ctx) -> Result<Option<Op>, Bad> {
        let inst = cx.inst;
        Ok(Some(match cx.opcode {
            Opcode::TEX | Opcode::TLD | Opcode::TLD4 => self.texture(inst)?,
            Opcode::SULD | Opcode::SUST => self.surface(inst)?,
            Opcode::TXQ => self.header_query(inst)?,
            _ => return Ok(None),
        }))
    }
}

impl Translator<'_> {
    /// The handle of a surface access or header query: the constant-bank
    /// word the two hex operands at `at` name (a `0x0` bank first), or the
    /// uniform or general register there.
    fn handle_at(&mut self, ops: &[Operand], at: usize, form: &crate::isa::form::Form) -> R<S> {
        match (form.slots.get(at), ops.get(at), ops.get(at + 1)) {
            (Some(Slot::Hex(_)), Some(Operand::Hex(bank)), Some(Operand::Hex(word))) => {
                let bank = u8::try_from(*bank).map_err(|_| Bad)?;
                Ok(S { r: self.rows.constant(bank_word(self.banks, bank, word.wrapping_mul(4))), m: 0 })
            }
            (_, Some(Operand::Reg { reg, .. }), _) if matches!(reg.file, RegFile::Uniform | RegFile::Gpr) => Ok(S { r: read_row(*reg).ok_or(Bad)?, m: 0 }),
            _ => Err(Bad),
        }
    }

    /// SULD and SUST by their form (see `surface_ops` in the form table):
    /// the geometry is the name's last token, the size, scope and clamp
    /// its modifiers.
    fn surface(&mut self, inst: &Inst) -> R<Op> {
        let form = inst.form;
        let ops: &[Operand] = &inst.operands;
        let store = inst.op() == Opcode::SUST;
        let toks = inst.tokens();
        let has = |m: Mod| toks.contains(&m);
        let (geometry, coords) = if has(Mod::_1D_ARRAY) {
            (2, 2)
        } else if has(Mod::_2D_ARRAY) {
            (4, 3)
        } else if has(Mod::_3D) {
            (5, 3)
        } else if has(Mod::_2D) {
            (3, 2)
        } else if has(Mod::_1D) {
            (0, 1)
        } else {
            return Err(Bad);
        };
        let formatted = has(Mod::P);
        let (bytes, signed) = if formatted {
            // The components a formatted store writes.
            (if has(Mod::R) { 4 } else if has(Mod::RG) { 8 } else { 16 }, false)
        } else if has(Mod::U8) {
            (1, false)
        } else if has(Mod::S8) {
            (1, true)
        } else if has(Mod::U16) {
            (2, false)
        } else if has(Mod::S16) {
            (2, true)
        } else if has(Mod::_64) {
            (8, false)
        } else if has(Mod::_128) {
            (16, false)
        } else {
            (4, false)
        };
        let clamp = if has(Mod::IGN) {
            0
        } else if has(Mod::TRAP) {
            2
        } else {
            1
        };
        let (d_op, a_op) = if store { (ops.get(1), ops.first()) } else { (ops.first(), ops.get(1)) };
        let d = if store {
            match d_op {
                Some(Operand::Reg { reg, .. }) => read_row(*reg).ok_or(Bad)?,
                _ => return Err(Bad),
            }
        } else {
            self.dst(d_op.ok_or(Bad)?)?
        };
        let a = match a_op {
            Some(Operand::Mem(m)) => read_row(m.base()).ok_or(Bad)?,
            _ => return Err(Bad),
        };
        let handle = self.handle_at(ops, 2, form)?;
        Ok(Op::Texture(TextureOp::Surface { store, d, a, coords, bytes, signed, formatted, geometry, clamp, handle, textures: self.textures.into() }))
    }

    /// TXQ `TEX_HEADER_DIMENSION`: the write mask is the last operand, the
    /// handle after the query.
    fn header_query(&mut self, inst: &Inst) -> R<Op> {
        let form = inst.form;
        let ops: &[Operand] = &inst.operands;
        let d = self.dst(ops.get(1).ok_or(Bad)?)?;
        let Some(Operand::Hex(mask)) = ops.last() else { return Err(Bad) };
        // `.B`: the handle's low word in the level of detail's register
        // (the level after it); else after the query.
        let handle = if inst.has(Mod::B) {
            match ops.get(2) {
                Some(Operand::Reg { reg, .. }) => S { r: read_row(*reg).ok_or(Bad)?, m: 0 },
                _ => return Err(Bad),
            }
        } else {
            self.handle_at(ops, 4, form)?
        };
        Ok(Op::Texture(TextureOp::TexQuery { d, mask: (*mask & 0xf) as u8, handle, textures: self.textures.into() }))
    }

    /// TEX and TLD by their form (see `crate::isa::table::texture`): the
    /// dimension is the modifier printed as an operand (`1D`/`2D`/`3D`), `.LL` adds a level
    /// of detail after the coordinates, `.SCR` splits the values in halves
    /// (the larger in a) and reads the handle from the constant-bank word
    /// its two hex operands name; other forms read the coordinates from a,
    /// the level from b and the handle from a uniform register.
    fn texture(&mut self, inst: &Inst) -> R<Op> {
        let form = inst.form;
        let ops: &[Operand] = &inst.operands;
        // The dimension: the modifier the fetch prints as an operand of
        // its own (the form table's texture module).
        let dims = [Mod::_1D, Mod::_2D, Mod::_3D];
        let dim = (0..ops.len()).find_map(|k| inst.operand_tokens(k).iter().find_map(|t| dims.iter().position(|d| d == t)));
        let dim = dim.map(|d| d as u8 + 1).ok_or(Bad)?;
        let lod = u8::from(inst.has(Mod::LL));
        let scr = inst.has(Mod::SCR);
        let has_b = matches!(form.slots.get(3), Some(Slot::Gpr { .. }));
        // A handle in a register (`.B` forms: no handle operand after the
        // coordinate registers): its low word the value after the
        // coordinates.
        let bound = !matches!(form.slots.get(if has_b { 4 } else { 3 }), Some(Slot::Hex(_) | Slot::Ur { .. }));
        let values = dim + u8::from(bound) + lod;
        let (na, nb) = if scr { (values.div_ceil(2), values / 2) } else { (dim, values - dim) };
        if has_b != (nb > 0) {
            return Err(Bad);
        }
        let ba = self.dst(ops.first().ok_or(Bad)?)?;
        let rg = self.dst(ops.get(1).ok_or(Bad)?)?;
        let a = read_row(match ops.get(2) {
            Some(Operand::Reg { reg, .. }) => *reg,
            _ => return Err(Bad),
        })
        .ok_or(Bad)?;
        let b = if has_b {
            match ops.get(3) {
                Some(Operand::Reg { reg, .. }) => read_row(*reg).ok_or(Bad)?,
                _ => return Err(Bad),
            }
        } else {
            RZ
        };
        let rest = &ops[if has_b { 4 } else { 3 }..];
        let handle = if bound {
            S { r: if dim < na { a + u16::from(dim) } else { b + u16::from(dim - na) }, m: 0 }
        } else if scr {
            let (Some(Operand::Hex(bank)), Some(Operand::Hex(word))) = (rest.first(), rest.get(1)) else { return Err(Bad) };
            let bank = u8::try_from(*bank).map_err(|_| Bad)?;
            S { r: self.rows.constant(bank_word(self.banks, bank, word.wrapping_mul(4))), m: 0 }
        } else {
            match rest.first() {
                Some(Operand::Reg { reg, .. }) if reg.file == RegFile::Uniform => S { r: read_row(*reg).ok_or(Bad)?, m: 0 },
                _ => return Err(Bad),
            }
        };
        let int_coords = inst.op() == Opcode::TLD;
        // TLD4's component (`.R` … `.A`): its first modifier's value (the
        // tokens do not tell `.B`, blue, from `.B`, a handle in a register).
        let gather = if inst.op() == Opcode::TLD4 {
            Some(inst.mods.first().copied().filter(|&c| c < 4).ok_or(Bad)?)
        } else {
            None
        };
        // The components written (red, green, blue, alpha in bits 0–3),
        // packed into the result pairs in that order.
        let mask = match (form.slots.last(), ops.last()) {
            (Some(Slot::Mask(_)), Some(Operand::Hex(m))) => u8::try_from(*m).map_err(|_| Bad)?,
            _ => 0xf,
        };
        Ok(Op::Texture(TextureOp::Tex { rg, ba, a, na, b, nb, handle, dim, int_coords, gather, mask, textures: self.textures.into() }))
    }
}

/// Executes `op` for the lanes of `exec` of group `gi`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(in super::super) fn exec(cta: &mut Cta, w: &mut Warp, exec: u32, op: &TextureOp, memory: &mut crate::interp::memory::GlobalMemory) -> Result<(), InterpError> {
    match *op {
        TextureOp::Tex { rg, ba, a, na, b, nb, handle, dim, int_coords, gather, mask, ref textures } => {
            for l in lanes(exec) {
                let h = w.ri(handle, l);
                let Some(t) = textures.iter().find(|t| t.spec.handle == h) else {
                    return Err(InterpError::new(ErrorKind::Launch, format!("no texture is bound to handle {h:#x} (the launch spec's \"textures\")")));
                };
                let values: smallvec::SmallVec<[u32; 4]> = (0..u16::from(na)).map(|k| w.r.get(usize::from(a + k)).map_or(0, |row| row[l])).chain((0..u16::from(nb)).map(|k| w.r.get(usize::from(b + k)).map_or(0, |row| row[l]))).collect();
                let coords = &values[..usize::from(dim).min(values.len())];
                let texel = match gather {
                    Some(c) => t.gather(coords, c),
                    None => t.fetch(coords, int_coords),
                };
                let written = (0..4).filter(|k| mask >> k & 1 == 1);
                for (k, (d, off)) in written.zip([(rg, 0u16), (rg, 1), (ba, 0), (ba, 1)]) {
                    if d != R_SINK {
                        w.set(d + off, l, texel[k]);
                    }
                }
            }
        }
        TextureOp::Surface { store, d, a, coords, bytes, signed, formatted, geometry, clamp, handle, ref textures } => {
            for l in lanes(exec) {
                let h = w.ri(handle, l);
                let Some((t, base)) = textures.iter().find_map(|t| (t.spec.handle == h).then_some(t.surface.map(|s| (t, s))).flatten()) else {
                    return Err(InterpError::new(ErrorKind::Launch, format!("no surface is bound to handle {h:#x} (the launch spec's \"textures\" with \"element_bytes\")")));
                };
                let c: smallvec::SmallVec<[i64; 3]> = (0..u16::from(coords)).map(|k| i64::from(w.r.get(usize::from(a + k)).map_or(0, |row| row[l]) as i32)).collect();
                // x in bytes, then y, then z or the layer (a 1D array's
                // layer is its z: dims [width, 1, layers]).
                let (x, y, z) = match geometry {
                    0 => (c[0], 0, 0),
                    2 => (c[0], 0, c[1]),
                    3 => (c[0], c[1], 0),
                    _ => (c[0], c[1], c[2]),
                };
                let element = i64::from(t.spec.element_bytes.unwrap_or(1));
                // Bytes moved and the unit x is clamped to: the access
                // (raw), or the components the sample has and the sample
                // (formatted: x in samples).
                let (x, n, unit) = if formatted {
                    if element < 4 {
                        return Err(InterpError::new(ErrorKind::Launch, format!("a formatted surface store (SUST.P) to a surface of {element}-byte elements (only 32-bit channels are modelled)")));
                    }
                    let n = i64::from(bytes).min(element);
                    (x.saturating_mul(element), n, element)
                } else {
                    (x, i64::from(bytes), i64::from(bytes))
                };
                let row = i64::from(t.spec.dims[0]) * element;
                let (height, depth) = (i64::from(t.spec.dims[1]), i64::from(t.spec.dims[2]));
                let inside = x >= 0 && x + n <= row && (0..height).contains(&y) && (0..depth).contains(&z);
                // Out of bounds (the PTX ISA's suld/sust): `.trap` faults,
                // `.zero` loads zero and drops a store, `.clamp` accesses
                // the nearest element in bounds.
                let at = if inside {
                    Some((x, y, z))
                } else {
                    match clamp {
                        2 => return Err(InterpError::new(ErrorKind::Memory, format!("surface access out of bounds (.trap) at x = {x} bytes, y = {y}, z = {z}"))),
                        0 => None,
                        _ => Some((x.clamp(0, (row - unit).max(0)) / unit * unit, y.clamp(0, height - 1), z.clamp(0, depth - 1))),
                    }
                };
                let address = at.map(|(x, y, z)| base.wrapping_add(((z * height + y) * row + x) as u64));
                let regs = (n as u16).div_ceil(4);
                if store {
                    if let Some(address) = address {
                        let mut buf = [0u8; 16];
                        for k in 0..regs {
                            let v = w.r.get(usize::from(d + k)).map_or(0, |row| row[l]);
                            buf[usize::from(4 * k)..usize::from(4 * k + 4)].copy_from_slice(&v.to_le_bytes());
                        }
                        write_mem(cta, memory, Space::Global, l, address, &buf[..n as usize])?;
                    }
                } else {
                    let mut buf = [0u8; 16];
                    if let Some(address) = address {
                        read_mem(cta, memory, Space::Global, l, address, &mut buf[..usize::from(bytes)])?;
                    }
                    for k in 0..regs {
                        let at = usize::from(4 * k);
                        let mut v = u32::from_le_bytes([buf[at], buf[at + 1], buf[at + 2], buf[at + 3]]);
                        if signed {
                            v = match bytes {
                                1 => v as u8 as i8 as i32 as u32,
                                _ => v as u16 as i16 as i32 as u32,
                            };
                        }
                        if d != R_SINK {
                            w.set(d + k, l, v);
                        }
                    }
                }
            }
        }
        TextureOp::TexQuery { d, mask, handle, ref textures } => {
            for l in lanes(exec) {
                let h = w.ri(handle, l);
                let Some(t) = textures.iter().find(|t| t.spec.handle == h) else {
                    return Err(InterpError::new(ErrorKind::Launch, format!("no texture or surface is bound to handle {h:#x} (the launch spec's \"textures\")")));
                };
                // The components the mask selects, in order, from `d`.
                let mut k = 0;
                for (bit, size) in t.spec.dims.iter().enumerate() {
                    if mask >> bit & 1 != 0 {
                        if d != R_SINK {
                            w.set(d + k, l, *size);
                        }
                        k += 1;
                    }
                }
            }
        }
    }
    Ok(())
}

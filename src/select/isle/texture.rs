//! Selection of texture fetches (Ori `TEX`, [`TexFetch`]), surface
//! accesses (`SULD`, `SUST`, [`SurfaceAccess`]) and header queries (`TXQ`,
//! [`HeaderQuery`]). For a fetch: the form of
//! the SM for the fetch's instruction and dimension, the coordinate
//! registers as that form takes them, and the handle where the form reads
//! it (a constant-bank word before sm_90, a uniform register pair from
//! sm_90). ptxas 13.5 on ZLUDA's `tex_read_*` kernels:
//!
//! * float coordinates fetch with TEX at the level of detail -32.0 (`.LL`,
//!   `IMAD.MOV.U32 R6, RZ, RZ, -0x3e000000`; sm_120's TEX has none), and
//!   1D as 2D with y = 0 (`TEX.SCR.LL R6, R4, R4, R6, 0x0, 0x5b, 2D` with
//!   `R5 = RZ`); integer coordinates with TLD at level zero (`.LZ`);
//! * before sm_90 the values (coordinates, then the level) are split in
//!   halves, the larger first (`TEX.SCR.LL ... R4, R6 ... 3D`: x y in R4
//!   R5, z and the level in R6 R7); from sm_90 the coordinates are one
//!   tuple and the level the other;
//! * the handle's word: `0x0, 0x5a` (bank 0, word 0x5a: `c[0x0][0x168]`)
//!   names the kernel parameter holding it; from sm_90 `ULDC UR4,
//!   c[0x0][0x218]; UMOV UR5, URZ`;
//! * a handle computed in registers (loaded from memory): before sm_90 the
//!   `.B` forms, its low word a value after the coordinates (`TEX.SCR.B.LL
//!   R10, R8, R6, R4, 2D`: x y in R6 R7, the handle and the level in R4
//!   R5); from sm_90 legalization loops over the warp's handles
//!   (`isle/legalize.isle`), and the instruction here reads the handle the
//!   loop picked, a uniform word (`@!P1 TEX.LL R10, R8, R6, R0, UR6, 0x0,
//!   2D`, the high word URZ as for a parameter).
//!
//! Every instruction is built through its typed machine struct
//! (`mach::Tex { mode, dim }`, `mach::Suld { .. }`, `mach::Txq { b }`):
//! the form is the one whose modifiers those values spell and whose slots
//! take the operands, never one found by its text.

use super::super::context::SelectCtx;
use super::super::mach::{MachKind, VReg};
use crate::ir::Type;
use crate::ir::texture::{HeaderQuery, SurfaceAccess, TexFetch};
use crate::isa::op::mach::{self, LdcuSize, SuldMode, SuldMode2, SuldScope, SustMode, SustMode2, TexDim, TexMode, TldDim, TldMode, Tld4Mode};
use crate::isa::op::{Mnemonic, Op};
use crate::isa::operand::{Operand, Reg, RegFile, SrcMods};
use smallvec::SmallVec;

/// Why a handle in general registers is refused from sm_90: legalization
/// gives the instruction the handle its loop over the warp's handles
/// picked (a uniform word) unless the handle is a kernel parameter, so
/// this is a handle legalization took for a parameter and selection does
/// not.
const REGISTER_HANDLE_FROM_SM90: &str = "a texture or surface handle in general registers on sm_90 or later that the loop over the warp's handles does not read";

/// The level of detail ptxas gives TEX.LL for PTX `tex` (-32.0).
const TEX_LOD: u32 = 0xc200_0000;

/// One 32-bit part of a coordinate tuple.
#[derive(Clone, Copy)]
enum Part {
    /// An argument of the fetch.
    Arg(crate::ir::Value),
    /// A constant, moved into a register.
    Bits(u32),
    /// A register already holding the value (a handle's low word).
    Reg(VReg),
}

/// Where the SM's texture and surface instructions read a handle that
/// is a constant-bank word (a kernel parameter, a `.texref`), as ptxas
/// 13.5 emits them.
#[derive(Clone, Copy, PartialEq, Eq)]
enum HandleAt {
    /// sm_75–sm_89: the word itself (`.SCR` fetches: its bank and word
    /// index as two hex operands).
    Bank,
    /// sm_90: a uniform register (`ULDC`), a `0x0` printed after it by
    /// every instruction.
    UniformZero,
    /// sm_100 on: a uniform register (`LDCU`); only TXQ prints the `0x0`.
    Uniform,
}

impl HandleAt {
    /// The handle's place on `sm`; `None` for an SM without tables.
    fn of(sm: crate::target::Sm) -> Option<HandleAt> {
        Some(match crate::isa::family::measured_sm(sm)? {
            ..90 => HandleAt::Bank,
            90 => HandleAt::UniformZero,
            _ => HandleAt::Uniform,
        })
    }
}

impl SelectCtx<'_> {
    /// Selects the current `TEX` instruction.
    pub(super) fn select_tex(&mut self) {
        let d = self.data();
        let Some(t) = TexFetch::decode(d.imm) else {
            return self.fail(format!("texture fetch descriptor {:#x}", d.imm));
        };
        let args: SmallVec<[crate::ir::Value; 4]> = d.args.iter().copied().collect();
        let (handle, operands) = match t.texref {
            Some(_) => (None, &args[..]),
            None => match args.split_first() {
                Some((h, rest)) => (Some(*h), rest),
                None => return self.fail("a texture fetch without a handle"),
            },
        };
        // The coordinates, then an explicit level of detail.
        let (coords, level) = match (t.level, operands.split_last()) {
            (true, Some((lod, coords))) => (coords, Some(*lod)),
            (true, None) => return self.fail("a texture fetch at a level without its level"),
            (false, _) => (operands, None),
        };
        let Some(at) = HandleAt::of(self.sm) else { return self.fail("an SM without forms") };
        let picked = handle.filter(|&h| self.picked_handle(h));
        // The byte offset in constant bank 0 of the handle's word; `None`
        // for a handle computed in registers, which the `.B` forms read
        // before sm_90, and for one the loop over the handles picked.
        let handle_offset = match (t.texref, handle) {
            (Some(k), _) => match crate::ir::texture::texref_slot(self.sm, self.func, k) {
                Some(at) => Some(at),
                None => return self.fail("a texref fetch the function's texrefs do not list"),
            },
            (None, Some(_)) if picked.is_some() => None,
            (None, Some(h)) => match self.param(h) {
                Some((off, _)) => Some(off),
                None if at == HandleAt::Bank => None,
                None => return self.fail(REGISTER_HANDLE_FROM_SM90),
            },
            (None, None) => return self.fail("a texture fetch without a handle"),
        };
        let scr = at == HandleAt::Bank;
        let bound = handle_offset.is_none() && picked.is_none();
        // Float coordinates fetch 1D as 2D (y = 0).
        let dim = if !t.int_coords && t.dim == 1 { 2 } else { t.dim };
        // The mnemonic, whether it takes a level of detail (TEX's `.LL`,
        // none on sm_120 but for `tex.level`: `TEX R4, R2, R4, UR4, 2D`,
        // `TEX.LL RZ, R5, R4, R0, UR4, 2D, 0x8`; TLD's `.LZ` and
        // TLD4's none are in no register), and whether the values split in
        // halves (the `.SCR` forms; TEX 3D with a handle in a register is
        // `TEX.B.LL`, which does not split).
        let (mnemonic, lod, split) = match (t.gather, t.int_coords) {
            (Some(c), _) => {
                let component = [Tld4Mode::R, Tld4Mode::G, Tld4Mode::B, Tld4Mode::A];
                let (Some(&mode), 2) = (component.get(usize::from(c)), dim) else { return self.fail(format!("a gather of component {c} of a {dim}D texture")) };
                (mach::Tld4 { scr, mode, b: bound }.mnemonic(), false, scr)
            }
            (None, true) => {
                let Some(&dim) = [TldDim::_1D, TldDim::_2D, TldDim::_3D].get(usize::from(dim).wrapping_sub(1)) else { return self.fail(format!("a {dim}D texel fetch")) };
                let mode = if bound { TldMode::SCR_B_LZ } else if scr { TldMode::SCR_LZ } else { TldMode::LZ };
                (mach::Tld { mode, dim }.mnemonic(), false, scr)
            }
            (None, false) => {
                let tex_dim = match dim {
                    2 => TexDim::_2D,
                    3 => TexDim::_3D,
                    _ => return self.fail(format!("a {dim}D texture fetch")),
                };
                let sm120 = crate::isa::family::measured_sm(self.sm) == Some(120);
                let mode = match (bound, scr) {
                    // ptxas's 3D fetch of a handle in a register is
                    // `TEX.B.LL` (coordinates in a, handle and level in b),
                    // which the form table does not have.
                    (true, _) if dim == 3 => return self.fail("a 3D texture fetch whose handle is computed in registers (TEX.B.LL) is not supported"),
                    (true, _) => TexMode::SCR_B_LL,
                    (false, true) => TexMode::SCR_LL,
                    (false, false) if sm120 && level.is_none() => TexMode::None,
                    (false, false) => TexMode::LL,
                };
                (mach::Tex { mode, dim: tex_dim }.mnemonic(), mode != TexMode::None, matches!(mode, TexMode::SCR_LL | TexMode::SCR_B_LL))
            }
        };
        let mut values: SmallVec<[Part; 4]> = coords.iter().map(|&v| Part::Arg(v)).collect();
        if usize::from(dim) > values.len() {
            values.push(Part::Bits(0));
        }
        let coords_len = values.len();
        if let (true, Some(h)) = (bound, handle) {
            values.push(Part::Reg(self.handle_low_word(h)));
        }
        match (lod, level) {
            (true, Some(v)) => values.push(Part::Arg(v)),
            (true, None) => values.push(Part::Bits(TEX_LOD)),
            (false, Some(_)) => return self.fail("a texture fetch at a level by an instruction without one"),
            (false, None) => {}
        }
        let at_b = if split { values.len().div_ceil(2) } else { coords_len };
        let (a, b) = values.split_at(at_b);
        let a = self.tex_tuple(a);
        let b = if b.is_empty() { None } else { Some(self.tex_tuple(b)) };
        let handle_ur = match (handle_offset, picked) {
            (Some(offset), _) if !scr => Some(self.tex_uniform_handle(offset)),
            (None, Some(h)) => Some(self.picked_pair(h)),
            _ => None,
        };
        let mut ops: SmallVec<[Operand; 8]> = SmallVec::new();
        ops.push(self.result(1, Operand::reg(Reg::zero(RegFile::Gpr))));
        ops.push(self.result(0, Operand::reg(Reg::zero(RegFile::Gpr))));
        ops.push(Operand::reg(self.reg_of(a)));
        if let Some(b) = b {
            ops.push(Operand::reg(self.reg_of(b)));
        }
        match (handle_ur, handle_offset) {
            (Some(ur), _) => {
                ops.push(Operand::reg(self.reg_of(ur)));
                if at == HandleAt::UniformZero {
                    ops.push(Operand::Hex(0));
                }
            }
            (None, Some(offset)) => ops.extend([Operand::Hex(0), Operand::Hex(offset / 4)]),
            (None, None) => {}
        }
        // The dimension's operand (its text is the modifier's).
        ops.push(Operand::Hex(0));
        self.emit(mnemonic, &ops);
    }

    /// A register tuple holding `parts` (three take an aligned quad, the
    /// fourth register unused).
    fn tex_tuple(&mut self, parts: &[Part]) -> VReg {
        let mut regs: SmallVec<[VReg; 4]> = SmallVec::new();
        for &p in parts {
            regs.push(match p {
                Part::Arg(v) => {
                    self.use_value(v);
                    self.vreg(v)
                }
                Part::Bits(bits) => self.tex_constant(bits),
                Part::Reg(r) => r,
            });
        }
        if regs.len() == 1 {
            return regs[0];
        }
        if regs.len() == 3 {
            let pad = self.tex_constant(0);
            regs.push(pad);
        }
        let ty = Type::new(crate::ir::RegFile::R, regs.len() as u8).unwrap_or(Type::R128);
        let t = self.fresh(ty);
        self.pseudo(MachKind::Concat, &[t], &regs);
        t
    }

    /// A fresh register holding `bits` (`MOV R, RZ` or `MOV R, imm`).
    fn tex_constant(&mut self, bits: u32) -> VReg {
        let t = self.fresh(Type::R32);
        let src = if bits == 0 { Operand::reg(Reg::zero(RegFile::Gpr)) } else { Operand::Imm(bits) };
        self.push_helper(Mnemonic::new(Op::MOV), &[Operand::reg(self.reg_of(t)), src], &[t]);
        t
    }

    /// The uniform pair the handle is read from on sm_90 and later: the
    /// constant-bank word at `offset`, then URZ (`ULDC UR4, c[0x0][0x218];
    /// UMOV UR5, URZ`; LDCU from sm_100).
    fn tex_uniform_handle(&mut self, offset: u32) -> VReg {
        let lo = self.uniform_word(offset);
        self.uniform_pair(lo)
    }

    /// The uniform pair of a handle the loop over the warp's handles
    /// picked: that word, then URZ (`UMOV UR7, URZ`).
    fn picked_pair(&mut self, h: crate::ir::Value) -> VReg {
        self.use_value(h);
        let lo = self.vreg(h);
        self.uniform_pair(lo)
    }

    /// Whether the handle `h` is one the loop over the warp's handles
    /// picked (a uniform word: `UniformPick`).
    fn picked_handle(&self, h: crate::ir::Value) -> bool {
        let ty = self.func.value_type(h);
        ty.file().is_uniform() && ty.regs() == 1 && !ty.file().is_predicate()
    }

    /// The uniform pair `lo`, URZ.
    fn uniform_pair(&mut self, lo: VReg) -> VReg {
        let hi = self.fresh(Type::R32.with_uniformity(true));
        self.push_helper(Mnemonic::new(Op::UMOV), &[Operand::reg(self.reg_of(hi)), Operand::reg(Reg::zero(RegFile::Uniform))], &[hi]);
        let pair = self.fresh(Type::R64.with_uniformity(true));
        self.pseudo(MachKind::Concat, &[pair], &[lo, hi]);
        pair
    }
}

impl SelectCtx<'_> {
    /// Selects the current `SULD` or `SUST` ([`SurfaceAccess`]): the
    /// geometry's form with the handle's constant-bank word (before
    /// sm_90) or a uniform register (`ULDC UR4, c[0x0][0x210]`, LDCU from
    /// sm_100; one register, not TEX's pair), the coordinates as one tuple
    /// (three in an aligned quad) and a store's data. ptxas 13.5 on nvcc's
    /// `surf{1,2,3}D{read,write}` and hand-written `.surfref` accesses.
    pub(super) fn select_surface(&mut self) {
        let d = self.data();
        let store = d.opcode == crate::ir::Opcode::SurfaceStore;
        let Some(a) = SurfaceAccess::decode(d.imm) else {
            return self.fail(format!("surface access descriptor {:#x}", d.imm));
        };
        let args: SmallVec<[crate::ir::Value; 6]> = d.args.iter().copied().collect();
        let first = usize::from(a.surfref.is_none());
        let coords_end = first + a.coords();
        if args.len() != coords_end + usize::from(store) {
            return self.fail("a surface access with the wrong number of arguments");
        }
        let Some(at) = HandleAt::of(self.sm) else { return self.fail("an SM without forms") };
        // A handle computed in registers: its low word in a general
        // register before sm_90 (ptxas 13.5: `SULD.D.BA.1D.STRONG.SM.TRAP
        // R0, [R6], R4`).
        let register_handle = match (a.surfref, args.first()) {
            (None, Some(&h)) if first == 1 && self.param(h).is_none() && at == HandleAt::Bank => Some(h),
            _ => None,
        };
        // The handle the loop over the warp's handles picked (sm_90 on).
        let picked = args.first().copied().filter(|&h| first == 1 && self.picked_handle(h));
        if a.formatted && register_handle.is_some() {
            return self.fail("a formatted surface store (sust.p) whose handle is computed in registers is not supported");
        }
        let offset = match register_handle.or(picked) {
            Some(_) => 0,
            None => match self.handle_word(a.surfref.map(|k| (k, true)), args.first().copied().filter(|_| first == 1)) {
                Some(offset) => offset,
                None => return,
            },
        };
        let mode = match a.geometry {
            0 => SuldMode::D_BA_1D,
            2 => SuldMode::D_BA_1D_ARRAY,
            3 => SuldMode::D_BA_2D,
            4 => SuldMode::D_BA_2D_ARRAY,
            _ => SuldMode::D_BA_3D,
        };
        let size = match a.bytes {
            1 => LdcuSize::U8,
            2 => LdcuSize::U16,
            4 => LdcuSize::None,
            8 => LdcuSize::_64,
            _ => LdcuSize::_128,
        };
        // The one order and scope ptxas writes: `.STRONG.CTA` on sm_75,
        // `.STRONG.SM` from sm_80.
        let scope = if crate::isa::family::measured_sm(self.sm) == Some(75) { SuldScope::STRONG_CTA } else { SuldScope::STRONG_SM };
        let clamp = match a.clamp {
            0 => SuldMode2::IGN,
            1 => SuldMode2::None,
            _ => SuldMode2::TRAP,
        };
        let mnemonic = if !store {
            mach::Suld { mode, size, scope, mode2: clamp }.mnemonic()
        } else if a.formatted {
            // A formatted store: its dimension, the components written
            // (`.R`, `.RG`, all four) and no size (ptxas 13.5:
            // `SUST.P.2D.STRONG.SM.RG.IGN [R28], R26, 0x0, 0x58`).
            let mode = match mode {
                SuldMode::D_BA_1D => SustMode::P_1D,
                SuldMode::D_BA_1D_ARRAY => SustMode::P_1D_ARRAY,
                SuldMode::D_BA_2D => SustMode::P_2D,
                SuldMode::D_BA_2D_ARRAY => SustMode::P_2D_ARRAY,
                SuldMode::D_BA_3D => SustMode::P_3D,
            };
            let components = match a.bytes {
                4 => SustMode2::R,
                8 => SustMode2::RG,
                _ => SustMode2::None,
            };
            mach::Sust { mode, size: LdcuSize::None, scope, mode2: components, mode3: clamp }.mnemonic()
        } else {
            let mode = match mode {
                SuldMode::D_BA_1D => SustMode::D_BA_1D,
                SuldMode::D_BA_1D_ARRAY => SustMode::D_BA_1D_ARRAY,
                SuldMode::D_BA_2D => SustMode::D_BA_2D,
                SuldMode::D_BA_2D_ARRAY => SustMode::D_BA_2D_ARRAY,
                SuldMode::D_BA_3D => SustMode::D_BA_3D,
            };
            mach::Sust { mode, size, scope, mode2: SustMode2::None, mode3: clamp }.mnemonic()
        };
        let coords: SmallVec<[Part; 4]> = args[first..coords_end].iter().map(|&v| Part::Arg(v)).collect();
        let tuple = self.tex_tuple(&coords);
        let addr = Operand::Mem(crate::isa::operand::Mem::new(self.reg_of(tuple).num, 0));
        let mut ops: SmallVec<[Operand; 8]> = SmallVec::new();
        if store {
            let value = args[coords_end];
            self.use_value(value);
            let data = self.vreg(value);
            ops.push(addr);
            ops.push(Operand::reg(self.reg_of(data)));
        } else {
            ops.push(self.result(0, Operand::reg(Reg::zero(RegFile::Gpr))));
            ops.push(addr);
        }
        if let Some(h) = register_handle {
            let low = self.handle_low_word(h);
            ops.push(Operand::reg(self.reg_of(low)));
        } else if let Some(h) = picked {
            ops.push(Operand::reg(self.use_value(h)));
            if at == HandleAt::UniformZero {
                ops.push(Operand::Hex(0));
            }
        } else if at == HandleAt::Bank {
            ops.push(Operand::Hex(0));
            ops.push(Operand::Hex(offset / 4));
        } else {
            let ur = self.uniform_word(offset);
            ops.push(Operand::reg(self.reg_of(ur)));
            if at == HandleAt::UniformZero {
                ops.push(Operand::Hex(0));
            }
        }
        self.emit(mnemonic, &ops);
    }

    /// Selects the current `TXQ` ([`HeaderQuery`]): `TXQ RZ, R5, R5,
    /// TEX_HEADER_DIMENSION, 0x0, 0x58, 0x1` with the level of detail 0 in
    /// a register (ptxas: the result's own), the handle as a surface
    /// access's but always a uniform pair from sm_90 (`ULDC UR4; UMOV UR5,
    /// URZ`, as TEX's) with a `0x0` after it, and the write mask of the
    /// one component.
    pub(super) fn select_header_query(&mut self) {
        let d = self.data();
        let Some(q) = HeaderQuery::decode(d.imm) else {
            return self.fail(format!("header query descriptor {:#x}", d.imm));
        };
        let handle = d.args.first().copied();
        let Some(at) = HandleAt::of(self.sm) else { return self.fail("an SM without forms") };
        // A handle computed in registers, before sm_90: `TXQ.B` reads its
        // low word and the level of detail as a pair (ptxas 13.5: `MOV
        // R19, RZ; MOV R18, R4; TXQ.B RZ, R0, R18, TEX_HEADER_DIMENSION,
        // 0x1`).
        if let (None, Some(h), HandleAt::Bank) = (q.reference, handle, at)
            && self.param(h).is_none()
        {
            let low = self.handle_low_word(h);
            let pair = self.tex_tuple(&[Part::Reg(low), Part::Bits(0)]);
            let ops = [Operand::reg(Reg::zero(RegFile::Gpr)), self.result(0, Operand::reg(Reg::zero(RegFile::Gpr))), Operand::reg(self.reg_of(pair)), Operand::Hex(0), Operand::Hex(1 << q.component)];
            return self.emit(mach::Txq { b: true }.mnemonic(), &ops);
        }
        let picked = handle.filter(|&h| q.reference.is_none() && self.picked_handle(h));
        let offset = match picked {
            Some(_) => 0,
            None => match self.handle_word(q.reference.map(|k| (k, q.surface)), handle) {
                Some(offset) => offset,
                None => return,
            },
        };
        let level = self.tex_constant(0);
        let mut ops: SmallVec<[Operand; 8]> = SmallVec::new();
        ops.push(Operand::reg(Reg::zero(RegFile::Gpr)));
        ops.push(self.result(0, Operand::reg(Reg::zero(RegFile::Gpr))));
        ops.push(Operand::reg(self.reg_of(level)));
        // The query's operand (`TEX_HEADER_DIMENSION`).
        ops.push(Operand::Hex(0));
        if let Some(h) = picked {
            let ur = self.picked_pair(h);
            ops.push(Operand::reg(self.reg_of(ur)));
            ops.push(Operand::Hex(0));
        } else if at == HandleAt::Bank {
            ops.push(Operand::Hex(0));
            ops.push(Operand::Hex(offset / 4));
        } else {
            let ur = self.tex_uniform_handle(offset);
            ops.push(Operand::reg(self.reg_of(ur)));
            ops.push(Operand::Hex(0));
        }
        ops.push(Operand::Hex(1 << q.component));
        self.emit(mach::Txq { b: false }.mnemonic(), &ops);
    }

    /// The byte offset in constant bank 0 of a handle's word: that of the
    /// reference `k` (a surfref when the flag is set) or of the kernel
    /// parameter `handle` is loaded from. `None` after a failure: a handle
    /// computed in registers (ptxas reads such a handle with `.B` forms
    /// before sm_90 and a loop of R2UR from sm_90), not selected here.
    fn handle_word(&mut self, reference: Option<(u32, bool)>, handle: Option<crate::ir::Value>) -> Option<u32> {
        let at = match (reference, handle) {
            (Some((k, true)), _) => crate::ir::texture::surfref_slot(self.sm, self.func, k),
            (Some((k, false)), _) => crate::ir::texture::texref_slot(self.sm, self.func, k),
            (None, Some(h)) => match self.param(h) {
                Some((off, _)) => Some(off),
                None => {
                    self.fail(REGISTER_HANDLE_FROM_SM90);
                    return None;
                }
            },
            (None, None) => None,
        };
        match at {
            Some(at) => Some(at),
            None => {
                self.fail("a texture or surface reference the function's references do not list");
                None
            }
        }
    }

    /// Selects the current `UniformPick pending, a, rest` (one step of the
    /// loop over the warp's handles): `@pending R2UR differ, ud, a`, whose
    /// predicate result keeps `rest`'s register where `pending` is false
    /// (ptxas 13.5: `@P0 R2UR P1, UR4, R2`).
    pub(super) fn select_uniform_pick(&mut self) {
        let d = self.data();
        let (&[pending, a, rest], &[ud, differ]) = (&d.args[..], &d.results[..]) else {
            return self.fail("a uniform pick without its three arguments and two results");
        };
        let guard = self.use_value(pending);
        let src = self.use_value(a);
        self.use_value(rest);
        let (ud, differ, a, rest, pending) = (self.vreg(ud), self.vreg(differ), self.vreg(a), self.vreg(rest), self.vreg(pending));
        let ops = [Operand::reg(self.reg_of(differ)), Operand::reg(self.reg_of(ud)), Operand::reg(src)];
        match (mach::R2ur { or: false }).mnemonic().build(self.sm, Some((guard, false)), &ops) {
            Ok(inst) => {
                // Three distinct values: a predicate, a word and another
                // predicate made for this pick.
                let uses: SmallVec<[VReg; 4]> = [pending, a, rest].into_iter().collect();
                let tied = [(1u8, 2u8)].into_iter().collect();
                self.out.push(super::super::mach::MachInst { kind: MachKind::Inst(inst), defs: [ud, differ].into_iter().collect(), uses, tied, loc: crate::ir::SrcLoc::default() });
            }
            Err(e) => self.fail(e.to_string()),
        }
    }

    /// A register holding the low word of the 64-bit handle `h` (what the
    /// `.B` forms and SULD/SUST's register form read).
    fn handle_low_word(&mut self, h: crate::ir::Value) -> VReg {
        self.use_value(h);
        let wide = self.vreg(h);
        let low = self.fresh(Type::R32);
        self.pseudo(MachKind::Extract { part: 0 }, &[low], &[wide]);
        low
    }

    /// A uniform register holding the constant-bank word at `offset`
    /// (`ULDC UR4, c[0x0][0x210]`; LDCU from sm_100).
    fn uniform_word(&mut self, offset: u32) -> VReg {
        let lo = self.fresh(Type::R32.with_uniformity(true));
        let bank = Operand::CBank { bank: 0, offset: offset as u16, mods: SrcMods::default() };
        let addr = Operand::ConstAddr { bank: 0, index: Reg::zero(RegFile::Uniform), offset: offset as i32 };
        let dst = Operand::reg(self.reg_of(lo));
        let load = Mnemonic::new(Op::LDCU).build(self.sm, None, &[dst, addr]).or_else(|_| Mnemonic::new(Op::ULDC).build(self.sm, None, &[dst, bank]));
        match load {
            Ok(i) => self.out.push(super::super::mach::MachInst { kind: MachKind::Inst(i), defs: [lo].into_iter().collect(), uses: SmallVec::new(), tied: SmallVec::new(), loc: crate::ir::SrcLoc::default() }),
            Err(e) => self.fail(e.to_string()),
        }
        lo
    }
}

//! The descriptor of a texture fetch (`tex`), packed into the Ori
//! instruction's immediate so that lowering, legalization, selection and
//! the printers share one spelling: the dimension the hardware fetches
//! with, whether the coordinates are integers (an unfiltered texel fetch,
//! SASS `TLD`) or floats (`TEX`), and where the texture's handle is (a
//! `.texref` of the module, or the instruction's first argument); for a
//! gather (`tld4`, SASS `TLD4`), the component gathered.

/// One texture fetch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TexFetch {
    /// Dimensions fetched: 1, 2 or 3.
    pub dim: u8,
    /// Integer texel coordinates (`TLD`) rather than float ones (`TEX`).
    pub int_coords: bool,
    /// The index of the module's `.texref` the handle is read from (its
    /// word in constant bank 0 after the kernel parameters); `None` when
    /// the handle is the instruction's first argument (a bindless
    /// texture object).
    pub texref: Option<u32>,
    /// A gather of this component (0 red … 3 alpha) from the four texels
    /// bilinear filtering reads (`tld4`), rather than one texel.
    pub gather: Option<u8>,
    /// An explicit level of detail (`tex.level`), an f32 argument after
    /// the coordinates.
    pub level: bool,
}

impl TexFetch {
    /// The immediate: bits 0–1 the dimension, 2 integer coordinates, 3 a
    /// texref, 4 a gather, 5–6 its component, 7 an explicit level of
    /// detail, 8–39 the texref's index.
    pub fn encode(self) -> u64 {
        let texref = self.texref.map_or(0, |k| 8 | u64::from(k) << 8);
        let gather = self.gather.map_or(0, |c| 0x10 | u64::from(c & 3) << 5);
        u64::from(self.dim & 3) | u64::from(self.int_coords) << 2 | texref | gather | u64::from(self.level) << 7
    }

    /// The descriptor of an immediate; `None` for one no fetch encodes to.
    pub fn decode(imm: u64) -> Option<TexFetch> {
        let dim = (imm & 3) as u8;
        if dim == 0 || imm >> 40 != 0 || (imm & 0x10 == 0 && imm & 0x60 != 0) || (imm & 8 == 0 && imm >> 8 != 0) {
            return None;
        }
        let texref = (imm & 8 != 0).then_some((imm >> 8) as u32);
        let gather = (imm & 0x10 != 0).then_some((imm >> 5 & 3) as u8);
        Some(TexFetch { dim, int_coords: imm & 4 != 0, texref, gather, level: imm & 0x80 != 0 })
    }

    /// Coordinate registers the instruction takes after its handle.
    pub fn coords(self) -> usize {
        usize::from(self.dim)
    }

    /// Arguments after the handle: the coordinates, then the level of
    /// detail if explicit.
    pub fn operands(self) -> usize {
        self.coords() + usize::from(self.level)
    }
}

/// A surface access (`suld.b`, `sust.b`: SASS `SULD.D.BA`, `SUST.D.BA`;
/// `sust.p`: `SUST.P`): its geometry, the bytes it moves, what it does out
/// of bounds, whether it is formatted, and where the surface's handle is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SurfaceAccess {
    /// The geometry as SASS numbers it: 0 1D, 2 1D array, 3 2D, 4 2D
    /// array, 5 3D.
    pub geometry: u8,
    /// Bytes moved: 1, 2, 4, 8 or 16.
    pub bytes: u8,
    /// Out of bounds, as SASS numbers it: 0 `.zero` (SASS `.IGN`), 1
    /// `.clamp`, 2 `.trap`.
    pub clamp: u8,
    /// A formatted store (`sust.p`): the data are `bytes / 4` 32-bit
    /// components (red, green, blue, alpha) of one surface sample, x in
    /// samples rather than bytes.
    pub formatted: bool,
    /// The index of the module's `.surfref` whose handle is used (its word
    /// in constant bank 0 after the texrefs'); `None` when the handle is
    /// the instruction's first argument.
    pub surfref: Option<u32>,
}

impl SurfaceAccess {
    /// The immediate: bits 0–2 the geometry, 3–5 log2 of the bytes, 6–7
    /// the clamp, 8 a surfref, 9 formatted, 16–47 the surfref's index.
    pub fn encode(self) -> u64 {
        let surfref = self.surfref.map_or(0, |k| 0x100 | u64::from(k) << 16);
        u64::from(self.geometry & 7) | u64::from(self.bytes.max(1).trailing_zeros() & 7) << 3 | u64::from(self.clamp & 3) << 6 | surfref | u64::from(self.formatted) << 9
    }

    /// The access of an immediate; `None` for one no access encodes to.
    pub fn decode(imm: u64) -> Option<SurfaceAccess> {
        let geometry = (imm & 7) as u8;
        let log = (imm >> 3 & 7) as u8;
        let clamp = (imm >> 6 & 3) as u8;
        if !matches!(geometry, 0 | 2..=5) || log > 4 || clamp > 2 || imm >> 48 != 0 || imm & 0xfc00 != 0 || (imm & 0x100 == 0 && imm >> 16 != 0) {
            return None;
        }
        let surfref = (imm & 0x100 != 0).then_some((imm >> 16) as u32);
        let formatted = imm & 0x200 != 0;
        // A formatted access moves one, two or four 32-bit components.
        if formatted && !matches!(log, 2..=4) {
            return None;
        }
        Some(SurfaceAccess { geometry, bytes: 1 << log, clamp, formatted, surfref })
    }

    /// Coordinate words the instruction takes after its handle: x (in
    /// bytes), then y, then z or the layer.
    pub fn coords(self) -> usize {
        match self.geometry {
            0 => 1,
            2 | 3 => 2,
            _ => 3,
        }
    }
}

/// A texture or surface header query (`txq`, `suq` of a width, height or
/// depth: SASS `TXQ ... TEX_HEADER_DIMENSION`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HeaderQuery {
    /// 0 the width, 1 the height, 2 the depth.
    pub component: u8,
    /// The handle is a surface's (`suq`) rather than a texture's.
    pub surface: bool,
    /// The index of the module's `.texref` (or `.surfref` for a surface)
    /// queried; `None` when the handle is the instruction's argument.
    pub reference: Option<u32>,
}

impl HeaderQuery {
    /// The immediate: bits 0–1 the component, 2 a surface, 3 a reference,
    /// 8–39 its index.
    pub fn encode(self) -> u64 {
        let reference = self.reference.map_or(0, |k| 8 | u64::from(k) << 8);
        u64::from(self.component & 3) | u64::from(self.surface) << 2 | reference
    }

    /// The query of an immediate; `None` for one no query encodes to.
    pub fn decode(imm: u64) -> Option<HeaderQuery> {
        let component = (imm & 3) as u8;
        if component == 3 || imm >> 40 != 0 || imm & 0xf0 != 0 || (imm & 8 == 0 && imm >> 8 != 0) {
            return None;
        }
        let reference = (imm & 8 != 0).then_some((imm >> 8) as u32);
        Some(HeaderQuery { component, surface: imm & 4 != 0, reference })
    }
}

/// The module texrefs (`surface` false) or surfrefs `f` reads handles of,
/// in the order of their first use (blocks in layout order): the order of
/// their handle words.
fn references_used(f: &super::function::Function, surface: bool) -> Vec<u32> {
    use super::Opcode as O;
    let mut used: Vec<u32> = Vec::new();
    for &b in &f.layout {
        for &i in &f.blocks[b].insts {
            let d = &f.insts[i];
            let k = match d.opcode {
                O::Tex | O::TexFetch if !surface => TexFetch::decode(d.imm).and_then(|t| t.texref),
                O::Suld | O::Sust | O::SurfaceLoad | O::SurfaceStore if surface => SurfaceAccess::decode(d.imm).and_then(|a| a.surfref),
                O::Txq | O::TexQuery => HeaderQuery::decode(d.imm).filter(|q| q.surface == surface).and_then(|q| q.reference),
                _ => None,
            };
            if let Some(k) = k
                && !used.contains(&k)
            {
                used.push(k);
            }
        }
    }
    used
}

/// The module texrefs `f` fetches through or queries, in the order of
/// their first use (blocks in layout order): the order of their handle
/// words.
pub fn texrefs_used(f: &super::function::Function) -> Vec<u32> {
    references_used(f, false)
}

/// The module surfrefs `f` loads, stores or queries through, in the order
/// of their first use: the order of their handle words, after the
/// texrefs'.
pub fn surfrefs_used(f: &super::function::Function) -> Vec<u32> {
    references_used(f, true)
}

/// The byte offset in constant bank 0 of the word holding the handle of
/// the module's surfref `k` in kernel `f`: after the texrefs' words (ptxas
/// 13.5 on sm_80: a kernel with 8 bytes of parameters using texref `ta`
/// and surfrefs `sa`, `sb` has them at 0x168, 0x16c and 0x170; one using
/// only `sa` and `sb` with 4 bytes of parameters at 0x164 and 0x168).
pub fn surfref_slot(sm: crate::target::Sm, f: &super::function::Function, k: u32) -> Option<u32> {
    let position = surfrefs_used(f).iter().position(|&u| u == k)? as u32;
    let first = references_base(sm, f).saturating_add(texrefs_used(f).len() as u32 * 4);
    Some(first.saturating_add(position.saturating_mul(4)))
}

/// Where the first reference word of `f` is: after the parameter block,
/// 4-byte aligned up to sm_90 and 16-byte aligned from sm_100.
fn references_base(sm: crate::target::Sm, f: &super::function::Function) -> u32 {
    let end = f.params.iter().map(|p| p.offset.saturating_add(p.size)).max().unwrap_or(0);
    let align = if sm.number >= 100 { 16 } else { 4 };
    let base = crate::legalize::launch_abi::param_base(sm);
    base.saturating_add(end.next_multiple_of(align))
}

/// The byte offset in constant bank 0 of the word holding the handle of
/// the module's texref `k` in kernel `f`: after the parameter block,
/// 4-byte aligned up to sm_90 and 16-byte aligned from sm_100, one word
/// per texref the kernel fetches through, in the order of first fetch
/// (ptxas 13.5: ZLUDA `tex_read_2d_float` has `c[0x0][0x170]` after
/// parameters ending at 0x170 on sm_80, 0x224 on sm_90, 0x390 on sm_100;
/// a kernel with 12 bytes of parameters fetching `tb` then `ta` has them
/// at 0x16c and 0x170 on sm_80, one fetching only `tb` at 0x16c). `None`
/// when `f` does not fetch through `k`.
pub fn texref_slot(sm: crate::target::Sm, f: &super::function::Function, k: u32) -> Option<u32> {
    let position = texrefs_used(f).iter().position(|&u| u == k)? as u32;
    Some(references_base(sm, f).saturating_add(position.saturating_mul(4)))
}

#[cfg(test)]
mod tests {
    use super::{HeaderQuery, SurfaceAccess, TexFetch};

    #[test]
    fn surface_and_query_descriptors_round_trip() {
        for geometry in [0, 2, 3, 4, 5] {
            for bytes in [1, 2, 4, 8, 16] {
                for clamp in 0..3 {
                    for surfref in [None, Some(0), Some(9)] {
                        for formatted in [false, true] {
                            let a = SurfaceAccess { geometry, bytes, clamp, formatted, surfref };
                            let expected = (!formatted || bytes >= 4).then_some(a);
                            assert_eq!(SurfaceAccess::decode(a.encode()), expected);
                        }
                    }
                }
            }
        }
        // Geometry 1 (a buffer) and 6, 32 bytes, clamp 3, an index without its bit.
        for bad in [1, 6, 5 << 3, 3 << 6, 1 << 16, 1 << 10] {
            assert_eq!(SurfaceAccess::decode(bad), None, "{bad:#x}");
        }
        // 2D, 16 bytes (log 4), trap, surfref 2: 3 | 4 << 3 | 2 << 6 | 0x100 | 2 << 16.
        assert_eq!(SurfaceAccess::decode(0x2_01a3), Some(SurfaceAccess { geometry: 3, bytes: 16, clamp: 2, formatted: false, surfref: Some(2) }));
        // The same, formatted (bit 9).
        assert_eq!(SurfaceAccess::decode(0x2_03a3), Some(SurfaceAccess { geometry: 3, bytes: 16, clamp: 2, formatted: true, surfref: Some(2) }));
        for component in 0..3 {
            for surface in [false, true] {
                for reference in [None, Some(4)] {
                    let q = HeaderQuery { component, surface, reference };
                    assert_eq!(HeaderQuery::decode(q.encode()), Some(q));
                }
            }
        }
        assert_eq!(HeaderQuery::decode(3), None);
        assert_eq!(HeaderQuery::decode(0x100), None);
        // Height of surfref 1: 1 | 4 | 8 | 1 << 8.
        assert_eq!(HeaderQuery::decode(0x10d), Some(HeaderQuery { component: 1, surface: true, reference: Some(1) }));
    }

    #[test]
    fn descriptors_round_trip_and_bad_immediates_are_refused() {
        for dim in 1..=3 {
            for int_coords in [false, true] {
                for texref in [None, Some(0), Some(7)] {
                    for gather in [None, Some(0), Some(3)] {
                        for level in [false, true] {
                            let t = TexFetch { dim, int_coords, texref, gather, level };
                            assert_eq!(TexFetch::decode(t.encode()), Some(t));
                        }
                    }
                }
            }
        }
        // Dimension 0, a texref index without the texref bit, stray bits.
        assert_eq!(TexFetch::decode(0), None);
        assert_eq!(TexFetch::decode(0x101), None);
        assert_eq!(TexFetch::decode(1 << 40 | 1), None);
        // A gather's component without the gather bit.
        assert_eq!(TexFetch::decode(0x22), None);
        // 2D, integer, texref 3: 0b0110 | 8 | 3 << 8.
        assert_eq!(TexFetch::decode(0x30e), Some(TexFetch { dim: 2, int_coords: true, texref: Some(3), gather: None, level: false }));
        // 2D gather of blue (2): 2 | 0x10 | 2 << 5.
        assert_eq!(TexFetch::decode(0x52), Some(TexFetch { dim: 2, int_coords: false, texref: None, gather: Some(2), level: false }));
        // 3D at an explicit level: 3 | 0x80.
        assert_eq!(TexFetch::decode(0x83), Some(TexFetch { dim: 3, int_coords: false, texref: None, gather: None, level: true }));
    }
}

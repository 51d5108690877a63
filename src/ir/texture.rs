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
}

impl TexFetch {
    /// The immediate: bits 0–1 the dimension, 2 integer coordinates, 3 a
    /// texref, 4 a gather, 5–6 its component, 8–39 the texref's index.
    pub fn encode(self) -> u64 {
        let texref = self.texref.map_or(0, |k| 8 | u64::from(k) << 8);
        let gather = self.gather.map_or(0, |c| 0x10 | u64::from(c & 3) << 5);
        u64::from(self.dim & 3) | u64::from(self.int_coords) << 2 | texref | gather
    }

    /// The descriptor of an immediate; `None` for one no fetch encodes to.
    pub fn decode(imm: u64) -> Option<TexFetch> {
        let dim = (imm & 3) as u8;
        if dim == 0 || imm >> 40 != 0 || imm & 0x80 != 0 || (imm & 0x10 == 0 && imm & 0x60 != 0) || (imm & 8 == 0 && imm >> 8 != 0) {
            return None;
        }
        let texref = (imm & 8 != 0).then_some((imm >> 8) as u32);
        let gather = (imm & 0x10 != 0).then_some((imm >> 5 & 3) as u8);
        Some(TexFetch { dim, int_coords: imm & 4 != 0, texref, gather })
    }

    /// Coordinate registers the instruction takes after its handle.
    pub fn coords(self) -> usize {
        usize::from(self.dim)
    }
}

/// The module texrefs `f` fetches through, in the order of their first
/// fetch (blocks in layout order): the order of their handle words.
pub fn texrefs_used(f: &super::function::Function) -> Vec<u32> {
    let mut used: Vec<u32> = Vec::new();
    for &b in &f.layout {
        for &i in &f.blocks[b].insts {
            let d = &f.insts[i];
            if !matches!(d.opcode, super::Opcode::Tex | super::Opcode::TexFetch) {
                continue;
            }
            if let Some(k) = TexFetch::decode(d.imm).and_then(|t| t.texref)
                && !used.contains(&k)
            {
                used.push(k);
            }
        }
    }
    used
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
    let end = f.params.iter().map(|p| p.offset.saturating_add(p.size)).max().unwrap_or(0);
    let align = if sm.number >= 100 { 16 } else { 4 };
    let base = crate::legalize::launch_abi::param_base(sm);
    Some(base.saturating_add(end.next_multiple_of(align)).saturating_add(position.saturating_mul(4)))
}

#[cfg(test)]
mod tests {
    use super::TexFetch;

    #[test]
    fn descriptors_round_trip_and_bad_immediates_are_refused() {
        for dim in 1..=3 {
            for int_coords in [false, true] {
                for texref in [None, Some(0), Some(7)] {
                    for gather in [None, Some(0), Some(3)] {
                        let t = TexFetch { dim, int_coords, texref, gather };
                        assert_eq!(TexFetch::decode(t.encode()), Some(t));
                    }
                }
            }
        }
        // Dimension 0, a texref index without the texref bit, stray bits.
        assert_eq!(TexFetch::decode(0), None);
        assert_eq!(TexFetch::decode(0x101), None);
        assert_eq!(TexFetch::decode(0x81), None);
        // A gather's component without the gather bit.
        assert_eq!(TexFetch::decode(0x22), None);
        // 2D, integer, texref 3: 0b0110 | 8 | 3 << 8.
        assert_eq!(TexFetch::decode(0x30e), Some(TexFetch { dim: 2, int_coords: true, texref: Some(3), gather: None }));
        // 2D gather of blue (2): 2 | 0x10 | 2 << 5.
        assert_eq!(TexFetch::decode(0x52), Some(TexFetch { dim: 2, int_coords: false, texref: None, gather: Some(2) }));
    }
}

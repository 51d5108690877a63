//! A kernel's constant pool: the f64 constants no immediate holds, which
//! the code reads as `c[0x2][offset]` operands from the kernel's constant
//! bank 2 (`.nv.constant2.<kernel>`) instead of materialising them in a
//! register pair. The module owns the policy (which SMs, which values),
//! the pool selection fills, and its layout.
//!
//! ptxas 13.5, measured with hand-written kernels on sm_75, 80, 86, 89, 90,
//! 100 and 120:
//! * sm_75 to sm_89 read an f64 constant whose low word is not zero (no
//!   32-bit immediate holds it) from bank 2 in any slot that takes a
//!   constant-bank operand: the b slot of DADD, DMUL, DFMA and DSETP
//!   (`DSETP.GEU.AND P0, PT, R4, c[0x2][0x28], PT`), DFMA's c slot
//!   (`DFMA R4, R2, R4, c[0x2][0x8]`). From sm_90 on ptxas writes no bank
//!   2 for them: it moves the halves into a uniform pair (`UMOV UR4, 0x22;
//!   UMOV UR5, 0x3ff00000; DMUL R2, R2, UR4`), which is not done here.
//! * Each entry is the 8 bytes of the value the instruction uses, a
//!   negation folded in (`sub.f64 x, K` reads the entry of -K, shared with
//!   an `add.f64 x, -K`): one entry per distinct value, in the order the
//!   code first reads them, 8-byte aligned from offset 0. A value also
//!   needed in a register keeps its entry for the uses that fold it.
//! * The section: `SHT_PROGBITS`, flags `SHF_ALLOC | SHF_INFO_LINK`,
//!   `sh_info` the kernel's code section, alignment 4, right before the
//!   kernel's `.nv.constant0` (its section symbol too); no `.nv.info`
//!   record names it. `ptxas -v` adds `, N bytes cmem[2]` after cmem[0]
//!   (`crate::cubin::build` and the driver's report write these).
//!
//! Device functions compiled on their own (recursion) go into the section
//! of every kernel that calls them, so they get no pool: their constants
//! stay in registers. Switch tables, which ptxas also puts in bank 2, are
//! not made here.
//!
//! Selection walks the code backwards, so [`Pool::slot`] hands out
//! provisional offsets and [`lay_out`] renumbers them in code order once
//! the function is selected.

use super::mach::{MachBlock, MachKind};
use crate::fxhash::FxBuild;
use crate::isa::operand::Operand;
use crate::target::Sm;

/// The bank number.
pub const BANK: u8 = 2;

/// The most entries a pool takes: 8 bytes each in a 64 KiB bank.
const MAX_ENTRIES: usize = 0x1_0000 / 8;

/// Whether kernels on `sm` read their f64 constants from bank 2.
pub fn enabled(sm: Sm) -> bool {
    (75..90).contains(&sm.number)
}

/// The distinct values selection placed, in the order it placed them.
#[derive(Clone, Debug, Default)]
pub struct Pool {
    values: Vec<u64>,
    index: std::collections::HashMap<u64, u16, FxBuild>,
    enabled: bool,
}

impl Pool {
    /// An empty pool; one that `enabled` is false for takes nothing.
    pub fn new(enabled: bool) -> Pool {
        Pool { enabled, ..Pool::default() }
    }

    /// Whether the pool takes (more) constants.
    pub fn open(&self) -> bool {
        self.enabled && self.values.len() < MAX_ENTRIES
    }

    /// The operand reading the 64-bit `bits` from the pool (the value's
    /// provisional offset: 8 times its index), added if new.
    pub fn slot(&mut self, bits: u64) -> Operand {
        let n = self.values.len() as u16;
        let k = *self.index.entry(bits).or_insert_with(|| {
            self.values.push(bits);
            n
        });
        Operand::CBank { bank: BANK, offset: k.wrapping_mul(8), mods: Default::default() }
    }

    /// No value was placed.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }
}

/// Renumbers the pool's operands in `blocks` (layout order) so the entries
/// follow the code's first reads, and returns the bank's bytes.
pub fn lay_out(pool: &Pool, blocks: &mut [MachBlock]) -> Vec<u8> {
    if pool.is_empty() {
        return Vec::new();
    }
    // Provisional index -> final index.
    let mut map = vec![u16::MAX; pool.values.len()];
    let mut bytes = Vec::with_capacity(pool.values.len() * 8);
    for m in blocks.iter_mut().flat_map(|b| b.insts.iter_mut()) {
        let inst = match &mut m.kind {
            MachKind::Inst(i) | MachKind::Branch { inst: i, .. } | MachKind::Call { inst: i, .. } => i,
            _ => continue,
        };
        for op in inst.operands.iter_mut() {
            let Operand::CBank { bank: BANK, offset, .. } = op else { continue };
            let Some(slot) = map.get_mut(usize::from(*offset / 8)) else { continue };
            if *slot == u16::MAX {
                *slot = (bytes.len() / 8) as u16;
                bytes.extend_from_slice(&pool.values[usize::from(*offset / 8)].to_le_bytes());
            }
            *offset = *slot * 8;
        }
    }
    bytes
}

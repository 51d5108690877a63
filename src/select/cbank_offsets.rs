//! The constant-bank-0 offsets selection reads, per SM: where the driver
//! puts the global-memory descriptor and the initial stack pointer. (The
//! parameter block's base, the launch dimensions and the special register
//! numbers are legalization's, [`crate::legalize::launch_abi`], already
//! applied to the instructions selection sees.)
//!
//! Offsets measured with ptxas 13.5 (`-O0` and `-O3` of a kernel with
//! parameters and a global store on sm_75, 80, 90, 100, 120): parameters at
//! `c[0x0][0x160]` (sm_75–sm_89), `0x210` (sm_90), `0x380` (sm_100+); the
//! descriptor `ULDC.64 UR4, c[0x0][0x118]` (sm_80–89), `0x208` (sm_90),
//! `LDCU.64 …, c[0x0][0x358]` (sm_100+); the stack pointer `c[0x0][0x28]`
//! (up to sm_90) and `0x37c` (sm_100+).

use crate::target::Sm;

/// (first SM, last SM, byte offset of the 64-bit global-memory descriptor).
/// sm_75 addresses global memory without one.
pub const DESC_OFFSET: &[(u16, u16, u32)] = &[(80, 89, 0x118), (90, 99, 0x208), (100, 199, 0x358)];

/// (first SM, last SM, byte offset of the initial stack pointer).
pub const STACK_OFFSET: &[(u16, u16, u32)] = &[(75, 99, 0x28), (100, 199, 0x37c)];

fn lookup(table: &[(u16, u16, u32)], sm: Sm) -> Option<u32> {
    table.iter().find(|(lo, hi, _)| (*lo..=*hi).contains(&sm.number)).map(|r| r.2)
}

/// Offset of the global-memory descriptor, on SMs that use one.
pub fn desc_offset(sm: Sm) -> Option<u32> {
    lookup(DESC_OFFSET, sm)
}

/// Offset of the initial stack pointer.
pub fn stack_offset(sm: Sm) -> Option<u32> {
    lookup(STACK_OFFSET, sm)
}


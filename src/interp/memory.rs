//! Device memory for the interpreters: global memory as a set of separate
//! allocations with unmapped gaps between them, and [`Region`], one
//! bounds-checked byte array (a CTA's shared memory, a thread's local
//! memory, a constant bank).
//!
//! Every access is checked: an address outside any allocation, an access
//! running past an allocation's end, or one not aligned to its size is a
//! [`MemFault`], which the interpreters report with the faulting
//! instruction's location. Nothing here panics on any address.

use std::fmt;

/// Where the first global allocation starts: a user-space looking address
/// with the upper bits clear, so 32-bit truncation of a pointer faults
/// instead of silently hitting another buffer.
pub const GLOBAL_BASE: u64 = 0x7000_0000_0000;

/// Allocations are aligned to this (the CUDA driver's `cuMemAlloc` gives
/// at least 256-byte alignment).
pub const ALLOCATION_ALIGN: u64 = 256;

/// Unmapped bytes between two allocations, so running off one buffer
/// faults instead of landing in the next.
pub const GUARD_BYTES: u64 = 64 * 1024;

/// A faulting access.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemFault {
    /// The address accessed.
    pub address: u64,
    /// Access size in bytes.
    pub size: u64,
    /// What went wrong.
    pub kind: FaultKind,
    /// Which memory (`global`, `shared`, `local`, `c[0x0]`...).
    pub space: &'static str,
}

/// Kinds of faults.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FaultKind {
    /// No allocation holds the address, or the access runs past its end.
    OutOfBounds,
    /// The address is not a multiple of the access's alignment.
    Misaligned,
    /// A store to memory that cannot be written (a constant bank).
    ReadOnly,
}

impl fmt::Display for MemFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.kind {
            FaultKind::OutOfBounds => "out-of-bounds",
            FaultKind::Misaligned => "misaligned",
            FaultKind::ReadOnly => "read-only",
        };
        write!(f, "{what} {}-byte {} access at {:#x}", self.size, self.space, self.address)
    }
}

impl std::error::Error for MemFault {}

/// One bounds-checked byte array at a base address.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Region {
    /// Address of byte 0.
    pub base: u64,
    /// The bytes.
    pub data: Vec<u8>,
    /// What it is, for messages (`param 2`, `global var x`).
    pub label: String,
    /// Whether stores fault.
    pub read_only: bool,
}

impl Region {
    /// A writable region.
    pub fn new(base: u64, data: Vec<u8>, label: impl Into<String>) -> Region {
        Region { base, data, label: label.into(), read_only: false }
    }

    /// One past the last address.
    pub fn end(&self) -> u64 {
        self.base.saturating_add(self.data.len() as u64)
    }

    /// Whether `address..address+size` lies inside.
    pub fn contains(&self, address: u64, size: u64) -> bool {
        address >= self.base && address.checked_add(size).is_some_and(|e| e <= self.end())
    }

    /// Byte offset of `address`, after the bounds and alignment checks.
    fn offset(&self, address: u64, size: u64, align: u64, space: &'static str) -> Result<usize, MemFault> {
        if align > 1 && address % align != 0 {
            return Err(MemFault { address, size, kind: FaultKind::Misaligned, space });
        }
        if !self.contains(address, size) {
            return Err(MemFault { address, size, kind: FaultKind::OutOfBounds, space });
        }
        Ok((address - self.base) as usize)
    }

    /// The bytes at `address..address+size`, aligned to `align`.
    pub fn read(&self, address: u64, size: usize, align: u64, space: &'static str) -> Result<&[u8], MemFault> {
        let at = self.offset(address, size as u64, align, space)?;
        Ok(&self.data[at..at + size])
    }

    /// Writes `bytes` at `address`, aligned to `align`.
    pub fn write(&mut self, address: u64, bytes: &[u8], align: u64, space: &'static str) -> Result<(), MemFault> {
        let at = self.offset(address, bytes.len() as u64, align, space)?;
        if self.read_only {
            return Err(MemFault { address, size: bytes.len() as u64, kind: FaultKind::ReadOnly, space });
        }
        self.data[at..at + bytes.len()].copy_from_slice(bytes);
        Ok(())
    }

    /// The writable bytes at `address..address+size`, aligned to `align`
    /// (for read-modify-write: atomics).
    pub fn bytes_mut(&mut self, address: u64, size: usize, align: u64, space: &'static str) -> Result<&mut [u8], MemFault> {
        let at = self.offset(address, size as u64, align, space)?;
        if self.read_only {
            return Err(MemFault { address, size: size as u64, kind: FaultKind::ReadOnly, space });
        }
        Ok(&mut self.data[at..at + size])
    }
}

/// Global memory: allocations in increasing address order with unmapped
/// guard gaps between them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GlobalMemory {
    regions: Vec<Region>,
}

const SPACE: &str = "global";

impl GlobalMemory {
    /// No allocations.
    pub fn new() -> GlobalMemory {
        GlobalMemory::default()
    }

    /// Places `data` after the last allocation and returns its address.
    pub fn allocate(&mut self, data: Vec<u8>, label: impl Into<String>) -> u64 {
        let next = self.regions.last().map_or(GLOBAL_BASE, |r| r.end().saturating_add(GUARD_BYTES));
        let base = next.div_ceil(ALLOCATION_ALIGN).saturating_mul(ALLOCATION_ALIGN);
        self.regions.push(Region::new(base, data, label));
        base
    }

    /// The allocations.
    pub fn regions(&self) -> &[Region] {
        &self.regions
    }

    /// The index of the allocation holding `address`.
    pub fn find(&self, address: u64) -> Option<usize> {
        let i = self.regions.partition_point(|r| r.base <= address).checked_sub(1)?;
        (address < self.regions[i].end()).then_some(i)
    }

    fn region_for(&self, address: u64, size: u64) -> Result<usize, MemFault> {
        self.find(address).ok_or(MemFault { address, size, kind: FaultKind::OutOfBounds, space: SPACE })
    }

    /// The bytes at `address..address+size` without an alignment check.
    pub fn slice(&self, address: u64, size: usize) -> Result<&[u8], MemFault> {
        self.read(address, size, 1)
    }

    /// The bytes at `address..address+size`, aligned to `align`.
    pub fn read(&self, address: u64, size: usize, align: u64) -> Result<&[u8], MemFault> {
        let i = self.region_for(address, size as u64)?;
        self.regions[i].read(address, size, align, SPACE)
    }

    /// Writes `bytes` at `address`, aligned to `align`.
    pub fn write(&mut self, address: u64, bytes: &[u8], align: u64) -> Result<(), MemFault> {
        let i = self.region_for(address, bytes.len() as u64)?;
        self.regions[i].write(address, bytes, align, SPACE)
    }

    /// The writable bytes at `address..address+size`, aligned to `align`.
    pub fn bytes_mut(&mut self, address: u64, size: usize, align: u64) -> Result<&mut [u8], MemFault> {
        let i = self.region_for(address, size as u64)?;
        self.regions[i].bytes_mut(address, size, align, SPACE)
    }
}

/// Little-endian load of up to 8 bytes into a `u64`.
pub fn le_u64(bytes: &[u8]) -> u64 {
    let mut b = [0u8; 8];
    let n = bytes.len().min(8);
    b[..n].copy_from_slice(&bytes[..n]);
    u64::from_le_bytes(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allocations_are_aligned_and_separated_by_unmapped_gaps() {
        let mut m = GlobalMemory::new();
        let a = m.allocate(vec![1, 2, 3], "a");
        let b = m.allocate(vec![0; 16], "b");
        assert_eq!(a, GLOBAL_BASE);
        assert_eq!(b % ALLOCATION_ALIGN, 0);
        assert!(b >= a + 3 + GUARD_BYTES);
        assert_eq!(m.read(a, 3, 1).unwrap(), &[1, 2, 3]);
        // Running off the end of `a` faults rather than reaching `b`.
        let e = m.read(a + 2, 2, 1).unwrap_err();
        assert_eq!(e.kind, FaultKind::OutOfBounds);
        assert_eq!(m.read(a + 3, 1, 1).unwrap_err().kind, FaultKind::OutOfBounds);
        assert_eq!(m.read(a - 1, 1, 1).unwrap_err().kind, FaultKind::OutOfBounds);
        assert_eq!(m.read(0, 1, 1).unwrap_err().kind, FaultKind::OutOfBounds);
        assert_eq!(m.read(u64::MAX, 8, 1).unwrap_err().kind, FaultKind::OutOfBounds);
        m.write(b + 4, &7u32.to_le_bytes(), 4).unwrap();
        assert_eq!(le_u64(m.read(b + 4, 4, 4).unwrap()), 7);
        assert_eq!(m.write(b + 2, &[0; 4], 4).unwrap_err().kind, FaultKind::Misaligned);
        assert!(m.read(b + 16, 0, 1).is_err(), "an address past the end is outside");
    }

    #[test]
    fn read_only_regions_refuse_stores() {
        let mut r = Region::new(0, vec![0; 8], "c[0x3]");
        r.read_only = true;
        assert_eq!(r.write(0, &[1], 1, "const").unwrap_err().kind, FaultKind::ReadOnly);
        assert_eq!(r.read(4, 4, 4, "const").unwrap(), &[0; 4]);
        assert!(r.read(6, 4, 1, "const").is_err());
    }
}

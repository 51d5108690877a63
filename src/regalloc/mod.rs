//! Placeholder for the register allocator's output types (the allocator
//! lands from its own branch; emission is written against these).
#![allow(missing_docs)]
use crate::isa::inst::Inst;
use crate::target::Sm;

pub struct Allocated {
    pub name: String,
    pub sm: Sm,
    pub blocks: Vec<AllocBlock>,
    pub gpr_count: u32,
    pub ugpr_count: u32,
    pub frame_bytes: u32,
    pub spill_stores: u32,
    pub spill_loads: u32,
}
pub struct AllocBlock {
    pub insts: Vec<AllocInst>,
}
pub enum AllocInst {
    Inst(Inst),
    Branch { inst: Inst, target: usize },
    Call { inst: Inst, callee: u32 },
    SymAddr { inst: Inst, global: u32, offset: i32 },
}

#[derive(Clone, Debug, Default)]
pub struct RegallocOptions {
    pub max_registers: Option<u32>,
}
#[derive(Clone, Debug)]
pub struct RegallocError(pub String);
impl std::fmt::Display for RegallocError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}
pub fn allocate(_f: &crate::select::MachFunction, _o: &RegallocOptions) -> Result<Allocated, RegallocError> {
    Err(RegallocError("register allocation is not available yet".into()))
}

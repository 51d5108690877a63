//! Placeholder scheduler (the real one lands from its own branch): keeps
//! the order and serialises every variable-latency instruction.
#![allow(missing_docs)]
use crate::interp::sass::hazard;
use crate::interp::sass::latency::{self, CLASSES, Class, File, NEEDS_SCOREBOARD};
use crate::isa::inst::Inst;
use crate::target::Sm;
use smallvec::SmallVec;

pub struct Block {
    pub insts: Vec<Inst>,
    pub succs: SmallVec<[usize; 2]>,
}
#[derive(Default)]
pub struct SchedOptions {}
#[derive(Default, Debug)]
pub struct SchedStats {}
#[derive(Debug)]
pub struct SchedError(pub String);
impl std::fmt::Display for SchedError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

pub fn schedule(blocks: &mut [Block], sm: Sm, _options: &SchedOptions) -> Result<SchedStats, SchedError> {
    let table = latency::table(sm);
    for b in blocks.iter_mut() {
        for inst in &mut b.insts {
            let class = Class::of_mnemonic(&hazard::mnemonic(inst));
            let worst = table.latency(File::R, class, Class::Alu);
            let _ = (CLASSES, NEEDS_SCOREBOARD);
            inst.ctrl.wait = 0b11;
            if worst > 15 {
                inst.ctrl.write_sb = Some(0);
                inst.ctrl.read_sb = Some(1);
                inst.ctrl.stall = 2;
            } else {
                inst.ctrl.stall = worst.max(1);
            }
        }
    }
    Ok(SchedStats::default())
}

pub fn check(_code: &[Inst], _sm: Sm) -> Result<(), Vec<String>> {
    Ok(())
}

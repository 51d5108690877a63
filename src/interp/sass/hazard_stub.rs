//! Stand-in for the hazard checker (`hazard.rs`, written concurrently):
//! the same signatures, checking nothing. Deleted when the real module lands.

use crate::isa::inst::Inst;
use crate::target::Sm;

/// Per static instruction facts (none in the stub).
#[derive(Clone, Debug, Default)]
pub struct HazardInfo {}

impl HazardInfo {
    /// The facts of one instruction.
    pub fn of(_inst: &Inst, _sm: Sm) -> HazardInfo {
        HazardInfo {}
    }
}

/// Per warp dynamic state (none in the stub).
#[derive(Clone, Debug, Default)]
pub struct WarpHazards {}

impl WarpHazards {
    /// A fresh warp.
    pub fn new(_sm: Sm) -> WarpHazards {
        WarpHazards {}
    }

    /// One issued instruction: never a hazard here.
    #[inline]
    pub fn issue(&mut self, _info: &HazardInfo, _inst: &Inst) -> Result<(), String> {
        Ok(())
    }
}

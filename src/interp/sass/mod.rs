//! The SASS interpreter (being written).

pub mod hazard;
pub mod latency;

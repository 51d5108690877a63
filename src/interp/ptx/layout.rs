//! The interpreter's address map: where each state space appears in the
//! generic address space, and how a generic address is classified.
//!
//! Shared, local, constant and kernel-parameter addresses in their own
//! spaces are small offsets (as on the GPU, where `mov.u32 %r, shared_var`
//! gives a 32-bit shared address); each space also has a window of the
//! generic address space, below the first global allocation
//! ([`crate::interp::memory::GLOBAL_BASE`]), so `cvta` is an addition and
//! generic accesses are classified by window.

/// Generic window of the thread's local memory.
pub const LOCAL_WINDOW: u64 = 0x1000_0000_0000;
/// Generic window of the CTA's shared memory.
pub const SHARED_WINDOW: u64 = 0x2000_0000_0000;
/// Generic window of the constant bank.
pub const CONST_WINDOW: u64 = 0x3000_0000_0000;
/// Generic window of the kernel parameter block (kernel parameters are
/// also addressed this way in the `.param` space, so a parameter's address
/// taken with `mov` reads back through `ld.param` and generic loads alike).
pub const PARAM_WINDOW: u64 = 0x4000_0000_0000;
/// Size of each window.
pub const WINDOW_BYTES: u64 = 0x1000_0000_0000;

/// A memory a resolved address falls in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Space {
    /// Device memory (absolute address).
    Global,
    /// CTA shared memory (offset).
    Shared,
    /// The thread's local memory (offset).
    Local,
    /// The constant bank (offset).
    Const,
    /// The kernel parameter block (offset).
    Param,
}

/// Classifies a generic address: the space and the address in it.
pub fn classify(generic: u64) -> (Space, u64) {
    let window = |base: u64| generic.wrapping_sub(base) < WINDOW_BYTES;
    if window(LOCAL_WINDOW) {
        (Space::Local, generic - LOCAL_WINDOW)
    } else if window(SHARED_WINDOW) {
        (Space::Shared, generic - SHARED_WINDOW)
    } else if window(CONST_WINDOW) {
        (Space::Const, generic - CONST_WINDOW)
    } else if window(PARAM_WINDOW) {
        (Space::Param, generic - PARAM_WINDOW)
    } else {
        (Space::Global, generic)
    }
}

/// The generic window base of a space (0 for global).
pub fn window(space: Space) -> u64 {
    match space {
        Space::Global => 0,
        Space::Shared => SHARED_WINDOW,
        Space::Local => LOCAL_WINDOW,
        Space::Const => CONST_WINDOW,
        Space::Param => PARAM_WINDOW,
    }
}

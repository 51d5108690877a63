//! Where module variables live, decided once per module at emission: the
//! offsets of `.global` variables in `.nv.global` / `.nv.global.init`,
//! of `.const` variables in constant bank 3, of each kernel's `.shared`
//! variables in its shared window, and the bank 4 slots that hold the
//! addresses of the globals the code takes. Selection left every variable
//! address as a symbolic `SymAddr`; [`Variables::materialise`] turns one
//! into the instruction that produces the address.
//!
//! The layouts follow ptxas 13.5 (measured on small kernels): `.const`
//! variables in declaration order, `.global` ones (in each of the two
//! sections) by alignment, largest first, and in declaration order among
//! equals; each at the next offset its alignment allows;
//! shared variables start after the area ptxas reserves from sm_90 on
//! (0x400, [`reserved_shared`]); the address of a global is loaded from bank 4
//! (`c[0x4][8·k]`, one 8-byte slot per global, relocated by the loader):
//! the functions outside the module that the code calls, then every
//! `.global` variable of the module in declaration order, used or not (as
//! ptxas: `-v`'s `cmem[4]` is 8 bytes per global).
//!
//! A kernel's shared window, as ptxas 13.5 lays it out (measured on
//! sm_75/80/90/120 with kernels storing each variable's address, read
//! back from the SASS and the `.nv.shared.<kernel>` section's size; the
//! same on every generation, after the reserved area from sm_90 on):
//!
//! 1. the kernel's own function-scope variables that its code uses;
//! 2. the module-scope variables that the kernel or the device functions
//!    it calls use;
//! 3. the function-scope variables of those device functions that their
//!    code uses (in the order the functions are written, not called);
//! 4. the kernel's function-scope variables that nothing uses, then those
//!    of the device functions it calls, function by function in the order
//!    the calls are met (module-scope ones that nothing uses get no room);
//!
//! each group in declaration order (neither by alignment nor by size: a
//! kernel declaring align 1, 4, 2, 8, 16 variables gets 0, 4, 0xc, 0x10,
//! 0x20), each variable at the next offset its alignment allows. Then
//! every `.extern .shared` array of the module, used or not, in
//! declaration order, takes the next offset that is a multiple of its
//! alignment and of 16, with no size; that is where the array starts, and
//! the last one's offset is the section's size (static 9 bytes, then
//! externs of alignment 4, 32, 1: at 0x10, 0x20, 0x20, the section 0x20
//! bytes, the align-32 one unused). The section's alignment is the
//! largest of these: the static variables' own, and each extern array's
//! offset alignment (a kernel with one align-1 byte: 1; with an align-4
//! extern, used or not: 16; with an align-64 one: 64).

use crate::cubin::module::{Variable, reserved_shared};
use crate::ir::entity::EntityRef;
use crate::ir::{self, GlobalId, Space};
use crate::isa::inst::Inst;
use crate::isa::op::{Mnemonic, Op};
use crate::isa::operand::{Operand, Reg, RegFile};
use crate::target::Sm;
use std::collections::BTreeMap;

/// The module-wide layout.
#[derive(Clone, Debug, Default)]
pub struct Variables {
    /// `.global` variables as the cubin model lists them.
    pub globals: Vec<Variable>,
    /// `.const` variables (bank 3).
    pub constants: Vec<Variable>,
    /// Offset of each `.const` variable in bank 3, by global index.
    const_offsets: BTreeMap<u32, u32>,
    /// Functions outside the module whose address the code loads, and
    /// the module's globals (their bank 4 slots, in that order).
    pub global_addresses: Vec<String>,
    /// Bytes of `.nv.global.init` and `.nv.global` (`-v`'s gmem).
    pub global_bytes: u64,
}

/// One kernel's shared window.
#[derive(Clone, Debug, Default)]
pub struct SharedWindow {
    /// Offset of each shared variable the kernel uses, by global index
    /// (the reserved area included).
    offsets: BTreeMap<u32, u32>,
    /// Static bytes (without the reserved area).
    pub bytes: u64,
    /// The `.nv.shared.<kernel>` section's alignment (module doc).
    pub align: u64,
    /// Whether an `.extern .shared` (dynamically sized) array is used.
    pub dynamic: bool,
}

impl SharedWindow {
    /// The address of shared variable `global` (global index) in the
    /// window, the reserved area included; `None` where the kernel's code
    /// does not use it.
    pub fn offset(&self, global: u32) -> Option<u32> {
        self.offsets.get(&global).copied()
    }
}

/// The least alignment of an `.extern .shared` array's offset (ptxas
/// 13.5; see the module doc).
const EXTERN_SHARED_ALIGN: u64 = 16;

fn align_up(x: u64, a: u64) -> u64 {
    let a = a.max(1);
    x.div_ceil(a) * a
}

impl Variables {
    /// Lays out the module's `.global` and `.const` variables.
    pub fn new(module: &ir::Module) -> Variables {
        let mut v = Variables::default();
        let (mut init_end, mut zero_end) = (0u64, 0u64);
        let const_layout: BTreeMap<GlobalId, u64> = ir::module::constant_bank_layout(module.globals.iter()).0.into_iter().collect();
        // ptxas places `.global` variables by alignment, largest first
        // (measured: align 16, 8, 4, 1 at offsets 0, 8, 11 of 16 bytes;
        // `.const` ones stay in declaration order); the sort is stable.
        let mut order: Vec<(GlobalId, &ir::GlobalVar)> = module.globals.iter().collect();
        order.sort_by_key(|(_, g)| if g.space == Space::Global { std::cmp::Reverse(g.align.max(1)) } else { std::cmp::Reverse(0) });
        let order: Vec<(GlobalId, &ir::GlobalVar)> = order.into_iter().filter(|(_, g)| g.space == Space::Global).chain(module.globals.iter().filter(|(_, g)| g.space != Space::Global)).collect();
        for (id, g) in order {
            let align = u64::from(g.align.max(1));
            match g.space {
                Space::Global => {
                    let initialised = !g.init.is_empty();
                    let end = if initialised { &mut init_end } else { &mut zero_end };
                    let offset = align_up(*end, align);
                    *end = offset + g.size;
                    let init = initialised.then(|| {
                        let mut bytes = g.init.clone();
                        bytes.resize(g.size as usize, 0);
                        bytes
                    });
                    v.globals.push(Variable { name: g.name.clone(), offset, size: g.size, align, init, visible: g.visible });
                }
                Space::Const => {
                    let offset = const_layout.get(&id).copied().unwrap_or(0);
                    let mut bytes = g.init.clone();
                    bytes.resize(g.size as usize, 0);
                    v.const_offsets.insert(id.index() as u32, offset as u32);
                    v.constants.push(Variable { name: g.name.clone(), offset, size: g.size, align, init: Some(bytes), visible: g.visible });
                }
                _ => {}
            }
        }
        v.global_bytes = init_end + zero_end;
        v.fill_addresses(module);
        v
    }

    /// Writes into the initialised bytes the address words lowering
    /// recorded: a `.const` variable's address is its bank 3 offset plus
    /// the addend (ptxas 13.5 on `.const .u64 p[2] = { x, y }`: the
    /// offsets of x and y in `.nv.constant3`, no relocation). Lowering
    /// admits no other targets.
    fn fill_addresses(&mut self, module: &ir::Module) {
        for (_, g) in module.globals.iter() {
            for a in &g.addresses {
                let Some(&base) = self.const_offsets.get(&(a.target.index() as u32)) else { continue };
                let value = i64::from(base).wrapping_add(a.addend) as u64;
                let list = match g.space {
                    Space::Global => &mut self.globals,
                    Space::Const => &mut self.constants,
                    _ => continue,
                };
                let Some(var) = list.iter_mut().find(|v| v.name == g.name) else { continue };
                let Some(bytes) = var.init.as_mut() else { continue };
                let (at, n) = (a.at as usize, usize::from(a.bytes).min(8));
                if let Some(word) = bytes.get_mut(at..at + n) {
                    word.copy_from_slice(&value.to_le_bytes()[..n]);
                }
            }
        }
    }

    /// The window of kernel `kernel` (function index) whose code, with
    /// that of the device functions it calls, uses the shared variables
    /// `used` (global indices), for `sm`; `callees` are the device
    /// functions (indices) its calls reached before inlining. The order is
    /// the module doc's.
    pub fn shared_window(module: &ir::Module, kernel: u32, callees: &[u32], used: &[u32], sm: Sm) -> SharedWindow {
        let base = reserved_shared(u32::from(sm.number));
        let mut w = SharedWindow { align: 1, ..SharedWindow::default() };
        let shared = || module.globals.iter().map(|(id, g)| (id.index() as u32, g)).filter(|(_, g)| g.space == Space::Shared);
        let owner = |g: &ir::GlobalVar| g.owner.map(|f| f.index() as u32);
        let of_kernel = |g: &ir::GlobalVar| owner(g) == Some(kernel);
        let is_used = |index: u32| used.contains(&index);
        let static_order = shared()
            .filter(|&(i, g)| is_used(i) && of_kernel(g))
            .chain(shared().filter(|&(i, g)| is_used(i) && g.owner.is_none()))
            .chain(shared().filter(|&(i, g)| is_used(i) && g.owner.is_some() && !of_kernel(g)))
            .chain(shared().filter(|&(i, g)| !is_used(i) && of_kernel(g)))
            .chain(callees.iter().flat_map(|&f| shared().filter(move |&(i, g)| !is_used(i) && owner(g) == Some(f))));
        let mut end = 0u64;
        for (index, g) in static_order {
            if g.size == 0 {
                continue;
            }
            let align = u64::from(g.align.max(1));
            w.align = w.align.max(align);
            let offset = align_up(end, align);
            end = offset + g.size;
            w.offsets.insert(index, (base + offset) as u32);
        }
        // Every `.extern .shared` array of the module, used or not, in
        // declaration order, moves the end to its own alignment, 16 at
        // least; the arrays the code uses start where it is then.
        for (index, g) in shared().filter(|(_, g)| g.size == 0) {
            let align = u64::from(g.align.max(1)).max(EXTERN_SHARED_ALIGN);
            end = align_up(end, align);
            w.align = w.align.max(align);
            if is_used(index) {
                w.dynamic = true;
                w.offsets.insert(index, (base + end) as u32);
            }
        }
        w.bytes = end;
        w
    }

    /// Gives the global `global` a bank 4 slot for its address, unless
    /// it has one. Emission reserves the slots of all kernels first, in
    /// kernel order, so the kernels' code can then be made in any order
    /// (in parallel) with the same result.
    pub fn reserve_address(&mut self, module: &ir::Module, global: u32) {
        let Some(g) = module.globals.get(GlobalId::new(global as usize)) else { return };
        if g.space == Space::Global && !self.global_addresses.contains(&g.name) {
            self.global_addresses.push(g.name.clone());
        }
    }

    /// Gives function `name`, which is outside the module, a bank 4 slot
    /// for its address (the loader relocates it, as ptxas's slot for
    /// `vprintf`), unless it has one.
    pub fn reserve_function(&mut self, name: &str) {
        if !self.global_addresses.iter().any(|n| n == name) {
            self.global_addresses.push(name.to_string());
        }
    }

    /// Gives every `.global` variable of the module a bank 4 slot, in
    /// declaration order, unless it has one (ptxas gives unused globals
    /// slots too).
    pub fn reserve_all_globals(&mut self, module: &ir::Module) {
        for (id, _) in module.globals.iter() {
            self.reserve_address(module, id.index() as u32);
        }
    }

    /// The bank 4 slot [`Variables::reserve_function`] gave function
    /// `name`.
    pub fn function_slot(&self, name: &str) -> Result<usize, String> {
        self.global_addresses.iter().position(|n| n == name).ok_or_else(|| format!("function {name} has no bank 4 slot"))
    }

    /// The instruction that puts the address of variable `global` plus
    /// `offset` into the register `dst` names: its low 32-bit word, or its
    /// high word when `high`. Shared and constant-bank addresses are 32-bit
    /// offsets (high word zero); a global's address is loaded from its
    /// bank 4 slot, each word on its own (the two registers need not be a
    /// pair).
    pub fn materialise(&self, module: &ir::Module, window: &SharedWindow, global: u32, offset: i32, high: bool, dst: Reg, sm: Sm) -> Result<Inst, String> {
        let g = module.globals.get(GlobalId::new(global as usize)).ok_or_else(|| format!("address of an unknown variable {global}"))?;
        let mov = |value: u32| Mnemonic::new(Op::MOV).build(sm, None, &[Operand::reg(dst), Operand::Imm(value)]).map_err(|e| e.to_string());
        match g.space {
            Space::Shared | Space::Const if high => mov(0),
            Space::Shared => {
                let base = window.offsets.get(&global).ok_or_else(|| format!("shared variable {} is outside the kernel's window", g.name))?;
                mov(base.wrapping_add(offset as u32))
            }
            Space::Const => {
                let base = self.const_offsets.get(&global).ok_or_else(|| format!("constant {} has no bank 3 offset", g.name))?;
                mov(base.wrapping_add(offset as u32))
            }
            Space::Global => {
                if offset != 0 {
                    return Err(format!("the address of {}{offset:+} (a global plus an offset) is not supported yet", g.name));
                }
                if dst.file != RegFile::Gpr {
                    return Err(format!("the address of {} needs a general register, got {dst}", g.name));
                }
                let slot = self.global_addresses.iter().position(|n| *n == g.name).ok_or_else(|| format!("the address of {} has no bank 4 slot", g.name))?;
                let addr = Operand::ConstAddr { bank: 4, index: Reg::zero(RegFile::Gpr), offset: (slot * 8 + if high { 4 } else { 0 }) as i32 };
                Mnemonic::new(Op::LDC).build(sm, None, &[Operand::reg(dst), addr]).map_err(|e| e.to_string())
            }
            other => Err(format!("the address of a {other:?} variable ({}) is not supported", g.name)),
        }
    }
}

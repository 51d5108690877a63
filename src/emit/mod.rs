//! Emission, the last stage (DESIGN.md, "Pipeline and module map"): from
//! the allocated machine code of a module's kernels to the cubin model
//! ([`crate::cubin::module::Module`]) that the cubin writer lays out.
//!
//! This module owns what is decided only once the whole module is known:
//! where module variables live ([`variables`]), each function's final
//! code ([`code`]: scheduling, branch resolution, encoding), and each
//! kernel's record (parameters, register and barrier counts, shared and
//! local sizes, launch bounds, `EXIT` offsets).

pub mod code;
pub mod variables;

use crate::cubin::module::{Kernel, Module, Param, ToolInfo};
use crate::ir::{self, Function, FunctionKind};
use crate::regalloc::{AllocInst, Allocated};
use crate::target::Sm;
use std::fmt;
use variables::Variables;

/// Emission options.
#[derive(Clone, Copy, Debug, Default)]
pub struct EmitOptions {
    /// Run the static hazard checker on every function's final code.
    pub check_hazards: bool,
}

/// Why a kernel could not be emitted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EmitError {
    /// The kernel.
    pub function: String,
    /// What went wrong.
    pub message: String,
}

impl fmt::Display for EmitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.function, self.message)
    }
}

impl std::error::Error for EmitError {}

/// One emitted kernel with the figures `ptxas -v` reports.
#[derive(Clone, Debug)]
pub struct EmittedKernel {
    /// The cubin record.
    pub kernel: Kernel,
    /// Its final code.
    pub code: code::Code,
    /// Spill stores, in bytes.
    pub spill_store_bytes: u32,
    /// Spill loads in bytes.
    pub spill_load_bytes: u32,
}

/// ptxas reports (and the driver allocates) two registers more than the
/// highest one the code names (measured: code using R0..R7 reports 10 on
/// sm_80 and sm_90; R0..R5 reports 8).
const REGISTER_COUNT_EXTRA: u32 = 2;

/// The shared variables (global indices) the code uses.
fn shared_used(func: &Allocated, module: &ir::Module) -> Vec<u32> {
    use crate::ir::entity::EntityRef;
    let mut used = Vec::new();
    for b in &func.blocks {
        for i in &b.insts {
            if let AllocInst::SymAddr { global, .. } = i {
                let shared = module.globals.get(ir::GlobalId::new(*global as usize)).is_some_and(|g| g.space == ir::Space::Shared);
                if shared && !used.contains(global) {
                    used.push(*global);
                }
            }
        }
    }
    used
}

/// The kernel's parameters as the cubin lists them. sm_120 flags the
/// 8-byte pointer parameters (0x500, measured on ptxas 13.5 output).
fn params(f: &Function, sm: Sm) -> Vec<Param> {
    f.params
        .iter()
        .map(|p| Param { offset: p.offset, size: p.size, flags: if sm.number >= 120 && p.size == 8 && p.pointer { 0x500 } else { 0 } })
        .collect()
}

/// Emits one kernel: `func` is its allocated code, `ir_func` its Ori form
/// (parameters, launch bounds).
pub fn emit_kernel(func: &Allocated, ir_func: &Function, module: &ir::Module, vars: &Variables, options: EmitOptions) -> Result<EmittedKernel, EmitError> {
    let fail = |message: String| EmitError { function: func.name.clone(), message };
    if ir_func.kind != Some(FunctionKind::Kernel) {
        return Err(fail("only kernels are emitted on their own (device functions are not supported by emission yet)".into()));
    }
    let sm = func.sm;
    let window = Variables::shared_window(module, &shared_used(func, module), sm);
    let code = code::function_code(func, module, vars, &window, options.check_hazards).map_err(fail)?;
    let mut kernel = Kernel::new(func.name.clone(), code.words.clone(), func.gpr_count + REGISTER_COUNT_EXTRA);
    kernel.params = params(ir_func, sm);
    kernel.barriers = code.barriers;
    kernel.shared_bytes = window.bytes;
    kernel.shared_align = window.align;
    kernel.dynamic_shared = window.dynamic;
    kernel.frame_size = func.frame_bytes;
    kernel.min_stack_size = func.frame_bytes;
    kernel.max_registers = ir_func.bounds.max_regs;
    kernel.required_threads = ir_func.bounds.req_ntid;
    kernel.max_threads = ir_func.bounds.max_ntid;
    kernel.exit_offsets = code.exits.clone();
    Ok(EmittedKernel { kernel, code, spill_store_bytes: func.spill_stores, spill_load_bytes: func.spill_loads })
}

/// The cubin model of a module: `kernels` are the emitted kernels in PTX
/// order, `virtual_sm` the SM the PTX's `.target` names.
pub fn module(sm: Sm, virtual_sm: u32, kernels: Vec<Kernel>, vars: Variables) -> Module {
    Module {
        sm: u32::from(sm.number),
        virtual_sm,
        tool: ToolInfo::default(),
        kernels,
        globals: vars.globals,
        constants: vars.constants,
        global_addresses: vars.global_addresses,
        isa_class: 1,
        flags_top: 0x06,
        line_info: Vec::new(),
        merc: Vec::new(),
    }
}

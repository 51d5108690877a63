//! Emission, the last stage (DESIGN.md, "Pipeline and module map"): from
//! the allocated machine code of a module's kernels to the cubin model
//! ([`crate::cubin::module::Module`]) that the cubin writer lays out.
//!
//! This module owns what is decided only once the whole module is known:
//! where module variables live ([`variables`]), each function's final
//! code ([`code`]: scheduling, branch resolution, encoding), and each
//! kernel's record (parameters, register and barrier counts, shared and
//! local sizes, launch bounds, `EXIT` offsets).
//!
//! Calls. Without `-c` ptxas copies the device functions a kernel calls
//! (those it did not inline: recursion) into the kernel's section after
//! the kernel's code, each with a file-local symbol `$kernel$function`,
//! and no relocation (`CALL.REL.NOINC` is relative); measured on the
//! corpus's `recursion` kernels, sm_75 to sm_120. So does [`emit_kernel`]:
//! the kernel's register count is the largest over the functions placed
//! with it, its minimum stack and CRS stack sizes are "unknown" (all
//! ones, what ptxas writes) when the calls recurse and the sum of frames
//! along the deepest chain otherwise. A call of a function outside the
//! module must be one the driver provides ([`DRIVER_FUNCTIONS`]; ptxas
//! refuses others with "Unresolved extern function"); its address is a
//! bank 4 slot relocated to an undefined symbol, and the kernel's record
//! lists the callee (`EIATTR_EXTERNS`) and the call offsets
//! (`EIATTR_SYSCALL_OFFSETS`).

pub mod code;
pub mod register_maps;
pub mod variables;

use crate::cubin::module::{Function as Function_, Kernel, Module, Param, ToolInfo};
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
    /// Its shared window (where its shared variables are: the debug
    /// information's addresses).
    pub shared: crate::emit::variables::SharedWindow,
}

/// ptxas reports (and the driver allocates) two registers more than the
/// highest one the code names (measured: code using R0..R7 reports 10 on
/// sm_80 and sm_90; R0..R5 reports 8).
const REGISTER_COUNT_EXTRA: u32 = 2;

/// The shared variables (global indices) the code of these functions uses.
fn shared_used(funcs: &[&Allocated], module: &ir::Module) -> Vec<u32> {
    use crate::ir::entity::EntityRef;
    let mut used = Vec::new();
    for b in funcs.iter().flat_map(|f| &f.blocks) {
        for i in &b.insts {
            if let AllocInst::SymAddr { global, function: false, .. } = i {
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

/// Functions outside the module that a program may call without `-c`:
/// the ones the driver provides (ptxas 13.5 accepts calls of these and
/// refuses others with "Unresolved extern function", measured).
pub const DRIVER_FUNCTIONS: &[&str] = &["vprintf", "__assertfail", "malloc", "free"];

/// The `MIN_STACK_SIZE` and `CRS_STACK_SIZE` ptxas writes when the stack
/// a kernel needs cannot be bounded (recursion; measured).
pub const UNBOUNDED_STACK: u32 = u32::MAX;

/// Refuses calls of functions outside the module that the driver does not
/// provide, as ptxas does, in the functions `funcs` (a kernel and the
/// functions its calls reach: [`crate::driver::call_closure`]); the error
/// names the function holding the call, and the call's PTX line and
/// column. Run before the other stages, as ptxas refuses such a program
/// whatever else is in it.
pub fn check_external_calls(module: &ir::Module, funcs: &[ir::FuncId]) -> Result<(), EmitError> {
    for &id in funcs {
        if let Some(f) = module.functions.get(id) {
            external_calls_of(module, f).map_err(|message| EmitError { function: f.name.clone(), message })?;
        }
    }
    Ok(())
}

fn external_calls_of(module: &ir::Module, f: &Function) -> Result<(), String> {
    use crate::ir::entity::EntityRef;
    for &b in &f.layout {
        for &i in &f.blocks[b].insts {
            let d = &f.insts[i];
            if d.opcode != ir::Opcode::Call {
                continue;
            }
            let Some(callee) = module.functions.get(ir::FuncId::new(d.imm as usize)) else { continue };
            if callee.layout.is_empty() && !DRIVER_FUNCTIONS.contains(&callee.name.as_str()) {
                let loc = f.locs[i];
                return Err(format!("{}:{}: unresolved extern function '{}' (only the driver's {} can be called without linking)", loc.line, loc.col, callee.name, DRIVER_FUNCTIONS.join(", ")));
            }
        }
    }
    Ok(())
}

/// The device functions each placed function calls (indices into
/// `placed`, the kernel first), for the stack bound.
fn call_edges(placed: &[&Allocated], ids: &[u32]) -> Vec<Vec<usize>> {
    placed
        .iter()
        .map(|f| {
            let mut out: Vec<usize> = f
                .blocks
                .iter()
                .flat_map(|b| &b.insts)
                .filter_map(|i| match i {
                    AllocInst::Call { callee, external: false, .. } => ids.iter().position(|x| x == callee),
                    _ => None,
                })
                .collect();
            out.sort_unstable();
            out.dedup();
            out
        })
        .collect()
}

/// The deepest stack a kernel's calls can need: its frame plus the
/// largest sum of frames along a chain of calls; `None` when a chain can
/// repeat (recursion).
fn stack_bound(frames: &[u32], edges: &[Vec<usize>]) -> Option<u32> {
    // 0 unvisited, 1 on the path, 2 done.
    fn depth(k: usize, frames: &[u32], edges: &[Vec<usize>], state: &mut [u8], memo: &mut [u32]) -> Option<u32> {
        match state[k] {
            1 => return None,
            2 => return Some(memo[k]),
            _ => {}
        }
        state[k] = 1;
        let mut deepest = 0;
        for &c in &edges[k] {
            deepest = deepest.max(depth(c, frames, edges, state, memo)?);
        }
        state[k] = 2;
        memo[k] = frames[k].saturating_add(deepest);
        Some(memo[k])
    }
    let mut state = vec![0u8; frames.len()];
    let mut memo = vec![0u32; frames.len()];
    depth(0, frames, edges, &mut state, &mut memo)
}

/// Gives the bank 4 slots of one kernel's section (the kernel `func` and
/// its `callees`, in that order) to `vars`: first the functions outside
/// the module it calls (ptxas gives them the first slots: `vprintf` at 0
/// before the format strings, measured), then the globals whose addresses
/// the code loads, in code order. The driver calls it for every kernel,
/// in kernel order, before any code is made, so the kernels can then be
/// emitted in parallel with the same result.
pub fn reserve_slots(vars: &mut Variables, module: &ir::Module, func: &Allocated, callees: &[(u32, Allocated)]) -> Result<(), EmitError> {
    use crate::ir::entity::EntityRef;
    let placed = || std::iter::once(func).chain(callees.iter().map(|(_, a)| a));
    for f in placed() {
        for i in f.blocks.iter().flat_map(|b| &b.insts) {
            if let AllocInst::Call { callee, external: true, .. } = i {
                let g = module
                    .functions
                    .get(ir::FuncId::new(*callee as usize))
                    .ok_or_else(|| EmitError { function: f.name.clone(), message: format!("called function {callee} is not in the module") })?;
                vars.reserve_function(&g.name);
            }
        }
    }
    // Every global has a slot, whether this kernel's code loads its
    // address or not.
    vars.reserve_all_globals(module);
    Ok(())
}

/// Emits one kernel: `func` is its allocated code, `ir_func` its Ori form
/// (parameters, launch bounds), `callees` the allocated device functions
/// its calls reach (with their function indices), which go into its
/// section after its own code, `reached` the device functions (indices)
/// its calls reached before inlining, whose function-scope shared
/// variables its shared window holds.
pub fn emit_kernel(func: &Allocated, ir_func: &Function, module: &ir::Module, vars: &Variables, callees: &[(u32, Allocated)], reached: &[u32], options: EmitOptions) -> Result<EmittedKernel, EmitError> {
    use crate::ir::entity::EntityRef;
    let fail = |message: String| EmitError { function: func.name.clone(), message };
    if ir_func.kind != Some(FunctionKind::Kernel) {
        return Err(fail("only kernels are emitted on their own (device functions go into the sections of the kernels that call them)".into()));
    }
    external_calls_of(module, ir_func).map_err(fail)?;
    for (id, callee) in callees {
        let f = module.functions.get(ir::FuncId::new(*id as usize)).ok_or_else(|| fail(format!("device function {id} is not in the module")))?;
        external_calls_of(module, f).map_err(|m| EmitError { function: callee.name.clone(), message: m })?;
    }
    let sm = func.sm;
    let mut placed: Vec<&Allocated> = vec![func];
    placed.extend(callees.iter().map(|(_, a)| a));
    let kernel_id = module.function_by_name(&ir_func.name).map_or(u32::MAX, |id| id.index() as u32);
    let window = Variables::shared_window(module, kernel_id, reached, &shared_used(&placed, module), sm);
    let own = code::part(func, module, vars, &window).map_err(fail)?;
    let mut parts = Vec::with_capacity(callees.len());
    for (id, callee) in callees {
        let p = code::part(callee, module, vars, &window).map_err(|m| EmitError { function: callee.name.clone(), message: m })?;
        parts.push((*id, p));
    }
    let code = code::link(own, parts, sm, options.check_hazards).map_err(fail)?;
    // Every function in the section runs on the kernel's registers.
    let gprs = placed.iter().map(|f| f.gpr_count).max().unwrap_or(0);
    // Under a limit the two extra registers are not added beyond it (ptxas:
    // `.maxnreg 40` code reaching R39 declares 40), so that a kernel whose
    // launch bounds set the limit can be launched with them.
    // `setmaxnreg` fixes the count (the allocation stayed within it).
    let declared = func.declared_registers.map(|n| n.max(gprs)).unwrap_or_else(|| func.register_limit.map_or(gprs + REGISTER_COUNT_EXTRA, |limit| (gprs + REGISTER_COUNT_EXTRA).min(limit.max(gprs))));
    let mut kernel = Kernel::new(func.name.clone(), code.words.clone(), declared);
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
    if !callees.is_empty() || !code.externs.is_empty() {
        // ptxas: a kernel whose calls recurse gets "cannot be statically
        // determined" (all ones) for both stack sizes; one that calls
        // `vprintf` its frame and no CRS record (measured; ptxas writes a
        // CRS size of 0 where it also opens convergence regions, BSSY,
        // which this compiler does not).
        let ids: Vec<u32> = std::iter::once(u32::MAX).chain(callees.iter().map(|(id, _)| *id)).collect();
        let frames: Vec<u32> = placed.iter().map(|f| f.frame_bytes).collect();
        // A call through a register may reach any placed function: no
        // static bound (as ptxas's "cannot be statically determined").
        let indirect = placed.iter().flat_map(|f| f.blocks.iter().flat_map(|b| &b.insts)).any(|i| matches!(i, AllocInst::Call { callee: crate::select::mach::INDIRECT_CALLEE, .. }));
        let bound = if indirect { None } else { stack_bound(&frames, &call_edges(&placed, &ids)) };
        kernel.min_stack_size = bound.unwrap_or(UNBOUNDED_STACK);
        if bound.is_none() {
            kernel.crs_stack_size = Some(UNBOUNDED_STACK);
        }
    }
    for p in &code.functions {
        let callee = callees.iter().find(|(id, _)| *id == p.callee).map(|(_, a)| a).ok_or_else(|| fail(format!("placed function {} is not a callee", p.callee)))?;
        kernel.functions.push(Function_ {
            // ptxas names a callee's copy after the kernel (`$rec_fib$_Z3fibi`).
            name: format!("${}${}", func.name, callee.name),
            offset: p.offset,
            size: p.size,
            visible: false,
            frame_size: callee.frame_bytes,
            return_register: u32::from(crate::regalloc::abi::RETURN_ADDRESS),
            frame_program: p.frame_program.clone(),
            // What the relocation adds the kernel's address to (a REL
            // entry, before sm_90, has no addend of its own).
            frame_location: u64::from(p.offset),
        });
    }
    for &x in &code.externs {
        let f = module.functions.get(ir::FuncId::new(x as usize)).ok_or_else(|| fail(format!("called function {x} is not in the module")))?;
        kernel.externs.push(f.name.clone());
    }
    kernel.syscall_offsets = code.syscalls.clone();
    kernel.textures = texref_words(module, ir_func, sm);
    kernel.surfaces = surfref_words(module, ir_func, sm);
    kernel.constant2 = func.constant2.clone();
    // Spills are the kernel's own (ptxas -v reports each function's apart).
    Ok(EmittedKernel { kernel, code, spill_store_bytes: func.spill_stores, spill_load_bytes: func.spill_loads, shared: window })
}

/// The constant-bank words of the texrefs `f` fetches through (see
/// [`crate::ir::texture::texref_slot`]), the last first, as ptxas lists
/// their relocations.
fn texref_words(module: &ir::Module, f: &ir::Function, sm: crate::target::Sm) -> Vec<(u32, String)> {
    let mut words: Vec<(u32, String)> = ir::texture::texrefs_used(f)
        .into_iter()
        .filter_map(|k| Some((ir::texture::texref_slot(sm, f, k)?, module.texrefs.get(k as usize)?.clone())))
        .collect();
    words.reverse();
    words
}

/// The constant-bank words of the surfrefs `f` uses (see
/// [`crate::ir::texture::surfref_slot`]), the last first.
fn surfref_words(module: &ir::Module, f: &ir::Function, sm: crate::target::Sm) -> Vec<(u32, String)> {
    let mut words: Vec<(u32, String)> = ir::texture::surfrefs_used(f)
        .into_iter()
        .filter_map(|k| Some((ir::texture::surfref_slot(sm, f, k)?, module.surfrefs.get(k as usize)?.clone())))
        .collect();
    words.reverse();
    words
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stack_bound_sums_frames_along_the_deepest_chain() {
        // kernel → f → g, kernel → g: 16 + 32 + 8.
        assert_eq!(stack_bound(&[16, 32, 8], &[vec![1, 2], vec![2], vec![]]), Some(56));
        assert_eq!(stack_bound(&[16], &[vec![]]), Some(16));
        // f calls itself: no bound (ptxas writes all ones).
        assert_eq!(stack_bound(&[0, 24], &[vec![1], vec![1]]), None);
        // f and g call each other.
        assert_eq!(stack_bound(&[0, 8, 8], &[vec![1], vec![2], vec![1]]), None);
    }

    #[test]
    fn device_function_frame_program_starts_as_ptxas_writes_it() {
        use crate::isa::inst::Inst;
        use crate::isa::operand::{Operand, Reg, RegFile, RegNum};
        let sm = Sm::new(90);
        let r = |n: u8| Operand::reg(Reg { file: RegFile::Gpr, num: RegNum::Phys(n) });
        let (pt, rz) = (Operand::reg(Reg::zero(RegFile::Pred)), Operand::reg(Reg::zero(RegFile::Gpr)));
        let sp = |by: i32| Inst::build(sm, "IADD3", None, &[r(1), pt, pt, r(1), Operand::Imm(by as u32), rz]).expect("builds");
        let code = vec![
            sp(-0x18),
            Inst::build(sm, "MOV", None, &[r(4), r(2)]).expect("builds"),
            sp(0x18),
            Inst::build(sm, "RET.REL.NODEC", None, &[r(2), Operand::Target(0)]).expect("builds"),
        ];
        let program = code::frame_program_of(&code);
        // ptxas 13.5, `$rec_fib$_Z3fibi` on sm_90: DW_CFA_advance_loc4 1
        // instruction (4 units of 4 bytes), DW_CFA_def_cfa R1, 0x18.
        assert_eq!(program[..10], [0x04, 0x04, 0, 0, 0, 0x0c, 0x81, 0x80, 0x80, 0x28]);
        assert_eq!(program[10], 0x18);
        // Back to R1 + 0 after the frame is given back (two more instructions).
        assert_eq!(program[11..], [0x04, 0x08, 0, 0, 0, 0x0c, 0x81, 0x80, 0x80, 0x28, 0x00]);
    }

    #[test]
    fn only_the_drivers_functions_may_be_called_outside_the_module() {
        let src = "
.version 8.0
.target sm_80
.address_size 64
.extern .func foobar(.param .b64 a);
.visible .entry k(.param .u64 p)
{
    .reg .b64 %a;
    ld.param.u64 %a, [p];
    { .param .b64 a0; st.param.b64 [a0], %a; call.uni foobar, (a0); }
    ret;
}
";
        let module = crate::ptx::parse_and_check(src, &Default::default()).expect("checks");
        let errors = crate::driver::compile_to_cubin(&module, Sm::new(80), Some(src), Default::default(), Default::default()).expect_err("foobar is not linked");
        assert!(errors.iter().any(|e| e.message.contains("unresolved extern function 'foobar'") && e.message.starts_with("10:")), "{errors:?}");
        let ok = src.replace("foobar", "free");
        let module = crate::ptx::parse_and_check(&ok, &Default::default()).expect("checks");
        assert!(crate::driver::compile_to_cubin(&module, Sm::new(80), Some(&ok), Default::default(), Default::default()).is_ok());
    }
}

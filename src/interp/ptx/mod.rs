//! The PTX interpreter: runs a parsed and checked module's kernel over a
//! whole grid, without a GPU, bit-exactly where PTX defines the result.
//!
//! * [`lower`]: the pre-pass (names → register slots, labels → indices,
//!   modifiers → fields, variables → addresses);
//! * [`exec`]: threads, warps, divergence and reconvergence, barriers,
//!   calls, memory spaces (its module doc describes the scheduling model);
//! * [`ops`]: per-lane instruction semantics ([`video`]: the video
//!   instructions);
//! * [`warp`]: warp-wide instructions (`shfl`, `vote`, `match`, `redux`,
//!   `ldmatrix`, `mma`);
//! * [`float`]: exact rounding to every float format under every mode;
//! * [`layout`]: the generic address map.
//!
//! Modelling choices worth knowing:
//! * CTAs run one after another, so a kernel that waits for another CTA
//!   (a grid-wide spin lock) ends with the step budget exhausted;
//! * `vprintf` is a no-op returning 0 (nothing is printed);
//!   `__assertfail` ends the run with a trap;
//! * `%clock`, `%clock64` and `%globaltimer` count warp-instructions
//!   executed so far (deterministic, increasing); `%smid` is 0, `%nsmid` 1;
//! * the `.approx` functions are computed in f64 and rounded to nearest
//!   (see [`ops`] for where that can differ from the GPU).

pub mod exec;
pub mod float;
pub mod layout;
pub mod lower;
pub mod ops;
pub mod video;
pub mod warp;

use crate::interp::error::{ErrorKind, InterpError, Site};
use crate::interp::memory::Region;
use crate::interp::{Launch, LaunchSpec};
use crate::ptx::ast::Module;
use lower::ParamLoc;

/// Run options.
#[derive(Clone, Debug)]
pub struct Options {
    /// Warp-instructions allowed before the run ends with
    /// [`ErrorKind::StepBudget`].
    pub step_budget: u64,
}

impl Default for Options {
    fn default() -> Options {
        Options { step_budget: 50_000_000 }
    }
}

/// The result of a run.
#[derive(Debug)]
pub struct Outcome {
    /// The launch with device memory as the kernel left it.
    pub launch: Launch,
    /// Warp-instructions executed.
    pub warp_instructions: u64,
}

/// Largest shared memory per CTA the interpreter allocates (static plus
/// dynamic); the GPU's limit is 228 KiB.
pub const MAX_SHARED_BYTES: u64 = 1 << 24;

/// Runs the kernel `spec.kernel` of `module` as `spec` describes.
pub fn run(module: &Module, spec: &LaunchSpec, options: &Options) -> Result<Outcome, InterpError> {
    let mut launch = spec.materialize()?;
    let prog = lower::lower(module, &mut launch.memory)?;
    let kernel = prog
        .funcs
        .iter()
        .position(|f| f.entry && f.defined && f.name == spec.kernel)
        .ok_or_else(|| InterpError::new(ErrorKind::Launch, format!("no kernel named '{}'", spec.kernel)))? as u32;
    let kf = &prog.funcs[kernel as usize];
    let site = Site::Ptx(kf.span);
    if launch.args.len() < kf.params.len() {
        return Err(InterpError::new(ErrorKind::Launch, format!("kernel '{}' takes {} parameters, the launch gives {}", kf.name, kf.params.len(), launch.args.len())).at(site));
    }
    let size = prog.kparam_size.get(&kernel).copied().unwrap_or(0);
    let mut kparam = vec![0u8; size as usize];
    for (k, p) in kf.params.iter().enumerate() {
        let ParamLoc::Mem { var, size } = p else {
            return Err(InterpError::new(ErrorKind::Unsupported, "kernel parameters in registers").at(site));
        };
        let arg = &launch.args[k].bytes;
        if arg.len() as u64 != *size {
            return Err(InterpError::new(ErrorKind::Launch, format!("parameter {k} of '{}' has {size} bytes, the launch gives {}", kf.name, arg.len())).at(site));
        }
        let at = prog.vars[*var as usize].addr as usize;
        kparam[at..at + arg.len()].copy_from_slice(arg);
    }
    let shared = prog.dynamic_shared + spec.shared_bytes as u64;
    if shared > MAX_SHARED_BYTES {
        return Err(InterpError::new(ErrorKind::Launch, format!("{shared} bytes of shared memory per CTA, more than the interpreter allows")));
    }
    if spec.threads_per_cta() == 0 {
        return Err(InterpError::new(ErrorKind::Launch, "an empty block"));
    }
    let mut konst = Region::new(0, prog.konst.clone(), "const");
    konst.read_only = true;
    let mut kp = Region::new(0, kparam, "param");
    kp.read_only = true;
    let memory = std::mem::take(&mut launch.memory);
    let mut machine = exec::Machine {
        prog: &prog,
        kernel,
        global: memory,
        konst,
        kparam: kp,
        dims: exec::Dims { grid: spec.grid, block: spec.block, dyn_shared: spec.shared_bytes },
        steps: 0,
        budget: options.step_budget,
        textures: launch.textures.clone(),
    };
    // A texref holds the handle of the texture the launch binds to it.
    for (name, var) in &prog.texrefs {
        if let (Some(t), Some(v)) = (launch.textures.iter().find(|t| t.spec.texref.as_deref() == Some(name.as_str())), prog.vars.get(*var as usize)) {
            machine.global.write(v.addr, &u64::from(t.spec.handle).to_le_bytes(), 1).map_err(InterpError::from)?;
        }
    }
    let result = machine.run();
    let steps = machine.steps;
    launch.memory = machine.global;
    result?;
    Ok(Outcome { launch, warp_instructions: steps })
}

#[cfg(test)]
mod tests;

//! The SASS interpreter: runs the code of a ptxas (or ptx2sass) cubin on
//! a launch spec, without a GPU, checking the control codes for hazards.
//!
//! * [`load`]: the cubin's kernel, constant banks (bank 0 laid out as the
//!   SM expects, with the arguments), globals and relocations;
//! * [`op`]: instructions decoded once ([`crate::isa::inst::Inst::decode`])
//!   and translated into a compact executable form (the operand model and
//!   the routing by family);
//! * [`ops`]: the instructions' semantics, one module per family (integer,
//!   bits, comparisons, f32, f64, half, conversions, special registers,
//!   memory, warp, control flow, textures, matrices), each holding its
//!   executable form, translation and execution;
//! * [`exec`]: the machine — register files, memory spaces, warps and the
//!   reconvergence model (documented there) — and the issue of each
//!   instruction to its family's execution;
//! * [`num`]: number formats, rounding modes and MUFU approximations;
//! * [`matrix`]: the warp-wide matrix multiply-accumulate.
//!
//! Everything the interpreter cannot do, or that the program does wrong,
//! is an [`InterpError`] with the instruction's site (function and byte
//! offset) and the thread; nothing panics on any input.

pub mod exec;
pub mod hazard;
pub mod load;
pub mod matrix;
pub mod num;
pub mod op;
pub mod ops;


use crate::interp::{ErrorKind, InterpError, Launch, LaunchSpec};
use crate::isa::inst::Inst;

/// What to do about hazards (a register read before its producer's result
/// is ready, by the control codes and the SM's latencies).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum HazardCheck {
    /// Do not check.
    Off,
    /// Collect them in [`Outcome::hazards`] and go on.
    Report,
    /// The first one ends the run with [`ErrorKind::Hazard`].
    #[default]
    Fail,
}

/// Run options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Warp-instructions the whole run may issue.
    pub step_budget: u64,
    /// Hazard checking.
    pub hazards: HazardCheck,
    /// Print every issued instruction with the first lane's registers
    /// (debugging aid, to stderr).
    pub trace: bool,
    /// The lane whose registers the trace prints while it executes (the
    /// first executing lane otherwise).
    pub trace_lane: u8,
}

impl Default for Options {
    fn default() -> Options {
        Options { step_budget: 100_000_000, hazards: HazardCheck::Fail, trace: false, trace_lane: 0 }
    }
}

/// A finished run.
#[derive(Debug)]
pub struct Outcome {
    /// Device memory after the run, with the launch's buffers.
    pub launch: Launch,
    /// Warp-instructions issued.
    pub warp_instructions: u64,
    /// Hazards found (with [`HazardCheck::Report`]).
    pub hazards: Vec<InterpError>,
}

/// Loads `cubin`, runs `spec`'s kernel on it and returns device memory.
pub fn run(cubin: &[u8], spec: &LaunchSpec, options: &Options) -> Result<Outcome, InterpError> {
    let mut loaded = load::load(cubin, spec)?;
    let program = translate(&loaded)?;
    let counters = exec::run_grid(&program, &mut loaded, spec, options)?;
    Ok(Outcome { launch: loaded.launch, warp_instructions: counters.steps, hazards: counters.hazards })
}

/// Decodes and translates the kernel's code once.
pub fn translate(loaded: &load::Loaded) -> Result<exec::Program, InterpError> {
    if loaded.words.len() > 1 << 24 {
        return Err(InterpError::new(ErrorKind::Malformed, "the kernel is too large"));
    }
    let mut t = op::Translator { rows: op::Rows::default(), banks: &loaded.banks, textures: &loaded.launch.textures, sm: loaded.sm };
    let mut code = Vec::with_capacity(loaded.words.len());
    let mut insts = Vec::with_capacity(loaded.words.len());
    for (k, &word) in loaded.words.iter().enumerate() {
        let (op, inst) = match Inst::decode(word, loaded.sm) {
            Ok(inst) => (t.translate(&inst, (k * 16) as u32), inst),
            Err(_) => (op::Op::Unsupported(format!("undecodable instruction word {word:#034x}").into_boxed_str()), Inst::empty()),
        };
        code.push(exec::Code { op, guard: op::guard_of(&inst), ctrl: inst.ctrl, hz: hazard::HazardInfo::of(&inst, loaded.sm) });
        insts.push(inst);
        if t.rows.total() > u16::MAX as usize - 8 {
            return Err(InterpError::new(ErrorKind::Unsupported, "too many distinct constant operands"));
        }
    }
    Ok(exec::Program { code, insts, rows: t.rows })
}

//! A kernel built in memory, compiled and disassembled, with no PTX text:
//! what a compiler that uses ptx2sass as its back end does.
//!
//! `cargo run --release --example build_kernel [-- sm_XX]` (default sm_90)
//!
//! The kernel is `saxpy` (`y[i] = a * x[i] + y[i]` for `i < n`, one
//! thread per element), the same computation as the `saxpy` kernel of
//! `examples/saxpy.ptx`, built instruction for instruction as the PTX
//! front end builds that one. `tests/library_api.rs` runs this example,
//! checks that its cubin equals the PTX's, and runs the cubin in the SASS
//! interpreter.

use ptx2sass::ori::{BinaryOp, Compare, Module, Space, Special, Type};
use ptx2sass::{Error, Options, Target, compile, disassemble};

/// The module holding `saxpy`.
pub fn saxpy_module() -> Result<Module, Error> {
    let mut module = Module::new();
    module.kernel("saxpy", |b| {
        // Parameters, in the order the host passes them: n, a, x, y.
        let n = b.param("saxpy_param_n", Type::U32);
        let a = b.param("saxpy_param_a", Type::F32);
        let x = b.param("saxpy_param_x", Type::U64);
        let y = b.param("saxpy_param_y", Type::U64);
        // i = ctaid.x * ntid.x + tid.x
        let ctaid = b.special(Special::CtaidX);
        let ntid = b.special(Special::NtidX);
        let tid = b.special(Special::TidX);
        let i = b.fma(Type::S32, ctaid, ntid, tid);
        // Threads past the end skip to the exit.
        let done = b.create_block();
        let body = b.create_block();
        let outside = b.compare(Compare::Ge, Type::U32, i, n);
        b.branch(outside, done, &[], body, &[]);

        b.switch_to_block(body);
        let x = b.to_global(x);
        let y = b.to_global(y);
        let four = b.iconst(Type::U32, 4);
        let offset = b.binary(BinaryOp::MulWide, Type::U32, i, four);
        let x_i = b.binary(BinaryOp::Add, Type::S64, x, offset);
        let xv = b.load(Space::Global, Type::F32, x_i, 0);
        let four = b.iconst(Type::U32, 4);
        let y_i = b.mad_wide(Type::U32, i, four, y);
        let yv = b.load(Space::Global, Type::F32, y_i, 0);
        let result = b.fma(Type::F32, a, xv, yv);
        b.store(Space::Global, Type::F32, y_i, 0, result);
        b.jump(done, &[]);

        b.switch_to_block(done);
        b.exit();
    })?;
    Ok(module)
}

/// Builds, compiles for `target` and returns the cubin and its listing.
pub fn build_and_compile(target: Target) -> Result<(Vec<u8>, String), Error> {
    let module = saxpy_module()?;
    let output = compile(&module, &Options::new(target))?;
    let listing = disassemble(&output.cubin)?;
    Ok((output.cubin, listing))
}

fn main() -> Result<(), Error> {
    run(std::env::args().nth(1).as_deref().unwrap_or("sm_90").parse()?)
}

/// Builds the module, compiles it for `target` and prints the module, its
/// kernels' resource use and the SASS.
pub fn run(target: Target) -> Result<(), Error> {
    let module = saxpy_module()?;
    println!("// the module as built (Ori IR):\n{}", module.to_text());
    let output = compile(&module, &Options::new(target))?;
    for k in &output.kernels {
        println!(
            "// {}: {} registers, {} instructions, {} bytes stack, {} bytes spilled",
            k.name, k.registers, k.instructions, k.stack_bytes, k.spill_store_bytes
        );
    }
    println!("// cubin: {} bytes for {target}\n", output.cubin.len());
    print!("{}", disassemble(&output.cubin)?);
    Ok(())
}

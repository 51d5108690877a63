//! A PTX file compiled to a cubin through the crate-root interface only
//! (what a program that links ptx2sass as a library does).
//!
//! `cargo run --release --example compile_ptx -- [ptxas options] FILE.ptx -o FILE.cubin`
//!
//! The options are `ptxas`'s (`-arch=sm_90`, `-O3`, `--maxrregcount=32`,
//! `-v`, …); the cubin is the one the `ptx2sass` tool writes for the same
//! file and options, byte for byte (`tests/library_api.rs` runs this
//! example and checks it).

use ptx2sass::{Options, compile};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(report) => {
            print!("{report}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprint!("{message}");
            ExitCode::from(1)
        }
    }
}

/// Compiles as the command line `args` says and writes the cubin; the
/// `-v` report (empty without `-v`) or the messages of a failure.
pub fn run(args: &[String]) -> Result<String, String> {
    let mut options = Vec::new();
    let (mut input, mut output) = (None, None);
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "-o" => output = args.next(),
            _ if arg.ends_with(".ptx") => input = Some(arg),
            _ => options.push(arg.as_str()),
        }
    }
    let (Some(input), Some(output)) = (input, output) else {
        return Err("usage: compile_ptx [ptxas options] FILE.ptx -o FILE.cubin\n".into());
    };
    let options = Options::from_ptxas_args(&options).map_err(|e| e.render_ptxas(input))?;
    let source = std::fs::read_to_string(input).map_err(|e| format!("compile_ptx: cannot read {input}: {e}\n"))?;
    let out = compile(&source, &options).map_err(|e| e.render(input, &source))?;
    std::fs::write(output, &out.cubin).map_err(|e| format!("compile_ptx: cannot write {output}: {e}\n"))?;
    let mut report = String::new();
    for w in &out.warnings {
        report.push_str(&w.render_ptxas(input));
        report.push('\n');
    }
    report.push_str(out.info_log());
    Ok(report)
}

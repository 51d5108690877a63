//! A PTX file compiled to a cubin through the crate-root interface only
//! (what a program that links ptx2sass as a library does).
//!
//! `cargo run --release --example compile_ptx -- [ptxas options] FILE.ptx -o FILE.cubin`
//!
//! The options are `ptxas`'s (`-arch=sm_90`, `-O3`, `--maxrregcount=32`,
//! `-v`, …); the cubin is the one the `ptx2sass` tool writes for the same
//! file and options, byte for byte (`tests/library_api.rs` checks it).

use ptx2sass::{Options, compile};
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut options = Vec::new();
    let (mut input, mut output) = (None, None);
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "-o" => output = args.next(),
            _ if arg.ends_with(".ptx") => input = Some(arg),
            _ => options.push(arg),
        }
    }
    let (Some(input), Some(output)) = (input, output) else {
        eprintln!("usage: compile_ptx [ptxas options] FILE.ptx -o FILE.cubin");
        return ExitCode::from(2);
    };
    let options = match Options::from_ptxas_args(&options) {
        Ok(o) => o,
        Err(e) => {
            eprint!("{}", e.render_ptxas(&input));
            return ExitCode::from(2);
        }
    };
    let source = match std::fs::read_to_string(&input) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("compile_ptx: cannot read {input}: {e}");
            return ExitCode::from(1);
        }
    };
    match compile(&source, &options) {
        Ok(out) => {
            for w in &out.warnings {
                eprintln!("{}", w.render_ptxas(&input));
            }
            print!("{}", out.info_log());
            if let Err(e) = std::fs::write(&output, &out.cubin) {
                eprintln!("compile_ptx: cannot write {output}: {e}");
                return ExitCode::from(1);
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprint!("{}", e.render(&input, &source));
            ExitCode::from(1)
        }
    }
}

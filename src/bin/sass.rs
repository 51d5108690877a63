//! `sass`: disassemble, assemble and run SASS (argument handling only).
//! The instruction model and cubin support arrive with later stages; until
//! then every subcommand says so plainly.

use std::process::ExitCode;

const USAGE: &str = "\
usage: sass <command> [options]

commands:
  dis FILE.cubin                 disassemble (not implemented yet)
  asm -arch=sm_XX FILE.sass      assemble (not implemented yet)
  run --launch SPEC.json FILE    run in the interpreter (not implemented yet)
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        None | Some("-h") | Some("--help") => {
            print!("{USAGE}");
            ExitCode::SUCCESS
        }
        Some(cmd @ ("dis" | "asm" | "run")) => {
            eprintln!("sass: '{cmd}' is not implemented yet: the SASS instruction model is still to come");
            ExitCode::from(2)
        }
        Some(other) => {
            eprintln!("sass: unknown command '{other}'\n{USAGE}");
            ExitCode::from(2)
        }
    }
}

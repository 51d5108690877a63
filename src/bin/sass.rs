//! `sass`: disassemble, assemble and run SASS (argument handling only; the
//! work happens in the library's `isa` and `cubin` modules).

use ptx2sass::cubin;
use ptx2sass::isa::{bits, family, listing};
use ptx2sass::target::Sm;
use std::process::ExitCode;

const USAGE: &str = "\
usage: sass <command> [options]

commands:
  dis [--hex] FILE.cubin         list every function of a cubin
  dis [--hex] -b sm_XX FILE.bin  list raw instruction words (16 bytes each,
                                 little-endian, low 64-bit word first)
  asm -arch=sm_XX FILE.sass      assemble (not implemented yet)
  run --launch SPEC.json FILE    run in the interpreter (not implemented yet)

Listing lines are `/*address*/ [control] instruction ;`, the instruction as
nvdisasm prints it; words the decoder does not know yet print as
`.raw 0x<low>, 0x<high> ;`.
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        None | Some("-h") | Some("--help") => {
            print!("{USAGE}");
            ExitCode::SUCCESS
        }
        Some("dis") => match dis(&args[1..]) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("sass dis: {e}");
                ExitCode::from(1)
            }
        },
        Some(cmd @ ("asm" | "run")) => {
            eprintln!("sass: '{cmd}' is not implemented yet");
            ExitCode::from(2)
        }
        Some(other) => {
            eprintln!("sass: unknown command '{other}'\n{USAGE}");
            ExitCode::from(2)
        }
    }
}

fn dis(args: &[String]) -> Result<(), String> {
    let mut hex = false;
    let mut raw_sm = None;
    let mut file = None;
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--hex" | "-hex" => hex = true,
            "-b" => {
                i += 1;
                let name = args.get(i).ok_or("-b needs an SM (sm_90)")?;
                raw_sm = Some(Sm::parse_sm(&name.to_lowercase()).ok_or(format!("unknown SM '{name}'"))?);
            }
            other if other.starts_with('-') => return Err(format!("unknown option '{other}'")),
            other => file = Some(other.to_string()),
        }
        i += 1;
    }
    let file = file.ok_or("no input file")?;
    let bytes = std::fs::read(&file).map_err(|e| format!("{file}: {e}"))?;
    let mut out = String::new();
    match raw_sm {
        Some(sm) => {
            family::measured_sm(sm).ok_or(format!("{sm} has no encoding tables"))?;
            let words = bits::words_from_bytes(&bytes).ok_or(format!("{file}: size {} is not a multiple of 16", bytes.len()))?;
            listing::write_listing(&mut out, &words, sm, 0, hex);
        }
        None => {
            let code = cubin::read_code(&bytes).map_err(|e| format!("{file}: {e}"))?;
            let sm = code.sm.ok_or(format!("{file}: e_flags name no SM this tool knows; give one with -b"))?;
            out.push_str(&format!("// {file}: {sm}\n"));
            for f in &code.functions {
                out.push_str(&format!("\n{}:\n", f.name));
                listing::write_listing(&mut out, &f.words, sm, 0, hex);
            }
        }
    }
    print!("{out}");
    Ok(())
}

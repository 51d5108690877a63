//! `sass`: disassemble, assemble and run SASS (argument handling only; the
//! work happens in the library's `isa` and `cubin` modules).

use ptx2sass::internals::cubin;
use ptx2sass::internals::isa::{bits, family, listing};
use ptx2sass::internals::target::Sm;
use std::process::ExitCode;

const USAGE: &str = "\
usage: sass <command> [options]

commands:
  dis [--hex] FILE.cubin         list every function of a cubin
  dis [--hex] -b sm_XX FILE.bin  list raw instruction words (16 bytes each,
                                 little-endian, low 64-bit word first)
  asm -arch=sm_XX FILE.sass -o FILE.cubin
                                 assemble a listing with kernel directives or
                                 a section listing (what `dis` prints for a
                                 cubin) into a cubin
  asm -arch=sm_XX FILE.sass -o FILE.bin
                                 assemble a listing into raw instruction
                                 words, all functions in order
  run --launch SPEC.json [--hazards fail|report|off] [--steps N] [--trace] [--trace-lane L] FILE.cubin
                                 run one kernel in the SASS interpreter and
                                 print its output buffers (`param N: <hex>`,
                                 as scripts/gpu-run.py does); --trace prints
                                 each issued instruction with R0-R23 and
                                 P0-P6 of the first executing lane (of lane
                                 L with --trace-lane L, while it executes)

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
        Some("asm") => match asm(&args[1..]) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("sass asm: {e}");
                ExitCode::from(1)
            }
        },
        Some("run") => run(&args[1..]),
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
            let container = cubin::elf::read(&bytes).map_err(|e| format!("{file}: {e}"))?.elf;
            let sm = container.sm().and_then(|n| Sm::parse_number(&n.to_string())).ok_or(format!("{file}: e_flags name no SM this tool knows; give one with -b"))?;
            out.push_str(&format!("// {file}: {sm}\n"));
            // The module form where the module model rebuilds the file
            // exactly, else the section form: both read back with `asm`.
            cubin::listing::write_cubin(&mut out, &container, &bytes, sm, hex);
        }
    }
    // A closed pipe (`sass dis X | head`) ends the output quietly.
    use std::io::Write;
    let _ = std::io::stdout().lock().write_all(out.as_bytes());
    Ok(())
}

fn asm(args: &[String]) -> Result<(), String> {
    let mut sm = None;
    let mut output = None;
    let mut file = None;
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        if let Some(name) = a.strip_prefix("-arch=").or_else(|| a.strip_prefix("--gpu-name=")) {
            sm = Some(Sm::parse_sm(name).ok_or(format!("unknown SM '{name}'"))?);
        } else if a == "-arch" || a == "-o" {
            i += 1;
            let v = args.get(i).ok_or(format!("{a} needs a value"))?;
            if a == "-o" {
                output = Some(v.clone());
            } else {
                sm = Some(Sm::parse_sm(v).ok_or(format!("unknown SM '{v}'"))?);
            }
        } else if a.starts_with('-') {
            return Err(format!("unknown option '{a}'"));
        } else {
            file = Some(a.to_string());
        }
        i += 1;
    }
    let sm = sm.ok_or("give the target with -arch=sm_XX")?;
    let file = file.ok_or("no input file")?;
    let output = output.ok_or("give the output file with -o FILE.cubin or -o FILE.bin")?;
    let text = std::fs::read_to_string(&file).map_err(|e| format!("{file}: {e}"))?;
    let located = |e: cubin::listing::ListingError| format!("{file}:{}: error: {}", e.line, e.message);
    let bytes = if output.ends_with(".cubin") {
        family::measured_sm(sm).ok_or(format!("{sm} has no encoding tables"))?;
        cubin::elf::write(&cubin::listing::read(&text, sm).map_err(located)?)
    } else {
        bits::words_to_bytes(&cubin::listing::read_words(&text, sm).map_err(located)?)
    };
    std::fs::write(&output, bytes).map_err(|e| format!("{output}: {e}"))
}

/// `sass run`: exit status 2 for bad arguments or a bad spec, 1 when the
/// run fails (fault, hazard, unsupported instruction), 0 otherwise.
fn run(args: &[String]) -> ExitCode {
    use ptx2sass::internals::interp::{LaunchSpec, sass};
    let mut spec_path = None;
    let mut file = None;
    let mut options = sass::Options::default();
    let mut i = 0;
    let usage = |e: String| {
        eprintln!("sass run: {e}");
        ExitCode::from(2)
    };
    while i < args.len() {
        let a = args[i].as_str();
        let (flag, inline) = match a.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
            _ => (a, None),
        };
        let mut value = || -> Option<String> {
            inline.clone().or_else(|| {
                i += 1;
                args.get(i).cloned()
            })
        };
        match flag {
            "--launch" => match value() {
                Some(v) => spec_path = Some(v),
                None => return usage("--launch needs a spec file".into()),
            },
            "--hazards" => {
                options.hazards = match value().as_deref() {
                    Some("fail") => sass::HazardCheck::Fail,
                    Some("report") => sass::HazardCheck::Report,
                    Some("off") => sass::HazardCheck::Off,
                    other => return usage(format!("--hazards takes fail, report or off, not {other:?}")),
                }
            }
            "--trace" => options.trace = true,
            "--trace-lane" => match value().and_then(|v| v.parse::<u8>().ok()).filter(|l| *l < 32) {
                Some(l) => {
                    options.trace = true;
                    options.trace_lane = l;
                }
                None => return usage("--trace-lane needs a lane number below 32".into()),
            },
            "--steps" => match value().and_then(|v| v.parse().ok()) {
                Some(n) => options.step_budget = n,
                None => return usage("--steps needs a number".into()),
            },
            _ if a.starts_with('-') => return usage(format!("unknown option '{a}'")),
            _ => file = Some(a.to_string()),
        }
        i += 1;
    }
    let (Some(spec_path), Some(file)) = (spec_path, file) else { return usage("needs --launch SPEC.json and a cubin".into()) };
    let spec = match std::fs::read_to_string(&spec_path).map_err(|e| e.to_string()).and_then(|t| LaunchSpec::from_json(&t).map_err(|e| e.to_string())) {
        Ok(s) => s,
        Err(e) => return usage(format!("{spec_path}: {e}")),
    };
    let bytes = match std::fs::read(&file) {
        Ok(b) => b,
        Err(e) => return usage(format!("{file}: {e}")),
    };
    match sass::run(&bytes, &spec, &options) {
        Ok(out) => {
            for h in &out.hazards {
                eprintln!("sass run: {file}: {h}");
            }
            // A closed pipe (`sass run ... | head`) is not an error.
            let _ = std::io::Write::write_all(&mut std::io::stdout().lock(), out.launch.outputs_text().as_bytes());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("sass run: {file}: {e}");
            ExitCode::from(1)
        }
    }
}

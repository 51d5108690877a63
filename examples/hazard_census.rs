//! Runs the static hazard checker over cubins (ptxas's, to find where the
//! checker's rules are stricter than ptxas's own code) and prints one line
//! per reported hazard: `sm file function kind register producer | consumer | why`,
//! and on stderr the first undecodable word of each function it cannot check.
//!
//! usage: cargo run --release --example hazard_census -- SM FILE.cubin...

use object::{Object, ObjectSection};
use ptx2sass::internals::isa::inst::Inst;
use ptx2sass::internals::sched::check;
use ptx2sass::internals::target::Sm;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(sm) = args.first().and_then(|s| s.parse::<u16>().ok()) else {
        eprintln!("usage: hazard_census SM FILE.cubin...");
        std::process::exit(2);
    };
    let s = Sm::new(sm);
    let (mut functions, mut undecodable, mut rejected) = (0, 0, 0);
    for file in &args[1..] {
        let Ok(bytes) = std::fs::read(file) else { continue };
        let Ok(elf) = object::File::parse(&*bytes) else { continue };
        for sec in elf.sections() {
            let Some(name) = sec.name().ok().and_then(|n| n.strip_prefix(".text.")) else { continue };
            let Some(words) = sec.data().ok().and_then(ptx2sass::internals::isa::bits::words_from_bytes) else { continue };
            let code = match words.iter().map(|&w| Inst::decode(w, s)).collect::<Result<Vec<_>, _>>() {
                Ok(code) => code,
                Err(_) => {
                    // The first word the decoder lacks, for the decoder's gaps.
                    if let Some((k, w)) = words.iter().enumerate().find(|(_, w)| Inst::decode(**w, s).is_err()) {
                        eprintln!("undecodable\t{sm}\t{file}\t{name}\t/*{:04x}*/\t{w:#034x}", k * 16);
                    }
                    undecodable += 1;
                    continue;
                }
            };
            if !ptx2sass::internals::interp::sass::hazard::scheduled(&code) {
                continue;
            }
            functions += 1;
            if let Err(hazards) = check::check_against(&code, s, ptx2sass::internals::sched::latency::checking_table(s)) {
                rejected += 1;
                for h in hazards {
                    let producer = h.producer.map_or_else(|| "-".to_string(), |p| code[p].text(s, p as u64 * 16));
                    println!("{sm}\t{file}\t{name}\t{h}\t{producer}\t{}", code[h.consumer].text(s, h.consumer as u64 * 16));
                }
            }
        }
    }
    eprintln!("sm_{sm}: {functions} functions checked, {rejected} rejected, {undecodable} undecodable");
}

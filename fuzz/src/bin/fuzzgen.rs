//! The program generator without libFuzzer: seeded random bytes in, one
//! check per generated program, counts out. CI runs it (no cargo-fuzz to
//! install, no sanitizer flags); campaigns run it for long counts.
//!
//! ```text
//! fuzzgen MODE [--count N] [--seconds S] [--seed S] [--sm 75,80,...] [--save DIR] [--allow CLASS,...] [--log FILE]
//!   print        the PTX and launch spec of program --seed (for one SM)
//!   print-mutant the token-mutated PTX accept-reject checks for --seed
//!   gen          generate only (programs per second)
//!   compile      ptx2sass with verifier, regalloc checker, hazard checker
//!                on generated programs and token-mutated ones: no panic,
//!                no checker failure on generated ones
//!   differential ptxas's cubin and ours in the SASS interpreter, and the
//!                PTX interpreter, on the generated launch
//!   accept       ptxas -arch=compute_XX's verdict on generated programs
//!                (the rejection rate)
//!   accept-reject ptx2sass's parse-and-check verdict against ptxas's on
//!                token-mutated generated programs
//! ```
//! Program i of a run is generated from SplitMix64(seed + i) bytes for SM
//! `sms[i % sms.len()]`, so `--seed (seed+i) --sm X --count 1` replays it.
//! `--log FILE` appends the run's figures to FILE (the campaign log,
//! `fuzz/campaign.log`): one line per SM with the date, the commit, the
//! mode, the seeds, programs, findings by class and programs per second.
//! Exit status 1 when a finding other than a ptxas rejection (or a class
//! named by --allow) was seen. Differential finding classes: ours-rejects,
//! ours-does-not-run, ref-does-not-run (a decoder or interpreter gap on
//! ptxas's code), miscompile (outputs differ and the PTX interpreter agrees
//! with ptxas's), ref-interp (it agrees with ours: the SASS interpreter
//! misreads ptxas's code), mismatch (it agrees with neither), ptx-interp
//! (both cubins agree, the PTX interpreter does not), ref-hazard (outputs
//! agree, and the SASS interpreter's hazard checker reported a hazard in
//! ptxas's cubin: a false alarm of the checker), ours-hazard (outputs
//! agree, and it reported one in ours); these two unless
//! `PTX2SASS_FUZZ_HAZARDS=0` turns the checker off.

use arbitrary::Unstructured;
use ptx2sass::internals::interp::launch::splitmix64_bytes;
use ptx2sass_fuzz::progen::{self, Config, SMS};
use ptx2sass_fuzz::oracle::{self, Finding};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// Bytes behind one program (more than the generator takes, typically).
const BYTES: usize = 4096;

struct Args {
    mode: String,
    count: u64,
    seconds: Option<f64>,
    seed: u64,
    sms: Vec<u32>,
    save: Option<std::path::PathBuf>,
    /// Finding classes that are printed and counted but do not fail the run.
    allow: Vec<String>,
    /// Campaign log to append the figures to.
    log: Option<std::path::PathBuf>,
}

fn parse_args() -> Result<Args, String> {
    let mut it = std::env::args().skip(1);
    let mode = it.next().ok_or("usage: fuzzgen MODE [--count N] [--seconds S] [--seed S] [--sm LIST] [--save DIR]")?;
    let mut args = Args { mode, count: 100, seconds: None, seed: 0, sms: SMS.to_vec(), save: None, allow: Vec::new(), log: None };
    while let Some(flag) = it.next() {
        let value = it.next().ok_or_else(|| format!("{flag}: missing value"))?;
        match flag.as_str() {
            "--count" => args.count = value.parse().map_err(|_| "--count: not a number")?,
            "--seconds" => args.seconds = Some(value.parse().map_err(|_| "--seconds: not a number")?),
            "--seed" => args.seed = value.parse().map_err(|_| "--seed: not a number")?,
            "--sm" => args.sms = value.split(',').map(|s| s.trim_start_matches("sm_").parse().map_err(|_| format!("--sm: bad SM {s}"))).collect::<Result<_, _>>()?,
            "--save" => args.save = Some(value.into()),
            "--allow" => args.allow = value.split(',').map(str::to_string).collect(),
            "--log" => args.log = Some(value.into()),
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    Ok(args)
}

fn program(seed: u64, sm: u32) -> Option<progen::Program> {
    let bytes = splitmix64_bytes(seed, BYTES);
    let mut u = Unstructured::new(&bytes);
    progen::generate(&mut u, &Config { sm, max_stmts: 12, max_depth: 3 }).ok()
}

/// A token-level mutant of `ptx` (the `parse` target's edit scripts).
fn mutant(seed: u64, ptx: &str) -> String {
    let script = splitmix64_bytes(seed ^ 0x6d75_7461_6e74, 16);
    let mut data = vec![ptx2sass_fuzz::EDIT_MODE, script.len() as u8];
    data.extend_from_slice(&script);
    data.extend_from_slice(ptx.as_bytes());
    ptx2sass_fuzz::decode(&data)
}

fn main() {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("fuzzgen: {e}");
            std::process::exit(2);
        }
    };
    let ptxas = oracle::ptxas_path();
    if matches!(args.mode.as_str(), "differential" | "accept" | "accept-reject") && ptxas.is_none() {
        eprintln!("fuzzgen: {} needs the reference ptxas (scripts/install-reference.sh)", args.mode);
        std::process::exit(2);
    }
    if args.mode == "minimize" {
        minimize(&args, ptxas.as_deref());
        return;
    }
    if args.mode == "print" || args.mode == "print-mutant" {
        let Some(p) = program(args.seed, args.sms[0]) else { std::process::exit(1) };
        println!("{}", if args.mode == "print" { p.ptx.clone() } else { mutant(args.seed, &p.ptx) });
        eprintln!("{}", p.spec.to_json());
        return;
    }
    // The commit the run's binary is meant to be, taken now: a long run
    // outlives the checkout's HEAD.
    let commit = if args.log.is_some() { command_line("git", &["rev-parse", "--short=12", "HEAD"]) } else { String::new() };
    let start = Instant::now();
    let deadline = args.seconds.map(|s| start + Duration::from_secs_f64(s));
    // Per SM: programs run, and findings by class.
    let mut runs: BTreeMap<u32, u64> = BTreeMap::new();
    let mut findings: BTreeMap<(u32, &'static str), u64> = BTreeMap::new();
    let mut bad = false;
    // Forms ptx2sass does not support yet, pruned from programs (counts).
    let mut gaps: BTreeMap<String, u64> = BTreeMap::new();
    // Known findings (fuzz/findings/known.txt) met, per SM.
    let mut known: BTreeMap<u32, u64> = BTreeMap::new();
    let mut i = 0u64;
    while i < args.count && deadline.is_none_or(|d| Instant::now() < d) {
        let seed = args.seed + i;
        let sm = args.sms[(i % args.sms.len() as u64) as usize];
        i += 1;
        let Some(p) = program(seed, sm) else { continue };
        *runs.entry(sm).or_default() += 1;
        let finding: Option<Finding> = match args.mode.as_str() {
            "gen" => None,
            "compile" => {
                let generated = std::panic::catch_unwind(|| oracle::compile_checked(&p.ptx, sm));
                let mutated = mutant(seed, &p.ptx);
                let mutated_ok = std::panic::catch_unwind(|| {
                    let _ = oracle::compile_checked(&mutated, sm);
                });
                match (generated, mutated_ok) {
                    (Err(_), _) => Some(Finding::OursRejects("panic on the generated program".into())),
                    (_, Err(_)) => Some(Finding::OursRejects(format!("panic on a mutant: {mutated}"))),
                    (Ok(Err(errs)), _) => {
                        let bugs: Vec<String> = errs.into_iter().map(|e| e.1).filter(|m| oracle::gap_form(m).is_none() && !oracle::known_finding(m)).collect();
                        if bugs.is_empty() { None } else { Some(Finding::OursRejects(bugs.join("; "))) }
                    }
                    _ => None,
                }
            }
            "accept" => oracle::ptxas(ptxas.as_deref().unwrap_or_else(|| unreachable!()), &p.ptx, sm, true).err().map(Finding::PtxasRejects),
            "accept-reject" => {
                let m = mutant(seed, &p.ptx);
                let theirs = oracle::ptxas(ptxas.as_deref().unwrap_or_else(|| unreachable!()), &m, sm, true);
                let ours = std::panic::catch_unwind(|| oracle::ours_verdict(&m, sm));
                match ours {
                    Err(_) => Some(Finding::OursRejects(format!("panic in parse/check: {m}"))),
                    Ok(ours) if ours.is_ok() != theirs.is_ok() => {
                        if oracle::known_verdict_difference(&m, theirs.as_ref().err().map(String::as_str), sm) {
                            *known.entry(sm).or_default() += 1;
                            // Listed so the remaining known classes can be counted.
                            let first = |r: Option<&String>| r.and_then(|e| e.lines().next().map(str::to_string));
                            let why = first(ours.as_ref().err()).or_else(|| first(theirs.as_ref().err())).unwrap_or_default();
                            eprintln!("known seed={seed} sm_{sm}: {}", why.chars().take(200).collect::<String>());
                            None
                        } else {
                            let why = |r: Option<&String>| r.map_or("accepts".to_string(), |e| e.lines().next().unwrap_or("").chars().take(200).collect());
                            Some(Finding::Mismatch { ours: format!("ptx2sass: {}\n", why(ours.as_ref().err())), reference: format!("ptxas: {}\n", why(theirs.as_ref().err())), ptx_agrees: None })
                        }
                    }
                    Ok(_) => None,
                }
            }
            "differential" => {
                let r = std::panic::catch_unwind(|| oracle::differential(ptxas.as_deref().unwrap_or_else(|| unreachable!()), &p.ptx, sm, &p.spec, true));
                match r {
                    Err(_) => Some(Finding::OursRejects("panic".into())),
                    Ok((pruned, r)) => {
                        for g in pruned.gaps {
                            *gaps.entry(g).or_default() += 1;
                        }
                        let errors: Vec<String> = pruned.errors.into_iter().filter(|m| !oracle::known_finding(m)).collect();
                        match r {
                            _ if !errors.is_empty() => Some(Finding::OursRejects(errors.join("; "))),
                            Err(Finding::OursRejects(m) | Finding::OursDoesNotRun(m) | Finding::PtxInterp(m)) if oracle::known_finding(&m) => {
                                *known.entry(sm).or_default() += 1;
                                None
                            }
                            Err(Finding::RefDoesNotRun(m)) if oracle::known_ptxas_illegal_word(&m) => {
                                *known.entry(sm).or_default() += 1;
                                None
                            }
                            Err(Finding::PtxInterp(_)) if oracle::nan_bits_open(&pruned.ptx) => {
                                *known.entry(sm).or_default() += 1;
                                None
                            }
                            Err(Finding::Mismatch { ptx_agrees: Some("ours"), .. }) if oracle::known_ptxas_defect(&pruned.ptx) => {
                                *known.entry(sm).or_default() += 1;
                                None
                            }
                            r => r.err(),
                        }
                    }
                }
            }
            m => {
                eprintln!("fuzzgen: unknown mode {m}");
                std::process::exit(2);
            }
        };
        if let Some(f) = finding {
            *findings.entry((sm, f.class())).or_default() += 1;
            if !matches!(f, Finding::PtxasRejects(_)) || args.mode == "accept" {
                bad |= !matches!(f, Finding::PtxasRejects(_)) && !args.allow.iter().any(|a| a == f.class());
                let detail = match &f {
                    Finding::Mismatch { ours, reference, .. } if args.mode == "accept-reject" => format!("{} / {}", ours.trim(), reference.trim()),
                    Finding::Mismatch { ours, reference, .. } => oracle::first_difference(ours, reference),
                    Finding::PtxasRejects(s) | Finding::OursRejects(s) | Finding::RefDoesNotRun(s) | Finding::OursDoesNotRun(s) | Finding::RefHazard(s) | Finding::OursHazard(s) | Finding::PtxInterp(s) => s.lines().next().unwrap_or("").chars().take(300).collect(),
                };
                println!("finding seed={seed} sm_{sm} {}: {detail}", f.class());
                if let Some(dir) = &args.save {
                    let _ = std::fs::create_dir_all(dir);
                    let stem = format!("{}.seed{seed}.sm_{sm}", f.class());
                    let _ = std::fs::write(dir.join(format!("{stem}.ptx")), &p.ptx);
                    let _ = std::fs::write(dir.join(format!("{stem}.json")), p.spec.to_json());
                }
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let total: u64 = runs.values().sum();
    println!("fuzzgen {}: {total} programs in {secs:.1} s ({:.1}/s), seeds {}..{}", args.mode, total as f64 / secs.max(1e-9), args.seed, args.seed + i);
    for (sm, n) in &runs {
        let by_class: Vec<String> = findings.iter().filter(|((s, _), _)| s == sm).map(|((_, c), k)| format!("{c} {k}")).collect();
        let k = known.get(sm).map_or(String::new(), |k| format!(" (and {k} known)"));
        println!("  sm_{sm}: {n} programs, findings: {}{k}", if by_class.is_empty() { "none".into() } else { by_class.join(", ") });
    }
    if let Some(path) = &args.log {
        let mut text = String::new();
        let date = command_line("date", &["-u", "+%Y-%m-%dT%H:%M:%SZ"]);
        for (sm, n) in &runs {
            let by_class: Vec<String> = findings.iter().filter(|((s, _), _)| s == sm).map(|((_, c), k)| format!("{c}={k}")).collect();
            let known = known.get(sm).copied().unwrap_or(0);
            // Each SM's share of the time: programs are interleaved.
            let rate = total as f64 / secs.max(1e-9);
            text.push_str(&format!(
                "{date}\t{commit}\t{}\tsm_{sm}\tseeds={}..{}\tprograms={n}\tfindings={}\tknown={known}\tprograms_per_s={rate:.1}\n",
                args.mode,
                args.seed,
                args.seed + i,
                if by_class.is_empty() { "none".to_string() } else { by_class.join(",") }
            ));
        }
        use std::io::Write as _;
        let written = std::fs::OpenOptions::new().create(true).append(true).open(path).and_then(|mut f| f.write_all(text.as_bytes()));
        if let Err(e) = written {
            eprintln!("fuzzgen: cannot append to {}: {e}", path.display());
        }
    }
    if !gaps.is_empty() {
        let mut list: Vec<(&String, &u64)> = gaps.iter().collect();
        list.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        println!("  forms pruned as not supported yet ({} kinds): {}", list.len(), list.iter().map(|(g, n)| format!("{g} {n}")).collect::<Vec<_>>().join(", "));
    }
    if bad {
        std::process::exit(1);
    }
}

/// The first line a command prints, or `?` when it cannot run (the log
/// then says so rather than failing the run).
fn command_line(program: &str, args: &[&str]) -> String {
    std::process::Command::new(program)
        .args(args)
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .and_then(|s| s.lines().next().map(str::to_string))
        .unwrap_or_else(|| "?".into())
}

/// Greedy line deletion (instructions only: labels, declarations and
/// braces stay) while the differential check still fails the same way.
fn minimize(args: &Args, ptxas: Option<&std::path::Path>) {
    let sm = args.sms[0];
    let Some(ptxas) = ptxas else { std::process::exit(2) };
    let Some(p) = program(args.seed, sm) else { std::process::exit(1) };
    let class = |ptx: &str| oracle::differential(ptxas, ptx, sm, &p.spec, true).1.err().map(|f| f.class());
    // Start from the pruned program (what was actually compared).
    let (pruned, _) = oracle::compile_pruned(&p.ptx, sm);
    let Some(want) = class(&pruned.ptx) else {
        eprintln!("fuzzgen: seed {} sm_{sm}: no finding", args.seed);
        std::process::exit(1);
    };
    let mut lines: Vec<String> = pruned.ptx.lines().map(str::to_string).collect();
    // Only instructions between the body markers: the prologue defines
    // every register the results store.
    let start = lines.iter().position(|l| l.trim() == progen::BODY_START.trim()).unwrap_or(lines.len());
    let end = lines.iter().position(|l| l.trim() == progen::BODY_END.trim()).unwrap_or(0);
    let in_body: Vec<bool> = (0..lines.len()).map(|k| k > start && k < end).collect();
    let removable = |k: usize, l: &str| {
        let t = l.trim();
        // Temporaries (addresses), loop counters and branch predicates
        // stay: without them an access leaves its buffer or a loop its
        // bound.
        let t = t.trim_start_matches(|c| c != ' ' && t.starts_with('@')).trim_start();
        let dest = t.split_whitespace().nth(1).unwrap_or("");
        in_body[k] && !(t.is_empty() || t.ends_with(':') || t.starts_with('.') || ["%t", "%lc", "%lp"].iter().any(|p| dest.starts_with(p)))
    };
    loop {
        let mut changed = false;
        // Chunks first, then single lines.
        for chunk in [32usize, 8, 1] {
            let mut i = 0;
            while i < lines.len() {
                let idx: Vec<usize> = (i..lines.len().min(i + chunk)).filter(|&k| removable(k, &lines[k])).collect();
                i += chunk;
                if idx.is_empty() {
                    continue;
                }
                let mut trial = lines.clone();
                for &k in &idx {
                    trial[k].clear();
                }
                if carry_chains_intact(&trial) && class(&trial.join("\n")) == Some(want) {
                    lines = trial;
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    println!("{text}");
    eprintln!("{}", p.spec.to_json());
    if let (_, Err(f)) = oracle::differential(ptxas, &text, sm, &p.spec, true) {
        match f {
            Finding::Mismatch { ours, reference, .. } => eprintln!("{want}: {}", oracle::first_difference(&ours, &reference)),
            other => eprintln!("{want}: {other:?}"),
        }
    }
}

/// Whether every `addc`/`subc` still follows an instruction that sets the
/// carry (deleting `add.cc` would leave it reading an undefined flag).
fn carry_chains_intact(lines: &[String]) -> bool {
    let mut carry = false;
    for l in lines {
        let t = l.trim();
        if t.is_empty() || t.starts_with("//") {
            continue;
        }
        // The opcode, after a guard (`@%p0 addc.u64` reads the carry too).
        let op = t.split_whitespace().find(|w| !w.starts_with('@')).unwrap_or("");
        if (op.starts_with("addc") || op.starts_with("subc")) && !carry {
            return false;
        }
        carry = op.starts_with("add.cc") || op.starts_with("sub.cc") || op.starts_with("addc.cc") || op.starts_with("subc.cc");
    }
    true
}

//! The cubin container against ptxas: every corpus kernel is compiled by the
//! reference `ptxas` for sm_75, 80, 89, 90, 100 and 120; each cubin is read
//! (the executable cubins through the cache of `cubin_cache`; every fourth
//! also with `-c`, relocatable, compiled here) by
//! [`ptx2sass::internals::cubin::elf::read`] and written back by
//! [`ptx2sass::internals::cubin::elf::write`]. The written file must be byte-identical
//! (the count is printed per SM). For diagnosis, a file that is not is also
//! compared through `cuobjdump -elf` and `nvdisasm`, and the reader must
//! report why it could not reproduce it.

mod common;
mod cubin_cache;

use ptx2sass::internals::cubin::elf;
use std::path::{Path, PathBuf};
use std::process::Command;

const SMS: &[u16] = &[75, 80, 89, 90, 100, 120];

/// What became of one cubin.
enum Outcome {
    /// ptxas rejected the PTX for this SM.
    NotCompiled,
    Identical,
    /// Written differently but equivalent for the reference tools.
    Equivalent(Vec<String>),
    Failed(String),
}

fn tool_output(tool: &Path, args: &[&str], file: &Path) -> String {
    let out = Command::new(tool).args(args).arg(file).output().expect("reference tool runs");
    // The file name appears in some headers; the rest must match.
    String::from_utf8_lossy(&out.stdout).replace(&file.display().to_string(), "FILE") + &String::from_utf8_lossy(&out.stderr)
}

fn round_trip(ptxas: &Path, cuobjdump: &Path, nvdisasm: &Path, sm: u16, (corpus, file): (&Path, &Path), options: &[&str], scratch: &Path) -> Outcome {
    let cubin = scratch.join("ptxas.cubin");
    // Executable cubins come from the shared cache; relocatable ones are
    // made here.
    if options.is_empty() {
        let Some(bytes) = cubin_cache::ptxas_cubin(ptxas, corpus, sm, file) else { return Outcome::NotCompiled };
        std::fs::write(&cubin, bytes).expect("scratch file");
    } else if !common::compile_cubin_with(ptxas, sm, file, &cubin, options) {
        return Outcome::NotCompiled;
    }
    let original = std::fs::read(&cubin).expect("ptxas wrote the cubin");
    let read = match elf::read(&original) {
        Ok(r) => r,
        Err(e) => return Outcome::Failed(format!("reader: {e}")),
    };
    let written = elf::write(&read.elf);
    if written == original {
        if !read.anomalies.is_empty() {
            return Outcome::Failed(format!("identical, yet the reader reported {:?}", read.anomalies));
        }
        return Outcome::Identical;
    }
    if read.anomalies.is_empty() {
        let at = written.iter().zip(&original).position(|(a, b)| a != b).unwrap_or(written.len().min(original.len()));
        return Outcome::Failed(format!("written file differs at byte {at:#x} ({} vs {} bytes) and the reader saw no anomaly", written.len(), original.len()));
    }
    let copy = scratch.join("written.cubin");
    std::fs::write(&copy, &written).expect("scratch file");
    for (tool, args) in [(cuobjdump, &["-elf"][..]), (nvdisasm, &["-hex"][..])] {
        if tool_output(tool, args, &cubin) != tool_output(tool, args, &copy) {
            return Outcome::Failed(format!("{} output differs; anomalies {:?}", tool.display(), read.anomalies));
        }
    }
    Outcome::Equivalent(read.anomalies)
}

#[test]
fn ptxas_cubins_are_written_back_identically() {
    let Some(corpus) = common::corpus_dir("ptxas_cubins_are_written_back_identically") else { return };
    let tools: Vec<PathBuf> = ["ptxas", "cuobjdump", "nvdisasm"]
        .iter()
        .filter_map(|t| ptx2sass::internals::reference::require(t, "ptxas_cubins_are_written_back_identically"))
        .collect();
    let [ptxas, cuobjdump, nvdisasm] = &tools[..] else { return };
    let scratch_root = std::env::temp_dir().join(format!("ptx2sass-cubin-roundtrip-{}", std::process::id()));
    let mut failures = Vec::new();
    // `PTX2SASS_CUBIN_SM=90` limits the run to one SM.
    let only: Option<u16> = std::env::var("PTX2SASS_CUBIN_SM").ok().and_then(|v| v.parse().ok());
    for &sm in SMS.iter().filter(|&&sm| only.is_none_or(|o| o == sm)) {
        let files = common::ptx_inputs_for_sm(&corpus, sm);
        // Every file as an executable cubin, every fourth also relocatable
        // (`ptxas -c`: no program headers, CUDA section types for data
        // without file bytes).
        let jobs: Vec<(usize, &PathBuf, &[&str])> = files.iter().enumerate().map(|(k, f)| (k, f, &[][..])).chain(files.iter().enumerate().step_by(4).map(|(k, f)| (k + files.len(), f, &["-c"][..]))).collect();
        let outcomes = common::par_map(&jobs, |(k, file, options)| {
            let scratch = scratch_root.join(format!("{sm}-{k}"));
            std::fs::create_dir_all(&scratch).expect("scratch dir");
            let outcome = round_trip(ptxas, cuobjdump, nvdisasm, sm, (&corpus, file), options, &scratch);
            let _ = std::fs::remove_dir_all(&scratch);
            outcome
        });
        let (mut compiled, mut identical, mut equivalent) = (0, 0, 0);
        for ((_, file, _), outcome) in jobs.iter().zip(outcomes) {
            match outcome {
                Outcome::NotCompiled => continue,
                Outcome::Identical => identical += 1,
                Outcome::Equivalent(why) => {
                    equivalent += 1;
                    println!("sm_{sm} {}: equivalent, not identical: {why:?}", file.display());
                }
                Outcome::Failed(why) => failures.push(format!("sm_{sm} {}: {why}", file.display())),
            }
            compiled += 1;
        }
        println!("sm_{sm}: {compiled} cubins, {identical} written back byte-identical, {equivalent} equivalent");
        // Every ptxas cubin of the corpus is reproduced byte for byte; one
        // that is only equivalent means a layout rule has gone wrong.
        if equivalent > 0 {
            failures.push(format!("sm_{sm}: {equivalent} cubins were written back equivalent but not identical"));
        }
    }
    let _ = std::fs::remove_dir_all(&scratch_root);
    for f in failures.iter().take(20) {
        eprintln!("{f}");
    }
    assert!(failures.is_empty(), "{} cubins failed the round trip", failures.len());
}

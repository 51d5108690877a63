//! Words of ptxas's code with nvdisasm's text for them (measured: each
//! test file says where from): each must decode, print as nvdisasm
//! prints it, encode back to itself and assemble from the text.

use ptx2sass::internals::isa::bits::join;
use ptx2sass::internals::isa::inst::Inst;
use ptx2sass::internals::isa::parse::parse_inst;
use ptx2sass::internals::target::Sm;

/// One measured word: SM, low and high 64 bits, nvdisasm's text.
pub type Word = (u16, u64, u64, &'static str);

/// What goes wrong for each of `words` (nothing when all agree).
pub fn disagreements(words: &[Word]) -> Vec<String> {
    let mut failures = Vec::new();
    for &(sm, lo, hi, text) in words {
        let (sm, word) = (Sm::new(sm), join(lo, hi));
        let inst = match Inst::decode(word, sm) {
            Ok(inst) => inst,
            Err(e) => {
                failures.push(format!("{sm} `{text}`: does not decode ({e:?})"));
                continue;
            }
        };
        let ours = inst.text(sm, 0);
        if ours != text {
            failures.push(format!("{sm} `{text}`: prints `{ours}`"));
        }
        if inst.encode(sm).ok() != Some(word) {
            failures.push(format!("{sm} `{text}`: does not encode back"));
        }
        match parse_inst(text, sm, 0, inst.ctrl).map(|i| i.encode(sm)) {
            Ok(Ok(w)) if w == word => {}
            other => failures.push(format!("{sm} `{text}`: assembles as {other:?}")),
        }
    }
    failures
}

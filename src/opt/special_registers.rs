//! Reuse of special-register reads, on legalized Ori.
//!
//! A thread's index, its CTA's, its lane and lane masks and its CTA's rank
//! in the cluster do not change while it runs, so a second `S2R` of one of
//! them where a first one dominates reads the same value: its uses take the
//! first read's result and the second goes. Legalization emits one `S2R`
//! per PTX `mov %r, %tid.x` and per shared-window address, and nvcc's PTX
//! for CUB's device scans reads `%tid.x` hundreds of times in one kernel
//! (643 reads in `cub_device_scan`'s largest, where ptxas 13.5 keeps 59
//! `S2R SR_TID.X`). The clocks, the timer and the SM id are left alone:
//! each read may differ.

use crate::ir::cfg::DominatorTree;
use crate::ir::{Block, Function, Opcode, Value};
use crate::target::Sm;
use std::collections::HashMap;

/// The S2R numbers of the registers whose value is fixed for the thread's
/// life on `sm`.
fn invariant_numbers(sm: Sm) -> Vec<u64> {
    use crate::ir::SpecialReg as R;
    [R::TidX, R::TidY, R::TidZ, R::CtaidX, R::CtaidY, R::CtaidZ, R::LaneId, R::LanemaskEq, R::LanemaskLt, R::LanemaskLe, R::LanemaskGt, R::LanemaskGe, R::CgaCtaId, R::ClusterCtaRank, R::SharedWindowHi, R::CgaSize]
        .into_iter()
        .filter_map(|r| crate::legalize::launch_abi::sr_number(r, sm))
        .map(u64::from)
        .collect()
}

/// Replaces every unguarded `S2R` of a thread-invariant register that a
/// read of the same register dominates by that read; returns how many
/// reads it removed.
pub fn reuse_special_register_reads(f: &mut Function, sm: Sm) -> usize {
    let Some(entry) = f.entry() else { return 0 };
    let invariant = invariant_numbers(sm);
    let successors = |b: Block| -> Vec<Block> { f.successors(b).collect() };
    let dt = DominatorTree::compute(entry, f.blocks.len(), successors);
    // Per register number, the reads kept so far: (block, result).
    let mut kept: HashMap<u64, Vec<(Block, Value)>> = HashMap::new();
    let mut replaced: HashMap<Value, Value> = HashMap::new();
    let order: Vec<Block> = dt.rpo().to_vec();
    for block in order {
        let insts = std::mem::take(&mut f.blocks[block].insts);
        let mut keep = Vec::with_capacity(insts.len());
        for inst in insts {
            let d = &f.insts[inst];
            let reusable = d.opcode == Opcode::S2r && d.guard.is_none() && d.results.len() == 1 && invariant.contains(&d.imm);
            if reusable {
                let reads = kept.entry(d.imm).or_default();
                let result = d.results[0];
                if let Some(&(_, first)) = reads.iter().find(|(b, v)| dt.dominates(*b, block) && f.value_type(*v) == f.value_type(result)) {
                    replaced.insert(result, first);
                    continue;
                }
                reads.push((block, result));
            }
            keep.push(inst);
        }
        f.blocks[block].insts = keep;
    }
    if replaced.is_empty() {
        return 0;
    }
    let get = |v: &mut Value| {
        if let Some(&n) = replaced.get(v) {
            *v = n;
        }
    };
    for &block in &f.layout {
        for &inst in &f.blocks[block].insts {
            let d = &mut f.insts[inst];
            d.args.iter_mut().for_each(get);
            d.prior.iter_mut().for_each(get);
            if let Some(g) = &mut d.guard {
                get(&mut g.pred);
            }
            for dest in &mut d.dests {
                dest.args.iter_mut().for_each(get);
            }
        }
    }
    f.register_names.iter_mut().for_each(|n| get(&mut n.value));
    replaced.len()
}

#[cfg(test)]
mod tests {
    use crate::driver::{self, CodegenOptions, Options};
    use crate::target::Sm;

    /// S2R lines of `ptx`'s code for `sm`, by register name.
    fn reads(ptx: &str, sm: u16) -> Vec<String> {
        let module = crate::ptx::parse_and_check(ptx, &Default::default()).expect("valid PTX");
        let cubin = driver::compile_to_cubin(&module, Sm::new(sm), Some(ptx), Options { verify: true, ..Default::default() }, CodegenOptions::default()).expect("compiles").cubin;
        let listing = crate::disassemble(&cubin).expect("disassembles");
        listing.lines().filter_map(|l| l.split("S2R ").nth(1)).filter_map(|l| l.split(", ").nth(1)).map(|s| s.trim_end_matches([' ', ';']).to_string()).collect()
    }

    /// `%tid.x` read in the entry block and again in a branch and after
    /// it: one read; `%clock` read twice: two reads (its value moves).
    #[test]
    fn a_dominating_read_serves_the_later_ones() {
        let ptx = ".version 8.8
.target sm_80
.address_size 64
.visible .entry k(.param .u64 p)
{
  .reg .b32 %r<12>; .reg .b64 %rd<4>; .reg .pred %p<2>;
  ld.param.u64 %rd0, [p];
  cvta.to.global.u64 %rd0, %rd0;
  mov.u32 %r0, %tid.x;
  mov.u32 %r5, %clock;
  setp.lt.u32 %p0, %r0, 7;
  mov.u32 %r2, 0;
  @%p0 bra $skip;
  mov.u32 %r1, %tid.x;
  mov.u32 %r6, %clock;
  add.u32 %r2, %r1, %r6;
$skip:
  mov.u32 %r3, %tid.x;
  add.u32 %r4, %r3, %r2;
  sub.u32 %r4, %r4, %r5;
  mul.wide.u32 %rd1, %r3, 4;
  add.u64 %rd1, %rd0, %rd1;
  st.global.u32 [%rd1], %r4;
  ret;
}
";
        for sm in [80, 120] {
            let got = reads(&ptx.replace("sm_80", &format!("sm_{sm}")), sm);
            assert_eq!(got.iter().filter(|r| r.as_str() == "SR_TID.X").count(), 1, "sm_{sm}: {got:?}");
            assert_eq!(got.iter().filter(|r| r.starts_with("SR_CLOCK")).count(), 2, "sm_{sm}: {got:?}");
        }
    }
}

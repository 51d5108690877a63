//! Where each PTX register is in a kernel's final code: the entries of
//! `-g`'s register maps ([`crate::cubin::register_maps`] writes them).
//!
//! What is followed, stage by stage:
//! * lowering names every value assigned to a PTX register
//!   ([`crate::ir::Function::register_names`]); legalization moves the
//!   names to the values that replace them; selection keeps them (a
//!   value's virtual register has its number);
//! * [`naming`] spreads them over the machine function's register-pair
//!   plumbing: a copy, part or concatenation of a named register holds the
//!   same PTX register's words, and the one-use parts a named pair is made
//!   of (the halves of a 64-bit result) hold its words from where they are
//!   written;
//! * register allocation records what each instruction defines and where
//!   ([`crate::regalloc::Allocated::debug_defs`]), tagging the
//!   instructions it becomes ([`crate::ir::SrcLoc::defs`]); scheduling and
//!   emission carry the tag with the instruction;
//! * [`function_map`] reads the final code: an entry starts at the last
//!   instruction of its tag that writes a register holding a named word
//!   (ptxas's ranges start at the writing instruction too) and ends at the
//!   first later instruction that writes that register again, defines the
//!   same PTX register word elsewhere, or may be reached other than from
//!   the instruction before it (a jump or call target: the register may
//!   hold something else on that path), after a call (the callee may
//!   write it), after an unguarded jump, exit or return, or at the end of
//!   the kernel's own code.
//!
//! Values kept only in uniform registers and registers moved by the
//! allocator's own copies are not followed (ptxas puts no PTX register in
//! a uniform register at `-g`).

use super::code::Code;
use crate::cubin::register_maps::{CLASS_GPR, CLASS_PREDICATE, FunctionMap, Location};
use crate::isa::op_facts::Control;
use crate::isa::operand::{RegFile, RegNum};
use crate::regalloc::Allocated;
use crate::select::{MachFunction, MachKind};
use crate::sched::info::{HazardInfo, P_BASE, UR_BASE};
use crate::target::Sm;
use smallvec::SmallVec;
use std::collections::HashMap;

/// Which PTX register words each virtual register's words hold.
#[derive(Clone, Debug, Default)]
pub struct Naming {
    /// PTX registers: name and type code.
    names: Vec<(String, u8)>,
    /// Per virtual register: (PTX register, its word, the virtual
    /// register's word holding it).
    words: HashMap<u32, SmallVec<[(u32, u8, u8); 2]>>,
}

impl Naming {
    fn of(&self, v: u32) -> &[(u32, u8, u8)] {
        self.words.get(&v).map_or(&[][..], |w| w.as_slice())
    }
}

/// The naming of `mach`'s virtual registers (empty without register
/// names).
pub fn naming(mach: &MachFunction) -> Naming {
    let mut out = Naming::default();
    let mut index: HashMap<(&str, u8), u32> = HashMap::new();
    let width = |v: u32| mach.vregs.get(v as usize).map_or(1, |t| t.regs().max(1));
    for r in &mach.register_names {
        let at = out.names.len() as u32;
        let n = *index.entry((r.name.as_str(), r.ty)).or_insert(at);
        if n == at {
            out.names.push((r.name.clone(), r.ty));
        }
        let v = crate::ir::entity::EntityRef::index(r.value) as u32;
        let words = out.words.entry(v).or_default();
        for w in 0..width(v) {
            if !words.contains(&(n, w, w)) {
                words.push((n, w, w));
            }
        }
    }
    if out.names.is_empty() {
        return out;
    }
    let mut uses: HashMap<u32, u32> = HashMap::new();
    for b in &mach.blocks {
        for i in &b.insts {
            for u in &i.uses {
                *uses.entry(u.0).or_default() += 1;
            }
        }
        for args in &b.succ_args {
            for u in args {
                *uses.entry(u.0).or_default() += 1;
            }
        }
    }
    let plumbing = || mach.blocks.iter().flat_map(|b| b.insts.iter()).filter(|i| matches!(i.kind, MachKind::Copy | MachKind::Extract { .. } | MachKind::Concat) && i.defs.len() == 1);
    // (use, its first word in the definition, its width) of each part.
    let parts = |i: &crate::select::MachInst| -> SmallVec<[(u32, u8, u8); 4]> {
        let mut at = 0u8;
        i.uses
            .iter()
            .map(|u| {
                let w = width(u.0);
                let part = (u.0, at, w);
                at = at.saturating_add(w);
                part
            })
            .collect()
    };
    // Forwards: a copy or part of a named register holds its words.
    for i in plumbing() {
        let d = i.defs[0].0;
        if out.words.contains_key(&d) {
            continue;
        }
        let mut got: SmallVec<[(u32, u8, u8); 2]> = SmallVec::new();
        match i.kind {
            MachKind::Copy => got.extend(i.uses.first().map_or(&[][..], |u| out.of(u.0)).iter().copied()),
            MachKind::Extract { part } => got.extend(i.uses.first().map_or(&[][..], |u| out.of(u.0)).iter().filter(|w| w.2 == part).map(|&(n, nw, _)| (n, nw, 0))),
            _ => {
                for (u, at, _) in parts(i) {
                    got.extend(out.of(u).iter().map(|&(n, nw, vw)| (n, nw, vw + at)));
                }
            }
        }
        if !got.is_empty() {
            out.words.insert(d, got);
        }
    }
    // Backwards: the unnamed, once-used registers a named one is made of.
    let all: Vec<&crate::select::MachInst> = plumbing().collect();
    for i in all.into_iter().rev() {
        let d = i.defs[0].0;
        let named: SmallVec<[(u32, u8, u8); 2]> = out.of(d).iter().copied().collect();
        if named.is_empty() {
            continue;
        }
        let fresh = |u: u32, out: &Naming| !out.words.contains_key(&u) && uses.get(&u) == Some(&1);
        match i.kind {
            MachKind::Copy => {
                if let Some(u) = i.uses.first().filter(|u| fresh(u.0, &out)) {
                    out.words.insert(u.0, named);
                }
            }
            MachKind::Extract { part } => {
                if let Some(u) = i.uses.first().filter(|u| fresh(u.0, &out)) {
                    out.words.insert(u.0, named.iter().filter(|w| w.2 == 0).map(|&(n, nw, _)| (n, nw, part)).collect());
                }
            }
            _ => {
                for (u, at, w) in parts(i) {
                    if fresh(u, &out) {
                        let got: SmallVec<[(u32, u8, u8); 2]> = named.iter().filter(|x| x.2 >= at && x.2 < at + w).map(|&(n, nw, vw)| (n, nw, vw - at)).collect();
                        if !got.is_empty() {
                            out.words.insert(u, got);
                        }
                    }
                }
            }
        }
    }
    out
}

/// The register map entries of a kernel's own code (not of the device
/// functions placed after it), by start address; `None` without a
/// naming.
pub fn function_map(name: &str, alloc: &Allocated, code: &Code, sm: Sm) -> Option<FunctionMap> {
    let naming = alloc.register_naming.as_deref()?;
    let end = code.functions.iter().map(|p| p.offset as usize / 16).min().unwrap_or(code.body).min(code.body).min(code.insts.len());
    let insts = &code.insts[..end];
    let infos: Vec<HazardInfo> = insts.iter().map(|i| HazardInfo::of(i, sm)).collect();
    // Where control may arrive other than from the instruction before.
    let mut entered = vec![false; end + 1];
    if insts.iter().any(|i| i.op().facts().control == Control::JumpTable) {
        // The table's targets are not in the code: every block start.
        for (start, _) in crate::sched::check::cfg(insts).0 {
            entered[start] = true;
        }
    }
    for (k, inst) in insts.iter().enumerate() {
        if let Some(t) = crate::sched::check::target_of(inst, k, code.insts.len()) {
            entered[t.min(end)] = true;
        }
    }
    // Whether write `k` of unit `u` is the last one of its tag (the
    // instructions of one definition may write a register more than once).
    let mut last_write: HashMap<(u32, u16), usize> = HashMap::new();
    for (k, info) in infos.iter().enumerate() {
        let tag = code.locs.get(k).map_or(0, |l| l.defs);
        if tag != 0 {
            for &u in info.writes() {
                last_write.insert((tag, u), k);
            }
        }
    }
    struct Open {
        name: u32,
        word: u8,
        class: u8,
        register: u32,
        unit: u16,
        start: usize,
    }
    let mut open: Vec<Open> = Vec::new();
    let mut out: Vec<Location> = Vec::new();
    let close = |e: Open, at: usize, out: &mut Vec<Location>| {
        if at > e.start {
            let (ptx, ty) = naming.names[e.name as usize].clone();
            out.push(Location { ptx_register: ptx, part: u32::from(e.word), class: e.class, register: e.register, start: e.start as u32 * 16, end: at as u32 * 16, ty });
        }
    };
    for (k, inst) in insts.iter().enumerate() {
        if entered[k] {
            for e in open.drain(..) {
                close(e, k, &mut out);
            }
        }
        let writes = infos[k].writes();
        let mut kept = Vec::with_capacity(open.len());
        for e in open.drain(..) {
            if writes.contains(&e.unit) { close(e, k, &mut out) } else { kept.push(e) }
        }
        open = kept;
        let tag = code.locs.get(k).map_or(0, |l| l.defs);
        if let Some(group) = (tag as usize).checked_sub(1).and_then(|t| alloc.debug_defs.get(t)) {
            for &(v, reg) in group {
                let RegNum::Phys(base) = reg.num else { continue };
                for &(n, nw, vw) in naming.of(v) {
                    let number = u16::from(base) + u16::from(vw);
                    let (class, unit) = match reg.file {
                        RegFile::Gpr if number < 255 && number < UR_BASE => (CLASS_GPR, number),
                        RegFile::Pred if number < 7 => (CLASS_PREDICATE, P_BASE + number),
                        _ => continue,
                    };
                    if !writes.contains(&unit) || last_write.get(&(tag, unit)) != Some(&k) {
                        continue;
                    }
                    if let Some(at) = open.iter().position(|e| e.name == n && e.word == nw) {
                        close(open.swap_remove(at), k, &mut out);
                    }
                    open.push(Open { name: n, word: nw, class, register: u32::from(number), unit, start: k });
                }
            }
        }
        let control = inst.op().facts().control;
        let unguarded = inst.guard.0.num == RegNum::Zero && !inst.guard.1;
        if control == Control::Call || (control.leaves() && unguarded) {
            for e in open.drain(..) {
                close(e, k + 1, &mut out);
            }
        }
    }
    for e in open.drain(..) {
        close(e, end, &mut out);
    }
    out.sort_by_key(|l| l.start);
    Some(FunctionMap { function: name.to_string(), locations: out })
}

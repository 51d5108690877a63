//! Compiled forms: every [`Form`] of the table turned into a [`Plan`] that
//! decoding and encoding run per word, and the index that finds the plans
//! a word may be. The build script compiles the plans (`ptx2sass-shared`'s
//! `isa::plan::compile`, run by `ptx2sass-meta`'s `isa/plans.rs`) into the
//! static [`PLANS`]; the decoder's index
//! is built from them on first use.
//!
//! A [`Form`] says what an encoding is in the terms the table is written
//! in (fields, optional flag bits, printing rules); running it directly
//! means re-deriving the same masks, shifts and checks for every word. A
//! plan holds them resolved: each field as a shift and a mask, each
//! optional flag as a bit position (bit 127 standing for "none", a bit no
//! decodable word has set), the form's fixed fields folded into one mask
//! and value, the modifier values that have a spelling as a bit set, and
//! the checks of [`Inst::text`](super::inst::Inst::text)'s readability
//! rules marked on the operands they concern. [`decode`] and [`encode`]
//! run plans; what they accept and produce is exactly what the form
//! describes (`tests/isa_corpus.rs`, `tests/isa_oracle.rs` and the fuzz
//! properties check it against `nvdisasm` and against each other).
//!
//! Plans are shaped for speed (tens of millions of words a second):
//! * the four register slot kinds (general, uniform, predicate, uniform
//!   predicate) are one step kind, [`Step::Reg`] (a field whose all-ones
//!   value is the zero register), so most operands decode and encode
//!   through one branch-free path and most forms through one loop branch;
//! * what most words and instructions do not have (source modifiers, reuse
//!   flags, optional predicates, slots that refuse a zero register) is
//!   summarised per plan in masks, and looked at only where a word or an
//!   instruction has it;
//! * encoding runs a fast path that only says whether the instruction
//!   encodes, and the checked encoder (which finds the first reason in a
//!   fixed order) only for an instruction that does not;
//! * registers and modifiers are read from (and written to) three
//!   overlapping 64-bit windows of the word ([`At`]) rather than by
//!   shifting the 128-bit word, and forms whose operands are only
//!   registers and 32-bit immediates (most words) decode inline, the others
//!   out of line.
//!
//! The index groups the plans of each measured SM by opcode value (bits
//! 0–11), in table order: one load finds a word's first candidate (most
//! words are their opcode's first), which rejects most other words by one
//! mask test.

pub(super) mod decode;
pub(super) mod encode;

use super::bits::Field;
use super::branch::Layout;
use super::family::MEASURED_SMS;
use super::form::Form;
use super::operand::RegFile;
use super::table::{all_forms, position};
use ptx2sass_shared::isa::plan::compile;
pub(super) use compile::{At, Fld, ImmCheck, ModStep, NO_BIT, NO_REUSE, Step, windows};
pub(super) use decode::Decode;
pub(crate) use encode::Encode;

/// A compiled form (see `ptx2sass-shared`'s `isa::plan::compile`), of the
/// table's forms.
pub(super) type Plan = compile::Plan<super::op::Op, super::op::Mod>;
use std::sync::OnceLock;

// `PLANS`: every form's plan, compiled by the build script (`ptx2sass-meta`, `src/isa/plans.rs`).
include!(concat!(env!("OUT_DIR"), "/isa_plans.rs"));

/// The decoder's index of [`PLANS`]: the plans of each measured SM by
/// opcode value.
pub(super) struct Plans {
    /// Indices into [`PLANS`], grouped by SM and opcode: each group's plans
    /// after its first.
    by_opcode: Vec<u16>,
    /// For `k = sm_index << 12 | opcode`, its group: the index of its first
    /// plan (bits 0–15) and how many plans it has (16–23). One load of 4
    /// bytes finds the first candidate (most words are their opcode's
    /// first; the sm_90 part of the table is 16 KiB, so it stays in the
    /// first-level cache), and the array's length bounds the index.
    groups: Box<[u32; GROUPS]>,
    /// For the same `k`, where the group's other plans start in
    /// `by_opcode` (read only for a word its first plan does not explain).
    rests: Box<[u32; GROUPS]>,
}

/// One group per measured SM and opcode value.
const GROUPS: usize = 8 << 12;

impl Plans {
    /// The group of a word of opcode value `opcode` on the measured SM of
    /// index `sm_index` (into [`MEASURED_SMS`]).
    #[inline(always)]
    fn group(&self, sm_index: usize, opcode: u16) -> (usize, usize) {
        let group = self.groups[(sm_index << 12 | usize::from(opcode & 0xfff)) % GROUPS];
        (group as u16 as usize, (group >> 16) as u8 as usize)
    }

    /// Where the group of `sm_index` and `opcode` continues in `by_opcode`.
    #[inline(always)]
    fn rest(&self, sm_index: usize, opcode: u16) -> usize {
        self.rests[(sm_index << 12 | usize::from(opcode & 0xfff)) % GROUPS] as usize
    }

    /// The plans a word of opcode value `opcode` may be on the measured SM
    /// of index `sm_index` (into [`MEASURED_SMS`]), in table order.
    #[cfg(test)]
    pub fn candidates(&self, sm_index: usize, opcode: u16) -> impl Iterator<Item = &Plan> {
        let (first, len) = self.group(sm_index, opcode);
        let rest = self.rest(sm_index, opcode);
        let others = self.by_opcode.get(rest..rest + len.saturating_sub(1)).unwrap_or(&[]);
        PLANS.get(first).filter(|_| len > 0).into_iter().chain(others.iter().map(|&i| &PLANS[usize::from(i)]))
    }

    /// Decodes `word` into `out` with the first of its candidate plans that
    /// explains it (as [`Plan::decode`]); `false` when none does.
    #[inline(always)]
    pub fn decode(&self, sm_index: usize, word: u128, out: &mut super::inst::Inst) -> bool {
        let (first, mut left) = self.group(sm_index, word as u16);
        let Some(plan) = PLANS.get(first) else { return false };
        if left == 0 {
            return false;
        }
        if plan.decode(word, out) {
            return true;
        }
        // The group's other plans (few words get here).
        let mut rest = self.rest(sm_index, word as u16);
        while left > 1 {
            let Some(plan) = self.by_opcode.get(rest).and_then(|&i| PLANS.get(usize::from(i))) else { return false };
            if plan.decode(word, out) {
                return true;
            }
            left -= 1;
            rest += 1;
        }
        false
    }

}

/// The plan of a form of the tables, `None` for another form (one that is
/// not an element of the static tables, such as a copy of one).
#[inline]
pub(super) fn plan_for_encoding(form: &'static Form) -> Option<&'static Plan> {
    let plan = PLANS.get(position(form)?)?;
    std::ptr::eq(plan.form, form).then_some(plan)
}

static INDEX: OnceLock<Plans> = OnceLock::new();

/// The plans with the decoder's index, built on first use.
pub(super) fn plans() -> &'static Plans {
    INDEX.get_or_init(|| {
        assert!(PLANS.len() <= usize::from(u16::MAX), "plan indices are 16-bit");
        assert!(MEASURED_SMS.len() << 12 <= GROUPS, "one group per SM and opcode");
        let mut by_opcode = Vec::new();
        let (mut groups, mut rests) = (Box::new([0u32; GROUPS]), Box::new([0u32; GROUPS]));
        for (s, &sm) in MEASURED_SMS.iter().enumerate() {
            // The forms that apply, by opcode value, in table order within
            // one (a stable sort; opcodes without forms keep an empty group).
            let mut applying: Vec<(u16, u16)> = all_forms().enumerate().filter(|(_, f)| f.applies_to(sm)).map(|(k, f)| (f.opcode & 0xfff, k as u16)).collect();
            applying.sort_by_key(|&(opcode, _)| opcode);
            for group in applying.chunk_by(|a, b| a.0 == b.0) {
                assert!(group.len() < 1 << 8 && by_opcode.len() < 1 << 32, "group too large to pack");
                let (opcode, first) = (usize::from(group[0].0), u32::from(group[0].1));
                groups[s << 12 | opcode] = (group.len() as u32) << 16 | first;
                rests[s << 12 | opcode] = by_opcode.len() as u32;
                by_opcode.extend(group[1..].iter().map(|&(_, k)| k));
            }
        }
        Plans { by_opcode, groups, rests }
    })
}

#[cfg(test)]
mod tests {
    use super::super::table::generation;
    use super::*;

    #[test]
    fn every_form_has_its_plan_and_is_a_candidate_where_it_applies() {
        let plans = plans();
        for (k, form) in all_forms().enumerate() {
            let plan = plan_for_encoding(form).expect("a plan for every form");
            assert!(std::ptr::eq(plan.form, form) && std::ptr::eq(plan, &PLANS[k]));
            assert_eq!((plan.mods.len(), plan.steps.len()), (form.mods.len(), form.slots.len()), "{}", form.name);
            for (s, &sm) in MEASURED_SMS.iter().enumerate() {
                let listed = plans.candidates(s, form.opcode).any(|p| std::ptr::eq(p.form, form));
                assert_eq!(listed, form.applies_to(sm), "{} on sm_{sm}", form.name);
            }
        }
        // A form outside the table has no plan.
        let copy: &'static Form = Box::leak(Box::new(generation(0)[0]));
        assert!(plan_for_encoding(copy).is_none());
    }

    #[test]
    fn steps_stay_small() {
        // Encoding and decoding read a plan's steps per word; four to a
        // cache line (measured: scattering them costs encoding 6%).
        assert!(std::mem::size_of::<Step>() <= 16, "a step is {} bytes", std::mem::size_of::<Step>());
    }

    #[test]
    fn static_plans_are_the_forms_compiled() {
        use super::super::inst::{InstOperands, ModValues};
        // The build script wrote `PLANS` from `compile`: every field written
        // and read back (a writer that dropped or misspelled one differs here).
        assert_eq!(PLANS.len(), all_forms().count());
        for (plan, form) in PLANS.iter().zip(all_forms()) {
            assert!(std::ptr::eq(plan.form, form), "{}", form.name);
            assert_eq!(*plan, compile::compile(form), "{}", form.name);
            assert!(form.mods.len() <= ModValues::CAPACITY && form.slots.len() <= InstOperands::CAPACITY, "{}: too many modifiers or operands", form.name);
        }
    }

    #[test]
    fn resolved_fields_read_and_write_as_fields_do() {
        let word: u128 = 0x0123_4567_89ab_cdef_fedc_ba98_7654_3210;
        for (start, width) in [(0, 1), (12, 3), (32, 32), (24, 64), (34, 48), (64, 8), (105, 21), (60, 8), (90, 8), (96, 32), (62, 4)] {
            let (field, fld) = (Field::new(start, width), Fld::of(Field::new(start, width)));
            assert_eq!(fld.get(word), field.get(word));
            assert_eq!(fld.get_signed(word), field.get_signed(word));
            let v = field.get(word);
            assert_eq!(fld.put(0, v), field.set(0, v));
            assert_eq!(fld.put_signed(0, field.get_signed(word)), field.set_signed(0, field.get_signed(word)));
            if width < 64 {
                assert_eq!(fld.put(0, field.max() + 1), None);
            }
            if width <= 32 {
                let at = At::of(start, width);
                assert_eq!((at.read(&windows(word)) & field.max(), at.start()), (field.get(word), start), "bits {start}+{width}");
            }
        }
    }
}

//! The register widths of every form's operands (how many consecutive
//! 32-bit registers each spans), as the form table's rows declare them
//! ([`OperandWidths`], set on a row with [`Declare::widths`]), evaluated
//! here once per form and written into the form table ([`Widths`]), so
//! that no stage reads them from the mnemonic's text at run time.
//!
//! A row states the widths where they are not one register, each by a
//! [`Width`]: a count, the operation's size as its size modifiers spell
//! it, an address that `.E` makes a pair, the size one modifier field
//! spells, or a count per value of one field. What a size modifier's
//! spelling means is the same on every opcode and decided here
//! ([`size`]); which operands have that size is the row's to say (a size
//! names the data's width, not the operands that carry it: `SHF.U64`'s
//! operands are single registers, `LDG.E.64`'s address is a pair whatever
//! the size). A row that declares nothing has every operand one register.
//!
//! For each form the declaration is evaluated on every combination of the
//! modifier values; the widths are written as one entry when they never
//! change, or as one entry per value of the one modifier that decides
//! them. A form whose widths depend on more than one modifier (the
//! representation would need to grow), or whose declaration contradicts
//! its slots ([`contradictions`]), fails the build.

use crate::isa::form::{Form, OperandSuffix, Slot, UNMEASURED, Widths};
use crate::isa::ops::{base, tokens};

/// Register widths (in 32-bit registers) of a general or uniform result,
/// then of the general or uniform sources at positions 0–3 (positions
/// count every source operand but predicates).
pub type Shape = [u8; 5];

/// How many registers one operand spans, as a row declares it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Width {
    /// A count of registers: 1, 2 (a pair) or 4 (a quad, also for three
    /// values: ptxas allocates them aligned).
    Regs(u8),
    /// The operation's size, as the mnemonic's size modifiers spell it
    /// ([`size`]): the data a load, store or 64-bit operation moves.
    Size,
    /// The size the value of the form's modifier field `k` spells alone
    /// ([`size`] of its tokens): a conversion's destination or source type.
    SizeOf(u8),
    /// A memory address: a 64-bit pair where the mnemonic says `.E` (the
    /// address slot prints no `.64` on sm_75 and on compare-and-swap),
    /// one register otherwise. On a slot whose base prints `.U32` it is
    /// one register whatever `.E` says (see [`widths_of`]).
    Address,
    /// Per value of the form's modifier field `k` (in the field's value
    /// order, one entry per value), where what the spelling means is the
    /// opcode's own (CS2R's `.32`, LDSM's matrix count).
    ByMod(u8, &'static [u8]),
}

/// The widths a row declares: of its result and of its sources at
/// positions 0–3, as [`Shape`] counts them. Positions the form does not
/// have are written as declared too (the table keeps one shape per form).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OperandWidths([Width; 5]);

impl OperandWidths {
    /// Every operand one register: what a row without a declaration has.
    pub const ONE: OperandWidths = OperandWidths([Width::Regs(1); 5]);

    /// Every operand `w`.
    pub const fn all(w: Width) -> OperandWidths {
        OperandWidths([w; 5])
    }

    /// The result `w`.
    pub const fn result(self, w: Width) -> OperandWidths {
        let mut all = self.0;
        all[0] = w;
        OperandWidths(all)
    }

    /// The source at position `k` (0–3) `w`.
    pub const fn source(self, k: usize, w: Width) -> OperandWidths {
        let mut all = self.0;
        all[1 + k] = w;
        OperandWidths(all)
    }

    /// Every source `w`.
    pub const fn sources(self, w: Width) -> OperandWidths {
        let mut all = self.0;
        let mut k = 1;
        while k < 5 {
            all[k] = w;
            k += 1;
        }
        OperandWidths(all)
    }
}

/// Setting a row's declared widths: on one form, or on every form a
/// helper pushed for one row.
pub trait Declare {
    /// The row with its operands' widths declared (a helper's forms are
    /// set in place; the returned slice is for chaining).
    fn widths(self, widths: OperandWidths) -> Self;
}

impl Declare for Form {
    fn widths(self, widths: OperandWidths) -> Form {
        Form { widths, ..self }
    }
}

impl Declare for &mut [Form] {
    fn widths(self, widths: OperandWidths) -> Self {
        for form in self.iter_mut() {
            form.widths = widths;
        }
        self
    }
}

/// The operation's size in registers, as size modifiers spell it on
/// every opcode: `.128` and vectors of eight 16-bit or four 32-bit
/// elements are four; `.64`, a 64-bit type (`.S64`, `.U64`, `.F64`) and
/// vectors of four narrower or two 32-bit elements two; anything else one.
pub fn size(toks: &[&str]) -> u8 {
    let has = |t: &str| toks.contains(&t);
    if has("128") || toks.iter().any(|t| t.ends_with("x8") || t.ends_with("x4") && t.starts_with("F32")) {
        4
    } else if has("64") || has("S64") || has("U64") || has("F64") || toks.iter().any(|t| t.ends_with("x4") || t.starts_with("F32x2")) {
        2
    } else {
        1
    }
}

/// One combination of a form's modifier values: per field its value and
/// its tokens (none for a modifier printed after an operand), and every
/// token of the mnemonic.
struct Combination {
    values: Vec<usize>,
    field_tokens: Vec<Vec<&'static str>>,
    mnemonic: Vec<&'static str>,
}

impl Width {
    /// The width for one combination of modifier values (a field that is
    /// not there, or a value past a [`Width::ByMod`] table, reads as one
    /// register: [`contradictions`] reports both).
    fn eval(self, combo: &Combination) -> u8 {
        match self {
            Width::Regs(n) => n,
            Width::Size => size(&combo.mnemonic),
            Width::SizeOf(k) => combo.field_tokens.get(usize::from(k)).map_or(1, |t| size(t)),
            Width::Address => {
                if combo.mnemonic.contains(&"E") {
                    2
                } else {
                    1
                }
            }
            Width::ByMod(k, table) => combo.values.get(usize::from(k)).and_then(|&v| table.get(v)).copied().unwrap_or(1),
        }
    }
}

/// The most modifier combinations a form may have (the largest form of
/// the table has a few hundred).
const MAX_COMBINATIONS: usize = 1 << 16;

/// Every combination of a form's measured modifier values.
fn combinations(form: &Form) -> Result<Vec<Combination>, String> {
    let name_toks = tokens(&form.name[base(form.name).len()..]).unwrap_or_default();
    let suffix_toks = tokens(form.suffix).unwrap_or_default();
    // Per modifier field, its measured values with their tokens (an
    // operand modifier prints after an operand: not part of the mnemonic).
    let fields: Vec<Vec<(usize, Vec<&'static str>)>> = form
        .mods
        .iter()
        .enumerate()
        .map(|(k, m)| {
            m.names
                .iter()
                .enumerate()
                .filter(|(_, n)| **n != UNMEASURED)
                .map(|(v, n)| (v, if form.is_operand_mod(k) { Vec::new() } else { tokens(n).unwrap_or_default() }))
                .collect()
        })
        .collect();
    let count = fields.iter().map(|f| f.len().max(1)).product::<usize>();
    if count > MAX_COMBINATIONS {
        return Err(format!("form `{}` has {count} modifier combinations", form.name));
    }
    let mut combos = Vec::with_capacity(count);
    for n in 0..count {
        let mut rest = n;
        let mut combo = Combination { values: Vec::new(), field_tokens: Vec::new(), mnemonic: name_toks.clone() };
        for f in &fields {
            let len = f.len().max(1);
            let (v, t) = f.get(rest % len).map_or((0, &[][..]), |(v, t)| (*v, &t[..]));
            rest /= len;
            combo.values.push(v);
            combo.field_tokens.push(t.to_vec());
            combo.mnemonic.extend_from_slice(t);
        }
        combo.mnemonic.extend_from_slice(&suffix_toks);
        combos.push(combo);
    }
    Ok(combos)
}

/// The widths of a form: its declaration over every combination of its
/// modifier values, as [`Widths`] (the `by` modifier and the per-value
/// table); an error when more than one modifier decides them.
pub fn widths_of(form: &Form) -> Result<(Option<u8>, Vec<Shape>), String> {
    let combos = combinations(form)?;
    // An address whose base prints `.U32` (sm_75's `[R4.U32+UR4]`) reads
    // one register, whatever `.E` says of the others.
    let u32_base = source_slots(form).position(|(_, s)| matches!(s, Slot::Addr { u32_base: true, .. }));
    let shapes: Vec<(Vec<usize>, Shape)> = combos
        .iter()
        .map(|c| {
            let mut shape = form.widths.0.map(|w| w.eval(c));
            if let Some(k) = u32_base.filter(|&k| k < 4) {
                shape[1 + k] = 1;
            }
            (c.values.clone(), shape)
        })
        .collect();
    let first = shapes.first().map_or([1; 5], |c| c.1);
    if shapes.iter().all(|c| c.1 == first) {
        return Ok((None, vec![first]));
    }
    // The one field whose value decides the shape.
    for (k, m) in form.mods.iter().enumerate() {
        let mut table: Vec<Option<Shape>> = vec![None; m.names.len()];
        let decides = shapes.iter().all(|(values, s)| match &mut table[values[k]] {
            Some(seen) => seen == s,
            slot @ None => {
                *slot = Some(*s);
                true
            }
        });
        if decides {
            // Unmeasured values never decode or build: any entry will do.
            return Ok((Some(k as u8), table.into_iter().map(|s| s.unwrap_or(first)).collect()));
        }
    }
    Err(format!("the operand widths of form `{}` depend on more than one modifier", form.name))
}

/// A form's source slots with their indices, in position order (every
/// slot it does not write but the predicates).
fn source_slots(form: &Form) -> impl Iterator<Item = (usize, &'static Slot)> {
    let name = form.name;
    form.slots.iter().enumerate().filter(move |(_, s)| !Form::result_slot(name, s) && !matches!(s, Slot::Pred { .. }))
}

/// Where a form's declaration contradicts its slots or its modifiers:
/// * a count other than 1, 2 or 4; a modifier field the form does not
///   have; a [`Width::ByMod`] table not one entry per value of its field;
/// * an [`Width::Address`] whose operand is not an address;
/// * a width above one on a source that holds one word whatever the
///   operation (a hex constant, a text, a branch target, a barrier, a
///   special register, the second register of a pair printed apart) or on
///   a register printed `.F32`, one lane's single register;
/// * a result wider than one register where the form writes predicates
///   only.
///
/// Positions the form does not have (a store's result, a fourth source)
/// are not checked: their widths are never read.
pub fn contradictions(form: &Form) -> Vec<String> {
    let mut problems = Vec::new();
    let at = |position: usize| if position == 0 { "the result".to_string() } else { format!("source {}", position - 1) };
    for (position, w) in form.widths.0.iter().enumerate() {
        let fits = |n: u8| matches!(n, 1 | 2 | 4);
        match *w {
            Width::Regs(n) if !fits(n) => problems.push(format!("form `{}`: {} is {n} registers (1, 2 or 4)", form.name, at(position))),
            Width::SizeOf(k) if usize::from(k) >= form.mods.len() => {
                problems.push(format!("form `{}`: {} is the size of modifier {k}, which it does not have", form.name, at(position)))
            }
            Width::ByMod(k, table) => match form.mods.get(usize::from(k)) {
                None => problems.push(format!("form `{}`: {} is by modifier {k}, which it does not have", form.name, at(position))),
                Some(m) if m.names.len() != table.len() || !table.iter().all(|&n| fits(n)) => problems.push(format!(
                    "form `{}`: {} by modifier {k} has {} entries of 1, 2 or 4 for its {} values",
                    form.name,
                    at(position),
                    table.len(),
                    m.names.len()
                )),
                Some(_) => {}
            },
            _ => {}
        }
    }
    let Ok(combos) = combinations(form) else { return problems };
    let widest = |w: Width| combos.iter().map(|c| w.eval(c)).max().unwrap_or(1);
    for (k, (index, slot)) in source_slots(form).enumerate().take(4) {
        let w = form.widths.0[1 + k];
        if w == Width::Address && !matches!(slot, Slot::Addr { .. }) {
            problems.push(format!("form `{}`: source {k} is declared an address, but its slot is {slot:?}", form.name));
        }
        let one_word = matches!(
            slot,
            Slot::Hex(_)
                | Slot::HexSplit(..)
                | Slot::Mask(_)
                | Slot::MaskSplit(..)
                | Slot::Text(_)
                | Slot::Target(_)
                | Slot::AbsTarget(_)
                | Slot::RelOffset(_)
                | Slot::Barrier(_)
                | Slot::SpecialReg(_)
                | Slot::NextUr(_)
                | Slot::Again(_)
        );
        let single = form.operand_suffixes.iter().any(|s| matches!(*s, OperandSuffix::Text { text: ".F32", slot } if usize::from(slot) == index));
        if (one_word || single) && widest(w) > 1 {
            problems.push(format!("form `{}`: source {k} is declared {} registers wide, but its slot holds one ({slot:?})", form.name, widest(w)));
        }
    }
    let writes_register = form.slots.iter().any(|s| Form::result_slot(form.name, s) && !matches!(s, Slot::Pred { .. }));
    let writes_predicate = form.slots.iter().any(|s| Form::result_slot(form.name, s) && matches!(s, Slot::Pred { .. }));
    if writes_predicate && !writes_register && widest(form.widths.0[0]) > 1 {
        problems.push(format!("form `{}`: its result is declared {} registers wide, but it writes predicates only", form.name, widest(form.widths.0[0])));
    }
    problems
}

/// A form's widths as written into the table.
pub fn write(form: &Form, out: &mut String) {
    use crate::forms::Rust;
    // `Ops::of` has run `check` first: a form that fails it never gets here.
    let (by, table) = widths_of(form).unwrap_or((None, vec![[1; 5]]));
    // Every field of `Widths` is written (a new one is a build error here).
    let Widths { by: _, table: _ } = Widths::ONE;
    out.push_str("Widths { by: ");
    by.rust(out);
    out.push_str(", table: &[");
    for (k, s) in table.iter().enumerate() {
        if k > 0 {
            out.push_str(", ");
        }
        let _ = std::fmt::Write::write_fmt(out, format_args!("{s:?}"));
    }
    out.push_str("] }");
}

/// Every form's widths can be written and agree with its slots: the
/// problems when some do not.
pub fn check(forms: &[Vec<Form>]) -> Vec<String> {
    forms.iter().flatten().flat_map(|f| widths_of(f).err().into_iter().chain(contradictions(f))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::bits::Field;
    use crate::isa::form::{ModField, PredShow, Spelling};

    const RD: Slot = Slot::Gpr { field: Field::bits(16, 23), neg: None, abs: None, not: None, reuse: None };
    const RA: Slot = Slot::Gpr { field: Field::bits(24, 31), neg: None, abs: None, not: None, reuse: None };
    const P0: Slot = Slot::Pred { uniform: false, field: Field::bits(81, 83), not: None, show: PredShow::Always };
    const SIZE: ModField = ModField { field: Field::bits(73, 75), names: &[".U8", "", ".64", ".128", UNMEASURED], extra: None };
    const ORDER: ModField = ModField { field: Field::bits(77, 78), names: &["", ".STRONG.GPU"], extra: None };

    fn address(wide: bool, u32_base: bool) -> Slot {
        Slot::Addr { base: Some(Field::bits(24, 31)), wide, offset: None, scale: None, desc: None, show_desc: false, uniform: None, zero_base: true, u32_base, offset_shift: 0 }
    }

    fn form(name: &'static str, mods: &'static [ModField], slots: Vec<Slot>, widths: OperandWidths) -> Form {
        Form {
            name,
            op: 0,
            spelling: Spelling::EMPTY,
            defs: 0,
            widths,
            sms: (80, 80),
            opcode: 0,
            fixed: &[],
            mods,
            suffix: "",
            aliases: &[],
            space_before_last: false,
            uniform_guard: false,
            slots: Box::leak(slots.into_boxed_slice()),
            nonzero: &[],
            operand_suffixes: &[],
        }
    }

    #[test]
    fn sizes_are_read_from_spellings() {
        assert_eq!(size(&["E", "64"]), 2);
        assert_eq!(size(&["128"]), 4);
        assert_eq!(size(&["S64"]), 2);
        assert_eq!(size(&["F32x4", "RN"]), 4);
        assert_eq!(size(&["F16x4", "RN"]), 2);
        assert_eq!(size(&["F16x2", "RN"]), 1);
        assert_eq!(size(&["U32", "STRONG", "GPU"]), 1);
    }

    #[test]
    fn a_load_is_tabled_by_its_size_modifier() {
        let load = OperandWidths::ONE.result(Width::Size).source(0, Width::Address);
        let f = form("LDG.E", &[ORDER, SIZE], vec![RD, address(true, false)], load);
        // The size field (modifier 1) decides; its unmeasured value takes the first entry.
        let table = vec![[1, 2, 1, 1, 1], [1, 2, 1, 1, 1], [2, 2, 1, 1, 1], [4, 2, 1, 1, 1], [1, 2, 1, 1, 1]];
        assert_eq!(widths_of(&f), Ok((Some(1), table)));
        assert!(contradictions(&f).is_empty());
        // Without `.E` the address is one register.
        let f = form("LDS", &[SIZE], vec![RD, address(false, false)], load);
        assert_eq!(widths_of(&f).map(|w| w.1[2]), Ok([2, 1, 1, 1, 1]));
    }

    #[test]
    fn a_u32_base_is_one_register() {
        let load = OperandWidths::ONE.result(Width::Size).source(0, Width::Address);
        let f = form("LDG.E", &[], vec![RD, address(false, true)], load);
        assert_eq!(widths_of(&f), Ok((None, vec![[1, 1, 1, 1, 1]])));
    }

    #[test]
    fn a_row_without_a_declaration_is_one_register_each() {
        let f = form("LDG.E.64", &[SIZE], vec![RD, address(true, false)], OperandWidths::ONE);
        assert_eq!(widths_of(&f), Ok((None, vec![[1; 5]])));
    }

    #[test]
    fn field_rules_read_one_modifier() {
        const DST: ModField = ModField { field: Field::bits(75, 76), names: &["", ".U64"], extra: None };
        const SRC: ModField = ModField { field: Field::bits(84, 85), names: &[".F16", "", ".F64"], extra: None };
        let conversion = OperandWidths::ONE.result(Width::SizeOf(0)).sources(Width::SizeOf(1));
        let f = form("F2I", &[DST, SRC], vec![RD, RA], conversion);
        // Two modifiers decide: not representable.
        assert!(widths_of(&f).is_err());
        let f = form("F2I", &[SRC], vec![RD, RA], OperandWidths::ONE.sources(Width::SizeOf(0)));
        assert_eq!(widths_of(&f), Ok((Some(0), vec![[1, 1, 1, 1, 1], [1, 1, 1, 1, 1], [1, 2, 2, 2, 2]])));
        let f = form("CS2R", &[ORDER], vec![RD, RA], OperandWidths::ONE.result(Width::ByMod(0, &[2, 4])));
        assert_eq!(widths_of(&f), Ok((Some(0), vec![[2, 1, 1, 1, 1], [4, 1, 1, 1, 1]])));
    }

    #[test]
    fn declarations_against_their_slots_are_reported() {
        let pair = Width::Regs(2);
        // An address that is a register.
        assert_eq!(contradictions(&form("X", &[], vec![RD, RA], OperandWidths::ONE.source(0, Width::Address))).len(), 1);
        // A pair where the slot holds one word.
        let hex = Slot::Hex(Field::bits(72, 79));
        assert_eq!(contradictions(&form("X", &[], vec![RD, RA, hex], OperandWidths::ONE.source(1, pair))).len(), 1);
        // A pair where the register prints `.F32`.
        let single = Form { operand_suffixes: &[OperandSuffix::Text { text: ".F32", slot: 1 }], ..form("X", &[], vec![RD, RA], OperandWidths::ONE.source(0, pair)) };
        assert_eq!(contradictions(&single).len(), 1);
        // A pair result where the form writes a predicate only.
        assert_eq!(contradictions(&form("X", &[], vec![P0, RA], OperandWidths::ONE.result(pair))).len(), 1);
        // Counts, fields and tables that do not fit.
        assert_eq!(contradictions(&form("X", &[], vec![RD, RA], OperandWidths::ONE.source(0, Width::Regs(3)))).len(), 1);
        assert_eq!(contradictions(&form("X", &[], vec![RD, RA], OperandWidths::ONE.result(Width::SizeOf(0)))).len(), 1);
        assert_eq!(contradictions(&form("X", &[ORDER], vec![RD, RA], OperandWidths::ONE.result(Width::ByMod(0, &[1, 2, 4])))).len(), 1);
        // The same declarations where the slots agree.
        assert!(contradictions(&form("X", &[], vec![RD, address(false, false)], OperandWidths::ONE.source(0, Width::Address))).is_empty());
        assert!(contradictions(&form("X", &[], vec![RD, RA, RA], OperandWidths::ONE.result(pair).source(1, pair))).is_empty());
        // A position the form does not have is not checked (a store's result).
        assert!(contradictions(&form("X", &[], vec![address(false, false), RA], OperandWidths::all(pair).source(0, Width::Address))).is_empty());
    }
}

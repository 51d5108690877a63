//! The register widths of every form's operands, worked out here once per
//! form and written into the form table ([`Widths`]), so that no stage
//! reads them from the mnemonic's text at run time.
//!
//! [`shape`] is the rule: what the ISA reference and the register pairs
//! ptxas allocates in the corpus show each opcode reads and writes, by its
//! modifiers. For each form it is applied to every combination of the
//! modifier values; the widths are written as one entry when they never
//! change, or as one entry per value of the one modifier that decides
//! them. A form whose widths depend on more than one modifier fails the
//! build (the representation would need to grow).

use crate::isa::form::{Form, UNMEASURED, Widths};
use crate::isa::ops::{base, tokens};

/// Register widths (in 32-bit registers) of a general or uniform result,
/// then of the general or uniform sources at positions 0–3 (positions
/// count every source operand but predicates).
pub type Shape = [u8; 5];

/// The widths of an opcode's operands, from the tokens of its mnemonic
/// after the opcode (`E`, `64` of `LDG.E.64`).
pub fn shape(op: &str, toks: &[&str]) -> Shape {
    let has = |t: &str| toks.contains(&t);
    let all = |w: u8| [w; 5];
    let with = |dst: u8, src: [u8; 4]| [dst, src[0], src[1], src[2], src[3]];
    // Memory access size, from the size modifier (vector types: eight
    // 16-bit or four 32-bit elements are 128 bits, four narrower ones or
    // two 32-bit ones 64).
    let size = if has("128") || toks.iter().any(|t| t.ends_with("x8") || t.ends_with("x4") && t.starts_with("F32")) {
        4
    } else if has("64") || has("S64") || has("U64") || has("F64") || toks.iter().any(|t| t.ends_with("x4") || t.starts_with("F32x2")) {
        2
    } else {
        1
    };
    // Float conversion types in order: destination, then source.
    let types: Vec<&str> = toks.iter().copied().filter(|t| matches!(*t, "F64" | "F32" | "F16" | "BF16")).collect();
    let wide_int = has("S64") || has("U64");
    let pair = |on: bool| if on { 2 } else { 1 };
    let address = pair(has("E"));
    match op {
        "DFMA" | "DADD" | "DMUL" => all(2),
        "DSETP" => with(1, [2; 4]),
        "IMAD" | "UIMAD" if has("WIDE") => with(2, [1, 1, 2, 1]),
        // IMAD.HI adds the 64-bit pair c:c+1 before taking the high word
        // (src/select/isle.rs, emit_imad): its c reads two registers, so a
        // write of c+1 may not move above it.
        "IMAD" | "UIMAD" if has("HI") => with(1, [1, 1, 2, 1]),
        // The address first. `.E` makes it a 64-bit pair where the operand
        // prints without `.64` (sm_75's `LDG.E.SYS R0, [R2]` reads R2:R3;
        // from sm_80 on the slot's `.64` says so): a write of R3 may not
        // move above the access.
        "LDG" | "LD" | "LDS" | "LDL" | "LDC" | "LDCU" | "ULDC" => with(size, [address, 1, 1, 1]),
        // Address first, then the data.
        // A global or generic compare-and-swap prints its 64-bit address
        // without `.64` (`[R4+0x8]`): the pair is read all the same.
        "ATOMG" | "ATOM" if has("CAS") => with(size, [2, size, size, size]),
        "STG" | "ST" | "STS" | "STL" | "ATOMG" | "ATOMS" | "ATOM" | "RED" | "REDG" => with(size, [address, size, size, size]),
        "F2F" => with(pair(types.first() == Some(&"F64")), [pair(types.get(1) == Some(&"F64")); 4]),
        "F2I" => with(pair(wide_int), [pair(has("F64")); 4]),
        "I2F" => with(pair(has("F64")), [pair(wide_int); 4]),
        "FRND" if has("F64") => all(2),
        "CS2R" => with(pair(!has("32")), [1; 4]),
        "LEPC" => with(2, [1; 4]),
        // One register per 8x8 matrix loaded (`.2`, `.4`).
        "LDSM" => with(if has("4") { 4 } else if has("2") { 2 } else { 1 }, [1; 4]),
        // The address, then one register per matrix stored.
        "STSM" => {
            let n = if has("4") { 4 } else if has("2") { 2 } else { 1 };
            with(n, [1, n, n, n])
        }
        "MOV" | "UMOV" | "SEL" | "USEL" | "IADD" | "UIADD3" if has("64") => all(2),
        // mbarrier operations: the 64-bit barrier word's old value (an
        // exchange; an arrival's state), the barrier's shared address, then
        // the exchanged word or the transaction count.
        "SYNCS" if has("EXCH") => with(2, [1, 2, 1, 1]),
        "SYNCS" if has("ARRIVE") => with(2, [1; 4]),
        // A bulk copy: the shared destination with its mbarrier (a pair),
        // the 64-bit global source, the size word.
        "UBLKCP" => with(1, [2, 2, 1, 1]),
        // Surface accesses: the coordinate tuple (x, then y, then z or the
        // layer; three registers are an aligned quad, as ptxas allocates
        // them), then a store's data.
        "SULD" | "SUST" => {
            let coords = if has("3D") || has("2D_ARRAY") {
                4
            } else if has("2D") || has("1D_ARRAY") {
                2
            } else {
                1
            };
            // A load's next source is a register handle (one word).
            with(size, [coords, if op == "SUST" { size } else { 1 }, 1, 1])
        }
        // The response's address and the mbarrier's, one pair.
        "UGETNEXTWORKID" => with(1, [2, 1, 1, 1]),
        "ISETP" | "UISETP" if wide_int => with(1, [2; 4]),
        "IMNMX" | "UIMNMX" if wide_int => all(2),
        _ => all(1),
    }
}

/// The most modifier combinations a form may have (the largest form of
/// the table has a few hundred).
const MAX_COMBINATIONS: usize = 1 << 16;

/// The widths of a form: [`shape`] over every combination of its
/// modifier values, as [`Widths`] (the `by` modifier and the per-value
/// table); an error when more than one modifier decides them.
pub fn widths_of(form: &Form) -> Result<(Option<u8>, Vec<Shape>), String> {
    let (by, mut shapes) = mnemonic_widths(form)?;
    // An address whose base prints `.U32` (sm_75's `[R4.U32+UR4]`) reads
    // one register, whatever `.E` says of the others.
    if let Some(k) = u32_base_source(form) {
        for shape in &mut shapes {
            shape[1 + k] = 1;
        }
    }
    Ok((by, shapes))
}

/// The source position (every source operand but predicates) of a form's
/// address slot with a 32-bit base, if it has one.
fn u32_base_source(form: &Form) -> Option<usize> {
    use crate::isa::form::Slot;
    let mut position = 0;
    for slot in form.slots {
        if Form::result_slot(form.name, slot) || matches!(slot, Slot::Pred { .. }) {
            continue;
        }
        if matches!(slot, Slot::Addr { u32_base: true, .. }) {
            return (position < 4).then_some(position);
        }
        position += 1;
    }
    None
}

/// [`widths_of`] by the opcode and the mnemonic's tokens.
fn mnemonic_widths(form: &Form) -> Result<(Option<u8>, Vec<Shape>), String> {
    if let Some(shape) = texture_shape(form).or_else(|| packed_f32_shape(form)) {
        return Ok((None, vec![shape]));
    }
    let op = base(form.name);
    let name_toks = tokens(&form.name[op.len()..]).unwrap_or_default();
    let suffix_toks = tokens(form.suffix).unwrap_or_default();
    // Per modifier field, its measured values with their tokens (an
    // operand modifier prints after an operand: not part of the mnemonic).
    let fields: Vec<Vec<(usize, Vec<&str>)>> = form
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
    // Every combination: its value per field and its shape.
    let mut combos: Vec<(Vec<usize>, Shape)> = Vec::with_capacity(count);
    for n in 0..count {
        let (mut rest, mut values, mut toks) = (n, Vec::new(), name_toks.clone());
        for f in &fields {
            let len = f.len().max(1);
            let (v, t) = f.get(rest % len).map_or((0, &[][..]), |(v, t)| (*v, &t[..]));
            rest /= len;
            values.push(v);
            toks.extend_from_slice(t);
        }
        toks.extend_from_slice(&suffix_toks);
        combos.push((values, shape(op, &toks)));
    }
    let first = combos.first().map_or([1; 5], |c| c.1);
    if combos.iter().all(|c| c.1 == first) {
        return Ok((None, vec![first]));
    }
    // The one field whose value decides the shape.
    for (k, m) in form.mods.iter().enumerate() {
        let mut table: Vec<Option<Shape>> = vec![None; m.names.len()];
        let decides = combos.iter().all(|(values, s)| match &mut table[values[k]] {
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

/// TEX and TLD: two result pairs, then the coordinate registers a and b.
/// Their widths follow the dimension, which prints as the form's `1D`,
/// `2D` or `3D` operand (no modifier token), and the family (see
/// `src/isa/table/texture.rs`): before sm_90 (`.SCR`) the n values
/// (coordinates, then TEX's level of detail) split in halves, the larger
/// in a; from sm_90 the coordinates in a, the level of detail in b. Three
/// registers are an aligned quad (ptxas: `R4` holding x, y, z).
fn texture_shape(form: &Form) -> Option<Shape> {
    let op = base(form.name);
    if op != "TEX" && op != "TLD" && op != "TLD4" {
        return None;
    }
    let dim = form.slots.iter().find_map(|s| match s {
        crate::isa::form::Slot::Text(t) if t.len() == 2 && t.ends_with('D') => t[..1].parse::<u8>().ok(),
        _ => None,
    })?;
    let lod = u8::from(form.name.contains(".LL"));
    let (a, b) = if form.name.contains(".SCR") { ((dim + lod).div_ceil(2), (dim + lod) / 2) } else { (dim, lod) };
    let regs = |w: u8| if w == 3 { 4 } else { w.max(1) };
    Some([2, regs(a), regs(b), 1, 1])
}

/// FADD2, FMUL2 and FFMA2: a pair result; each register source a pair,
/// except one printed `.F32` (one register, read by both lanes: a text
/// the form fixes, see `table/define.rs`), and an immediate one word.
fn packed_f32_shape(form: &Form) -> Option<Shape> {
    use crate::isa::form::{OperandSuffix, Slot};
    if !matches!(base(form.name), "FADD2" | "FMUL2" | "FFMA2") {
        return None;
    }
    let mut shape = [2, 1, 1, 1, 1];
    for (k, slot) in form.slots.iter().enumerate().skip(1).take(4) {
        let single = form.operand_suffixes.iter().any(|s| matches!(*s, OperandSuffix::Text { text: ".F32", slot } if usize::from(slot) == k));
        shape[k] = if matches!(slot, Slot::Gpr { .. }) && !single { 2 } else { 1 };
    }
    Some(shape)
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

/// Every form's widths can be written: the problems when some cannot.
pub fn check(forms: &[Vec<Form>]) -> Vec<String> {
    forms.iter().flatten().filter_map(|f| widths_of(f).err()).collect()
}

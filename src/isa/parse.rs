//! Reading instruction text back: the inverse of [`Inst::text`], derived
//! from the same form table.
//!
//! A line is matched against every form of the SM whose printed name (or
//! alias) and modifier spellings spell its opcode word; the operands are
//! then read slot by slot. A candidate is accepted only if printing it gives
//! the input text again, so what the assembler accepts is exactly what the
//! printer produces.

use super::ctrl::Ctrl;
use super::family::measured_sm;
use super::form::{Form, OperandSuffix, PredShow, Slot, UNMEASURED};
use super::inst::{Inst, InstOperands, ModValues, SPECIAL_FLOATS, float_printable};
use super::operand::{Mem, Operand, Reg, RegFile, RegNum, SrcMods};
use super::table::forms_for;
use crate::target::Sm;

/// Why a line does not assemble.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError(pub String);

/// Parses one instruction (as [`Inst::text`] prints it, `;` included) at
/// `address`, with the given control fields.
pub fn parse_inst(text: &str, sm: Sm, address: u64, ctrl: Ctrl) -> Result<Inst, ParseError> {
    let table_sm = measured_sm(sm).ok_or_else(|| ParseError(format!("{sm} has no encoding tables")))?;
    let line = text.trim();
    let body = line.strip_suffix(';').ok_or_else(|| ParseError("an instruction ends with ';'".into()))?.trim_end();
    let (guard, body) = match body.strip_prefix('@') {
        Some(rest) => {
            let (g, rest) = rest.split_once(' ').ok_or_else(|| ParseError("guard without instruction".into()))?;
            let (neg, name) = match g.strip_prefix('!') {
                Some(n) => (true, n),
                None => (false, g),
            };
            // `@UP0` (uniform instructions) is stored like `@P0`; printing checks the form.
            let reg = parse_reg(name, RegFile::Pred)
                .or_else(|| parse_reg(name, RegFile::UniformPred).map(|r| Reg { file: RegFile::Pred, ..r }))
                .ok_or_else(|| ParseError(format!("bad guard predicate '{g}'")))?;
            ((reg, neg), rest.trim_start())
        }
        None => ((Reg::zero(RegFile::Pred), false), body),
    };
    let (opcode, operands) = match body.split_once(' ') {
        Some((o, rest)) => (o, rest.trim()),
        None => (body, ""),
    };
    let operands = split_operands(operands);
    for form in forms_for(table_sm).iter().filter(|f| f.applies_to(table_sm)) {
        for name in std::iter::once(form.name).chain(form.aliases.iter().map(|a| a.name)) {
            let Some(rest) = opcode.strip_prefix(name) else { continue };
            let Some(mut mods) = match_mods(form, rest) else { continue };
            let Some(ops) = match_operands(form, &operands, &mut mods, address, sm) else { continue };
            let reuse = form.slots.iter().zip(&ops).fold(0u8, |acc, (slot, op)| match (slot, op) {
                (Slot::Gpr { reuse: Some(k), .. }, Operand::Reg { reuse: true, .. }) => acc | 1 << k,
                _ => acc,
            });
            let inst = Inst { form, guard, mods, operands: ops, ctrl: ctrl.with_reuse(reuse) };
            if inst.listing_text(sm, address) == line {
                return Ok(inst);
            }
        }
    }
    Err(ParseError(format!("no {sm} instruction form reads '{line}'")))
}

/// The modifier values that spell `rest` (what follows the name), in order,
/// followed by the form's suffix. Modifiers printed after an operand are 0
/// here ([`match_operands`] reads them).
fn match_mods(form: &Form, rest: &str) -> Option<ModValues> {
    let mut rest = rest;
    let mut values = ModValues::new();
    for (k, m) in form.mods.iter().enumerate() {
        if form.is_operand_mod(k) {
            values.push(0);
            continue;
        }
        // The longest spelling that the text continues with (".RCP64H" before ".RCP").
        let best = m
            .names
            .iter()
            .enumerate()
            .filter(|(_, n)| **n != UNMEASURED && rest.starts_with(**n) && boundary(&rest[n.len()..]))
            .max_by_key(|(_, n)| n.len())?;
        values.push(best.0 as u8);
        rest = &rest[best.1.len()..];
    }
    (rest == form.suffix).then_some(values)
}

fn boundary(rest: &str) -> bool {
    rest.is_empty() || rest.starts_with('.')
}

/// Splits an operand list at top-level `", "` (not inside brackets).
fn split_operands(text: &str) -> Vec<&str> {
    if text.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    let (mut depth, mut start) = (0i32, 0usize);
    let bytes = text.as_bytes();
    for (k, &b) in bytes.iter().enumerate() {
        match b {
            b'[' => depth += 1,
            b']' => depth -= 1,
            b',' if depth == 0 => {
                out.push(text[start..k].trim());
                start = k + 1;
            }
            _ => {}
        }
    }
    out.push(text[start..].trim());
    out
}

/// The operand text without the modifier the form prints after it, and
/// that modifier's value (the longest spelling the text ends with, else
/// the value spelled by nothing).
fn strip_operand_mod<'t>(form: &Form, m: usize, text: &'t str) -> Option<(&'t str, u8)> {
    let names = form.mods.get(m)?.names;
    let spelled = names
        .iter()
        .enumerate()
        .filter(|(_, n)| !n.is_empty() && **n != UNMEASURED && text.ends_with(**n))
        .max_by_key(|(_, n)| n.len());
    match spelled {
        Some((v, n)) => Some((&text[..text.len() - n.len()], v as u8)),
        None => Some((text, names.iter().position(|n| n.is_empty())? as u8)),
    }
}

/// Reads the operands slot by slot; optional predicates (printed only when
/// not PT) are taken when there are more operands than required slots.
/// Modifiers printed after an operand are read into `mods`.
fn match_operands(form: &Form, texts: &[&str], mods: &mut ModValues, address: u64, sm: Sm) -> Option<InstOperands> {
    // `RET.REL.NODEC R2 0x880`: the last two operands are one list item.
    let mut split_last: Vec<&str>;
    let texts = if form.space_before_last {
        split_last = texts.to_vec();
        let (a, b) = split_last.pop()?.split_once(' ')?;
        split_last.extend([a, b]);
        &split_last[..]
    } else {
        texts
    };
    // An f16 pair prints as two list items.
    let required: usize = form.slots.iter().map(|s| match s {
        Slot::Pred { show: PredShow::UnlessTrue, .. } => 0,
        Slot::Half2 => 2,
        _ => 1,
    }).sum();
    let mut optional_left = texts.len().checked_sub(required)?;
    let mut it = texts.iter();
    let mut ops = InstOperands::new();
    for (k, slot) in form.slots.iter().enumerate() {
        if let Slot::Pred { show: PredShow::UnlessTrue, uniform, .. } = slot {
            if optional_left == 0 {
                ops.push(Operand::reg(Reg::zero(if *uniform { RegFile::UniformPred } else { RegFile::Pred })));
                continue;
            }
            optional_left -= 1;
        }
        if let Slot::Half2 = slot {
            // The pair prints as two list items (`0, 2.384185791015625e-07`).
            let (hi, lo) = (it.next()?, it.next()?);
            ops.push(parse_half2(hi, lo)?);
            continue;
        }
        let mut text = *it.next()?;
        // An `|x|` bank with its suffix inside the bars (`|c[0x0] [0x168].H0_H0|`),
        // and a register whose form prints it there (`|R0.H1|`; `|R0|.H1`
        // is not its text).
        let moved;
        let in_bars = match (slot, form.operand_suffix_of(k)) {
            (Slot::CBank { .. }, Some(OperandSuffix::Mod { modifier, .. })) => Some((modifier, false)),
            (_, Some(OperandSuffix::ModInBars { modifier, .. })) => Some((modifier, true)),
            _ => None,
        };
        if let Some((modifier, only_inside)) = in_bars {
            if let Some(inner) = text.strip_suffix('|').filter(|t| t.contains('|')) {
                let (rest, _) = strip_operand_mod(form, usize::from(modifier), inner)?;
                if rest.len() < inner.len() {
                    moved = format!("{rest}|{}", &inner[rest.len()..]);
                    text = &moved;
                }
            } else if only_inside && text.contains('|') && strip_operand_mod(form, usize::from(modifier), text)?.0.len() < text.len() {
                return None;
            }
        }
        match form.operand_suffix_of(k) {
            Some(OperandSuffix::Mod { modifier, .. } | OperandSuffix::ModInBars { modifier, .. }) => {
                let m = usize::from(modifier);
                let (rest, v) = strip_operand_mod(form, m, text)?;
                *mods.get_mut(m)? = v;
                text = rest;
            }
            Some(OperandSuffix::Text { text: suffix, .. }) => text = text.strip_suffix(suffix)?,
            None => {}
        }
        if let Slot::Again(of) = slot {
            // The register of slot `of` again, as it printed.
            let (Some(Operand::Reg { reg, .. }), Some(s)) = (ops.get(usize::from(*of)), form.slots.get(usize::from(*of))) else { return None };
            (parse_operand(s, text, address, sm)? == Operand::Reg { reg: *reg, mods: Default::default(), reuse: false }).then_some(())?;
        }
        if let Slot::NextUr(of) = slot {
            // The register after the address's uniform register.
            let ur = match ops.get(usize::from(*of)) {
                Some(Operand::Mem(m)) => m.uniform(),
                _ => None,
            };
            let RegNum::Phys(n) = ur?.num else { return None };
            (text == format!("[UR{}]", u16::from(n) + 1)).then_some(())?;
        }
        ops.push(parse_operand(slot, text, address, sm)?);
    }
    it.next().is_none().then_some(ops)
}

/// Two `f16` values (high half first) as the 32-bit immediate of [`Slot::Half2`].
fn parse_half2(hi: &str, lo: &str) -> Option<Operand> {
    // `+QNAN` is 0x7fff, the one NaN `half2_text` prints.
    let half = |t: &str| if t == "+QNAN" { Some(0x7fff) } else { parse_half(t).map(u32::from) };
    let bits = half(hi)? << 16 | half(lo)?;
    // Specials print with a trailing space (`-0.0 `), which the operand split trimmed.
    let text = super::inst::half2_text(bits)?;
    let (h, l) = text.split_once(", ")?;
    (h.trim_end() == hi && l.trim_end() == lo).then_some(Operand::Imm(bits))
}

/// The `f16` bits of a value's text (`+INF`, `-0.0` included), if an
/// `f16` holds it exactly.
fn parse_half(t: &str) -> Option<u16> {
    match t {
        "+INF" => Some(0x7c00),
        "-INF" => Some(0xfc00),
        _ => f16_bits(t.parse().ok()?).and_then(|b| u16::try_from(b).ok()),
    }
}

/// The `f16` bit pattern of a value it holds exactly (finite values only).
fn f16_bits(v: f64) -> Option<u32> {
    let sign = if v.is_sign_negative() { 0x8000 } else { 0 };
    let a = v.abs();
    if a == 0.0 {
        return Some(sign);
    }
    if a.is_infinite() {
        return Some(sign | 0x7c00);
    }
    // Subnormals: m * 2^-24 with m < 1024.
    let m = a * 2f64.powi(24);
    if m < 1024.0 {
        return (m.fract() == 0.0).then_some(sign | m as u32);
    }
    let e = a.log2().floor() as i32;
    if !(-14..=15).contains(&e) {
        return None;
    }
    let mant = (a / 2f64.powi(e) - 1.0) * 1024.0;
    (mant.fract() == 0.0 && (0.0..1024.0).contains(&mant)).then_some(sign | ((e + 15) as u32) << 10 | mant as u32)
}

/// `R5`, `RZ`, `UR4`, `URZ`, `P0`, `PT`, `B0`.
fn parse_reg(text: &str, file: RegFile) -> Option<Reg> {
    let (prefix, zero) = match file {
        RegFile::Gpr => ("R", "RZ"),
        RegFile::Uniform => ("UR", "URZ"),
        RegFile::Pred => ("P", "PT"),
        RegFile::UniformPred => ("UP", "UPT"),
        RegFile::Barrier => ("B", ""),
    };
    if text == zero {
        return Some(Reg::zero(file));
    }
    let n: u8 = text.strip_prefix(prefix)?.parse().ok()?;
    Some(Reg { file, num: RegNum::Phys(n) })
}

/// Source modifiers in front of an operand, and what remains.
fn strip_mods(text: &str) -> (SrcMods, &str) {
    let mut m = SrcMods::default();
    let mut t = text;
    if let Some(r) = t.strip_prefix('-') {
        m.neg = true;
        t = r;
    }
    if let Some(r) = t.strip_prefix('~').or_else(|| t.strip_prefix('!')) {
        m.not = true;
        t = r;
    }
    if let Some(inner) = t.strip_prefix('|').and_then(|r| r.strip_suffix('|')) {
        m.abs = true;
        t = inner;
    }
    (m, t)
}

fn parse_hex(text: &str) -> Option<u64> {
    u64::from_str_radix(text.strip_prefix("0x")?, 16).ok()
}

fn parse_signed_hex(text: &str) -> Option<i64> {
    match text.strip_prefix('-') {
        Some(h) => parse_hex(h).map(|v| -(v as i64)),
        None => parse_hex(text).map(|v| v as i64),
    }
}

fn parse_operand(slot: &Slot, text: &str, address: u64, sm: Sm) -> Option<Operand> {
    Some(match *slot {
        Slot::Gpr { .. } | Slot::Ur { .. } | Slot::UniformB { .. } | Slot::Pred { .. } | Slot::Barrier(_) => {
            let file = match slot {
                Slot::Gpr { .. } => RegFile::Gpr,
                Slot::Ur { .. } | Slot::UniformB { .. } => RegFile::Uniform,
                Slot::Pred { uniform: true, .. } => RegFile::UniformPred,
                Slot::Pred { .. } => RegFile::Pred,
                _ => RegFile::Barrier,
            };
            // `.reuse` follows the whole operand (`|R5|.reuse`, `-R5.reuse`).
            let (rest, reuse) = match text.strip_suffix(".reuse") {
                Some(r) => (r, true),
                None => (text, false),
            };
            let (mods, name) = strip_mods(rest);
            Operand::Reg { reg: parse_reg(name, file)?, mods, reuse }
        }
        Slot::Imm32 { .. } => Operand::Imm(parse_signed_hex(text)? as u32),
        Slot::Hex(_) | Slot::HexSplit(..) => Operand::Hex(parse_hex(text)? as u32),
        Slot::Mask(f) => Operand::Hex(u32::try_from(parse_hex(text)?).ok().filter(|&v| u64::from(v) < f.max())?),
        // All ones is the twin form's, which prints no mask.
        Slot::MaskSplit(lo, hi) => Operand::Hex(u32::try_from(parse_hex(text)?).ok().filter(|&v| u64::from(v) < (1u64 << (lo.width + hi.width)) - 1)?),
        Slot::Imm64(_) => Operand::Imm64(parse_hex(text)?),
        Slot::SImm(_) => Operand::Imm64(parse_signed_hex(text)? as u64),
        Slot::Half2 => return None,
        Slot::Half => {
            let bits = if text == "+QNAN" { 0x7fff } else { u32::from(parse_half(text)?) };
            // `+QNAN` is 0x7fff, as for a pair's halves.
            (super::inst::half_text(bits as u16).trim_end() == text).then_some(Operand::Imm(bits))?
        }
        Slot::Float { f64, .. } => {
            let special = SPECIAL_FLOATS.iter().find(|(_, f, t)| *f == f64 && t.trim_end() == text).map(|(b, _, _)| *b);
            let bits = match special {
                Some(b) => b,
                None => {
                    let v: f64 = text.parse().ok()?;
                    if f64 { (v.to_bits() >> 32) as u32 } else { (v as f32).to_bits() }
                }
            };
            float_printable(bits, f64).then_some(())?;
            Operand::Imm(bits)
        }
        Slot::LoadBank { uniform, .. } => {
            let inner = text.strip_prefix("c[")?.strip_suffix(']')?;
            let (bank, rest) = inner.split_once("][")?;
            let file = if uniform { RegFile::Uniform } else { RegFile::Gpr };
            let (index, offset) = match rest.split_once('+') {
                Some((r, o)) => (parse_reg(r, file)?, parse_signed_hex(o)?),
                None if rest.starts_with("0x") => (Reg::zero(file), parse_hex(rest)? as i64),
                None => (parse_reg(rest, file)?, 0),
            };
            Operand::ConstAddr { bank: parse_hex(bank)? as u8, index, offset: i32::try_from(offset).ok()? }
        }
        Slot::CBank { .. } => {
            let (mods, rest) = strip_mods(text);
            let inner = rest.strip_prefix("c[")?.strip_suffix(']')?;
            // `c[0x2] [0x0]` before an operand suffix.
            let (bank, offset) = inner.split_once("][").or_else(|| inner.split_once("] ["))?;
            let offset = if offset == "RZ" { 0 } else { parse_hex(offset)? };
            Operand::CBank { bank: parse_hex(bank)? as u8, offset: offset as u16, mods }
        }
        Slot::SpecialReg(_) => {
            Operand::SpecialReg(super::inst::special_register_number(text, sm)?)
        }
        Slot::Text(fixed) => (text == fixed.trim_end()).then_some(Operand::Hex(0))?,
        // Checked against its address slot by the caller.
        Slot::NextUr(_) | Slot::Again(_) => Operand::Hex(0),
        Slot::Target(_) => Operand::Target(parse_signed_hex(text)? - address as i64 - 16),
        Slot::AbsTarget(_) => Operand::Target(parse_hex(text)? as i64),
        Slot::RelOffset(_) => Operand::Target(parse_signed_hex(text)?),
        Slot::Addr { offset: offset_field, desc: desc_field, uniform: uniform_field, .. } => {
            // `desc.hidden[..]`: a listing's unprinted descriptor other
            // than UR4 ([`Inst::listing_text`]).
            let (desc, rest) = match text.strip_prefix("desc[").or_else(|| text.strip_prefix("desc.hidden[")) {
                Some(r) => {
                    let (d, rest) = r.split_once(']')?;
                    (Some(parse_reg(d, RegFile::Uniform)?), rest)
                }
                // A descriptor nvdisasm does not print (sm_80–sm_89) is UR4,
                // the one ptxas uses: the text of a word with another one
                // does not say which (see `memory_ops` in `table/define.rs`).
                None if desc_field.is_some() => (Some(super::inst::HIDDEN_DESC), text),
                None => (None, text),
            };
            let inner = rest.strip_prefix('[')?.strip_suffix(']')?;
            // `base`, `UR`, offset, joined by `+` (`[R8.64+UR6+0x2]`, `[R4+-0x4]`).
            let (mut base_text, mut offset, mut uniform) = ("", 0i64, None);
            for (k, part) in inner.split('+').enumerate() {
                if part.starts_with("UR") && uniform_field.is_some() && uniform.is_none() {
                    uniform = Some(parse_reg(part, RegFile::Uniform)?);
                } else if part.starts_with("0x") || part.starts_with("-0x") {
                    offset = parse_signed_hex(part)?;
                } else if k == 0 {
                    base_text = part;
                } else {
                    return None;
                }
            }
            // An absolute address is the offset field, printed unsigned.
            if base_text.is_empty() && uniform.is_none() && inner.starts_with("0x") {
                let shift = 64 - u32::from(offset_field?.width);
                offset = ((parse_hex(inner)? as i64) << shift) >> shift;
            }
            if uniform_field.is_some() && uniform.is_none() {
                return None;
            }
            let mut scale = 0;
            let mut name = base_text.strip_suffix(".64").or_else(|| base_text.strip_suffix(".U32")).unwrap_or(base_text);
            for (k, s) in [(1u8, ".X4"), (2, ".X8"), (3, ".X16")] {
                if let Some(n) = name.strip_suffix(s) {
                    scale = k;
                    name = n;
                }
            }
            let base = if name.is_empty() { Reg::zero(RegFile::Gpr) } else { parse_reg(name, RegFile::Gpr)? };
            Operand::Mem(Mem::from_parts(base, i32::try_from(offset).ok()?, scale, desc, uniform)?)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::bits::join;

    #[test]
    fn parses_what_it_prints() {
        for (lo, hi, sm, address) in [
            (0x0000000004047210u64, 0x004fc80007ffe005u64, 80u16, 0u64),
            (0xffffffe80900780c, 0x000fe40003f62270, 80, 0),
            (0x0000000600051c07, 0x000fca000c000000, 80, 0),
            (0x80000009ff027210, 0x000fe200007fe4ff, 80, 0),
            (0x000000ffff077224, 0x000fc600078e00ff, 80, 0),
            (0x0000002000008947, 0x000fea0003800000, 80, 0xe0),
            (0x0000000402027981, 0x000ea2000c1e1900, 90, 0),
            (0x0000009000007945, 0x000fe20003800200, 120, 0xd0),
            (0xbd563cae07087423, 0x000fc80000000008, 80, 0),
        ] {
            let word = join(lo, hi);
            let inst = Inst::decode(word, Sm::new(sm)).expect("decodes");
            let text = inst.text(Sm::new(sm), address);
            let back = parse_inst(&text, Sm::new(sm), address, inst.ctrl).unwrap_or_else(|e| panic!("{text}: {e:?}"));
            assert_eq!(back.encode(Sm::new(sm)), Ok(word), "{text}");
        }
    }

    #[test]
    fn fsel_qnan_reads_back_as_the_nan_ptxas_emits() {
        // `@P0 FSEL RZ, R0, -QNAN , P0`: nvdisasm prints both negative
        // quiet NaNs 0xfff00000 (what ptxas emits) and 0xffc00000 as
        // `-QNAN `, which reads back as the first; the second does not
        // decode (a fuzzing find: it decoded, and its text assembled to
        // the other word).
        for sm in [75, 90, 120] {
            let sm = Sm::new(sm);
            let ptxas = join(0xfff0_0000_00ff_0808, 0);
            let inst = Inst::decode(ptxas, sm).expect("decodes");
            let text = inst.text(sm, 0);
            assert_eq!(text, "@P0 FSEL RZ, R0, -QNAN , P0;");
            assert_eq!(parse_inst(&text, sm, 0, inst.ctrl).map(|i| i.encode(sm)), Ok(Ok(ptxas)));
            assert!(Inst::decode(join(0xffc0_0000_00ff_0808, 0), sm).is_err(), "{sm}");
        }
    }

    #[test]
    fn hidden_descriptors_read_back_as_ur4() {
        // sm_80 `LDG.E R0, [R2.64]` with UR6 as its (unprinted) descriptor:
        // decoding keeps UR6 and encodes the word again; its text reads back
        // with UR4, the word with 4 in bits 32-37.
        let word = join(0x0000000602007981, 0x0000a2000c1e1900);
        let inst = Inst::decode(word, Sm::new(80)).unwrap();
        assert_eq!(inst.encode(Sm::new(80)), Ok(word));
        let text = inst.text(Sm::new(80), 0);
        assert_eq!(text, "LDG.E R0, [R2.64] ;");
        let back = parse_inst(&text, Sm::new(80), 0, inst.ctrl).unwrap().encode(Sm::new(80)).unwrap();
        assert_eq!(back, join(0x0000000402007981, 0x0000a2000c1e1900));
        // The listing spells the descriptor out, and that text reads back exactly.
        let listed = inst.listing_text(Sm::new(80), 0);
        assert_eq!(listed, "LDG.E R0, desc.hidden[UR6][R2.64] ;");
        assert_eq!(parse_inst(&listed, Sm::new(80), 0, inst.ctrl).unwrap().encode(Sm::new(80)), Ok(word));
        // A printed descriptor is an explicit cache policy (bit 101), as
        // nvdisasm prints it: that word, not the hidden descriptor's.
        let policy = parse_inst("LDG.E R0, desc[UR4][R2.64] ;", Sm::new(80), 0, inst.ctrl).unwrap().encode(Sm::new(80)).unwrap();
        assert_eq!(policy, join(0x0000000402007981, 0x0000a2200c1e1900));
    }

    #[test]
    fn half_immediates_read_back() {
        for bits in [0x0000_0004u32, 0x4b80_0000, 0x0000_5678, 0x3c00_bc00, 0x0400_03ff] {
            let text = crate::isa::inst::half2_text(bits).unwrap();
            let (hi, lo) = text.split_once(", ").unwrap();
            assert_eq!(parse_half2(hi, lo), Some(Operand::Imm(bits)), "{text}");
        }
    }

    #[test]
    fn refuses_what_it_would_not_print() {
        let c = Ctrl::default();
        for bad in ["IADD3 R4, R4, R0 ;", "IADD3 R4, R4, R0, R5", "FOO R1 ;", "IADD3 R4, R4, R0, R5  ;", "@Q0 EXIT ;"] {
            assert!(parse_inst(bad, Sm::new(80), 0, c).is_err(), "{bad}");
        }
        assert!(parse_inst("EXIT ;", Sm::new(61), 0, c).is_err());
    }
}

//! The register maps ptxas writes with `-g` (or for a `.target ...,
//! debug` PTX): `.nv_debug_info_reg_sass`, where each PTX virtual
//! register's value is in SASS registers over which code addresses, and
//! `.nv_debug_info_reg_type`, the PTX type of each of those entries. This
//! module reads and writes their bytes; `docs/debug-info.md` says how the
//! format was measured (ptxas 13.5, sm_75 to sm_120, the same at every
//! SM; `cuobjdump -elf` prints both sections).
//!
//! `.nv_debug_info_reg_sass`: per function (a kernel or a device function
//! compiled on its own), in section order, its name (NUL-terminated) and
//! a `u32` count, then that many entries of
//! * `u32`: which 32-bit word of the PTX register (0, or 1 for the high
//!   half of a 64-bit one);
//! * the PTX register's name, NUL-terminated (`%rd1`);
//! * `u32`: the SASS register, class in the top byte (5: `R`, 2: `P`,
//!   4: a 16-bit half of an `R`), number in the low 24 bits (`cuobjdump`
//!   prints `0x5000006` for R6, `0x4000008` for R4's low half);
//! * `u32` start and `u32` end: byte addresses in the function, the
//!   value is there from start up to, not including, end.
//!
//! `.nv_debug_info_reg_type`: per function, the same name and count, then
//! one byte per entry of the other section, in its order: the PTX
//! register's type ([`type_code`]).
//!
//! All numbers little-endian. The compiler does not write these sections
//! yet (it does not follow PTX registers through to SASS registers).

/// A SASS register class in a location word (the top byte).
pub const CLASS_GPR: u8 = 5;
/// Predicate registers.
pub const CLASS_PREDICATE: u8 = 2;
/// 16-bit halves of `R` registers, numbered 2·R (R4's low half is 8;
/// only low halves were seen).
pub const CLASS_HALF: u8 = 4;

/// The PTX register types in the order of their codes in
/// `.nv_debug_info_reg_type` (measured: every one of these declared as a
/// `.reg` and kept live; `cuobjdump -elf` prints the same names).
const TYPES: [&str; 17] = ["b8", "b16", "b32", "b64", "u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64", "f16", "f16x2", "f32", "f64", "pred"];

/// The code of PTX register type `name` (without the dot).
pub fn type_code(name: &str) -> Option<u8> {
    TYPES.iter().position(|t| *t == name).map(|k| k as u8)
}

/// The PTX type name (without the dot) of a type code.
pub fn type_name(code: u8) -> Option<&'static str> {
    TYPES.get(usize::from(code)).copied()
}

/// One location of a PTX register's 32-bit word.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    /// The PTX register (`%rd1`).
    pub ptx_register: String,
    /// Its 32-bit word held here (0: low).
    pub part: u32,
    /// The SASS register class ([`CLASS_GPR`], [`CLASS_PREDICATE`],
    /// [`CLASS_HALF`]).
    pub class: u8,
    /// The SASS register number (24 bits).
    pub register: u32,
    /// First byte address in the function where the register holds it.
    pub start: u32,
    /// Byte address where it no longer does.
    pub end: u32,
    /// The PTX register's type code ([`type_code`]).
    pub ty: u8,
}

/// One function's locations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FunctionMap {
    /// The function's symbol.
    pub function: String,
    /// Its locations in the order the sections list them (ptxas's: by
    /// start address).
    pub locations: Vec<Location>,
}

/// The bytes of `.nv_debug_info_reg_sass` and `.nv_debug_info_reg_type`
/// for `maps`. A name with a NUL byte or a register number over 24 bits
/// cannot be written.
pub fn encode(maps: &[FunctionMap]) -> Result<(Vec<u8>, Vec<u8>), String> {
    let mut sass = Vec::new();
    let mut types = Vec::new();
    let name = |out: &mut Vec<u8>, s: &str| -> Result<(), String> {
        if s.contains('\0') {
            return Err(format!("register map: the name {s:?} holds a NUL byte"));
        }
        out.extend_from_slice(s.as_bytes());
        out.push(0);
        Ok(())
    };
    for m in maps {
        let count = u32::try_from(m.locations.len()).map_err(|_| format!("register map of {}: too many entries", m.function))?;
        for out in [&mut sass, &mut types] {
            name(out, &m.function)?;
            out.extend_from_slice(&count.to_le_bytes());
        }
        for l in &m.locations {
            if l.register >= 1 << 24 {
                return Err(format!("register map of {}: register {} of {} does not fit 24 bits", m.function, l.register, l.ptx_register));
            }
            sass.extend_from_slice(&l.part.to_le_bytes());
            name(&mut sass, &l.ptx_register)?;
            sass.extend_from_slice(&(u32::from(l.class) << 24 | l.register).to_le_bytes());
            sass.extend_from_slice(&l.start.to_le_bytes());
            sass.extend_from_slice(&l.end.to_le_bytes());
            types.push(l.ty);
        }
    }
    Ok((sass, types))
}

/// Reads the two sections back; an error names the byte offset where
/// they do not parse or disagree.
pub fn decode(sass: &[u8], types: &[u8]) -> Result<Vec<FunctionMap>, String> {
    let mut maps = Vec::new();
    let (mut at, mut type_at) = (0usize, 0usize);
    while at < sass.len() {
        let (function, next) = c_string(sass, at)?;
        let count = word(sass, next)?;
        at = next + 4;
        let (type_function, next) = c_string(types, type_at)?;
        let type_count = word(types, next)?;
        if type_function != function || type_count != count {
            return Err(format!(".nv_debug_info_reg_type at {type_at}: {type_function} with {type_count} entries where .nv_debug_info_reg_sass has {function} with {count}"));
        }
        type_at = next + 4;
        let mut locations = Vec::new();
        for _ in 0..count {
            let part = word(sass, at)?;
            let (ptx_register, next) = c_string(sass, at + 4)?;
            let place = word(sass, next)?;
            let (start, end) = (word(sass, next + 4)?, word(sass, next + 8)?);
            at = next + 12;
            let ty = *types.get(type_at).ok_or_else(|| format!(".nv_debug_info_reg_type ends at {type_at}"))?;
            type_at += 1;
            locations.push(Location { ptx_register, part, class: (place >> 24) as u8, register: place & 0xff_ffff, start, end, ty });
        }
        maps.push(FunctionMap { function, locations });
    }
    if type_at != types.len() {
        return Err(format!(".nv_debug_info_reg_type has {} bytes after its last function", types.len() - type_at));
    }
    Ok(maps)
}

fn c_string(bytes: &[u8], at: usize) -> Result<(String, usize), String> {
    let rest = bytes.get(at..).ok_or_else(|| format!("register map: offset {at} is past the end"))?;
    let len = rest.iter().position(|&b| b == 0).ok_or_else(|| format!("register map: the name at {at} has no NUL"))?;
    Ok((String::from_utf8_lossy(&rest[..len]).into_owned(), at + len + 1))
}

fn word(bytes: &[u8], at: usize) -> Result<u32, String> {
    let b = bytes.get(at..at + 4).ok_or_else(|| format!("register map: a word at {at} is past the end"))?;
    Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

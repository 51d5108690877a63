//! Listings: instruction words as text, one line per instruction, in the
//! format `sass dis` prints and `sass asm` reads back.
//!
//! ```text
//!         /*0000*/ [B------:R-:W-:Y:S05] IMAD.MOV.U32 R1, RZ, RZ, c[0x0][0x28] ;
//! ```
//! Each line holds the address, the control prefix ([`super::ctrl`]) and the
//! instruction as `nvdisasm` prints it (branch targets absolute), except
//! that a memory descriptor nvdisasm leaves out (sm_80–sm_89) is written
//! (`desc.hidden[UR6]`) when it is not UR4 ([`Inst::listing_text`]), so that the line reads back
//! to the same word. A word the
//! decoder does not know yet prints its two 64-bit halves, `.raw 0x<lo>,
//! 0x<hi> ;`, so a listing always says exactly what the words are. With
//! `hex`, each line is followed by `/* 0x<lo> */` and a second line with
//! `/* 0x<hi> */`, as `nvdisasm -hex` does.

use super::bits::{join, split};
use super::ctrl::Ctrl;
use super::inst::Inst;
use super::parse::parse_inst;
use crate::target::Sm;
use std::fmt::Write as _;

/// Statistics of a listing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Coverage {
    /// Instructions listed.
    pub words: usize,
    /// Of those, decoded (the rest are `.raw`).
    pub decoded: usize,
}

/// Appends the listing of `words` (starting at byte address `base`) to `out`.
pub fn write_listing(out: &mut String, words: &[u128], sm: Sm, base: u64, hex: bool) -> Coverage {
    let mut cov = Coverage::default();
    let lines: Vec<String> = words
        .iter()
        .enumerate()
        .map(|(k, &w)| {
            let address = base + 16 * k as u64;
            cov.words += 1;
            // A word whose text would read back as another (a NaN
            // immediate's payload) is listed `.raw`, so that the listing
            // assembles to the same bytes.
            let text = match Inst::decode(w, sm) {
                Ok(inst) if inst.text_reads_back() => {
                    cov.decoded += 1;
                    inst.listing_text(sm, address)
                }
                _ => {
                    let (lo, hi) = split(w);
                    format!(".raw {lo:#018x}, {hi:#018x} ;")
                }
            };
            format!("        /*{address:04x}*/ {} {text}", Ctrl::decode(w))
        })
        .collect();
    let width = lines.iter().map(String::len).max().unwrap_or(0) + 2;
    for (line, &w) in lines.iter().zip(words) {
        if hex {
            let (lo, hi) = split(w);
            let _ = writeln!(out, "{line:width$}/* {lo:#018x} */");
            let _ = writeln!(out, "{:width$}/* {hi:#018x} */", "");
        } else {
            let _ = writeln!(out, "{line}");
        }
    }
    cov
}

/// A listing line that does not assemble.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListingError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// Assembles a listing: the words of every function, in listing order.
///
/// Reads what [`write_listing`] writes. Comments (`/* ... */`, which hold
/// the addresses and `--hex` words, and `//` lines) are ignored; a line
/// `name:` starts a function (addresses restart at 0, as `sass dis` prints
/// them); an instruction without a control prefix gets all-zero control
/// fields.
pub fn read_listing(text: &str, sm: Sm) -> Result<Vec<u128>, ListingError> {
    let mut words = Vec::new();
    let mut address = 0u64;
    for (k, raw_line) in text.lines().enumerate() {
        let err = |message: String| ListingError { line: k + 1, message };
        let line = strip_block_comments(raw_line);
        let line = line.trim();
        if line.is_empty() || line.starts_with("//") {
            continue;
        }
        if let Some(label) = line.strip_suffix(':') {
            if !label.contains(' ') {
                address = 0;
                continue;
            }
        }
        let (ctrl, rest) = match line.strip_prefix('[') {
            Some(r) => {
                let (prefix, rest) = r.split_once(']').ok_or_else(|| err("unterminated control prefix".into()))?;
                (Ctrl::parse(&format!("[{prefix}]")).map_err(|e| err(e.0))?, rest.trim())
            }
            None => (Ctrl::default(), line),
        };
        let word = if let Some(raw) = rest.strip_prefix(".raw ") {
            let raw = raw.trim_end_matches(';').trim();
            let (lo, hi) = raw.split_once(',').ok_or_else(|| err("'.raw' takes two 64-bit words".into()))?;
            let hex = |s: &str| u64::from_str_radix(s.trim().trim_start_matches("0x"), 16).map_err(|e| err(format!("bad word '{s}': {e}")));
            join(hex(lo)?, hex(hi)?)
        } else {
            let inst = parse_inst(rest, sm, address, ctrl).map_err(|e| err(e.0))?;
            inst.encode(sm).map_err(|e| err(e.0))?
        };
        words.push(word);
        address += 16;
    }
    Ok(words)
}

/// The line without its `/* ... */` comments.
fn strip_block_comments(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(start) = rest.find("/*") {
        out.push_str(&rest[..start]);
        match rest[start..].find("*/") {
            Some(end) => rest = &rest[start + end + 2..],
            None => {
                rest = "";
                break;
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::bits::join;

    #[test]
    fn lists_known_and_unknown_words() {
        let words = [join(0x000000000000794d, 0x000fea0003800000), join(0x0000000000000fff, 0)];
        let mut out = String::new();
        let cov = write_listing(&mut out, &words, Sm::new(80), 0x10, false);
        assert_eq!(cov, Coverage { words: 2, decoded: 1 });
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0], "        /*0010*/ [B------:R-:W-:Y:S05] EXIT ;");
        assert_eq!(lines[1], "        /*0020*/ [B------:R0:W0:-:S00] .raw 0x0000000000000fff, 0x0000000000000000 ;");
        let mut hex = String::new();
        write_listing(&mut hex, &words[..1], Sm::new(80), 0, true);
        assert!(hex.lines().next().unwrap().ends_with("/* 0x000000000000794d */"));
        assert!(hex.lines().nth(1).unwrap().trim_start().starts_with("/* 0x000fea0003800000 */"));
    }

    #[test]
    fn reads_back_what_it_writes() {
        let words = [
            join(0x0000000004047210, 0x004fc80007ffe005),
            join(0x0000002000008947, 0x000fea0003800000),
            join(0x0000000000000fff, 0),
            join(0x000000000000794d, 0x000fea0003800000),
        ];
        for hex in [false, true] {
            let mut out = String::from("// a comment\nk:\n");
            write_listing(&mut out, &words, Sm::new(80), 0, hex);
            assert_eq!(read_listing(&out, Sm::new(80)), Ok(words.to_vec()), "{out}");
        }
        let err = read_listing("        /*0000*/ [B------:R-:W-:Y:S05] EXIT\n", Sm::new(80)).unwrap_err();
        assert_eq!(err.line, 1);
        assert!(read_listing("[B------:R-:W-:Y:S99] EXIT ;", Sm::new(80)).is_err());
    }
}

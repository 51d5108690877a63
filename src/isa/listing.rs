//! Listings: instruction words as text, one line per instruction, in the
//! format `sass dis` prints and (later) `sass asm` reads.
//!
//! ```text
//!         /*0000*/ [B------:R-:W-:Y:S05] IMAD.MOV.U32 R1, RZ, RZ, c[0x0][0x28] ;
//! ```
//! Each line holds the address, the control prefix ([`super::ctrl`]) and the
//! instruction as `nvdisasm` prints it (branch targets absolute). A word the
//! decoder does not know yet prints its two 64-bit halves, `.raw 0x<lo>,
//! 0x<hi> ;`, so a listing always says exactly what the words are. With
//! `hex`, each line is followed by `/* 0x<lo> */` and a second line with
//! `/* 0x<hi> */`, as `nvdisasm -hex` does.

use super::bits::split;
use super::ctrl::Ctrl;
use super::inst::Inst;
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
            let text = match Inst::decode(w, sm) {
                Ok(inst) => {
                    cov.decoded += 1;
                    inst.text(sm, address)
                }
                Err(_) => {
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
}

//! Scheduling control information: the bits 105–125 every sm_70+
//! instruction word carries, and their text form in listings.
//!
//! | bits | field |
//! |---|---|
//! | 105–108 | stall cycles before the next instruction issues (0–15) |
//! | 109 | the "yield" bit (Mesa NAK's `yld`) |
//! | 110–112 | scoreboard this instruction's result releases (7 = none) |
//! | 113–115 | scoreboard released when its sources have been read (7 = none) |
//! | 116–121 | scoreboards to wait for before issuing (bit `n` = scoreboard `n`) |
//! | 122–125 | operand reuse-cache flags (operands a, b, c, and a fourth) |
//!
//! Positions: measured by flipping each bit of ptxas-emitted words and
//! decoding them with `nvdisasm` 13.5 (notes: SASS-ENCODING-SURVEY §3); Mesa
//! NAK's `set_instr_deps` uses the same positions. `nvdisasm` never prints
//! these fields, but three of its behaviours depend on them and are checked
//! against it by `tests/isa_corpus.rs`: it appends `.reuse` to an operand
//! only when that operand's reuse flag **and** bit 109 are set; it ends the
//! text in `";"` instead of `" ;"` when stall and wait mask are 0 (and, from
//! sm_89 on, bits 102–103 too); and with bit 109 set only stalls 1–11 are
//! legal. Bits 126–127 change nothing nvdisasm shows.
//!
//! ## Text form
//!
//! Listings put the control fields in front of each instruction as
//! `[Bwwwwww:Rr:Ww:Y:Sss]`:
//! * `B` and six characters, one per scoreboard 0–5: its digit when the
//!   instruction waits for it, `-` otherwise (`B--2---` waits for 2);
//! * `R` and the read scoreboard digit, or `-` for none;
//! * `W` and the write scoreboard digit, or `-` for none;
//! * `Y` when bit 109 is set, `-` when it is clear (this names the bit, not
//!   a claim about what the hardware does with it);
//! * `S` and the stall count as two decimal digits.
//!
//! Reuse flags are not in the prefix: they print as `.reuse` on the operand
//! they belong to, where `nvdisasm` puts them.

use super::bits::Field;
use std::fmt;

const STALL: Field = Field::bits(105, 108);
const YIELD: Field = Field::bits(109, 109);
const WRITE_SB: Field = Field::bits(110, 112);
const READ_SB: Field = Field::bits(113, 115);
const WAIT: Field = Field::bits(116, 121);
const REUSE: Field = Field::bits(122, 125);
/// Bits 105–125, all the control fields.
const CTRL_BITS: u128 = ((1u128 << 21) - 1) << 105;

/// Number of scoreboards.
pub const SCOREBOARDS: u8 = 6;

/// The control fields of one instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Ctrl {
    /// Stall cycles, 0–15.
    pub stall: u8,
    /// Bit 109.
    pub yield_bit: bool,
    /// Scoreboard (0–5) set until the result is written.
    pub write_sb: Option<u8>,
    /// Scoreboard (0–5) set until the sources are read.
    pub read_sb: Option<u8>,
    /// Scoreboards to wait for: bit `n` for scoreboard `n`.
    pub wait: u8,
    /// Reuse flags: bit 0 operand a, 1 b, 2 c, 3 the fourth slot.
    pub reuse: u8,
}

/// A control field value that cannot be encoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CtrlError(pub String);

impl fmt::Display for CtrlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl Ctrl {
    /// Reads the control fields of a word. Scoreboard numbers 6 (which no
    /// tool emits) read as scoreboard 6, so `encode` gives the same bits back.
    #[inline]
    pub fn decode(word: u128) -> Ctrl {
        let sb = |v: u64| if v == 7 { None } else { Some(v as u8) };
        Ctrl {
            stall: STALL.get(word) as u8,
            yield_bit: YIELD.get(word) == 1,
            write_sb: sb(WRITE_SB.get(word)),
            read_sb: sb(READ_SB.get(word)),
            wait: WAIT.get(word) as u8,
            reuse: REUSE.get(word) as u8,
        }
    }

    /// Writes the control fields into a word (other bits are kept).
    #[inline]
    pub fn encode(self, word: u128) -> Result<u128, CtrlError> {
        match self.field_bits() {
            Some(bits) => Ok(word & !CTRL_BITS | bits),
            None => Err(self.error()),
        }
    }

    /// Bits 105–125 holding the fields, if every field fits.
    #[inline(always)]
    fn field_bits(self) -> Option<u128> {
        let sb = |v: Option<u8>| match v {
            None => Some(7u128),
            Some(n) if n < 7 => Some(u128::from(n)),
            Some(_) => None,
        };
        if self.stall > 15 || self.wait >= 1 << WAIT.width || self.reuse >= 1 << REUSE.width {
            return None;
        }
        Some(
            u128::from(self.stall) << STALL.start
                | u128::from(self.yield_bit) << YIELD.start
                | sb(self.write_sb)? << WRITE_SB.start
                | sb(self.read_sb)? << READ_SB.start
                | u128::from(self.wait) << WAIT.start
                | u128::from(self.reuse) << REUSE.start,
        )
    }

    /// Which field does not fit.
    fn error(self) -> CtrlError {
        let bad = |what: &str, v: u8| CtrlError(format!("{what} {v} does not fit its control field"));
        match self {
            Ctrl { stall: s @ 16.., .. } => bad("stall", s),
            Ctrl { write_sb: Some(n @ 7..), .. } => bad("write scoreboard", n),
            Ctrl { read_sb: Some(n @ 7..), .. } => bad("read scoreboard", n),
            Ctrl { wait: n @ 64.., .. } => bad("wait mask", n),
            Ctrl { reuse: n, .. } => bad("reuse mask", n),
        }
    }

    /// Parses the text form (`[B--2---:R-:W1:Y:S04]`, brackets included).
    pub fn parse(text: &str) -> Result<Ctrl, CtrlError> {
        let bad = || CtrlError(format!("malformed control prefix '{text}' (expected e.g. [B--2---:R-:W1:Y:S04])"));
        let inner = text.strip_prefix('[').and_then(|t| t.strip_suffix(']')).ok_or_else(bad)?;
        let parts: Vec<&str> = inner.split(':').collect();
        let [b, r, w, y, s] = parts.as_slice() else { return Err(bad()) };
        let b = b.strip_prefix('B').filter(|b| b.len() == SCOREBOARDS as usize).ok_or_else(bad)?;
        let mut wait = 0u8;
        for (n, c) in b.bytes().enumerate() {
            match c {
                b'-' => {}
                c if c == b'0' + n as u8 => wait |= 1 << n,
                _ => return Err(bad()),
            }
        }
        let sb = |field: &str, letter: char| -> Result<Option<u8>, CtrlError> {
            match field.strip_prefix(letter).ok_or_else(bad)? {
                "-" => Ok(None),
                d if d.len() == 1 && d.as_bytes()[0].is_ascii_digit() && d < "7" => Ok(Some(d.as_bytes()[0] - b'0')),
                _ => Err(bad()),
            }
        };
        let read_sb = sb(r, 'R')?;
        let write_sb = sb(w, 'W')?;
        let yield_bit = match *y {
            "Y" => true,
            "-" => false,
            _ => return Err(bad()),
        };
        let stall = s
            .strip_prefix('S')
            .filter(|d| d.len() == 2 && d.bytes().all(|c| c.is_ascii_digit()))
            .and_then(|d| d.parse::<u8>().ok())
            .filter(|v| *v < 16)
            .ok_or_else(bad)?;
        Ok(Ctrl { stall, yield_bit, write_sb, read_sb, wait, reuse: 0 })
    }
}

impl fmt::Display for Ctrl {
    /// The text form, without the reuse flags (see the module documentation).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[B")?;
        for n in 0..SCOREBOARDS {
            if self.wait & (1 << n) != 0 {
                write!(f, "{n}")?;
            } else {
                f.write_str("-")?;
            }
        }
        let sb = |v: Option<u8>| v.map_or("-".to_string(), |n| n.to_string());
        write!(
            f,
            ":R{}:W{}:{}:S{:02}]",
            sb(self.read_sb),
            sb(self.write_sb),
            if self.yield_bit { "Y" } else { "-" },
            self.stall
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::bits::join;

    #[test]
    fn decodes_ptxas_words() {
        // sm_80 words from ptxas output (FACTS.md, survey §3).
        let exit = Ctrl::decode(join(0x000000000000794d, 0x000fea0003800000));
        assert_eq!(exit, Ctrl { stall: 5, yield_bit: true, write_sb: None, read_sb: None, wait: 0, reuse: 0 });
        assert_eq!(exit.to_string(), "[B------:R-:W-:Y:S05]");
        // `IADD3 R4, R4, R0, R5` waits for scoreboard 2.
        let iadd3 = Ctrl::decode(join(0x0000000004047210, 0x004fc80007ffe005));
        assert_eq!(iadd3.to_string(), "[B--2---:R-:W-:-:S04]");
        // `LDG.E R2, [R2.64]` releases scoreboard 2 when its result arrives.
        let ldg = Ctrl::decode(join(0x0000000402027981, 0x000ea2000c1e1900));
        assert_eq!(ldg.to_string(), "[B------:R-:W2:Y:S01]");
        // `FMUL R7, R2.reuse, R2` keeps operand a in the reuse cache.
        assert_eq!(Ctrl::decode(join(0x0000000202077220, 0x040fe20000400000)).reuse, 0b0001);
    }

    #[test]
    fn encode_and_text_round_trip() {
        for hi in [0x000fea0003800000u64, 0x004fc80007ffe005, 0x000ea2000c1e1900, 0x040fe20000400000, 0x3ffe_0000_0000_0000] {
            let word = join(0x1234, hi);
            let c = Ctrl::decode(word);
            assert_eq!(c.encode(word).unwrap(), word, "{hi:#x}");
            let text = c.to_string();
            assert_eq!(Ctrl::parse(&text).unwrap(), Ctrl { reuse: 0, ..c }, "{text}");
        }
    }

    #[test]
    fn rejects_what_does_not_fit() {
        assert!(Ctrl { stall: 16, ..Ctrl::default() }.encode(0).is_err());
        assert!(Ctrl { write_sb: Some(7), ..Ctrl::default() }.encode(0).is_err());
        assert!(Ctrl { wait: 64, ..Ctrl::default() }.encode(0).is_err());
        for bad in ["B------:R-:W-:Y:S05", "[B-----:R-:W-:Y:S05]", "[B1-----:R-:W-:Y:S05]", "[B------:R7:W-:Y:S05]", "[B------:R-:W-:Y:S16]", "[B------:R-:W-:y:S05]", "[B------:R-:W-:Y]"] {
            assert!(Ctrl::parse(bad).is_err(), "{bad}");
        }
    }
}

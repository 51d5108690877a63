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

use std::fmt;

/// The first bit of the control fields in an instruction word.
const CTRL_START: u32 = 105;
/// Bits 105–125: the control fields, as [`Ctrl`] holds them (shifted down
/// by [`CTRL_START`]).
const CTRL_MASK: u32 = (1 << 21) - 1;

/// A field of the 21 control bits: its first bit and width (bit 0 is the
/// word's bit 105).
#[derive(Clone, Copy)]
struct CtrlField {
    start: u32,
    width: u32,
}

impl CtrlField {
    const fn max(self) -> u32 {
        (1 << self.width) - 1
    }

    #[inline(always)]
    const fn get(self, bits: u32) -> u32 {
        bits >> self.start & self.max()
    }

    #[inline(always)]
    const fn with(self, bits: u32, value: u32) -> u32 {
        bits & !(self.max() << self.start) | (value & self.max()) << self.start
    }
}

const STALL: CtrlField = CtrlField { start: 0, width: 4 };
const YIELD: CtrlField = CtrlField { start: 4, width: 1 };
const WRITE_SB: CtrlField = CtrlField { start: 5, width: 3 };
const READ_SB: CtrlField = CtrlField { start: 8, width: 3 };
const WAIT: CtrlField = CtrlField { start: 11, width: 6 };
const REUSE: CtrlField = CtrlField { start: 17, width: 4 };
/// A scoreboard field's value for "none".
const NO_SCOREBOARD: u32 = 7;

/// Number of scoreboards.
pub const SCOREBOARDS: u8 = 6;

/// The control fields of one instruction, held packed as the word holds
/// them (bits 105–125), so that every `Ctrl` is encodable and encoding it
/// is a shift: the setters refuse a value its field cannot hold (a caller's
/// bug, not an input error: the text form's parser checks its input).
///
/// | field | values |
/// |---|---|
/// | stall | cycles before the next instruction issues, 0–15 |
/// | yield | bit 109 |
/// | write scoreboard | set until the result is written: 0–6, or none |
/// | read scoreboard | set until the sources are read: 0–6, or none |
/// | wait | scoreboards to wait for, bit `n` for scoreboard `n` (6 bits) |
/// | reuse | reuse flags: bit 0 operand a, 1 b, 2 c, 3 the fourth slot |
///
/// Scoreboard 6, which no tool emits, is kept so that a decoded word
/// encodes back to itself.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Ctrl {
    bits: u32,
}

impl Default for Ctrl {
    /// No stall, no yield, no scoreboards, no waits, no reuse flags.
    fn default() -> Ctrl {
        Ctrl::NONE
    }
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
    /// No stall, no yield, no scoreboards, no waits, no reuse flags.
    pub const NONE: Ctrl = Ctrl { bits: NO_SCOREBOARD << WRITE_SB.start | NO_SCOREBOARD << READ_SB.start };

    /// The control fields of bits 105–125 of `word`.
    #[inline(always)]
    pub const fn decode(word: u128) -> Ctrl {
        Ctrl { bits: (word >> CTRL_START) as u32 & CTRL_MASK }
    }

    /// `word` with its bits 105–125 replaced by these fields.
    #[inline(always)]
    pub const fn encode(self, word: u128) -> u128 {
        word & !((CTRL_MASK as u128) << CTRL_START) | self.word_bits()
    }

    /// The fields in place in an otherwise zero word.
    #[inline(always)]
    pub const fn word_bits(self) -> u128 {
        (self.bits as u128) << CTRL_START
    }

    /// Stall cycles, 0–15.
    #[inline]
    pub const fn stall(self) -> u8 {
        STALL.get(self.bits) as u8
    }

    /// Bit 109.
    #[inline]
    pub const fn yield_bit(self) -> bool {
        YIELD.get(self.bits) == 1
    }

    /// The scoreboard (0–6) set until the result is written.
    #[inline]
    pub const fn write_sb(self) -> Option<u8> {
        scoreboard(WRITE_SB.get(self.bits))
    }

    /// The scoreboard (0–6) set until the sources are read.
    #[inline]
    pub const fn read_sb(self) -> Option<u8> {
        scoreboard(READ_SB.get(self.bits))
    }

    /// The scoreboards waited for: bit `n` for scoreboard `n`.
    #[inline]
    pub const fn wait(self) -> u8 {
        WAIT.get(self.bits) as u8
    }

    /// The reuse flags: bit 0 operand a, 1 b, 2 c, 3 the fourth slot.
    #[inline]
    pub const fn reuse(self) -> u8 {
        REUSE.get(self.bits) as u8
    }

    /// These fields with `stall` cycles (0–15; panics on more).
    #[inline]
    #[must_use]
    pub const fn with_stall(self, stall: u8) -> Ctrl {
        assert!(stall <= 15, "a stall count is 0-15");
        Ctrl { bits: STALL.with(self.bits, stall as u32) }
    }

    /// These fields with bit 109 set or clear.
    #[inline]
    #[must_use]
    pub const fn with_yield(self, on: bool) -> Ctrl {
        Ctrl { bits: YIELD.with(self.bits, on as u32) }
    }

    /// These fields with a write scoreboard (0–6; panics on more).
    #[inline]
    #[must_use]
    pub const fn with_write_sb(self, sb: Option<u8>) -> Ctrl {
        Ctrl { bits: WRITE_SB.with(self.bits, scoreboard_value(sb)) }
    }

    /// These fields with a read scoreboard (0–6; panics on more).
    #[inline]
    #[must_use]
    pub const fn with_read_sb(self, sb: Option<u8>) -> Ctrl {
        Ctrl { bits: READ_SB.with(self.bits, scoreboard_value(sb)) }
    }

    /// These fields with a wait mask (6 bits; panics on more).
    #[inline]
    #[must_use]
    pub const fn with_wait(self, wait: u8) -> Ctrl {
        assert!(wait < 1 << SCOREBOARDS, "a wait mask has one bit per scoreboard");
        Ctrl { bits: WAIT.with(self.bits, wait as u32) }
    }

    /// These fields with reuse flags (4 bits; panics on more).
    #[inline]
    #[must_use]
    pub const fn with_reuse(self, reuse: u8) -> Ctrl {
        assert!(reuse < 16, "reuse flags are 4 bits");
        Ctrl { bits: REUSE.with(self.bits, reuse as u32) }
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
        Ok(Ctrl::NONE.with_stall(stall).with_yield(yield_bit).with_write_sb(write_sb).with_read_sb(read_sb).with_wait(wait))
    }
}

/// A scoreboard field's value as [`Ctrl`] gives it (7 is none).
#[inline(always)]
const fn scoreboard(v: u32) -> Option<u8> {
    if v == NO_SCOREBOARD { None } else { Some(v as u8) }
}

/// A scoreboard's field value (none is 7); panics on scoreboard 7 or more.
#[inline(always)]
const fn scoreboard_value(sb: Option<u8>) -> u32 {
    match sb {
        None => NO_SCOREBOARD,
        Some(n) => {
            assert!((n as u32) < NO_SCOREBOARD, "a scoreboard is 0-6");
            n as u32
        }
    }
}

impl fmt::Debug for Ctrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Ctrl")
            .field("stall", &self.stall())
            .field("yield_bit", &self.yield_bit())
            .field("write_sb", &self.write_sb())
            .field("read_sb", &self.read_sb())
            .field("wait", &self.wait())
            .field("reuse", &self.reuse())
            .finish()
    }
}

impl fmt::Display for Ctrl {
    /// The text form, without the reuse flags (see the module documentation).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[B")?;
        for n in 0..SCOREBOARDS {
            if self.wait() & (1 << n) != 0 {
                write!(f, "{n}")?;
            } else {
                f.write_str("-")?;
            }
        }
        let sb = |v: Option<u8>| v.map_or("-".to_string(), |n| n.to_string());
        write!(
            f,
            ":R{}:W{}:{}:S{:02}]",
            sb(self.read_sb()),
            sb(self.write_sb()),
            if self.yield_bit() { "Y" } else { "-" },
            self.stall()
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
        assert_eq!((exit.stall(), exit.yield_bit(), exit.write_sb(), exit.read_sb(), exit.wait(), exit.reuse()), (5, true, None, None, 0, 0));
        assert_eq!(exit.to_string(), "[B------:R-:W-:Y:S05]");
        // `IADD3 R4, R4, R0, R5` waits for scoreboard 2.
        let iadd3 = Ctrl::decode(join(0x0000000004047210, 0x004fc80007ffe005));
        assert_eq!(iadd3.to_string(), "[B--2---:R-:W-:-:S04]");
        // `LDG.E R2, [R2.64]` releases scoreboard 2 when its result arrives.
        let ldg = Ctrl::decode(join(0x0000000402027981, 0x000ea2000c1e1900));
        assert_eq!(ldg.to_string(), "[B------:R-:W2:Y:S01]");
        // `FMUL R7, R2.reuse, R2` keeps operand a in the reuse cache.
        assert_eq!(Ctrl::decode(join(0x0000000202077220, 0x040fe20000400000)).reuse(), 0b0001);
    }

    #[test]
    fn encode_and_text_round_trip() {
        for hi in [0x000fea0003800000u64, 0x004fc80007ffe005, 0x000ea2000c1e1900, 0x040fe20000400000, 0x3ffe_0000_0000_0000] {
            let word = join(0x1234, hi);
            let c = Ctrl::decode(word);
            assert_eq!(c.encode(word), word, "{hi:#x}");
            assert_eq!(c.encode(!0u128) & !(0x1f_ffffu128 << 105), !(0x1f_ffffu128 << 105), "{hi:#x}: other bits kept");
            let text = c.to_string();
            assert_eq!(Ctrl::parse(&text).unwrap(), c.with_reuse(0), "{text}");
        }
    }

    #[test]
    fn fields_read_back_and_stay_apart() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..10_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let r = state;
            let sb = |v: u64| if v % 8 == 7 { None } else { Some((v % 8) as u8) };
            let (stall, yld, write, read, wait, reuse) = ((r & 15) as u8, r >> 4 & 1 == 1, sb(r >> 5), sb(r >> 8), (r >> 11 & 63) as u8, (r >> 17 & 15) as u8);
            let c = Ctrl::NONE.with_reuse(reuse).with_wait(wait).with_read_sb(read).with_write_sb(write).with_yield(yld).with_stall(stall);
            assert_eq!((c.stall(), c.yield_bit(), c.write_sb(), c.read_sb(), c.wait(), c.reuse()), (stall, yld, write, read, wait, reuse));
            // The hardware's positions (module documentation).
            let word = c.encode(0);
            let at = |lo: u32, width: u32| (word >> lo) as u32 & ((1 << width) - 1);
            assert_eq!((at(105, 4), at(109, 1), at(110, 3), at(113, 3), at(116, 6), at(122, 4)), (u32::from(stall), u32::from(yld), write.map_or(7, u32::from), read.map_or(7, u32::from), u32::from(wait), u32::from(reuse)));
            assert_eq!(Ctrl::decode(word), c);
        }
        assert_eq!(Ctrl::default().encode(0), (7u128 << 110) | (7u128 << 113));
    }

    #[test]
    #[should_panic(expected = "stall")]
    fn refuses_a_stall_past_15() {
        let _ = Ctrl::NONE.with_stall(16);
    }

    #[test]
    #[should_panic(expected = "scoreboard")]
    fn refuses_scoreboard_7() {
        let _ = Ctrl::NONE.with_write_sb(Some(7));
    }

    #[test]
    #[should_panic(expected = "wait mask")]
    fn refuses_a_seventh_wait_bit() {
        let _ = Ctrl::NONE.with_wait(64);
    }

    #[test]
    fn parse_rejects_malformed_prefixes() {
        for bad in ["B------:R-:W-:Y:S05", "[B-----:R-:W-:Y:S05]", "[B1-----:R-:W-:Y:S05]", "[B------:R7:W-:Y:S05]", "[B------:R-:W-:Y:S16]", "[B------:R-:W-:y:S05]", "[B------:R-:W-:Y]"] {
            assert!(Ctrl::parse(bad).is_err(), "{bad}");
        }
    }
}

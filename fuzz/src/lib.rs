//! Support code for the fuzz targets in `fuzz_targets/`: turning fuzzer
//! bytes into PTX text, and the properties every target asserts.
//!
//! # Input format of the `parse` target
//!
//! * Any input whose first byte is not `0xFF` is PTX text, decoded as lossy
//!   UTF-8 and parsed as is. libFuzzer's byte mutations of the seed corpus
//!   (the PTX files of `../shared/corpus`, copied by `scripts/fuzz.sh`) and of
//!   a PTX dictionary (`fuzz/ptx.dict`) explore this mode.
//! * `0xFF, n, <n edit bytes>, <text>`: the text (lossy UTF-8) is first
//!   edited by a short [`Edit`] script that [`arbitrary`] builds from the
//!   `n` edit bytes. The edits work on PTX tokens rather than bytes (delete,
//!   duplicate or swap a token, replace a type word such as `.u32` with
//!   another, swap two `.modifier` words, replace a number, drop or copy a
//!   line, insert a fragment), so they keep most of a seed intact while
//!   breaking it in ways a byte mutator rarely finds. `scripts/fuzz.sh`
//!   seeds this mode with one edited copy of each corpus file.
//!
//! # Properties ([`check_parse_properties`])
//!
//! 1. `parse` never panics (on any text).
//! 2. If `parse` succeeds, `check` never panics.
//! 3. If `parse` succeeds, the printed module parses again, printing that
//!    gives the same text (printing is idempotent), the re-parsed module
//!    equals the first one, and `check` gives the same verdict on both.

pub mod cubin;
pub mod progen;
pub mod oracle;
pub mod sass;

use arbitrary::{Arbitrary, Unstructured};
use ptx2sass::internals::ptx;

/// First byte that selects the edit-script mode.
pub const EDIT_MODE: u8 = 0xFF;

/// At most this many edits are applied (the rest of the script is ignored),
/// so one input stays cheap.
pub const MAX_EDITS: usize = 16;

/// Turns fuzzer bytes into the PTX text to parse (see the module docs).
pub fn decode(data: &[u8]) -> String {
    match data {
        [EDIT_MODE, n, rest @ ..] => {
            let n = (*n as usize).min(rest.len());
            let (script, text) = rest.split_at(n);
            let mut text = String::from_utf8_lossy(text).into_owned();
            let mut u = Unstructured::new(script);
            for _ in 0..MAX_EDITS {
                if u.is_empty() {
                    break;
                }
                match Edit::arbitrary(&mut u) {
                    Ok(edit) => text = edit.apply(&text),
                    Err(_) => break,
                }
            }
            text
        }
        _ => String::from_utf8_lossy(data).into_owned(),
    }
}

/// One token-level edit of PTX text. Indices are taken modulo the number of
/// candidates, so every value means something.
#[derive(Arbitrary, Debug, Clone, PartialEq, Eq)]
pub enum Edit {
    /// Delete the i-th non-blank token.
    DeleteToken(u16),
    /// Write the i-th non-blank token twice.
    DuplicateToken(u16),
    /// Exchange two non-blank tokens.
    SwapTokens(u16, u16),
    /// Replace the i-th type word (`.u32`, `.f64`, `.pred`, …) with another.
    ReplaceType(u16, TypeWord),
    /// Exchange two `.word` tokens (modifiers, directives, state spaces).
    SwapDotted(u16, u16),
    /// Replace the i-th number with another.
    ReplaceNumber(u16, Number),
    /// Delete the i-th line.
    DeleteLine(u16),
    /// Write the i-th line twice.
    DuplicateLine(u16),
    /// Insert a fragment before the i-th non-blank token.
    Insert(u16, Piece),
}

/// The PTX fundamental types, as a `.word`.
#[derive(Arbitrary, Debug, Clone, Copy, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum TypeWord {
    B8,
    B16,
    B32,
    B64,
    B128,
    U8,
    U16,
    U32,
    U64,
    S8,
    S16,
    S32,
    S64,
    F16,
    F16x2,
    Bf16,
    Bf16x2,
    Tf32,
    F32,
    F64,
    E4m3,
    E5m2,
    Pred,
    V2,
    V4,
}

impl TypeWord {
    /// The spelling with its leading dot.
    pub fn text(self) -> &'static str {
        use TypeWord::*;
        match self {
            B8 => ".b8",
            B16 => ".b16",
            B32 => ".b32",
            B64 => ".b64",
            B128 => ".b128",
            U8 => ".u8",
            U16 => ".u16",
            U32 => ".u32",
            U64 => ".u64",
            S8 => ".s8",
            S16 => ".s16",
            S32 => ".s32",
            S64 => ".s64",
            F16 => ".f16",
            F16x2 => ".f16x2",
            Bf16 => ".bf16",
            Bf16x2 => ".bf16x2",
            Tf32 => ".tf32",
            F32 => ".f32",
            F64 => ".f64",
            E4m3 => ".e4m3",
            E5m2 => ".e5m2",
            Pred => ".pred",
            V2 => ".v2",
            V4 => ".v4",
        }
    }

    fn is_type_word(word: &str) -> bool {
        const ALL: [&str; 25] = [
            ".b8", ".b16", ".b32", ".b64", ".b128", ".u8", ".u16", ".u32", ".u64", ".s8", ".s16",
            ".s32", ".s64", ".f16", ".f16x2", ".bf16", ".bf16x2", ".tf32", ".f32", ".f64", ".e4m3",
            ".e5m2", ".pred", ".v2", ".v4",
        ];
        ALL.contains(&word)
    }
}

/// A replacement number: boundary values and arbitrary ones, in the
/// spellings PTX allows.
#[derive(Arbitrary, Debug, Clone, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum Number {
    Zero,
    One,
    MinusOne,
    I32Max,
    I32Min,
    U32Max,
    U32MaxPlusOne,
    I64Min,
    U64Max,
    U64MaxPlusOne,
    Small(i8),
    Decimal(i64),
    Hex(u64),
    Octal(u32),
    Binary(u16),
    F32Bits(u32),
    F64Bits(u64),
    UnsignedSuffix(u32),
}

impl Number {
    /// The literal as PTX text.
    pub fn text(&self) -> String {
        use Number::*;
        match self {
            Zero => "0".into(),
            One => "1".into(),
            MinusOne => "-1".into(),
            I32Max => i32::MAX.to_string(),
            I32Min => i32::MIN.to_string(),
            U32Max => u32::MAX.to_string(),
            U32MaxPlusOne => (u32::MAX as u64 + 1).to_string(),
            I64Min => i64::MIN.to_string(),
            U64Max => u64::MAX.to_string(),
            U64MaxPlusOne => "18446744073709551616".into(),
            Small(v) => v.to_string(),
            Decimal(v) => v.to_string(),
            Hex(v) => format!("0x{v:X}"),
            Octal(v) => format!("0{v:o}"),
            Binary(v) => format!("0b{v:b}"),
            F32Bits(v) => format!("0f{v:08X}"),
            F64Bits(v) => format!("0d{v:016X}"),
            UnsignedSuffix(v) => format!("{v}U"),
        }
    }
}

/// A fragment to insert: punctuation that unbalances the structure, and
/// small statements and operands.
#[derive(Arbitrary, Debug, Clone, Copy, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum Piece {
    OpenBrace,
    CloseBrace,
    Semicolon,
    Comma,
    OpenBracket,
    CloseBracket,
    OpenParen,
    CloseParen,
    Lt,
    Gt,
    Plus,
    Minus,
    Bang,
    Pipe,
    Colon,
    Newline,
    Quote,
    LineComment,
    BlockCommentOpen,
    Guard,
    NegGuard,
    RegDecl,
    PredDecl,
    Label,
    Ret,
    Bra,
    Sink,
    Vector,
    Address,
    Nul,
}

impl Piece {
    /// The fragment's text.
    pub fn text(self) -> &'static str {
        use Piece::*;
        match self {
            OpenBrace => "{",
            CloseBrace => "}",
            Semicolon => ";",
            Comma => ",",
            OpenBracket => "[",
            CloseBracket => "]",
            OpenParen => "(",
            CloseParen => ")",
            Lt => "<",
            Gt => ">",
            Plus => "+",
            Minus => "-",
            Bang => "!",
            Pipe => "|",
            Colon => ":",
            Newline => "\n",
            Quote => "\"",
            LineComment => "// ",
            BlockCommentOpen => "/*",
            Guard => "@%p1 ",
            NegGuard => "@!%p1 ",
            RegDecl => ".reg .b32 %fz<3>;\n",
            PredDecl => ".reg .pred %pz;\n",
            Label => "$Lfz:\n",
            Ret => "ret;\n",
            Bra => "bra $Lfz;\n",
            Sink => "_",
            Vector => "{%r1, %r2}",
            Address => "[%rd1+4]",
            Nul => "\0",
        }
    }
}

/// What a token is, as far as the edits care.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// A run of white space.
    Blank,
    /// `.name` (modifier, directive, type, state space).
    Dotted,
    /// A word that starts with a digit.
    Number,
    /// Another word (`%r1`, `$L__BB0_1`, `mov`, `sm_80`).
    Word,
    /// One other character.
    Punct,
}

fn is_word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '%')
}

/// Splits text into tokens; concatenating them gives the text back.
fn tokenize(text: &str) -> Vec<(Kind, &str)> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        let len = if c.is_whitespace() {
            rest.find(|c: char| !c.is_whitespace())
                .unwrap_or(rest.len())
        } else if c == '.' && rest[1..].starts_with(is_word_char) {
            1 + rest[1..]
                .find(|c: char| !is_word_char(c))
                .unwrap_or(rest.len() - 1)
        } else if is_word_char(c) {
            rest.find(|c: char| !is_word_char(c)).unwrap_or(rest.len())
        } else {
            c.len_utf8()
        };
        let (tok, tail) = rest.split_at(len);
        let kind = match c {
            _ if c.is_whitespace() => Kind::Blank,
            '.' if len > 1 => Kind::Dotted,
            '0'..='9' => Kind::Number,
            _ if is_word_char(c) => Kind::Word,
            _ => Kind::Punct,
        };
        out.push((kind, tok));
        rest = tail;
    }
    out
}

/// Index of the `i`-th (modulo their number) token satisfying `pred`.
fn nth_where(tokens: &[(Kind, &str)], i: u16, pred: impl Fn(Kind, &str) -> bool) -> Option<usize> {
    let candidates: Vec<usize> = tokens
        .iter()
        .enumerate()
        .filter(|(_, (k, t))| pred(*k, t))
        .map(|(j, _)| j)
        .collect();
    if candidates.is_empty() {
        None
    } else {
        Some(candidates[i as usize % candidates.len()])
    }
}

fn not_blank(k: Kind, _: &str) -> bool {
    k != Kind::Blank
}

impl Edit {
    /// The text after this edit. An edit with no candidate (say, no number
    /// in the text) leaves it unchanged.
    pub fn apply(&self, text: &str) -> String {
        if let Edit::DeleteLine(i) | Edit::DuplicateLine(i) = *self {
            let lines: Vec<&str> = text.split_inclusive('\n').collect();
            if lines.is_empty() {
                return text.to_owned();
            }
            let at = i as usize % lines.len();
            let mut out = String::with_capacity(text.len() + lines[at].len() + 1);
            for (j, line) in lines.iter().enumerate() {
                if j == at {
                    if matches!(self, Edit::DeleteLine(_)) {
                        continue;
                    }
                    out.push_str(line);
                    if !line.ends_with('\n') {
                        out.push('\n');
                    }
                }
                out.push_str(line);
            }
            return out;
        }

        let tokens = tokenize(text);
        let mut pieces: Vec<std::borrow::Cow<'_, str>> = tokens
            .iter()
            .map(|(_, t)| std::borrow::Cow::Borrowed(*t))
            .collect();
        match self {
            Edit::DeleteToken(i) => {
                if let Some(j) = nth_where(&tokens, *i, not_blank) {
                    pieces[j] = "".into();
                }
            }
            Edit::DuplicateToken(i) => {
                if let Some(j) = nth_where(&tokens, *i, not_blank) {
                    pieces[j] = format!("{0}{0}", tokens[j].1).into();
                }
            }
            Edit::SwapTokens(a, b) => {
                if let (Some(x), Some(y)) = (
                    nth_where(&tokens, *a, not_blank),
                    nth_where(&tokens, *b, not_blank),
                ) {
                    pieces.swap(x, y);
                }
            }
            Edit::ReplaceType(i, ty) => {
                let is_type = |k, t: &str| k == Kind::Dotted && TypeWord::is_type_word(t);
                if let Some(j) = nth_where(&tokens, *i, is_type) {
                    pieces[j] = ty.text().into();
                }
            }
            Edit::SwapDotted(a, b) => {
                let dotted = |k, _: &str| k == Kind::Dotted;
                if let (Some(x), Some(y)) = (
                    nth_where(&tokens, *a, dotted),
                    nth_where(&tokens, *b, dotted),
                ) {
                    pieces.swap(x, y);
                }
            }
            Edit::ReplaceNumber(i, n) => {
                if let Some(j) = nth_where(&tokens, *i, |k, _| k == Kind::Number) {
                    pieces[j] = n.text().into();
                }
            }
            Edit::Insert(i, piece) => match nth_where(&tokens, *i, not_blank) {
                Some(j) => pieces[j] = format!("{}{}", piece.text(), tokens[j].1).into(),
                None => pieces.push(piece.text().into()),
            },
            Edit::DeleteLine(_) | Edit::DuplicateLine(_) => unreachable!("handled above"),
        }
        pieces.concat()
    }
}

/// Asserts the parser properties (see the module docs) on one text. Panics,
/// with the offending texts in the message, when one fails.
pub fn check_parse_properties(src: &str) {
    let opts = ptx::CheckOptions::default();
    let Ok(module) = ptx::parse(src) else { return };
    let verdict = ptx::check(&module, &opts).is_ok();

    let printed = ptx::print(&module);
    let reparsed = match ptx::parse(&printed) {
        Ok(m) => m,
        Err(diags) => panic!(
            "the printed module does not parse:\n{}\n--- printed ---\n{printed}\n--- input ---\n{src}",
            diags.render("<printed>", &printed)
        ),
    };
    let printed_again = ptx::print(&reparsed);
    if printed != printed_again {
        panic!(
            "printing is not idempotent; {}\n--- first print ---\n{printed}\n--- second print ---\n{printed_again}\n--- input ---\n{src}",
            first_difference(&printed, &printed_again)
        );
    }
    if reparsed != module {
        panic!("parse(print(m)) != m\n--- printed ---\n{printed}\n--- input ---\n{src}");
    }
    let verdict_again = ptx::check(&reparsed, &opts);
    if verdict != verdict_again.is_ok() {
        let why = match &verdict_again {
            Ok(()) => "the input was rejected, its printed form accepted".to_owned(),
            Err(d) => format!(
                "the input was accepted, its printed form rejected:\n{}",
                d.render("<printed>", &printed)
            ),
        };
        panic!(
            "check verdict changed by printing: {why}\n--- printed ---\n{printed}\n--- input ---\n{src}"
        );
    }
}

/// "line N: `a` vs `b`" for the first line where two texts differ.
fn first_difference(a: &str, b: &str) -> String {
    let mut la = a.lines();
    let mut lb = b.lines();
    let mut n = 1;
    loop {
        match (la.next(), lb.next()) {
            (Some(x), Some(y)) if x == y => n += 1,
            (None, None) => return "texts differ only in line endings".to_owned(),
            (x, y) => {
                return format!(
                    "line {n}: {:?} vs {:?}",
                    x.unwrap_or("<end>"),
                    y.unwrap_or("<end>")
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAXPY: &str = include_str!("../../examples/saxpy.ptx");

    #[test]
    fn tokens_concatenate_to_the_input() {
        let text = "\tld.global.f32 %f2, [%rd6+0x10];\n$L__BB0_1: // x\n";
        let toks = tokenize(text);
        assert_eq!(toks.iter().map(|(_, t)| *t).collect::<String>(), text);
        let words: Vec<_> = toks
            .iter()
            .filter(|(k, _)| *k != Kind::Blank)
            .map(|(_, t)| *t)
            .collect();
        assert_eq!(
            words,
            [
                "ld",
                ".global",
                ".f32",
                "%f2",
                ",",
                "[",
                "%rd6",
                "+",
                "0x10",
                "]",
                ";",
                "$L__BB0_1",
                ":",
                "/",
                "/",
                "x"
            ]
        );
        assert_eq!(
            toks.iter().find(|(_, t)| *t == "0x10").unwrap().0,
            Kind::Number
        );
        assert_eq!(
            toks.iter().find(|(_, t)| *t == ".global").unwrap().0,
            Kind::Dotted
        );
    }

    #[test]
    fn edits_do_what_they_say() {
        let t = "add.s32 %r1, %r2, 7;\n";
        assert_eq!(Edit::DeleteToken(1).apply(t), "add %r1, %r2, 7;\n");
        assert_eq!(Edit::DeleteToken(0).apply(t), ".s32 %r1, %r2, 7;\n");
        assert_eq!(
            Edit::DuplicateToken(2).apply(t),
            "add.s32 %r1%r1, %r2, 7;\n"
        );
        assert_eq!(Edit::SwapTokens(2, 4).apply(t), "add.s32 %r2, %r1, 7;\n");
        assert_eq!(
            Edit::ReplaceType(5, TypeWord::F64).apply(t),
            "add.f64 %r1, %r2, 7;\n"
        );
        assert_eq!(
            Edit::ReplaceNumber(0, Number::Hex(255)).apply(t),
            "add.s32 %r1, %r2, 0xFF;\n"
        );
        assert_eq!(
            Edit::Insert(0, Piece::Guard).apply(t),
            "@%p1 add.s32 %r1, %r2, 7;\n"
        );
        assert_eq!(Edit::DuplicateLine(0).apply("a\nb"), "a\na\nb");
        assert_eq!(Edit::DuplicateLine(1).apply("a\nb"), "a\nb\nb");
        assert_eq!(Edit::DeleteLine(4).apply("a\nb\nc\n"), "a\nc\n");
        assert_eq!(
            Edit::SwapDotted(0, 1).apply("ld.global.f32"),
            "ld.f32.global"
        );
        // No candidate: unchanged.
        assert_eq!(Edit::ReplaceNumber(3, Number::Zero).apply("ret;"), "ret;");
        assert_eq!(Edit::DeleteToken(3).apply(""), "");
        assert_eq!(Edit::Insert(3, Piece::Semicolon).apply(""), ";");
    }

    #[test]
    fn decode_raw_and_edit_modes() {
        assert_eq!(decode(b"ret;"), "ret;");
        assert_eq!(decode(b"\xC3("), "\u{FFFD}(");
        // Mode byte, 2 script bytes, then text. Whatever the script is, the
        // result must be derived from the text, not from the script bytes.
        let out = decode(b"\xFF\x00ret;");
        assert_eq!(out, "ret;");
        // A truncated header is not a panic.
        assert_eq!(decode(b"\xFF"), "\u{FFFD}");
        let _ = decode(b"\xFF\xFF\x01");
    }

    #[test]
    fn properties_hold_on_the_example() {
        check_parse_properties(SAXPY);
        assert!(ptx::parse(SAXPY).is_ok(), "examples/saxpy.ptx must parse");
    }

    /// A cheap stand-in for a fuzzing run that needs no instrumentation:
    /// many deterministic edit scripts over the example.
    #[test]
    fn properties_hold_on_edited_examples() {
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..2000 {
            let mut script = [0u8; 24];
            for b in &mut script {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                *b = state as u8;
            }
            let mut input = vec![EDIT_MODE, script.len() as u8];
            input.extend_from_slice(&script);
            input.extend_from_slice(SAXPY.as_bytes());
            check_parse_properties(&decode(&input));
        }
    }
}

//! The PTX lexer: turns source text into a vector of [`Token`]s with spans.
//!
//! Tokens borrow nothing: a token is a kind and a byte range, and the parser
//! slices the source for text. Comments and whitespace are skipped. The lexer
//! never fails: bytes it cannot use become [`TokenKind::Error`] tokens that
//! the parser reports with their location.
//!
//! The parser lexes a whole file up front with [`lex_into`], one tight loop
//! that keeps the scanning state in registers, rather than pulling tokens
//! one call at a time: the per-call cost (saving and restoring registers,
//! reloading the lexer's fields) was a fifth of the lexer's work.

use crate::diag::Span;

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenKind {
    /// Identifier or register: `foo`, `%r1`, `$L__BB0_1`, `_`.
    Ident,
    /// A dotted word: `.reg`, `.u32`, `.L2::cache_hint`, `.m16n8k16`, `.1d`.
    DotWord,
    /// Integer literal (decimal, `0x`, octal `0..`, `0b`, optional `U`).
    Int,
    /// Float literal: `0f` + 8 hex digits, `0d` + 16 hex digits, or decimal with `.`/exponent.
    Float,
    /// `"..."`.
    Str,
    /// `,`
    Comma,
    /// `;`
    Semi,
    /// `:`
    Colon,
    /// `{`
    LBrace,
    /// `}`
    RBrace,
    /// `[`
    LBracket,
    /// `]`
    RBracket,
    /// `(`
    LParen,
    /// `)`
    RParen,
    /// `<`
    Lt,
    /// `>`
    Gt,
    /// `<=`
    Le,
    /// `>=`
    Ge,
    /// `<<`
    Shl,
    /// `>>`
    Shr,
    /// `==`
    EqEq,
    /// `!=`
    NotEq,
    /// `=`
    Eq,
    /// `@`
    At,
    /// `!`
    Bang,
    /// `|`
    Pipe,
    /// `||`
    PipePipe,
    /// `&`
    Amp,
    /// `&&`
    AmpAmp,
    /// `^`
    Caret,
    /// `~`
    Tilde,
    /// `+`
    Plus,
    /// `-`
    Minus,
    /// `*`
    Star,
    /// `/`
    Slash,
    /// `%` (alone; `%name` is an identifier)
    Percent,
    /// `?`
    Question,
    /// An unusable byte, an unterminated string or comment.
    Error,
    /// End of input.
    Eof,
}

/// One token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    /// Kind.
    pub kind: TokenKind,
    /// Byte range.
    pub span: Span,
}

/// Byte classes for the lexer's dispatch (one table lookup per token start).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    Space,
    IdentStart,
    Digit,
    Dot,
    Percent,
    Slash,
    Quote,
    /// A punctuation byte that is a token by itself (`,`, `;`, `[`, ...):
    /// its kind comes from [`SINGLE`].
    Single,
    /// A punctuation byte that may start a two-byte operator (`<`, `=`, ...).
    Punct,
    Other,
}

const fn class_table() -> [Class; 256] {
    let mut t = [Class::Other; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = if c == b' ' || c == b'\t' || c == b'\n' || c == b'\r' || c == 0x0b || c == 0x0c {
            Class::Space
        } else if c.is_ascii_alphabetic() || c == b'_' || c == b'$' {
            Class::IdentStart
        } else if c.is_ascii_digit() {
            Class::Digit
        } else if c == b'.' {
            Class::Dot
        } else if c == b'%' {
            Class::Percent
        } else if c == b'/' {
            Class::Slash
        } else if c == b'"' {
            Class::Quote
        } else if !matches!(single_kind(c), TokenKind::Error) {
            Class::Single
        } else if matches!(c, b'<' | b'>' | b'=' | b'!' | b'|' | b'&') {
            Class::Punct
        } else {
            Class::Other
        };
        b += 1;
    }
    t
}

static CLASS: [Class; 256] = class_table();

/// The whitespace bytes (those of [`Class::Space`]) as a bit set.
const SPACE_BITS: u64 = 1 << b' ' | 1 << b'\t' | 1 << b'\n' | 1 << b'\r' | 1 << 0x0b | 1 << 0x0c;

/// Whether `b` is whitespace: a shift and a test, no table load.
#[inline(always)]
fn is_space(b: u8) -> bool {
    b <= b' ' && SPACE_BITS >> b & 1 != 0
}

const fn ident_continue_table() -> [bool; 256] {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = c.is_ascii_alphanumeric() || c == b'_' || c == b'$';
        b += 1;
    }
    t
}

static IDENT_CONTINUE: [bool; 256] = ident_continue_table();

#[inline]
fn is_ident_continue(b: u8) -> bool {
    IDENT_CONTINUE[b as usize]
}

/// The kind of a byte that is a token by itself; [`TokenKind::Error`] for
/// any other byte.
const fn single_kind(b: u8) -> TokenKind {
    use TokenKind::*;
    match b {
        b',' => Comma,
        b';' => Semi,
        b':' => Colon,
        b'{' => LBrace,
        b'}' => RBrace,
        b'[' => LBracket,
        b']' => RBracket,
        b'(' => LParen,
        b')' => RParen,
        b'@' => At,
        b'^' => Caret,
        b'~' => Tilde,
        b'+' => Plus,
        b'-' => Minus,
        b'*' => Star,
        b'?' => Question,
        _ => Error,
    }
}

const fn single_table() -> [TokenKind; 256] {
    let mut t = [TokenKind::Error; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = single_kind(b as u8);
        b += 1;
    }
    t
}

/// [`single_kind`] as a table: a single-byte token's kind is one load,
/// where a `match` over the punctuation was a second jump table.
static SINGLE: [TokenKind; 256] = single_table();

/// The operator a byte of [`Class::Punct`] starts, and its length.
#[inline(always)]
fn punct(b: u8, next: u8) -> (TokenKind, usize) {
    use TokenKind::*;
    match b {
        b'<' => match next {
            b'<' => (Shl, 2),
            b'=' => (Le, 2),
            _ => (Lt, 1),
        },
        b'>' => match next {
            b'>' => (Shr, 2),
            b'=' => (Ge, 2),
            _ => (Gt, 1),
        },
        b'=' => if next == b'=' { (EqEq, 2) } else { (Eq, 1) },
        b'!' => if next == b'=' { (NotEq, 2) } else { (Bang, 1) },
        b'|' => if next == b'|' { (PipePipe, 2) } else { (Pipe, 1) },
        b'&' => if next == b'&' { (AmpAmp, 2) } else { (Amp, 1) },
        _ => (Error, 1),
    }
}

/// What the lexer finds at a position: a token and where it ends, or
/// something skipped (whitespace, a comment) and where it ends.
#[derive(Clone, Copy)]
enum Step {
    Token(TokenKind, usize),
    Skip(usize),
}

/// Lexes the whole source into a vector. The last token is always
/// [`TokenKind::Eof`].
pub fn lex(source: &str) -> Vec<Token> {
    let mut tokens = Vec::new();
    lex_into(source, &mut tokens);
    tokens
}

/// Replaces the contents of `out` with the tokens of `source`, ending with
/// one [`TokenKind::Eof`]: exactly the tokens [`Lexer::next_token`] returns
/// (both run the same per-token step), found by a loop that keeps its
/// position in a register. Reusing `out` across files (as the parser does)
/// saves regrowing the buffer for each.
pub fn lex_into(source: &str, out: &mut Vec<Token>) {
    // Pushing onto a local vector lets its pointer and length live in
    // registers; through `out` they would be reloaded and stored per token.
    let mut toks = std::mem::take(out);
    toks.clear();
    // Corpus files average about four bytes a token: reserving a third of
    // the length up front means the buffer rarely regrows mid-file.
    toks.reserve(source.len() / 3 + 2);
    let lexer = Lexer::new(source);
    let bytes = lexer.bytes;
    let len = bytes.len();
    // Tokens gather in a small local batch that is appended to the vector
    // when full: a store into the batch needs no capacity test and no
    // reload of the vector's fields, which the loop has no registers left
    // to keep.
    let mut batch = [Token { kind: TokenKind::Eof, span: Span::new(0, 0) }; 64];
    let mut nbatch = 0;
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        // Whitespace is a third of the bytes that reach here: a compare
        // and a lookup skip it without the full dispatch.
        if is_space(b) {
            i += 1;
            continue;
        }
        let start = i;
        let kind = match lexer.step(i, b) {
            Step::Token(kind, end) => {
                i = end;
                kind
            }
            Step::Skip(end) => {
                i = end;
                continue;
            }
        };
        let tok = Token { kind, span: Span::new(start as u32, i as u32) };
        match batch.get_mut(nbatch) {
            Some(slot) => *slot = tok,
            None => {
                toks.extend_from_slice(&batch);
                batch[0] = tok;
                nbatch = 0;
            }
        }
        nbatch += 1;
    }
    toks.extend_from_slice(&batch[..nbatch]);
    toks.push(Token { kind: TokenKind::Eof, span: Span::new(len as u32, len as u32) });
    *out = toks;
}

/// A pull lexer: one token per call, no buffering.
pub struct Lexer<'s> {
    source: &'s str,
    bytes: &'s [u8],
    pos: usize,
}

impl<'s> Lexer<'s> {
    /// A lexer at the start of `source`. Sources of 4 GiB or more are cut
    /// (spans are 32-bit); the parser rejects them.
    pub fn new(source: &'s str) -> Lexer<'s> {
        // The byte slice is cut to `len` so that the scanning loops' `i < len`
        // tests also prove their indexing in bounds.
        let len = source.len().min(u32::MAX as usize - 1);
        Lexer { source, bytes: &source.as_bytes()[..len], pos: 0 }
    }

    /// The next token; [`TokenKind::Eof`] forever at the end.
    pub fn next_token(&mut self) -> Token {
        self.scan()
    }

    fn scan(&mut self) -> Token {
        let bytes = self.bytes;
        let len = bytes.len();
        let mut i = self.pos;
        loop {
            let Some(&b) = bytes.get(i) else {
                self.pos = len;
                return Token { kind: TokenKind::Eof, span: Span::new(len as u32, len as u32) };
            };
            match self.step(i, b) {
                Step::Token(kind, end) => {
                    self.pos = end.min(len);
                    return Token { kind, span: Span::new(i as u32, self.pos as u32) };
                }
                Step::Skip(end) => i = end,
            }
        }
    }

    /// The token (or the whitespace or comment) at `i`, whose byte is `b`:
    /// the one scanner behind both [`lex_into`] and [`Lexer::next_token`].
    ///
    /// The common tokens (names, dotted words, punctuation, plain decimal
    /// integers) are handled here; other numbers, strings and stray bytes
    /// go to an out-of-line helper, which keeps the inlined loop small.
    #[inline(always)]
    fn step(&self, i: usize, b: u8) -> Step {
        let bytes = self.bytes;
        match CLASS[b as usize] {
            Class::Space => Step::Skip(i + 1),
            Class::IdentStart => Step::Token(TokenKind::Ident, scan_ident(bytes, i + 1)),
            // `%name`, or a lone `%` when no name character follows.
            Class::Percent => {
                let end = scan_ident(bytes, i + 1);
                if end > i + 1 { Step::Token(TokenKind::Ident, end) } else { Step::Token(TokenKind::Percent, i + 1) }
            }
            // `.name`; a lone `.` goes to the rare path (an error token).
            Class::Dot if bytes.get(i + 1).is_some_and(|&c| is_ident_continue(c)) => {
                Step::Token(TokenKind::DotWord, scan_dot_word(bytes, i + 2))
            }
            Class::Single => Step::Token(SINGLE[b as usize], i + 1),
            Class::Punct => {
                let next = bytes.get(i + 1).copied().unwrap_or(0);
                let (kind, n) = punct(b, next);
                Step::Token(kind, i + n)
            }
            // A plain decimal integer (`0`, `4`, `256`) ends at a byte that
            // cannot continue a number; anything else (`0x1F`, `1.5`,
            // `0f3F800000`, `42U`) takes the full number scanner.
            Class::Digit => {
                let end = scan_digits(bytes, i + 1);
                match bytes.get(end) {
                    Some(&c) if is_ident_continue(c) || c == b'.' => {
                        let (kind, end) = self.rare_token(i);
                        Step::Token(kind, end)
                    }
                    _ => Step::Token(TokenKind::Int, end),
                }
            }
            Class::Slash if matches!(bytes.get(i + 1), Some(b'/' | b'*')) => match skip_comment(bytes, i) {
                Some(end) => Step::Skip(end),
                None => Step::Token(TokenKind::Error, bytes.len()),
            },
            _ => {
                let (kind, end) = self.rare_token(i);
                Step::Token(kind, end)
            }
        }
    }

    /// Numbers other than plain decimals, strings, a lone `/`, and bytes
    /// no token starts with: the kind and the end of the token at `i`.
    #[inline(never)]
    fn rare_token(&self, mut i: usize) -> (TokenKind, usize) {
        let (bytes, source) = (self.bytes, self.source);
        let len = bytes.len();
        let kind = match CLASS[bytes[i] as usize] {
            Class::Digit => lex_number(bytes, len, &mut i),
            Class::Slash => {
                i += 1;
                TokenKind::Slash
            }
            Class::Quote => {
                i += 1;
                let mut closed = false;
                while i < len {
                    match bytes[i] {
                        b'\\' => i += 2,
                        b'"' => {
                            i += 1;
                            closed = true;
                            break;
                        }
                        b'\n' => break,
                        _ => i += 1,
                    }
                }
                i = i.min(len);
                if closed { TokenKind::Str } else { TokenKind::Error }
            }
            _ => {
                // One error token per character (not per byte) so spans stay on char boundaries.
                i += source[i..].chars().next().map_or(1, |c| c.len_utf8());
                TokenKind::Error
            }
        };
        (kind, i)
    }
}

/// The end of the identifier characters from `i`.
#[inline(always)]
fn scan_ident(bytes: &[u8], mut i: usize) -> usize {
    // Eight bytes per bounds check while that many remain: the test per
    // byte is then a load and a table lookup.
    while let Some(w) = bytes.get(i..i + 8).and_then(|w| <&[u8; 8]>::try_from(w).ok()) {
        for (k, &c) in w.iter().enumerate() {
            if !is_ident_continue(c) {
                return i + k;
            }
        }
        i += 8;
    }
    while bytes.get(i).is_some_and(|&c| is_ident_continue(c)) {
        i += 1;
    }
    i
}

/// The end of the decimal digits from `i`.
#[inline(always)]
fn scan_digits(bytes: &[u8], mut i: usize) -> usize {
    while bytes.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
    }
    i
}

/// The end of a dotted word whose first character after the dot is at `i`:
/// identifier characters and `::` joins.
#[inline(always)]
fn scan_dot_word(bytes: &[u8], mut i: usize) -> usize {
    loop {
        i = scan_ident(bytes, i);
        if bytes.get(i) == Some(&b':') && bytes.get(i + 1) == Some(&b':') && bytes.get(i + 2).is_some_and(|&c| is_ident_continue(c)) {
            i += 2;
            continue;
        }
        return i;
    }
}

/// The end of the comment starting at `i` (`//` to the line end, or a
/// closed `/* */`); `None` for an unterminated block comment.
#[inline(never)]
fn skip_comment(bytes: &[u8], mut i: usize) -> Option<usize> {
    let len = bytes.len();
    if bytes.get(i + 1) == Some(&b'/') {
        while i < len && bytes[i] != b'\n' {
            i += 1;
        }
        return Some(i);
    }
    i += 2;
    while i + 1 < len {
        if bytes[i] == b'*' && bytes[i + 1] == b'/' {
            return Some(i + 2);
        }
        i += 1;
    }
    None
}

fn lex_number(bytes: &[u8], len: usize, i: &mut usize) -> TokenKind {
    let start = *i;
    if bytes[start] == b'0' && start + 1 < len {
        match bytes[start + 1] {
            b'f' | b'F' | b'd' | b'D' => {
                let want = if matches!(bytes[start + 1], b'f' | b'F') { 8 } else { 16 };
                let mut j = start + 2;
                while j < len && bytes[j].is_ascii_hexdigit() {
                    j += 1;
                }
                if j - (start + 2) == want && !(j < len && is_ident_continue(bytes[j])) {
                    *i = j;
                    return TokenKind::Float;
                }
                // Not a well-formed hex float: consume the word and let the parser complain.
                *i = j;
                while *i < len && is_ident_continue(bytes[*i]) {
                    *i += 1;
                }
                return TokenKind::Error;
            }
            b'x' | b'X' | b'b' | b'B' => {
                *i = start + 2;
                while *i < len && is_ident_continue(bytes[*i]) {
                    *i += 1;
                }
                return TokenKind::Int;
            }
            _ => {}
        }
    }
    while *i < len && bytes[*i].is_ascii_digit() {
        *i += 1;
    }
    let mut float = false;
    if *i < len && bytes[*i] == b'.' && *i + 1 < len && bytes[*i + 1].is_ascii_digit() {
        float = true;
        *i += 1;
        while *i < len && bytes[*i].is_ascii_digit() {
            *i += 1;
        }
    }
    if *i < len && (bytes[*i] == b'e' || bytes[*i] == b'E') {
        let mut j = *i + 1;
        if j < len && (bytes[j] == b'+' || bytes[j] == b'-') {
            j += 1;
        }
        if j < len && bytes[j].is_ascii_digit() {
            float = true;
            while j < len && bytes[j].is_ascii_digit() {
                j += 1;
            }
            *i = j;
        }
    }
    if float {
        return TokenKind::Float;
    }
    // Integer suffix `U`; anything else glued on is an error.
    if *i < len && (bytes[*i] == b'U' || bytes[*i] == b'u') {
        *i += 1;
    }
    if *i < len && is_ident_continue(bytes[*i]) {
        while *i < len && is_ident_continue(bytes[*i]) {
            *i += 1;
        }
        return TokenKind::Error;
    }
    TokenKind::Int
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(s: &str) -> Vec<TokenKind> {
        lex(s).into_iter().map(|t| t.kind).collect()
    }

    #[test]
    fn lexes_instruction() {
        use TokenKind::*;
        assert_eq!(
            kinds("@!%p1 ld.global.L2::64B.u32 %r1, [%rd2+-4]; // c"),
            vec![At, Bang, Ident, Ident, DotWord, DotWord, DotWord, Ident, Comma, LBracket, Ident, Plus, Minus, Int, RBracket, Semi, Eof]
        );
    }

    #[test]
    fn lexes_every_punctuation_token() {
        use TokenKind::*;
        assert_eq!(
            kinds(", ; : { } [ ] ( ) @ ^ ~ + - * ? < > <= >= << >> == != = ! | || & && / %"),
            vec![
                Comma, Semi, Colon, LBrace, RBrace, LBracket, RBracket, LParen, RParen, At, Caret, Tilde, Plus, Minus,
                Star, Question, Lt, Gt, Le, Ge, Shl, Shr, EqEq, NotEq, Eq, Bang, Pipe, PipePipe, Amp, AmpAmp, Slash,
                Percent, Eof
            ]
        );
        assert_eq!(kinds("a,b;%r1"), vec![Ident, Comma, Ident, Semi, Ident, Eof]);
    }

    #[test]
    fn space_bits_match_the_class_table() {
        for b in 0..=255u8 {
            assert_eq!(is_space(b), CLASS[b as usize] == Class::Space, "{b}");
        }
    }

    #[test]
    fn lexes_numbers() {
        use TokenKind::*;
        assert_eq!(kinds("0f3F800000 0d3FF0000000000000 1.5 1e-3 0x1F 017 0b101 42U 9.5"), vec![Float, Float, Float, Float, Int, Int, Int, Int, Float, Eof]);
        assert_eq!(kinds("0f3F8 12ab"), vec![Error, Error, Eof]);
    }

    /// `lex_into`'s specialised loop must find exactly the tokens of the
    /// pull lexer, on text and on arbitrary bytes.
    #[test]
    fn bulk_lexing_matches_the_pull_lexer() {
        fn pulled(s: &str) -> Vec<Token> {
            let mut l = Lexer::new(s);
            let mut v = Vec::new();
            loop {
                let t = l.next_token();
                v.push(t);
                if t.kind == TokenKind::Eof {
                    return v;
                }
            }
        }
        let mut cases: Vec<String> = [
            "", "%", "% r", "%r1", ".", ". x", ".::a", ".a::b::", ".a::b", "0", "017", "0x1F", "0f3F800000", "1.5", "1.",
            "1.x", "1e5", "1e", "42U", "12ab", "9.", "a/b", "//c\nx", "/* x */y", "/* x", "\"ab", "\"a\\\"b\"", "<<=>>=",
            "!=!|||&&&", "@!%p1 bra $L__BB0_1;", "ld.global.v4.f32 {%f1,%f2}, [%rd1+-4];", "é", "x\u{1F600}y",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        // Arbitrary strings over the bytes the lexer treats specially.
        let alphabet: Vec<char> = " \t\n%._$:/*\"\\0123456789aefxXUdD+-<>=!|&,;{}[]()@^~?#é".chars().collect();
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..4000 {
            let mut s = String::new();
            for _ in 0..(seed % 24) {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                s.push(alphabet[(seed % alphabet.len() as u64) as usize]);
            }
            cases.push(s);
        }
        for s in &cases {
            assert_eq!(lex(s), pulled(s), "{s:?}");
        }
    }

    #[test]
    fn unterminated_things_are_errors() {
        assert_eq!(kinds("/* x"), vec![TokenKind::Error, TokenKind::Eof]);
        assert_eq!(kinds("\"abc"), vec![TokenKind::Error, TokenKind::Eof]);
        assert_eq!(kinds("é"), vec![TokenKind::Error, TokenKind::Eof]);
    }
}

//! The parser of the Ori IR text form that [`super::print`] writes (the
//! syntax is documented there).
//!
//! Errors are values ([`IrParseError`]) with the 1-based line and column
//! (in characters) of the offending token; no input makes the parser
//! panic, recurse deeply or allocate more than a small multiple of the
//! text's size (entity numbers are checked for density before anything is
//! allocated by them).
//!
//! Beyond the syntax, the parser checks what it needs to build well-formed
//! storage: block, instruction and value numbers are dense (`0..n`, each
//! defined once), and every value or block referenced exists. Everything
//! else (types, dominance, terminators) is the verifier's business
//! ([`super::verify`]), so invalid IR can be written down for tests.

use std::fmt;

use smallvec::SmallVec;

use super::attrs::{Attrs, Space};
use super::entity::EntityRef;
use super::function::{Block, BlockCall, BlockData, Function, FunctionKind, Guard, Inst, InstData, Param, SrcLoc, Value, ValueData, ValueDef};
use super::module::{GlobalVar, Module};
use super::opcode::{Class, Opcode};
use super::print::has_address;
use super::types::Type;
use crate::target::Sm;

/// A syntax error in Ori IR text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IrParseError {
    /// 1-based line.
    pub line: u32,
    /// 1-based column (in characters).
    pub col: u32,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for IrParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.col, self.message)
    }
}

impl std::error::Error for IrParseError {}

/// Parses a module; the text must start with its `target` line.
pub fn parse_module(text: &str) -> Result<Module, IrParseError> {
    Parser::new(text)?.module(None)
}

/// Parses a module whose `target` line is optional (`sm` applies when it
/// is absent; a `target` line in the text wins).
pub fn parse_module_for(text: &str, sm: Sm) -> Result<Module, IrParseError> {
    Parser::new(text)?.module(Some(sm))
}

/// Parses a text holding exactly one function (its `fnN` number is not
/// kept: a lone function has no module).
pub fn parse_function(text: &str) -> Result<Function, IrParseError> {
    let mut p = Parser::new(text)?;
    p.skip_blank();
    let f = p.function()?;
    p.skip_blank();
    if !matches!(p.peek(), Tok::Eof) {
        return Err(p.error("expected the end of the text after the function"));
    }
    Ok(f)
}

// ---- lexer ----------------------------------------------------------------

#[derive(Clone, Debug, PartialEq)]
enum Tok<'a> {
    Ident(&'a str),
    Num(&'a str),
    /// A string literal, escapes resolved.
    Str(String),
    Punct(char),
    Arrow,
    /// `;`: ends a declaration; the rest of the line is a comment.
    Semi,
    Newline,
    Eof,
}

#[derive(Clone, Debug)]
struct Token<'a> {
    tok: Tok<'a>,
    line: u32,
    col: u32,
}

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'$' | b'%' | b'.')
}

/// Splits the text into tokens. Identifiers, numbers and punctuation are
/// ASCII and scanned by bytes (tokens borrow from the text); other
/// characters only occur in strings, comments and whitespace.
fn lex(text: &str) -> Result<Vec<Token<'_>>, IrParseError> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(text.len() / 4);
    let (mut i, mut line, mut col) = (0usize, 1u32, 1u32);
    let err = |(line, col): Pos, message: String| IrParseError { line, col, message };
    while i < bytes.len() {
        let at = (line, col);
        let tok = |tok| Token { tok, line: at.0, col: at.1 };
        let b = bytes[i];
        // Scans bytes while `pred` holds, from `i`; returns the end.
        let scan = |from: usize, pred: fn(u8) -> bool| from + bytes[from..].iter().take_while(|&&c| pred(c)).count();
        match b {
            b'\n' => {
                out.push(tok(Tok::Newline));
                i += 1;
                line = line.saturating_add(1);
                col = 1;
            }
            b' ' | b'\t' | b'\r' => {
                i += 1;
                col = col.saturating_add(1);
            }
            b';' => {
                out.push(tok(Tok::Semi));
                // The comment runs to the newline (columns restart there).
                i = scan(i, |c| c != b'\n');
            }
            b'"' => {
                let mut s = String::new();
                let mut chars = text[i + 1..].char_indices();
                let mut here = (line, col.saturating_add(1));
                let end = loop {
                    let Some((k, c)) = chars.next() else { return Err(err(at, "unterminated string".into())) };
                    let pos = here;
                    here.1 = here.1.saturating_add(1);
                    match c {
                        '\n' => return Err(err(at, "unterminated string".into())),
                        '"' => break i + 1 + k + 1,
                        '\\' => {
                            let e = chars.next().map(|(_, e)| e);
                            here.1 = here.1.saturating_add(1);
                            match e {
                                Some('"') => s.push('"'),
                                Some('\\') => s.push('\\'),
                                Some('n') => s.push('\n'),
                                Some('t') => s.push('\t'),
                                Some('u') => {
                                    let rest = chars.as_str();
                                    let hex = rest.strip_prefix('{').and_then(|r| r.split_once('}')).map(|(h, _)| h).filter(|h| h.len() <= 8);
                                    match hex.and_then(|h| u32::from_str_radix(h, 16).ok()).and_then(char::from_u32) {
                                        Some(ch) => {
                                            s.push(ch);
                                            let n = hex.map_or(0, |h| h.len() + 2);
                                            for _ in 0..n {
                                                chars.next();
                                            }
                                            here.1 = here.1.saturating_add(n as u32);
                                        }
                                        None => return Err(err(pos, "bad \\u{…} escape in string".into())),
                                    }
                                }
                                _ => return Err(err(pos, "bad escape in string".into())),
                            }
                        }
                        c => s.push(c),
                    }
                };
                out.push(tok(Tok::Str(s)));
                col = here.1;
                i = end;
            }
            b'-' if bytes.get(i + 1) == Some(&b'>') => {
                out.push(tok(Tok::Arrow));
                i += 2;
                col = col.saturating_add(2);
            }
            b'0'..=b'9' => {
                let end = scan(i, |c| c.is_ascii_alphanumeric() || c == b'_');
                out.push(tok(Tok::Num(&text[i..end])));
                col = col.saturating_add((end - i) as u32);
                i = end;
            }
            b if b.is_ascii_alphabetic() || matches!(b, b'_' | b'$' | b'%') => {
                let end = scan(i, is_ident_byte);
                out.push(tok(Tok::Ident(&text[i..end])));
                col = col.saturating_add((end - i) as u32);
                i = end;
            }
            b'(' | b')' | b'{' | b'}' | b'[' | b']' | b',' | b':' | b'=' | b'@' | b'!' | b'+' | b'#' | b'-' => {
                out.push(tok(Tok::Punct(b as char)));
                i += 1;
                col = col.saturating_add(1);
            }
            _ => {
                // A character outside the syntax: whitespace is skipped,
                // anything else is an error.
                let c = text[i..].chars().next().unwrap_or('\u{fffd}');
                if !c.is_whitespace() {
                    return Err(err(at, format!("unexpected character {c:?}")));
                }
                i += c.len_utf8();
                col = col.saturating_add(1);
            }
        }
    }
    out.push(Token { tok: Tok::Eof, line, col });
    Ok(out)
}

/// `prefix` followed by a decimal number that fits `u64` (`v12`, `g0`).
fn entity_number(s: &str, prefix: &str) -> Option<u64> {
    let digits = s.strip_prefix(prefix)?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

fn number(s: &str) -> Option<u64> {
    match s.strip_prefix("0x") {
        Some(hex) if !hex.is_empty() => u64::from_str_radix(hex, 16).ok(),
        Some(_) => None,
        None if s.bytes().all(|b| b.is_ascii_digit()) => s.parse().ok(),
        None => None,
    }
}

// ---- parser -----------------------------------------------------------

/// A position in the text.
type Pos = (u32, u32);

struct ParsedInst {
    marker: Option<(u64, Pos)>,
    data: InstData,
    results: Vec<(u64, Type, Pos)>,
    loc: SrcLoc,
    pos: Pos,
}

struct ParsedBlock {
    index: u64,
    params: Vec<(u64, Type, Pos)>,
    insts: Vec<usize>,
    placed: bool,
    pos: Pos,
}

enum UnusedDef {
    Param(u64, u64),
    Result(u64, u64),
}

struct Parser<'a> {
    toks: Vec<Token<'a>>,
    pos: usize,
}

impl<'a> Parser<'a> {
    fn new(text: &'a str) -> Result<Parser<'a>, IrParseError> {
        Ok(Parser { toks: lex(text)?, pos: 0 })
    }

    fn peek(&self) -> &Tok<'a> {
        self.toks.get(self.pos).map_or(&Tok::Eof, |t| &t.tok)
    }

    fn peek_at(&self, n: usize) -> &Tok<'a> {
        self.toks.get(self.pos + n).map_or(&Tok::Eof, |t| &t.tok)
    }

    fn here(&self) -> Pos {
        self.toks.get(self.pos).or(self.toks.last()).map_or((1, 1), |t| (t.line, t.col))
    }

    fn bump(&mut self) -> Tok<'a> {
        let t = self.peek().clone();
        if self.pos < self.toks.len() {
            self.pos += 1;
        }
        t
    }

    fn error(&self, message: impl Into<String>) -> IrParseError {
        self.error_at(self.here(), message)
    }

    fn error_at(&self, (line, col): Pos, message: impl Into<String>) -> IrParseError {
        IrParseError { line, col, message: message.into() }
    }

    fn describe(&self) -> String {
        match self.peek() {
            Tok::Ident(s) => format!("`{s}`"),
            Tok::Num(s) => format!("number `{s}`"),
            Tok::Str(_) => "a string".into(),
            Tok::Punct(c) => format!("`{c}`"),
            Tok::Arrow => "`->`".into(),
            Tok::Semi => "`;`".into(),
            Tok::Newline => "the end of the line".into(),
            Tok::Eof => "the end of the text".into(),
        }
    }

    fn expected(&self, what: &str) -> IrParseError {
        self.error(format!("expected {what}, found {}", self.describe()))
    }

    fn is_punct(&self, c: char) -> bool {
        *self.peek() == Tok::Punct(c)
    }

    fn eat_punct(&mut self, c: char) -> bool {
        let yes = self.is_punct(c);
        if yes {
            self.bump();
        }
        yes
    }

    fn expect_punct(&mut self, c: char) -> Result<(), IrParseError> {
        if self.eat_punct(c) { Ok(()) } else { Err(self.expected(&format!("`{c}`"))) }
    }

    fn is_keyword(&self, k: &str) -> bool {
        matches!(self.peek(), Tok::Ident(s) if *s == k)
    }

    fn expect_keyword(&mut self, k: &str) -> Result<(), IrParseError> {
        if self.is_keyword(k) {
            self.bump();
            Ok(())
        } else {
            Err(self.expected(&format!("`{k}`")))
        }
    }

    fn at_eol(&self) -> bool {
        matches!(self.peek(), Tok::Newline | Tok::Semi | Tok::Eof)
    }

    /// Consumes the end of a line (a comment, a newline, or the end).
    fn expect_eol(&mut self) -> Result<(), IrParseError> {
        match self.peek() {
            Tok::Semi => {
                self.bump();
                if *self.peek() == Tok::Newline {
                    self.bump();
                }
                Ok(())
            }
            Tok::Newline => {
                self.bump();
                Ok(())
            }
            Tok::Eof => Ok(()),
            _ => Err(self.expected("the end of the line")),
        }
    }

    fn skip_blank(&mut self) {
        while matches!(self.peek(), Tok::Newline | Tok::Semi) {
            self.bump();
        }
    }

    fn u64(&mut self, what: &str) -> Result<u64, IrParseError> {
        match self.peek() {
            Tok::Num(s) => match number(s) {
                Some(n) => {
                    self.bump();
                    Ok(n)
                }
                None => Err(self.error(format!("bad number `{s}` (decimal or 0x hexadecimal, at most 64 bits)"))),
            },
            _ => Err(self.expected(what)),
        }
    }

    fn u32(&mut self, what: &str) -> Result<u32, IrParseError> {
        let at = self.here();
        let n = self.u64(what)?;
        u32::try_from(n).map_err(|_| self.error_at(at, format!("{what} {n} does not fit 32 bits")))
    }

    /// `+N` or `-N` as an `i32`.
    fn signed(&mut self) -> Result<i32, IrParseError> {
        let at = self.here();
        let negative = match self.bump() {
            Tok::Punct('+') => false,
            Tok::Punct('-') => true,
            _ => return Err(self.error_at(at, "expected `+` or `-`")),
        };
        let n = self.u64("an offset")?;
        let v = if negative { -(n as i128) } else { n as i128 };
        i32::try_from(v).map_err(|_| self.error_at(at, format!("offset {v} does not fit 32 bits")))
    }

    /// An identifier `prefix<N>`.
    fn entity(&mut self, prefix: &str, what: &str) -> Result<(u64, Pos), IrParseError> {
        let at = self.here();
        if let Tok::Ident(s) = self.peek()
            && let Some(n) = entity_number(s, prefix)
        {
            self.bump();
            return Ok((n, at));
        }
        Err(self.expected(what))
    }

    fn ty(&mut self) -> Result<Type, IrParseError> {
        if let Tok::Ident(s) = self.peek()
            && let Some(t) = Type::parse(s)
        {
            self.bump();
            return Ok(t);
        }
        Err(self.expected("a type (r32 r64 r128 ur32 ur64 ur128 p up)"))
    }

    /// `vN:type`.
    fn typed_value(&mut self) -> Result<(u64, Type, Pos), IrParseError> {
        let (n, at) = self.entity("v", "a value (`vN`)")?;
        self.expect_punct(':')?;
        let t = self.ty()?;
        Ok((n, t, at))
    }

    // ---- module ----

    fn module(&mut self, default_sm: Option<Sm>) -> Result<Module, IrParseError> {
        let mut sm = None;
        let mut module = Module::new(default_sm.unwrap_or(Sm::new(90)));
        loop {
            self.skip_blank();
            let at = self.here();
            match self.peek() {
                Tok::Eof => break,
                Tok::Ident(k) if *k == "target" => {
                    self.bump();
                    if sm.is_some() {
                        return Err(self.error_at(at, "a second `target` line"));
                    }
                    let parsed = match self.peek() {
                        Tok::Ident(s) => Sm::parse_sm(s),
                        _ => None,
                    };
                    let Some(parsed) = parsed else { return Err(self.expected("an SM (`sm_90`)")) };
                    self.bump();
                    sm = Some(parsed);
                    self.expect_eol()?;
                }
                Tok::Ident(k) if *k == "global" => {
                    self.bump();
                    let (n, at) = self.entity("g", "a variable number (`gN`)")?;
                    if n != module.globals.len() as u64 {
                        return Err(self.error_at(at, format!("expected g{} (variables are numbered in order)", module.globals.len())));
                    }
                    let g = self.global()?;
                    module.globals.push(g);
                }
                Tok::Ident(k) if matches!(*k, "kernel" | "func" | "function") => {
                    if sm.is_none() && default_sm.is_none() {
                        return Err(self.error_at(at, "the module must start with a `target` line"));
                    }
                    let (n, nat) = match self.peek_at(1) {
                        Tok::Ident(s) => (entity_number(s, "fn"), self.toks.get(self.pos + 1).map_or(at, |t| (t.line, t.col))),
                        _ => (None, at),
                    };
                    if n != Some(module.functions.len() as u64) {
                        return Err(self.error_at(nat, format!("expected fn{} (functions are numbered in order)", module.functions.len())));
                    }
                    let f = self.function()?;
                    module.functions.push(f);
                }
                _ => return Err(self.expected("`target`, `global`, `kernel`, `func` or `function`")),
            }
        }
        match (sm, default_sm) {
            (Some(s), _) | (None, Some(s)) => module.sm = s,
            (None, None) => return Err(self.error_at((1, 1), "the module must start with a `target` line")),
        }
        Ok(module)
    }

    /// The rest of a `global` line after its number.
    fn global(&mut self) -> Result<GlobalVar, IrParseError> {
        let name = match self.bump() {
            Tok::Str(s) => s,
            _ => return Err(self.error("expected the variable's name (a string)")),
        };
        let space = match self.peek() {
            Tok::Ident(s) => Space::from_word(s),
            _ => None,
        };
        let Some(space) = space else { return Err(self.expected("a state space")) };
        self.bump();
        self.expect_keyword("size")?;
        let size = self.u64("a size")?;
        self.expect_keyword("align")?;
        let align = self.u32("an alignment")?;
        let mut g = GlobalVar { name, space, size, align, init: Vec::new(), visible: false, addresses: Vec::new(), owner: None };
        if self.is_keyword("visible") {
            self.bump();
            g.visible = true;
        }
        if self.is_keyword("init") {
            self.bump();
            while !self.at_eol() {
                let at = self.here();
                let b = self.u64("an initial byte")?;
                g.init.push(u8::try_from(b).map_err(|_| self.error_at(at, format!("initial byte {b} is over 0xff")))?);
            }
            if g.init.is_empty() {
                return Err(self.expected("initial bytes"));
            }
        }
        self.expect_eol()?;
        Ok(g)
    }

    // ---- function ----

    fn function(&mut self) -> Result<Function, IrParseError> {
        let kind = match self.bump() {
            Tok::Ident("kernel") => Some(FunctionKind::Kernel),
            Tok::Ident("func") => Some(FunctionKind::Device),
            Tok::Ident("function") => None,
            _ => return Err(self.error("expected `kernel`, `func` or `function`")),
        };
        self.entity("fn", "a function number (`fnN`)")?;
        let name = match self.bump() {
            Tok::Str(s) => s,
            _ => return Err(self.error("expected the function's name (a string)")),
        };
        let mut f = Function { name, kind, ..Function::default() };
        self.expect_punct('(')?;
        if !self.eat_punct(')') {
            loop {
                f.params.push(self.param()?);
                if self.eat_punct(')') {
                    break;
                }
                self.expect_punct(',')?;
            }
        }
        let mut seen: Vec<&'static str> = Vec::new();
        loop {
            let at = self.here();
            let clause: &'static str = match self.peek() {
                Tok::Punct('{') => break,
                Tok::Semi => {
                    self.expect_eol()?;
                    return Ok(f);
                }
                Tok::Arrow => "->",
                Tok::Ident(k) => match *k {
                    "local" => "local",
                    "maxntid" => "maxntid",
                    "reqntid" => "reqntid",
                    "minctas" => "minctas",
                    "maxnreg" => "maxnreg",
                    _ => return Err(self.expected("a function attribute, `{` or `;`")),
                },
                _ => return Err(self.expected("a function attribute, `{` or `;`")),
            };
            if seen.contains(&clause) {
                return Err(self.error_at(at, format!("`{clause}` given twice")));
            }
            seen.push(clause);
            self.bump();
            match clause {
                "->" => {
                    self.expect_punct('(')?;
                    if !self.eat_punct(')') {
                        loop {
                            f.returns.push(self.ty()?);
                            if self.eat_punct(')') {
                                break;
                            }
                            self.expect_punct(',')?;
                        }
                    }
                }
                "local" => f.local_bytes = self.u32("a size")?,
                "maxntid" => f.bounds.max_ntid = Some([self.u32("a count")?, self.u32("a count")?, self.u32("a count")?]),
                "reqntid" => f.bounds.req_ntid = Some([self.u32("a count")?, self.u32("a count")?, self.u32("a count")?]),
                "minctas" => f.bounds.min_ctas_per_sm = Some(self.u32("a count")?),
                _ => f.bounds.max_regs = Some(self.u32("a count")?),
            }
        }
        self.bump();
        self.expect_eol()?;
        self.body(&mut f)?;
        Ok(f)
    }

    fn param(&mut self) -> Result<Param, IrParseError> {
        let name = match self.peek() {
            Tok::Ident(s) => s.to_string(),
            Tok::Str(s) => s.clone(),
            _ => return Err(self.expected("a parameter name")),
        };
        self.bump();
        self.expect_punct(':')?;
        let size = self.u32("a size")?;
        self.expect_keyword("align")?;
        let align = self.u32("an alignment")?;
        self.expect_keyword("at")?;
        let offset = self.u32("an offset")?;
        let pointer = self.is_keyword("ptr");
        if pointer {
            self.bump();
        }
        Ok(Param { name, size, align, offset, pointer })
    }

    /// The statements between `{` and `}`, then the function's storage.
    fn body(&mut self, f: &mut Function) -> Result<(), IrParseError> {
        let mut blocks: Vec<ParsedBlock> = Vec::new();
        let mut insts: Vec<ParsedInst> = Vec::new();
        let mut unused: Vec<(u64, Type, UnusedDef, Pos)> = Vec::new();
        let mut value_uses: Vec<(u64, Pos)> = Vec::new();
        let mut block_uses: Vec<(u64, Pos)> = Vec::new();
        // The block instructions go to (`None`: the `unplaced:` section).
        let mut current: Option<Option<usize>> = None;
        loop {
            self.skip_blank();
            let at = self.here();
            let label = match self.peek() {
                Tok::Punct('}') => {
                    self.bump();
                    self.expect_eol()?;
                    break;
                }
                Tok::Eof => return Err(self.error("expected `}` (the function's body is not closed)")),
                Tok::Ident(s) if *s == "unplaced" => {
                    self.bump();
                    if self.eat_punct(':') {
                        self.expect_eol()?;
                        current = Some(None);
                        continue;
                    }
                    Some(false)
                }
                Tok::Ident(s) if entity_number(s, "block").is_some() => Some(true),
                _ => None,
            };
            if let Some(placed) = label {
                let (index, pos) = self.entity("block", "a block (`blockN`)")?;
                let mut params = Vec::new();
                if self.eat_punct('(') && !self.eat_punct(')') {
                    loop {
                        params.push(self.typed_value()?);
                        if self.eat_punct(')') {
                            break;
                        }
                        self.expect_punct(',')?;
                    }
                }
                self.expect_punct(':')?;
                self.expect_eol()?;
                blocks.push(ParsedBlock { index, params, insts: Vec::new(), placed, pos });
                current = Some(Some(blocks.len() - 1));
                continue;
            }
            if self.is_keyword("unused") {
                self.bump();
                let (n, t, pos) = self.typed_value()?;
                let def = if self.is_keyword("param") {
                    self.bump();
                    let (b, _) = self.entity("block", "a block (`blockN`)")?;
                    UnusedDef::Param(b, self.u64("a parameter number")?)
                } else if self.is_keyword("result") {
                    self.bump();
                    let (i, _) = self.entity("inst", "an instruction (`instN`)")?;
                    UnusedDef::Result(i, self.u64("a result number")?)
                } else {
                    return Err(self.expected("`param` or `result`"));
                };
                self.expect_eol()?;
                unused.push((n, t, def, pos));
                continue;
            }
            let Some(block) = current else {
                return Err(self.error_at(at, "an instruction before the first block label"));
            };
            let inst = self.inst(&mut value_uses, &mut block_uses)?;
            insts.push(inst);
            if let Some(b) = block {
                blocks[b].insts.push(insts.len() - 1);
            }
        }
        self.build(f, blocks, insts, unused, &value_uses, &block_uses)
    }

    fn value_list(&mut self, uses: &mut Vec<(u64, Pos)>, close: char) -> Result<SmallVec<[Value; 4]>, IrParseError> {
        let mut out = SmallVec::new();
        if self.eat_punct(close) {
            return Ok(out);
        }
        loop {
            let (n, at) = self.entity("v", "a value (`vN`)")?;
            uses.push((n, at));
            out.push(Value::new(n as usize));
            if self.eat_punct(close) {
                return Ok(out);
            }
            self.expect_punct(',')?;
        }
    }

    fn inst(&mut self, uses: &mut Vec<(u64, Pos)>, block_uses: &mut Vec<(u64, Pos)>) -> Result<ParsedInst, IrParseError> {
        let pos = self.here();
        let mut marker = None;
        if matches!(self.peek(), Tok::Ident(s) if entity_number(s, "inst").is_some()) && *self.peek_at(1) == Tok::Punct(':') {
            marker = Some(self.entity("inst", "an instruction number")?);
            self.bump();
        }
        let mut guard = None;
        if self.eat_punct('@') {
            let negated = self.eat_punct('!');
            let (n, at) = self.entity("v", "a guard predicate (`vN`)")?;
            uses.push((n, at));
            guard = Some(Guard { pred: Value::new(n as usize), negated });
        }
        let mut results = Vec::new();
        if matches!(self.peek(), Tok::Ident(s) if entity_number(s, "v").is_some()) {
            loop {
                results.push(self.typed_value()?);
                if self.eat_punct('=') {
                    break;
                }
                self.expect_punct(',')?;
            }
        }
        // The mnemonic: the longest opcode name made of its first one or
        // two dotted words, then attribute words.
        let at = self.here();
        let Tok::Ident(mnemonic) = self.peek().clone() else { return Err(self.expected("an opcode")) };
        self.bump();
        // Candidate names end at the second or the first dot.
        let dots: SmallVec<[usize; 2]> = mnemonic.match_indices('.').take(2).map(|(k, _)| k).collect();
        let two = dots.get(1).map_or(mnemonic, |&k| &mnemonic[..k]);
        let one = dots.first().map_or(mnemonic, |&k| &mnemonic[..k]);
        let (opcode, name_len) = match Opcode::from_name(two).filter(|_| !dots.is_empty()) {
            Some(op) => (op, two.len()),
            None => match Opcode::from_name(one) {
                Some(op) => (op, one.len()),
                None => return Err(self.error_at(at, format!("unknown opcode `{one}`"))),
            },
        };
        let mut attrs = Attrs::default();
        if let Some(words) = mnemonic[name_len..].strip_prefix('.') {
            for w in words.split('.') {
                if !attrs.apply_word_of(w, opcode.takes_mul_mode(), opcode.takes_reduction()) {
                    return Err(self.error_at(at, format!("`.{w}` is not an attribute here (unknown, or its field is set twice)")));
                }
            }
        }
        let mut data = InstData::new(opcode, attrs);
        data.guard = guard;
        let mut imm: Option<u64> = None;
        let mut offset: Option<i32> = None;
        // Whether a `[…]` operand was given, and whether it held a value.
        let mut mem: Option<bool> = None;
        let set_imm = |p: &Parser, slot: &mut Option<u64>, v: u64, at: Pos| {
            if slot.replace(v).is_some() { Err(p.error_at(at, "a second immediate")) } else { Ok(()) }
        };
        let set_offset = |p: &Parser, slot: &mut Option<i32>, v: i32, at: Pos| {
            if slot.replace(v).is_some() { Err(p.error_at(at, "a second offset")) } else { Ok(()) }
        };
        let ends = |p: &Parser| p.at_eol() || p.is_keyword("else") || p.is_punct('!');
        if !ends(self) {
            loop {
                let at = self.here();
                match self.peek().clone() {
                    Tok::Punct('[') => {
                        self.bump();
                        if !data.args.is_empty() || mem.is_some() {
                            return Err(self.error_at(at, "the `[address]` operand must come first, once"));
                        }
                        mem = Some(false);
                        if let Tok::Ident(s) = self.peek()
                            && entity_number(s, "v").is_some()
                        {
                            let (n, vat) = self.entity("v", "a value")?;
                            uses.push((n, vat));
                            data.args.push(Value::new(n as usize));
                            mem = Some(true);
                        }
                        let off = if self.is_punct('+') || self.is_punct('-') { self.signed()? } else { 0 };
                        set_offset(self, &mut offset, off, at)?;
                        self.expect_punct(']')?;
                    }
                    Tok::Punct('#') => {
                        self.bump();
                        let v = self.u64("an immediate")?;
                        set_imm(self, &mut imm, v, at)?;
                    }
                    Tok::Num(_) => {
                        let v = self.u64("an immediate")?;
                        set_imm(self, &mut imm, v, at)?;
                    }
                    Tok::Punct('+' | '-') => {
                        let v = self.signed()?;
                        set_offset(self, &mut offset, v, at)?;
                    }
                    Tok::Ident(s) => {
                        if let Some(n) = entity_number(&s, "v") {
                            self.bump();
                            uses.push((n, at));
                            data.args.push(Value::new(n as usize));
                        } else if let Some(n) = entity_number(&s, "block") {
                            self.bump();
                            block_uses.push((n, at));
                            let args = if self.eat_punct('(') { self.value_list(uses, ')')? } else { SmallVec::new() };
                            data.dests.push(BlockCall { block: Block::new(n as usize), args });
                        } else if let Some(n) = entity_number(&s, "fn") {
                            self.bump();
                            set_imm(self, &mut imm, n, at)?;
                            self.expect_punct('(')?;
                            let args = self.value_list(uses, ')')?;
                            data.args.extend(args);
                        } else if s == "frame" || entity_number(&s, "g").is_some() {
                            self.bump();
                            set_imm(self, &mut imm, entity_number(&s, "g").unwrap_or(0), at)?;
                            if self.is_punct('+') || self.is_punct('-') {
                                let v = self.signed()?;
                                set_offset(self, &mut offset, v, at)?;
                            }
                        } else {
                            return Err(self.expected("an operand"));
                        }
                    }
                    _ => return Err(self.expected("an operand")),
                }
                if !self.eat_punct(',') {
                    break;
                }
            }
        }
        data.imm = imm.unwrap_or(0);
        data.offset = offset.unwrap_or(0);
        if self.is_keyword("else") {
            self.bump();
            loop {
                let (n, at) = self.entity("v", "a prior value (`vN`)")?;
                uses.push((n, at));
                data.prior.push(Value::new(n as usize));
                if !self.eat_punct(',') {
                    break;
                }
            }
        }
        let mut loc = SrcLoc::default();
        if self.eat_punct('!') {
            loc.line = self.u32("a line")?;
            self.expect_punct(':')?;
            loc.col = self.u32("a column")?;
            if self.eat_punct(':') {
                loc.debug_file = self.u32("a file number")?;
                self.expect_punct(':')?;
                loc.debug_line = self.u32("a line")?;
                self.expect_punct(':')?;
                loc.debug_col = self.u32("a column")?;
            }
        }
        self.expect_eol()?;
        // Memory operations take their address operand first, and the
        // bracket holds a value exactly when the argument counts make the
        // first argument the address (the printer's rule), so the text
        // says what the instruction means.
        let is_mem = matches!(opcode.class(), Class::Load | Class::Store);
        match mem {
            None if is_mem => return Err(self.error_at(at, "a memory operation needs its `[address+offset]` operand first")),
            Some(_) if !is_mem => return Err(self.error_at(at, "only memory operations take a `[…]` operand")),
            Some(with_addr) if with_addr != has_address(opcode, &data.attrs, data.args.len()) => {
                let msg = if with_addr {
                    "this access has no address argument: with these value operands the bracket must be `[+offset]`"
                } else {
                    "with these value operands the first one is the address: write it in the bracket"
                };
                return Err(self.error_at(at, msg));
            }
            _ => {}
        }
        Ok(ParsedInst { marker, data, results, loc, pos })
    }

    /// Checks the numbering and fills the function's maps.
    fn build(
        &self,
        f: &mut Function,
        blocks: Vec<ParsedBlock>,
        insts: Vec<ParsedInst>,
        unused: Vec<(u64, Type, UnusedDef, Pos)>,
        value_uses: &[(u64, Pos)],
        block_uses: &[(u64, Pos)],
    ) -> Result<(), IrParseError> {
        // Blocks: dense and defined once.
        let order = dense(blocks.iter().map(|b| (b.index, b.pos)), "block", |p, m| self.error_at(p, m))?;
        // Instructions: numbered by position unless marked.
        let mut next = 0u64;
        let mut numbers = Vec::with_capacity(insts.len());
        for pi in &insts {
            let (n, at) = pi.marker.unwrap_or((next, pi.pos));
            next = n.saturating_add(1);
            numbers.push((n, at));
        }
        let inst_order = dense(numbers.iter().copied(), "inst", |p, m| self.error_at(p, m))?;
        // Values: block parameters, results, `unused` lines.
        let mut defs: Vec<(u64, Pos, ValueData)> = Vec::new();
        for b in &blocks {
            for (n, &(v, ty, at)) in b.params.iter().enumerate() {
                let n = u16::try_from(n).map_err(|_| self.error_at(at, "more than 65536 block parameters"))?;
                defs.push((v, at, ValueData { ty, def: ValueDef::Param(Block::new(b.index as usize), n) }));
            }
        }
        for (pi, &(num, _)) in insts.iter().zip(&numbers) {
            for (n, &(v, ty, at)) in pi.results.iter().enumerate() {
                let n = u16::try_from(n).map_err(|_| self.error_at(at, "more than 65536 results"))?;
                defs.push((v, at, ValueData { ty, def: ValueDef::Result(Inst::new(num as usize), n) }));
            }
        }
        for (v, ty, def, at) in &unused {
            let small = |x: u64| u32::try_from(x).map_err(|_| self.error_at(*at, format!("{x} is too large")));
            let def = match *def {
                UnusedDef::Param(b, n) => ValueDef::Param(
                    Block::new(small(b)? as usize),
                    small(n)?.try_into().map_err(|_| self.error_at(*at, "parameter number over 65535"))?,
                ),
                UnusedDef::Result(i, n) => {
                    ValueDef::Result(Inst::new(small(i)? as usize), small(n)?.try_into().map_err(|_| self.error_at(*at, "result number over 65535"))?)
                }
            };
            defs.push((*v, *at, ValueData { ty: *ty, def }));
        }
        let value_order = dense(defs.iter().map(|d| (d.0, d.1)), "v", |p, m| self.error_at(p, m))?;
        for &(v, at) in value_uses {
            if v >= defs.len() as u64 {
                return Err(self.error_at(at, format!("v{v} is not defined")));
            }
        }
        for &(b, at) in block_uses {
            if b >= blocks.len() as u64 {
                return Err(self.error_at(at, format!("block{b} is not defined")));
            }
        }
        // Fill the maps in entity order.
        for &i in &value_order {
            f.values.push(defs[i].2);
        }
        let mut data: Vec<Option<InstData>> = Vec::with_capacity(insts.len());
        let mut locs = Vec::with_capacity(insts.len());
        for pi in insts {
            let mut d = pi.data;
            d.results = pi.results.iter().map(|r| Value::new(r.0 as usize)).collect();
            data.push(Some(d));
            locs.push(pi.loc);
        }
        for &i in &inst_order {
            let inst = f.insts.push(data[i].take().unwrap_or_else(|| InstData::new(Opcode::Trap, Attrs::default())));
            f.locs[inst] = locs[i];
        }
        for &i in &order {
            let b = &blocks[i];
            let params = b.params.iter().map(|p| Value::new(p.0 as usize)).collect();
            let insts = b.insts.iter().map(|&k| Inst::new(numbers[k].0 as usize)).collect();
            f.blocks.push(BlockData { params, insts });
        }
        f.layout = blocks.iter().filter(|b| b.placed).map(|b| Block::new(b.index as usize)).collect();
        Ok(())
    }
}

/// Checks that the numbers are exactly `0..n`, each once, and returns the
/// positions in number order.
fn dense(items: impl Iterator<Item = (u64, Pos)>, prefix: &str, err: impl Fn(Pos, String) -> IrParseError) -> Result<Vec<usize>, IrParseError> {
    let mut v: Vec<(u64, Pos, usize)> = items.enumerate().map(|(i, (n, p))| (n, p, i)).collect();
    v.sort_by_key(|x| (x.0, x.2));
    for (k, w) in v.iter().enumerate() {
        if w.0 < k as u64 {
            return Err(err(w.1, format!("{prefix}{} is defined twice", w.0)));
        }
        if w.0 > k as u64 {
            return Err(err(w.1, format!("{prefix}{k} is missing ({prefix} numbers must be dense: 0, 1, 2, …)")));
        }
    }
    Ok(v.into_iter().map(|w| w.2).collect())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::ir::attrs::{Cmp, DataType, MulMode};
    use crate::ir::builder::FunctionBuilder;
    use crate::ir::module::FuncId;
    use crate::ir::print::{print_function, print_module};

    /// The example of the text form in `print`'s documentation.
    pub(crate) const SAMPLE: &str = "\
target sm_90
global g0 \"table\" global size 16 align 4 visible init 0x01 0x02
kernel fn0 \"saxpy\" (a: 8 align 8 at 0 ptr, n: 4 align 4 at 8) local 16 maxntid 128 1 1 {
block0:
    v0:r64 = ld.param.u64 [+0]
    v1:r32 = iconst 0x2a
    v2:r32 = add.s32 v1, v1
    v3:p = setp.lt.s32 v2, v1
    @!v3 v4:r32 = add.s32 v2, v1 else v2
    st.global.u32 [v0+16], v2
    v5:r64 = symaddr g0+8
    v6:r32, v7:r32 = call fn1(v2, v1)
    v8:r32 = LOP3 v1, v2, v1, #0xc0
    brif.not v3, block1(v2), block2
block1(v9:r32):
    jump block2
block2:
    exit
}
func fn1 \"helper\" (x: 4 align 4 at 0, y: 4 align 4 at 4) -> (r32, r32) ;
";

    /// Equality of everything but the length of the location table (the
    /// builder leaves the locations of some instructions unwritten; the
    /// parser writes all): locations compare per instruction.
    pub(crate) fn assert_same(a: &Function, b: &Function) {
        assert_eq!(a.name, b.name);
        assert_eq!(a.kind, b.kind);
        assert_eq!(a.params, b.params);
        assert_eq!(a.returns, b.returns);
        assert_eq!(a.bounds, b.bounds);
        assert_eq!(a.local_bytes, b.local_bytes);
        assert_eq!(a.blocks, b.blocks);
        assert_eq!(a.layout, b.layout);
        assert_eq!(a.insts, b.insts);
        assert_eq!(a.values, b.values);
        for i in a.insts.keys() {
            assert_eq!(a.locs[i], b.locs[i], "location of {i}");
        }
    }

    /// print → parse gives the same function, and printing that gives the
    /// same text.
    fn round_trip(f: &Function) -> String {
        let text = print_function(FuncId::new(0), f);
        let back = parse_function(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_same(f, &back);
        assert_eq!(print_function(FuncId::new(0), &back), text);
        text
    }

    /// The builder's documentation example.
    fn count_loop() -> Function {
        let mut func = Function::new("count", FunctionKind::Device);
        func.returns.push(Type::R32);
        let mut b = FunctionBuilder::new(&mut func);
        let i = b.declare_var(Type::R32);
        let entry = b.create_block();
        let body = b.create_block();
        let done = b.create_block();
        b.switch_to_block(entry);
        b.seal_block(entry);
        let zero = b.iconst(Type::R32, 0);
        b.def_var(i, zero);
        b.jump(body, &[]);
        b.switch_to_block(body);
        let one = b.iconst(Type::R32, 1);
        let old = b.use_var(i);
        let new = b.binary(Opcode::Add, Attrs::typed(DataType::S32), old, one);
        b.def_var(i, new);
        let ten = b.iconst(Type::R32, 10);
        let mut lt = Attrs::typed(DataType::S32);
        lt.cmp = Some(Cmp::Lt);
        let more = b.binary_to(Opcode::Setp, lt, new, ten, Type::P);
        b.brif(more, false, body, &[], done, &[]);
        b.seal_block(body);
        b.switch_to_block(done);
        b.seal_block(done);
        let result = b.use_var(i);
        b.ret(&[result]);
        b.finish();
        func
    }

    #[test]
    fn builder_example_round_trips() {
        let f = count_loop();
        let text = round_trip(&f);
        // Written down independently of the printer: the loop header's
        // parameter merges 0 and i + 1; it is made (as v2) when the body
        // first reads i, after the constant 1 (v1).
        let expected = "\
func fn0 \"count\" () -> (r32) {
block0:
    v0:r32 = iconst 0x0
    jump block1(v0)
block1(v2:r32):
    v1:r32 = iconst 0x1
    v3:r32 = add.s32 v2, v1
    v4:r32 = iconst 0xa
    v5:p = setp.lt.s32 v3, v4
    brif v5, block1(v3), block2
block2:
    return v3
}
";
        assert_eq!(text, expected);
    }

    #[test]
    fn builder_leftovers_round_trip() {
        // A variable read before any assignment (zero inserted at the top
        // of a block, out of creation order), a redundant parameter the
        // builder removes (its value stays in the map), an unused block, an
        // instruction in no block, source locations, guards with priors.
        let mut func = Function::new("odd", FunctionKind::Kernel);
        let mut b = FunctionBuilder::new(&mut func);
        let x = b.declare_var(Type::R32);
        let y = b.declare_var(Type::R64);
        let entry = b.create_block();
        let head = b.create_block();
        let exit = b.create_block();
        let _never = b.create_block();
        b.switch_to_block(entry);
        let c = b.iconst(Type::R32, 5);
        b.def_var(x, c);
        b.set_srcloc(crate::ir::SrcLoc { line: 7, col: 3, debug_file: 1, debug_line: 20, debug_col: 9, inlined_at: 0, defs: 0 });
        b.jump(head, &[]);
        b.switch_to_block(head);
        b.set_srcloc(crate::ir::SrcLoc { line: 8, col: 1, ..Default::default() });
        let xv = b.use_var(x);
        let yv = b.use_var(y);
        let p = b.binary_to(Opcode::Setp, Attrs { cmp: Some(Cmp::Hi), ..Attrs::typed(DataType::U32) }, xv, xv, Type::P);
        let wide = b.binary_to(Opcode::Mul, Attrs { mul: Some(MulMode::Wide), ..Attrs::typed(DataType::U32) }, xv, xv, Type::R64);
        let g = b.func.value_inst(wide).unwrap();
        b.set_guard(g, Guard { pred: p, negated: true }, &[yv]);
        b.def_var(y, wide);
        b.brif(p, true, head, &[], exit, &[]);
        b.switch_to_block(exit);
        b.exit();
        b.seal_all_blocks();
        b.finish();
        let orphan = func.create_inst(InstData::new(Opcode::Trap, Attrs::default()), &[]);
        let _ = orphan;
        let text = round_trip(&func);
        assert!(text.contains("unplaced block3:"), "{text}");
        assert!(text.contains("unplaced:\n    inst7: trap"), "{text}");
        assert!(text.contains("unused v1:r32 param block1 0"), "{text}");
        assert!(text.contains("!7:3:1:20:9"), "{text}");
        assert!(text.contains("inst"), "the zero inserted at the top of a block is out of order:\n{text}");
        assert!(text.contains("unused"), "the removed parameter stays:\n{text}");
    }

    #[test]
    fn sample_parses_and_round_trips() {
        let m = parse_module(SAMPLE).unwrap();
        assert_eq!(m.sm, Sm::new(90));
        assert_eq!(m.globals[crate::ir::GlobalId::new(0)].init, vec![1, 2]);
        let f = &m.functions[FuncId::new(0)];
        assert_eq!(f.params.len(), 2);
        assert!(f.params[0].pointer && !f.params[1].pointer);
        assert_eq!((f.local_bytes, f.bounds.max_ntid), (16, Some([128, 1, 1])));
        assert_eq!(f.layout.len(), 3);
        assert_eq!(f.values.len(), 10);
        let insts: Vec<&InstData> = f.blocks[f.layout[0]].insts.iter().map(|&i| &f.insts[i]).collect();
        assert_eq!(insts[0].opcode, Opcode::Ld);
        assert!(insts[0].args.is_empty());
        assert_eq!(insts[4].guard, Some(Guard { pred: Value::new(3), negated: true }));
        assert_eq!(insts[4].prior.as_slice(), &[Value::new(2)]);
        assert_eq!((insts[5].args.len(), insts[5].offset), (2, 16));
        assert_eq!((insts[6].imm, insts[6].offset), (0, 8));
        assert_eq!((insts[7].imm, insts[7].results.len()), (1, 2));
        assert_eq!(insts[8].imm, 0xc0);
        assert!(insts[9].attrs.negated);
        assert_eq!(insts[9].dests[0].args.as_slice(), &[Value::new(2)]);
        let decl = &m.functions[FuncId::new(1)];
        assert!(decl.blocks.is_empty());
        assert_eq!(decl.returns, vec![Type::R32, Type::R32]);
        let text = print_module(&m);
        assert_eq!(text, SAMPLE);
        assert_eq!(parse_module(&text).unwrap(), m);
    }

    #[test]
    fn odd_names_and_attributes_round_trip() {
        let text = "\
target sm_100a
global g0 \"a \\\"q\\\" \\\\ \\u{7}\" shared size 0 align 16
function fn0 \"\" (\"not an ident\": 24 align 8 at 0, %p.1: 1 align 1 at 24) reqntid 32 2 1 minctas 4 maxnreg 255 {
block0:
    v0:r32 = symaddr.local frame+4
    v1:r32 = ld.local.v2.f32 [v0-8], v2:r32 ; two results? no: one per line
}
";
        // The load above is malformed on purpose (a result after the
        // address): the parser must say where.
        let e = parse_module(text).unwrap_err();
        assert_eq!((e.line, e.col), (6, 40), "{e}");
        let good = text
            .replace("v1:r32 = ld.local.v2.f32 [v0-8], v2:r32 ; two results? no: one per line", "v1:r32, v2:r32 = ld.local.v2.f32 [v0-8]\n    trap");
        let m = parse_module(&good).unwrap();
        assert_eq!(m.sm.to_string(), "sm_100a");
        assert_eq!(m.globals[crate::ir::GlobalId::new(0)].name, "a \"q\" \\ \u{7}");
        let f = &m.functions[FuncId::new(0)];
        assert_eq!(f.kind, None);
        assert_eq!(f.params[0].name, "not an ident");
        assert_eq!(f.params[1].name, "%p.1");
        let printed = print_module(&m);
        assert_eq!(parse_module(&printed).unwrap(), m);
        assert_eq!(print_module(&parse_module(&printed).unwrap()), printed);
    }

    #[test]
    fn errors_have_positions() {
        let cases: &[(&str, (u32, u32), &str)] = &[
            ("kernel fn0 \"k\" () {\n}\n", (1, 1), "target"),
            ("target sm_91\n", (1, 8), "SM"),
            ("target sm_90\nkernel fn1 \"k\" () ;\n", (2, 8), "fn0"),
            ("target sm_90\nkernel fn0 \"k\" () {\nblock0:\n    v0:r32 = iconst 0x1\n    v0:r32 = iconst 0x2\n}\n", (5, 5), "twice"),
            ("target sm_90\nkernel fn0 \"k\" () {\nblock0:\n    v1:r32 = iconst 0x1\n    exit\n}\n", (4, 5), "v0 is missing"),
            ("target sm_90\nkernel fn0 \"k\" () {\nblock0:\n    jump block1\n}\n", (4, 10), "block1 is not defined"),
            ("target sm_90\nkernel fn0 \"k\" () {\nblock0:\n    v0:r32 = add.s32 v0, v7\n}\n", (4, 26), "v7"),
            ("target sm_90\nkernel fn0 \"k\" () {\nblock0:\n    v0:r32 = frob.s32 v0\n}\n", (4, 14), "unknown opcode"),
            ("target sm_90\nkernel fn0 \"k\" () {\nblock0:\n    v0:r32 = add.s32.s32.s32 v0\n}\n", (4, 14), ".s32"),
            ("target sm_90\nkernel fn0 \"k\" () {\nblock0:\n    v0:r33 = iconst 0x1\n}\n", (4, 8), "type"),
            ("target sm_90\nkernel fn0 \"k\" () {\nblock0:\n    v0:r32 = iconst 0x10000000000000000\n}\n", (4, 21), "bad number"),
            ("target sm_90\nkernel fn0 \"k\" () {\nblock0:\n    v0:r32 = iconst 0x1\n", (5, 1), "not closed"),
            ("target sm_90\nkernel fn0 \"k\" () {\n    exit\n}\n", (3, 5), "before the first block"),
            ("target sm_90\nkernel fn0 \"k\" () {\nblock0:\n    v0:r32 = ld.global.u32 v0\n}\n", (4, 14), "address"),
            ("target sm_90\nkernel fn0 \"k\" () {\nblock0:\n    st.global.u32 [+4], v0, v0\n}\n", (4, 5), "address"),
            ("target sm_90\nglobal g0 \"x\" global size 4 align 4 init 0x100\n", (2, 42), "0xff"),
            ("target sm_90\nkernel fn0 \"k\" () local 4 local 8 {\n", (2, 27), "twice"),
            ("target sm_90\nkernel fn0 \"\\q\" () ;\n", (2, 13), "escape"),
            ("target sm_90\nkernel fn0 \"k\" () {\nblock0:\n    inst3: exit\n}\n", (4, 5), "inst0 is missing"),
            // Columns count characters, not bytes.
            ("target sm_90\nkernel fn0 \"αβ\" () €\n", (2, 20), "unexpected character"),
            ("target sm_90\nkernel fn0 \"α\\u{110000}\" ()\n", (2, 14), "escape"),
        ];
        for (text, pos, msg) in cases {
            let e = parse_module(text).expect_err(text);
            assert_eq!((e.line, e.col), *pos, "{text}: {e}");
            assert!(e.message.contains(msg), "{text}: {e}");
        }
        // A store of one value with two value operands names the address
        // in the bracket (once v0 exists).
        let e =
            parse_module("target sm_90\nkernel fn0 \"k\" () {\nblock0:\n    v0:r64 = iconst 0x0\n    st.global.u32 [+4], v0, v0\n}\n").unwrap_err();
        assert!(e.message.contains("address"), "{e}");
    }

    #[test]
    fn damaged_text_never_panics() {
        // Every prefix and every one-line deletion of the sample: errors or
        // modules, never a panic; whatever parses prints and parses again
        // to the same module.
        let lines: Vec<&str> = SAMPLE.lines().collect();
        let mut texts: Vec<String> = (0..SAMPLE.len()).filter(|&i| SAMPLE.is_char_boundary(i)).map(|i| SAMPLE[..i].to_string()).collect();
        for skip in 0..lines.len() {
            texts.push(lines.iter().enumerate().filter(|&(i, _)| i != skip).map(|(_, l)| format!("{l}\n")).collect());
        }
        let mut parsed = 0;
        for t in &texts {
            if let Ok(m) = parse_module(t) {
                parsed += 1;
                let p = print_module(&m);
                let again = parse_module(&p).unwrap_or_else(|e| panic!("{e}\n{p}"));
                assert_eq!(again, m);
                let _ = crate::ir::verify::verify_module(&m, crate::ir::verify::Stage::Raw);
            }
        }
        assert!(parsed > 10, "{parsed}");
    }
}

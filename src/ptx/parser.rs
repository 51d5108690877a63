//! The PTX parser: tokens to [`Module`], with error recovery.
//!
//! Recursive descent over the token vector from [`super::lexer`]. Errors are
//! collected (up to [`MAX_ERRORS`]); after an error the parser skips to the
//! end of the statement (`;` or a closing brace) and goes on, so one run
//! reports several independent mistakes. Nesting (blocks, expressions,
//! operand lists) is bounded by [`MAX_DEPTH`], so no input can exhaust the
//! stack, and every loop consumes a token per iteration, so none can hang.

use super::ast::*;
use super::lexer::{Token, TokenKind, lex_into};
use super::lookup::headcache::{Head, HeadCache, MAX_MODS};
use super::modifier::Modifier;
use super::opcode::Opcode;
use crate::diag::{Diagnostics, Span};
use crate::target::Sm;
use std::cell::Cell;

/// Most errors reported before the parser gives up on a file.
pub const MAX_ERRORS: usize = 50;
/// Most dotted words (family words and modifiers) on one instruction.
pub const MAX_WORDS: usize = 24;
/// Deepest nesting of blocks, expressions and operand lists.
pub const MAX_DEPTH: u32 = 200;

type PResult<T> = Result<T, ()>;

/// The parser's working buffers, kept between parses: a parse takes them
/// and puts them back (empty), so their capacity, and their warm cache
/// lines, serve the next file instead of being allocated and regrown.
#[derive(Default)]
struct Scratch {
    toks: Vec<Token>,
    stmts: Vec<Statement>,
    ops: Vec<Operand>,
}

thread_local! {
    static SCRATCH: Cell<Scratch> = Cell::new(Scratch::default());
}

/// Parses a whole module.
pub fn parse(source: &str) -> Result<Module, Diagnostics> {
    let Scratch { mut toks, mut stmts, mut ops } = SCRATCH.with(Cell::take);
    // A body's statements pile up on `stmts` before moving into its block
    // (see `parse_block`). A stack too small is replaced, not grown: it is
    // empty, and regrowing would copy its old allocation for nothing.
    let want = stmt_capacity(source.len());
    if stmts.capacity() < want {
        stmts = Vec::with_capacity(want);
    }
    ops.reserve(16);
    lex_into(source, &mut toks);
    // A second end token, so that the lookahead after the first is in the buffer.
    let eof = toks[toks.len() - 1];
    toks.push(eof);
    let mut p = Parser {
        src: source,
        cur: toks[0],
        next: toks[1],
        toks,
        prev_end: 0,
        pos: 0,
        diags: Diagnostics::new(),
        // Corpus files average one new name per ~60 bytes of text, ~8 bytes
        // each, and one operand per ~18 bytes (no file denser than one per
        // 12): sized so that neither table is regrown (and copied) on
        // typical input.
        module: Module {
            names: Interner::with_capacity(source.len() / 48, source.len() / 6),
            operand_pool: Vec::with_capacity(source.len() / 12),
            ..Module::default()
        },
        depth: 0,
        stmt_stack: stmts,
        op_stack: ops,
        heads: HeadCache::take(),
    };
    if source.len() >= u32::MAX as usize - 1 {
        p.diags.error(Span::new(0, 0), "source file is larger than 4 GiB");
        return Err(p.diags);
    }
    p.parse_module();
    p.heads.put_back();
    // Whatever a failed statement left on the stacks is dropped here.
    p.stmt_stack.clear();
    p.op_stack.clear();
    let scratch = Scratch {
        toks: std::mem::take(&mut p.toks),
        stmts: std::mem::take(&mut p.stmt_stack),
        ops: std::mem::take(&mut p.op_stack),
    };
    SCRATCH.with(|c| c.set(scratch));
    if p.diags.has_errors() { Err(p.diags) } else { Ok(p.module) }
}

struct Parser<'s> {
    src: &'s str,
    /// Every token of the file, then two [`TokenKind::Eof`]s.
    toks: Vec<Token>,
    /// The current token.
    cur: Token,
    /// One token of lookahead after `cur`.
    next: Token,
    /// End of the last consumed token.
    prev_end: u32,
    /// Number of tokens consumed (to detect progress): `cur` is `toks[pos]`.
    pos: usize,
    diags: Diagnostics,
    module: Module,
    depth: u32,
    /// Statements of the blocks being parsed, innermost last (see `parse_block`).
    stmt_stack: Vec<Statement>,
    /// Operands of the lists being parsed, innermost last (see `finish_list`).
    op_stack: Vec<Operand>,
    /// Instruction heads already worked out (see [`super::lookup::headcache`]).
    heads: Box<HeadCache>,
}

/// Directives that begin a module-level item (used to resynchronise).
const MODULE_DIRECTIVES: &[&str] = &[
    ".version", ".target", ".address_size", ".file", ".section", ".pragma", ".alias", ".visible",
    ".extern", ".weak", ".common", ".entry", ".func", ".global", ".const", ".shared", ".local",
    ".tex",
];

impl<'s> Parser<'s> {
    // ---- token helpers -------------------------------------------------

    fn peek(&self) -> Token {
        self.cur
    }
    fn peek_kind(&self) -> TokenKind {
        self.cur.kind
    }
    /// The token after the current one.
    fn peek_next(&self) -> Token {
        self.next
    }
    fn bump(&mut self) -> Token {
        let t = self.cur;
        if t.kind != TokenKind::Eof {
            self.pos += 1;
            self.prev_end = t.span.end;
            self.cur = self.next;
            // Always in bounds (`cur` was not the first end token, so
            // `pos + 1` is at most the second); past them it would be the end.
            self.next = self.toks.get(self.pos + 1).copied().unwrap_or(self.cur);
        }
        t
    }
    fn text(&self, t: Token) -> &'s str {
        &self.src[t.span.start as usize..t.span.end as usize]
    }
    fn peek_text(&self) -> &'s str {
        self.text(self.peek())
    }
    fn at(&self, kind: TokenKind) -> bool {
        self.peek_kind() == kind
    }
    fn at_word(&self, word: &str) -> bool {
        self.at(TokenKind::DotWord) && self.peek_text() == word
    }
    fn eat(&mut self, kind: TokenKind) -> bool {
        if self.at(kind) {
            self.bump();
            true
        } else {
            false
        }
    }
    fn prev_end(&self) -> u32 {
        self.prev_end
    }
    fn span_from(&self, start: u32) -> Span {
        Span::new(start, self.prev_end().max(start))
    }
    fn loc_from(&self, start: u32) -> Loc {
        Loc(self.span_from(start))
    }

    fn error(&mut self, span: Span, msg: impl Into<String>) {
        if self.diags.error_count() < MAX_ERRORS {
            self.diags.error(span, msg);
        }
    }

    /// Reports "expected X, found Y" at the current token.
    fn error_expected(&mut self, what: &str) {
        let t = self.peek();
        let found = self.describe(t);
        self.error(t.span, format!("expected {what}, found {found}"));
    }

    fn describe(&self, t: Token) -> String {
        match t.kind {
            TokenKind::Eof => "end of file".to_string(),
            TokenKind::Error => {
                let text = self.text(t);
                if text.starts_with("/*") {
                    "an unterminated comment".to_string()
                } else if text.starts_with('"') {
                    "an unterminated string".to_string()
                } else {
                    format!("invalid token '{}'", text.chars().take(40).collect::<String>())
                }
            }
            _ => format!("'{}'", self.text(t).chars().take(40).collect::<String>()),
        }
    }

    fn expect(&mut self, kind: TokenKind, what: &str) -> PResult<Token> {
        if self.at(kind) {
            Ok(self.bump())
        } else {
            self.error_expected(what);
            Err(())
        }
    }

    fn too_many_errors(&self) -> bool {
        self.diags.error_count() >= MAX_ERRORS
    }

    fn enter(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            let span = self.peek().span;
            self.error(span, format!("nesting deeper than {MAX_DEPTH} levels"));
            return Err(());
        }
        Ok(())
    }
    fn leave(&mut self) {
        self.depth -= 1;
    }

    fn ident(&mut self, what: &str) -> PResult<(Symbol, Loc)> {
        let t = self.expect(TokenKind::Ident, what)?;
        let s = self.module.names.intern(self.text(t));
        Ok((s, Loc(t.span)))
    }

    fn uint(&mut self, what: &str) -> PResult<u64> {
        let t = self.expect(TokenKind::Int, what)?;
        match parse_int(self.text(t)) {
            Some((v, _)) => Ok(v),
            None => {
                self.error(t.span, bad_int_literal(self.text(t)));
                Err(())
            }
        }
    }

    fn uint32(&mut self, what: &str) -> PResult<u32> {
        let start = self.peek().span;
        let v = self.uint(what)?;
        u32::try_from(v).map_err(|_| self.error(start, format!("{what} must fit in 32 bits")))
    }

    // ---- recovery ------------------------------------------------------

    /// Skips to just after the next `;` at this nesting level, or to (not past) a `}` closing it.
    fn recover_statement(&mut self) {
        let mut depth = 0i32;
        loop {
            match self.peek_kind() {
                TokenKind::Eof => return,
                TokenKind::Semi if depth <= 0 => {
                    self.bump();
                    return;
                }
                TokenKind::LBrace => depth += 1,
                TokenKind::RBrace => {
                    if depth <= 0 {
                        return;
                    }
                    depth -= 1;
                }
                _ => {}
            }
            self.bump();
        }
    }

    /// Skips to the next module-level directive outside any braces.
    fn recover_module(&mut self) {
        let mut depth = 0i32;
        loop {
            match self.peek_kind() {
                TokenKind::Eof => return,
                TokenKind::LBrace => depth += 1,
                TokenKind::RBrace => depth = (depth - 1).max(0),
                TokenKind::DotWord if depth == 0 && MODULE_DIRECTIVES.contains(&self.peek_text()) => return,
                _ => {}
            }
            self.bump();
        }
    }

    // ---- module --------------------------------------------------------

    fn parse_module(&mut self) {
        while !self.at(TokenKind::Eof) && !self.too_many_errors() {
            let before = self.pos;
            if self.parse_module_item().is_err() {
                self.depth = 0;
                if self.pos == before {
                    self.bump();
                }
                self.recover_module();
            }
        }
    }

    fn parse_module_item(&mut self) -> PResult<()> {
        let t = self.peek();
        if t.kind != TokenKind::DotWord {
            self.error_expected("a directive");
            return Err(());
        }
        match self.text(t) {
            ".version" => self.parse_version(),
            ".target" => self.parse_target(),
            ".address_size" => {
                self.bump();
                let v = self.uint32("an address size")?;
                if v != 32 && v != 64 {
                    self.error(self.span_from(t.span.start), "address size must be 32 or 64");
                }
                if self.module.address_size.is_some() {
                    self.error(t.span, "duplicate .address_size directive");
                }
                self.module.address_size = Some((v, self.loc_from(t.span.start)));
                Ok(())
            }
            ".file" => {
                let f = self.parse_file()?;
                self.module.items.push(Item::File(f));
                Ok(())
            }
            ".section" => {
                let s = self.parse_section()?;
                self.module.items.push(Item::Section(s));
                Ok(())
            }
            ".pragma" => {
                let p = self.parse_pragma()?;
                self.module.items.push(Item::Pragma(p));
                Ok(())
            }
            ".alias" => {
                self.bump();
                let (alias, _) = self.ident("an alias name")?;
                self.expect(TokenKind::Comma, "','")?;
                let (aliasee, _) = self.ident("a function name")?;
                self.expect(TokenKind::Semi, "';'")?;
                let loc = self.loc_from(t.span.start);
                self.module.items.push(Item::Alias(Alias { alias, aliasee, loc }));
                Ok(())
            }
            _ => self.parse_linked_item(),
        }
    }

    fn parse_version(&mut self) -> PResult<()> {
        let start = self.bump().span.start;
        let t = self.peek();
        let text = self.text(t);
        let parsed = if t.kind == TokenKind::Float {
            text.split_once('.').and_then(|(a, b)| Some((a.parse::<u8>().ok()?, b.parse::<u8>().ok()?)))
        } else {
            None
        };
        let Some((major, minor)) = parsed else {
            self.error_expected("a version number such as 9.0");
            return Err(());
        };
        self.bump();
        if self.module.version.is_some() {
            self.error(self.span_from(start), "duplicate .version directive");
        }
        self.module.version = Some(Version { major, minor, loc: self.loc_from(start) });
        Ok(())
    }

    fn parse_target(&mut self) -> PResult<()> {
        let start = self.bump().span.start;
        let mut entries = Vec::new();
        loop {
            let t = self.expect(TokenKind::Ident, "a target name")?;
            let text = self.text(t);
            let entry = match text {
                "texmode_unified" => TargetEntry::TexmodeUnified,
                "texmode_independent" => TargetEntry::TexmodeIndependent,
                "debug" => TargetEntry::Debug,
                "map_f64_to_f32" => TargetEntry::MapF64ToF32,
                _ => match Sm::parse_sm(text) {
                    Some(sm) => TargetEntry::Sm(sm),
                    None => {
                        self.error(t.span, format!("unknown target '{text}'"));
                        return Err(());
                    }
                },
            };
            entries.push((entry, Loc(t.span)));
            if !self.eat(TokenKind::Comma) {
                break;
            }
        }
        // ptxas 13.5 takes a second `.target`; the last one counts (one
        // naming a higher SM than the first is refused as such).
        self.module.target = Some(TargetDirective { entries, loc: self.loc_from(start) });
        Ok(())
    }

    fn parse_string(&mut self, what: &str) -> PResult<String> {
        let t = self.expect(TokenKind::Str, what)?;
        let text = self.text(t);
        Ok(text[1..text.len() - 1].to_string())
    }

    fn parse_file(&mut self) -> PResult<FileDirective> {
        let start = self.bump().span.start;
        let index = self.uint32("a file index")?;
        let name = self.parse_string("a file name string")?;
        let mut timestamp_size = None;
        if self.eat(TokenKind::Comma) {
            let ts = self.uint("a timestamp")?;
            self.expect(TokenKind::Comma, "','")?;
            let size = self.uint("a file size")?;
            timestamp_size = Some((ts, size));
        }
        Ok(FileDirective { index, name, timestamp_size, loc: self.loc_from(start) })
    }

    fn parse_pragma(&mut self) -> PResult<Pragma> {
        let start = self.bump().span.start;
        let mut strings = vec![self.parse_string("a pragma string")?];
        while self.eat(TokenKind::Comma) {
            strings.push(self.parse_string("a pragma string")?);
        }
        self.expect(TokenKind::Semi, "';' after .pragma")?;
        Ok(Pragma { strings, loc: self.loc_from(start) })
    }

    fn parse_section(&mut self) -> PResult<Section> {
        let start = self.bump().span.start;
        let name_tok = self.expect(TokenKind::DotWord, "a section name such as .debug_info")?;
        let name = self.text(name_tok).to_string();
        self.expect(TokenKind::LBrace, "'{'")?;
        let mut entries = Vec::new();
        loop {
            let t = self.peek();
            match t.kind {
                TokenKind::RBrace => {
                    self.bump();
                    break;
                }
                TokenKind::Ident if self.peek_next().kind == TokenKind::Colon => {
                    let (s, loc) = self.ident("a label")?;
                    self.bump();
                    entries.push(SectionEntry::Label(s, loc));
                }
                TokenKind::DotWord => {
                    let width = match self.text(t) {
                        ".b8" => 8,
                        ".b16" => 16,
                        ".b32" => 32,
                        ".b64" => 64,
                        other => {
                            self.error(t.span, format!("expected .b8, .b16, .b32 or .b64 in a section, found '{other}'"));
                            return Err(());
                        }
                    };
                    self.bump();
                    let mut values = vec![self.parse_expr(true)?];
                    while self.eat(TokenKind::Comma) {
                        values.push(self.parse_expr(true)?);
                    }
                    entries.push(SectionEntry::Data(width, values, self.loc_from(t.span.start)));
                }
                _ => {
                    self.error_expected("section data or '}'");
                    return Err(());
                }
            }
        }
        Ok(Section { name, entries, loc: self.loc_from(start) })
    }

    /// `[.visible|.extern|.weak|.common] (.entry|.func|variable)`.
    fn parse_linked_item(&mut self) -> PResult<()> {
        let start = self.peek().span.start;
        let linkage = self.parse_linkage();
        if self.at_word(".entry") || self.at_word(".func") {
            let f = self.parse_function(start, linkage)?;
            self.module.items.push(Item::Function(Box::new(f)));
            return Ok(());
        }
        let t = self.peek();
        if t.kind == TokenKind::DotWord && StateSpace::from_spelling(self.text(t)).is_some() {
            let decl = self.parse_var_decl(start, linkage, true)?;
            self.module.items.push(Item::Variable(decl));
            return Ok(());
        }
        self.error_expected("a directive");
        Err(())
    }

    fn parse_linkage(&mut self) -> Linkage {
        let l = match self.peek_text() {
            ".visible" => Linkage::Visible,
            ".extern" => Linkage::Extern,
            ".weak" => Linkage::Weak,
            ".common" => Linkage::Common,
            _ => return Linkage::Default,
        };
        if self.at(TokenKind::DotWord) {
            self.bump();
            l
        } else {
            Linkage::Default
        }
    }

    // ---- functions -----------------------------------------------------

    fn parse_function(&mut self, start: u32, linkage: Linkage) -> PResult<Function> {
        let kind = if self.bump_text() == ".entry" { FunctionKind::Entry } else { FunctionKind::Func };
        let mut returns = Vec::new();
        if kind == FunctionKind::Func && self.at(TokenKind::LParen) {
            returns = self.parse_param_list()?;
        }
        let (name, name_loc) = self.ident("a function name")?;
        let params = if self.at(TokenKind::LParen) { Some(self.parse_param_list()?) } else { None };
        let directives = self.parse_function_directives()?;
        let body = if self.eat(TokenKind::Semi) {
            None
        } else if self.at(TokenKind::LBrace) {
            Some(self.parse_block()?)
        } else {
            self.error_expected("'{' or ';' after the function header");
            return Err(());
        };
        Ok(Function { linkage, kind, returns, name, name_loc, params, directives, body, loc: self.loc_from(start) })
    }

    fn bump_text(&mut self) -> &'s str {
        let t = self.bump();
        self.text(t)
    }

    fn parse_function_directives(&mut self) -> PResult<Vec<FunctionDirective>> {
        let mut out = Vec::new();
        while self.at(TokenKind::DotWord) {
            let t = self.peek();
            let start = t.span.start;
            let d = match self.text(t) {
                ".maxntid" => {
                    self.bump();
                    FunctionDirective::MaxNtid(self.parse_dims()?, self.loc_from(start))
                }
                ".reqntid" => {
                    self.bump();
                    FunctionDirective::ReqNtid(self.parse_dims()?, self.loc_from(start))
                }
                ".reqnctapercluster" => {
                    self.bump();
                    FunctionDirective::ReqNctaPerCluster(self.parse_dims()?, self.loc_from(start))
                }
                ".minnctapersm" => {
                    self.bump();
                    FunctionDirective::MinNctaPerSm(self.uint32("a CTA count")?, self.loc_from(start))
                }
                ".maxnctapersm" => {
                    self.bump();
                    FunctionDirective::MaxNctaPerSm(self.uint32("a CTA count")?, self.loc_from(start))
                }
                ".maxnreg" => {
                    self.bump();
                    FunctionDirective::MaxNreg(self.uint32("a register count")?, self.loc_from(start))
                }
                ".maxclusterrank" => {
                    self.bump();
                    FunctionDirective::MaxClusterRank(self.uint32("a cluster rank")?, self.loc_from(start))
                }
                ".abi_preserve" => {
                    self.bump();
                    FunctionDirective::AbiPreserve(self.uint32("a register count")?, self.loc_from(start))
                }
                ".abi_preserve_control" => {
                    self.bump();
                    FunctionDirective::AbiPreserveControl(self.uint32("a register count")?, self.loc_from(start))
                }
                ".noreturn" => {
                    self.bump();
                    FunctionDirective::NoReturn(Loc(t.span))
                }
                ".explicitcluster" => {
                    self.bump();
                    FunctionDirective::ExplicitCluster(Loc(t.span))
                }
                ".blocksareclusters" => {
                    self.bump();
                    FunctionDirective::BlocksAreClusters(Loc(t.span))
                }
                ".pragma" => FunctionDirective::Pragma(self.parse_pragma()?),
                other => {
                    self.error(t.span, format!("unexpected directive '{other}' in a function header"));
                    return Err(());
                }
            };
            out.push(d);
        }
        Ok(out)
    }

    fn parse_dims(&mut self) -> PResult<Vec<u32>> {
        let mut v = vec![self.uint32("a dimension")?];
        while self.eat(TokenKind::Comma) {
            if v.len() == 3 {
                let span = self.peek().span;
                self.error(span, "at most three dimensions");
                return Err(());
            }
            v.push(self.uint32("a dimension")?);
        }
        Ok(v)
    }

    fn parse_param_list(&mut self) -> PResult<Vec<Param>> {
        self.expect(TokenKind::LParen, "'('")?;
        let mut params = Vec::new();
        if self.eat(TokenKind::RParen) {
            return Ok(params);
        }
        loop {
            params.push(self.parse_param()?);
            if self.eat(TokenKind::Comma) {
                continue;
            }
            self.expect(TokenKind::RParen, "',' or ')'")?;
            return Ok(params);
        }
    }

    fn parse_param(&mut self) -> PResult<Param> {
        let t = self.peek();
        let start = t.span.start;
        let space = match self.text(t) {
            ".param" if t.kind == TokenKind::DotWord => StateSpace::Param,
            ".reg" if t.kind == TokenKind::DotWord => StateSpace::Reg,
            _ => {
                self.error_expected("'.param' or '.reg'");
                return Err(());
            }
        };
        self.bump();
        let attrs = self.parse_decl_attrs(true)?;
        let (name, _) = self.ident("a parameter name")?;
        let dims = self.parse_array_dims()?;
        Ok(Param {
            space,
            align: attrs.align,
            vector: attrs.vector,
            ty: attrs.ty,
            ptr: attrs.ptr,
            name,
            dims,
            loc: self.loc_from(start),
        })
    }

    // ---- declarations --------------------------------------------------

    /// `.align N`, `.vN`, type, `.ptr [.space] [.align N]`, `.attribute(...)` in any order.
    fn parse_decl_attrs(&mut self, allow_ptr: bool) -> PResult<DeclAttrs> {
        let mut align = None;
        let mut vector = None;
        let mut ty = None;
        let mut ptr: Option<PtrAttr> = None;
        let mut attributes = Vec::new();
        while self.at(TokenKind::DotWord) {
            let t = self.peek();
            let text = self.text(t);
            if text == ".align" {
                self.bump();
                let n = self.uint32("an alignment")?;
                if n == 0 || !n.is_power_of_two() {
                    self.error(self.span_from(t.span.start), format!("alignment {n} is not a power of two"));
                }
                if align.replace(n).is_some() {
                    self.error(self.span_from(t.span.start), "duplicate .align");
                }
            } else if let Some(n) = text.strip_prefix(".v").and_then(|n| n.parse::<u8>().ok()) {
                self.bump();
                if !matches!(n, 2 | 4 | 8) {
                    self.error(t.span, format!("illegal vector size {n}"));
                }
                if vector.replace(n).is_some() {
                    self.error(t.span, "duplicate vector modifier");
                }
            } else if let Some(s) = ScalarType::from_spelling(text) {
                self.bump();
                if ty.replace(VarType::Scalar(s)).is_some() {
                    self.error(t.span, "more than one type in a declaration");
                }
            } else if matches!(text, ".texref" | ".samplerref" | ".surfref") {
                self.bump();
                let v = match text {
                    ".texref" => VarType::TexRef,
                    ".samplerref" => VarType::SamplerRef,
                    _ => VarType::SurfRef,
                };
                if ty.replace(v).is_some() {
                    self.error(t.span, "more than one type in a declaration");
                }
            } else if text == ".ptr" && allow_ptr {
                self.bump();
                if ptr.is_some() {
                    self.error(t.span, "duplicate .ptr");
                }
                let mut p = PtrAttr { space: None, align: None };
                if self.at(TokenKind::DotWord) {
                    if let Some(sp) = StateSpace::from_spelling(self.peek_text()) {
                        self.bump();
                        p.space = Some(sp);
                    }
                }
                if self.at_word(".align") {
                    self.bump();
                    p.align = Some(self.uint32("an alignment")?);
                }
                ptr = Some(p);
            } else if text == ".attribute" {
                self.bump();
                self.expect(TokenKind::LParen, "'('")?;
                let a = self.expect(TokenKind::DotWord, "an attribute such as .managed")?;
                attributes.push(self.text(a).to_string());
                while self.eat(TokenKind::Comma) {
                    let a = self.expect(TokenKind::DotWord, "an attribute")?;
                    attributes.push(self.text(a).to_string());
                }
                self.expect(TokenKind::RParen, "')'")?;
            } else {
                break;
            }
        }
        let Some(ty) = ty else {
            self.error_expected("a type such as .u32");
            return Err(());
        };
        Ok(DeclAttrs { align, vector, ty, ptr, attributes })
    }

    fn parse_array_dims(&mut self) -> PResult<Vec<Option<u64>>> {
        let mut dims = Vec::new();
        while self.eat(TokenKind::LBracket) {
            if self.eat(TokenKind::RBracket) {
                dims.push(None);
                continue;
            }
            let n = self.uint("an array size")?;
            self.expect(TokenKind::RBracket, "']'")?;
            dims.push(Some(n));
        }
        Ok(dims)
    }

    fn parse_var_decl(&mut self, start: u32, linkage: Linkage, module_scope: bool) -> PResult<VarDecl> {
        let st = self.bump();
        let space = StateSpace::from_spelling(self.text(st)).unwrap_or(StateSpace::Global);
        let _ = module_scope;
        let attrs = self.parse_decl_attrs(space == StateSpace::Param)?;
        // Nearly every declaration names one variable (`.reg .b32 %r<9>;`).
        let mut declarators = Vec::with_capacity(1);
        loop {
            let (name, name_loc) = self.ident("a variable name")?;
            let mut range = None;
            if self.at(TokenKind::Lt) {
                self.bump();
                range = Some(self.uint32("a register count")?);
                self.expect(TokenKind::Gt, "'>'")?;
            }
            let dims = self.parse_array_dims()?;
            let init = if self.eat(TokenKind::Eq) { Some(self.parse_initializer()?) } else { None };
            declarators.push(Declarator { name, range, dims, init, loc: name_loc });
            if !self.eat(TokenKind::Comma) {
                break;
            }
        }
        self.expect(TokenKind::Semi, "';' after the declaration")?;
        Ok(VarDecl {
            linkage,
            space,
            attributes: attrs.attributes,
            align: attrs.align,
            vector: attrs.vector,
            ty: attrs.ty,
            ptr: attrs.ptr,
            declarators,
            loc: self.loc_from(start),
        })
    }

    fn parse_initializer(&mut self) -> PResult<Initializer> {
        if self.at(TokenKind::LBrace) {
            let start = self.bump().span.start;
            self.enter()?;
            let mut items = Vec::new();
            if !self.at(TokenKind::RBrace) {
                loop {
                    items.push(self.parse_initializer()?);
                    if !self.eat(TokenKind::Comma) {
                        break;
                    }
                }
            }
            self.leave();
            self.expect(TokenKind::RBrace, "',' or '}'")?;
            return Ok(Initializer::List(items, self.loc_from(start)));
        }
        Ok(Initializer::Expr(self.parse_expr(false)?))
    }

    // ---- blocks and statements -----------------------------------------

    fn parse_block(&mut self) -> PResult<Block> {
        let start = self.expect(TokenKind::LBrace, "'{'")?.span.start;
        self.enter()?;
        // Statements collect on the shared stack and move into an exactly
        // sized vector at the end: no regrowth copies of large blocks.
        let base = self.stmt_stack.len();
        loop {
            if self.too_many_errors() {
                self.stmt_stack.truncate(base);
                self.leave();
                return Err(());
            }
            match self.peek_kind() {
                TokenKind::RBrace => {
                    self.bump();
                    break;
                }
                TokenKind::Eof => {
                    self.error_expected("'}' closing the block");
                    self.stmt_stack.truncate(base);
                    self.leave();
                    return Err(());
                }
                TokenKind::DotWord if MODULE_ONLY.contains(&self.peek_text()) => {
                    // A module-level directive here means the block was never closed.
                    self.error_expected("'}' closing the block");
                    self.stmt_stack.truncate(base);
                    self.leave();
                    return Err(());
                }
                _ => {}
            }
            let before = self.pos;
            let depth = self.depth;
            match self.parse_statement() {
                Ok(()) => {}
                Err(()) => {
                    // A failed statement may have left nesting levels open.
                    self.depth = depth;
                    if self.pos == before {
                        self.bump();
                    }
                    self.recover_statement();
                }
            }
        }
        self.leave();
        let stmts = if base == 0 {
            // An outermost block (a function body) takes the stack itself,
            // trimmed to size (shrinking reallocates in place: no copy of
            // the statements), and a new stack, sized for the rest of the
            // file, takes its place. The new stack stays under the
            // allocator's mmap threshold (about 128 KiB), so a file of many
            // functions costs no system call per function; a longer body
            // regrows it as usual.
            let rest = self.src.len().saturating_sub(self.prev_end as usize);
            let fresh = Vec::with_capacity(stmt_capacity(rest).min(FRESH_STACK_MAX));
            let mut v = std::mem::replace(&mut self.stmt_stack, fresh);
            v.shrink_to_fit();
            v
        } else {
            // A nested block: one block copy (a draining iterator would
            // move the statements one by one).
            self.stmt_stack.split_off(base)
        };
        Ok(Block { stmts, loc: self.loc_from(start) })
    }

    /// Parses one statement onto the statement stack. Instructions, the bulk
    /// of every body, are built in place there (see `parse_instruction`).
    fn parse_statement(&mut self) -> PResult<()> {
        if matches!(self.peek_kind(), TokenKind::Ident | TokenKind::At) && self.peek_next().kind != TokenKind::Colon {
            return self.parse_instruction();
        }
        let s = self.parse_other_statement()?;
        self.stmt_stack.push(s);
        Ok(())
    }

    fn parse_other_statement(&mut self) -> PResult<Statement> {
        let t = self.peek();
        match t.kind {
            TokenKind::LBrace => Ok(Statement::Block(self.parse_block()?)),
            TokenKind::DotWord => match self.text(t) {
                ".pragma" => Ok(Statement::Pragma(self.parse_pragma()?)),
                ".loc" => Ok(Statement::Loc(self.parse_loc()?)),
                text if StateSpace::from_spelling(text).is_some() => {
                    Ok(Statement::Variable(self.parse_var_decl(t.span.start, Linkage::Default, false)?))
                }
                ".extern" | ".visible" | ".weak" => {
                    let linkage = self.parse_linkage();
                    if self.at(TokenKind::DotWord) && StateSpace::from_spelling(self.peek_text()).is_some() {
                        Ok(Statement::Variable(self.parse_var_decl(t.span.start, linkage, false)?))
                    } else {
                        self.error_expected("a variable declaration");
                        Err(())
                    }
                }
                other => {
                    self.error(t.span, format!("unexpected directive '{other}' in a function body"));
                    Err(())
                }
            },
            TokenKind::Ident if self.peek_next().kind == TokenKind::Colon => self.parse_label(),
            _ => {
                self.error_expected("an instruction, label or declaration");
                Err(())
            }
        }
    }

    fn parse_label(&mut self) -> PResult<Statement> {
        let (name, loc) = self.ident("a label")?;
        self.bump(); // ':'
        if self.at(TokenKind::DotWord) {
            let t = self.peek();
            match self.text(t) {
                ".branchtargets" | ".calltargets" => {
                    let branch = self.text(t) == ".branchtargets";
                    self.bump();
                    let mut targets = vec![self.ident("a label")?];
                    while self.eat(TokenKind::Comma) {
                        targets.push(self.ident("a label")?);
                    }
                    self.expect(TokenKind::Semi, "';'")?;
                    let loc = self.loc_from(loc.0.start);
                    return Ok(if branch {
                        Statement::BranchTargets(name, targets, loc)
                    } else {
                        Statement::CallTargets(name, targets, loc)
                    });
                }
                ".callprototype" => {
                    self.bump();
                    let returns = if self.at(TokenKind::LParen) { self.parse_param_list()? } else { Vec::new() };
                    let u = self.expect(TokenKind::Ident, "'_'")?;
                    if self.text(u) != "_" {
                        self.error(u.span, "expected '_' in a call prototype");
                        return Err(());
                    }
                    let params = if self.at(TokenKind::LParen) { self.parse_param_list()? } else { Vec::new() };
                    let directives = self.parse_function_directives()?;
                    self.expect(TokenKind::Semi, "';'")?;
                    let loc = self.loc_from(loc.0.start);
                    return Ok(Statement::CallPrototype(Box::new(CallPrototype { name, returns, params, directives, loc })));
                }
                _ => {}
            }
        }
        Ok(Statement::Label(name, loc))
    }

    fn parse_loc(&mut self) -> PResult<LocDirective> {
        let start = self.bump().span.start;
        let file = self.uint32("a file index")?;
        let line = self.uint32("a line number")?;
        let column = self.uint32("a column number")?;
        let mut function_name = None;
        let mut inlined_at = None;
        while self.eat(TokenKind::Comma) {
            let t = self.expect(TokenKind::Ident, "'function_name' or 'inlined_at'")?;
            match self.text(t) {
                "function_name" => {
                    let (s, _) = self.ident("a label")?;
                    let mut off = 0i64;
                    if self.eat(TokenKind::Plus) {
                        off = self.uint("an offset")? as i64;
                    }
                    function_name = Some((s, off));
                }
                "inlined_at" => {
                    let f = self.uint32("a file index")?;
                    let l = self.uint32("a line number")?;
                    let c = self.uint32("a column number")?;
                    inlined_at = Some((f, l, c));
                }
                other => {
                    self.error(t.span, format!("unexpected '{other}' in .loc"));
                    return Err(());
                }
            }
        }
        Ok(LocDirective { file, line, column, function_name, inlined_at, loc: self.loc_from(start) })
    }

    // ---- instructions --------------------------------------------------

    /// Parses an instruction and pushes it onto the statement stack.
    fn parse_instruction(&mut self) -> PResult<()> {
        let start = self.peek().span.start;
        let mut guard = None;
        if self.eat(TokenKind::At) {
            let negated = self.eat(TokenKind::Bang);
            let (reg, _) = self.ident("a predicate register")?;
            guard = Some(Guard { negated, reg, loc: self.loc_from(start) });
        }
        let op_tok = self.expect(TokenKind::Ident, "an instruction")?;
        // Dotted words after the opcode: family words, then modifiers.
        // ptxas 13.5 takes them with white space (a newline included)
        // before any of them (`setp .lt.s32`, `ld\n.shared.u32`), and no
        // operand starts with a dot. They are read in place from the token
        // buffer (`words_at..`), not copied out: a local array of them
        // cost more to set up per instruction than the rest of the head's
        // handling.
        let words_at = self.pos;
        let mut nwords = 0;
        while self.at(TokenKind::DotWord) {
            let t = self.bump();
            if nwords == MAX_WORDS {
                self.error(t.span, format!("more than {MAX_WORDS} modifiers on one instruction"));
                return Err(());
            }
            nwords += 1;
        }
        // The head's text: from the opcode to its last word (when there is
        // one), the last token consumed; white space between words makes
        // another memo key, worked out once.
        let head_end = if nwords > 0 { self.prev_end() } else { op_tok.span.end };
        let head_text = &self.src.as_bytes()[op_tok.span.start as usize..head_end as usize];
        let (head, good) = match self.heads.get(head_text) {
            Some(h) => (h, true),
            None => {
                // A memo miss (rare): working the head out reports errors,
                // so it gets its own copy of the words.
                let words = self.toks.get(words_at..words_at + nwords).unwrap_or(&[]).to_vec();
                let (h, good) = self.work_out_head(op_tok, &words)?;
                if good && words.len() - h.family_words as usize <= MAX_MODS {
                    self.heads.insert(head_text, h);
                }
                (h, good)
            }
        };
        let words = self.toks.get(words_at..words_at + nwords).unwrap_or(&[]);
        let (opcode, family_words) = (head.opcode, head.family_words as usize);
        let opcode_end = if family_words > 0 { words[family_words - 1].span.end } else { op_tok.span.end };
        let mut modifiers = Modifiers::new();
        for (m, t) in head.mods[..head.nmods as usize].iter().zip(&words[family_words..]) {
            modifiers.push((*m, Loc(t.span)));
        }
        if good && head.nmods as usize != words.len() - family_words {
            // More modifiers than a head holds: classify the rest here.
            for &t in &words[family_words + head.nmods as usize..] {
                if let Some(m) = Modifier::classify(opcode, self.text(t)) {
                    modifiers.push((m, Loc(t.span)));
                }
            }
        }
        let operands = self.parse_operands(opcode)?;
        if matches!(opcode, Opcode::Ld | Opcode::Ldu | Opcode::St | Opcode::Mov) && !modifiers.iter().any(|(m, _)| matches!(m, Modifier::Vector(_))) {
            self.unwrap_single_vectors(operands);
        }
        self.expect(TokenKind::Semi, "';' after the instruction")?;
        if !good {
            return Err(());
        }
        let loc = self.loc_from(start);
        self.stmt_stack.push(Statement::Instruction(Instruction {
            guard,
            opcode,
            opcode_loc: Loc(Span::new(op_tok.span.start, opcode_end)),
            modifiers,
            operands,
            loc,
        }));
        Ok(())
    }

    /// The family and modifiers of an instruction head not in the memo, and
    /// whether every modifier is known. Unknown modifiers are reported (all
    /// of them); the caller still parses the operands, so that their errors
    /// are reported too, before failing the statement.
    fn work_out_head(&mut self, op_tok: Token, words: &[Token]) -> PResult<(Head, bool)> {
        let first = self.text(op_tok);
        let (opcode, family_words) = self.match_opcode(op_tok, first, words)?;
        let mut head = Head { opcode, family_words: family_words as u8, nmods: 0, mods: [Modifier::Ftz; MAX_MODS] };
        let mut bad = false;
        for &t in &words[family_words..] {
            let text = self.text(t);
            match Modifier::classify(opcode, text) {
                Some(m) => {
                    if let Some(slot) = head.mods.get_mut(head.nmods as usize) {
                        *slot = m;
                        head.nmods += 1;
                    }
                }
                None => {
                    self.error(t.span, format!("unknown modifier '{text}' for instruction '{}'", opcode.name()));
                    bad = true;
                }
            }
        }
        Ok((head, !bad))
    }

    /// Longest dotted prefix that names an opcode. Where the words are
    /// glued to the first token (nearly always), each candidate name is a
    /// slice of the source; after white space, the words are joined in a
    /// string of their own.
    fn match_opcode(&mut self, op_tok: Token, first: &str, words: &[Token]) -> PResult<(Opcode, usize)> {
        let mut best = None;
        let mut entry = Opcode::name_entry(first);
        let mut k = 0;
        let mut spaced: Option<String> = None;
        while let Some(e) = entry {
            if let Some(o) = e.opcode {
                best = Some((o, k));
            }
            if !e.continues || k == words.len() {
                break;
            }
            let prev_end = if k == 0 { op_tok.span.end } else { words[k - 1].span.end };
            if spaced.is_none() && words[k].span.start != prev_end {
                spaced = Some(self.src[op_tok.span.start as usize..prev_end as usize].to_string());
            }
            let end = words[k].span.end as usize;
            if let Some(name) = spaced.as_mut() {
                name.push_str(&self.src[words[k].span.start as usize..end]);
            }
            k += 1;
            entry = Opcode::name_entry(spaced.as_deref().unwrap_or(&self.src[op_tok.span.start as usize..end]));
        }
        // ptxas 13.5 takes a family's closing `.sync` again
        // (`vote.sync.sync`, `bar.warp.sync.sync`): the repeats join the
        // family's words.
        if let Some((_, k)) = best.as_mut() {
            while *k > 0 && *k < words.len() && self.text(words[*k - 1]) == ".sync" && self.text(words[*k]) == ".sync" {
                *k += 1;
            }
        }
        match best {
            Some(b) => Ok(b),
            None => {
                self.error(op_tok.span, format!("unknown instruction '{first}'"));
                Err(())
            }
        }
    }

    fn parse_operands(&mut self, opcode: Opcode) -> PResult<OperandList> {
        // Instructions do not nest: whatever a failed one left here is garbage.
        self.op_stack.clear();
        if self.at(TokenKind::Semi) {
            return Ok(OperandList::new(self.module.operand_pool.len(), 0));
        }
        let is_call = opcode == Opcode::Call;
        loop {
            self.parse_operand(is_call)?;
            if !self.eat(TokenKind::Comma) {
                break;
            }
        }
        Ok(self.finish_list(0))
    }

    /// Replaces each one-element vector operand `{ %r }` of `list` by its
    /// element. ptxas reads `{ %r }` as `%r` in a scalar `ld`, `ldu`, `st`
    /// and `mov` (and refuses it elsewhere, and in a `.v2` access); LLVM's
    /// NVPTX back end writes it for Triton's masked loads and stores
    /// (`@%p2 ld.global.b32 { %r17 }, [ %rd11 + 0 ];`).
    fn unwrap_single_vectors(&mut self, list: OperandList) {
        for k in list.range() {
            let pool = &self.module.operand_pool;
            if let OperandKind::Vector(inner) = pool[k].kind
                && inner.len() == 1
            {
                let element = pool[inner.start as usize].clone();
                self.module.operand_pool[k] = element;
            }
        }
    }

    /// Moves the operands parsed since `base` into the module's pool as one
    /// run. Lists close innermost first, so a list's elements (each already
    /// holding its own nested lists) are contiguous at the top of the stack.
    fn finish_list(&mut self, base: usize) -> OperandList {
        let pool = &mut self.module.operand_pool;
        let start = pool.len();
        // `append` moves the elements with one block copy; a draining
        // iterator would move them one by one.
        if base == 0 {
            pool.append(&mut self.op_stack);
        } else {
            pool.append(&mut self.op_stack.split_off(base));
        }
        OperandList::new(start, pool.len() - start)
    }

    /// Parses `first, second, ...` up to `close` into a pooled list.
    fn parse_operand_list(&mut self, close: TokenKind, what: &str, allow_empty: bool) -> PResult<OperandList> {
        let base = self.op_stack.len();
        if !(allow_empty && self.at(close)) {
            loop {
                self.parse_operand(false)?;
                if !self.eat(TokenKind::Comma) {
                    break;
                }
            }
        }
        self.expect(close, what)?;
        Ok(self.finish_list(base))
    }

    /// Parses one operand onto the operand stack.
    fn parse_operand(&mut self, is_call: bool) -> PResult<()> {
        let t = self.peek();
        let start = t.span.start;
        self.enter()?;
        let kind = match t.kind {
            TokenKind::LBrace => {
                self.bump();
                OperandKind::Vector(self.parse_operand_list(TokenKind::RBrace, "',' or '}' in a vector operand", false)?)
            }
            TokenKind::LParen if is_call => {
                self.bump();
                OperandKind::ParenList(self.parse_operand_list(TokenKind::RParen, "',' or ')'", true)?)
            }
            TokenKind::LBracket => self.parse_bracket()?,
            TokenKind::Bang => {
                self.bump();
                let (s, _) = self.ident("a predicate register after '!'")?;
                OperandKind::NotPred(s)
            }
            TokenKind::Minus if self.peek_next().kind == TokenKind::Ident => {
                self.bump();
                let (s, span) = self.ident("a register")?;
                match self.video_selector(span.0) {
                    Some(sel) => OperandKind::Selected(s, sel, true),
                    None => OperandKind::NegReg(s),
                }
            }
            TokenKind::Ident => self.parse_name_operand()?,
            // A lone integer (`4`, `0x10`), the common immediate: no
            // expression parse when no operator follows it.
            TokenKind::Int
                if matches!(
                    self.peek_next().kind,
                    TokenKind::Comma | TokenKind::Semi | TokenKind::RBrace | TokenKind::RBracket | TokenKind::RParen
                ) =>
            {
                self.bump();
                match parse_int(self.text(t)) {
                    Some((value, unsigned)) => OperandKind::Imm(Expr::Int { value, unsigned, loc: Loc(t.span) }),
                    None => {
                        self.leave();
                        self.error(t.span, bad_int_literal(self.text(t)));
                        return Err(());
                    }
                }
            }
            TokenKind::Int | TokenKind::Float | TokenKind::Minus | TokenKind::Plus | TokenKind::Tilde | TokenKind::LParen => {
                OperandKind::Imm(self.parse_expr(false)?)
            }
            _ => {
                self.leave();
                self.error_expected("an operand");
                return Err(());
            }
        };
        self.leave();
        let loc = self.loc_from(start);
        self.op_stack.push(Operand { kind, loc });
        Ok(())
    }

    fn parse_name_operand(&mut self) -> PResult<OperandKind> {
        let t = self.bump();
        let text = self.text(t);
        // `_` is a sink, alone or as the value half of `_|p` (`elect.sync`).
        if text == "_" && self.peek_kind() != TokenKind::Pipe {
            return Ok(OperandKind::Sink);
        }
        let s = self.module.names.intern(text);
        match self.peek_kind() {
            TokenKind::Pipe => {
                self.bump();
                let (q, _) = self.ident("a predicate register after '|'")?;
                Ok(OperandKind::PredPair(s, q))
            }
            TokenKind::DotWord if self.peek().span.start == t.span.end => {
                if let Some(sel) = self.video_selector(t.span) {
                    return Ok(OperandKind::Selected(s, sel, false));
                }
                let c = self.peek();
                let comp = match self.text(c) {
                    ".x" | ".r" => Component::X,
                    ".y" | ".g" => Component::Y,
                    ".z" | ".b" => Component::Z,
                    ".w" | ".a" => Component::W,
                    other => {
                        self.error(c.span, format!("unknown vector component '{other}'"));
                        return Err(());
                    }
                };
                self.bump();
                Ok(OperandKind::Name(s, Some(comp)))
            }
            TokenKind::Plus | TokenKind::Minus
                if matches!(self.peek_next().kind, TokenKind::Int | TokenKind::Minus | TokenKind::LParen) =>
            {
                let off = self.parse_offset()?;
                Ok(OperandKind::NameOffset(s, off))
            }
            _ => Ok(OperandKind::Name(s, None)),
        }
    }

    /// A video selector (`.b1`, `.h10`) written right after the register
    /// spanning `reg`, consumed.
    fn video_selector(&mut self, reg: Span) -> Option<VideoSelector> {
        let w = self.peek();
        if w.kind != TokenKind::DotWord || w.span.start != reg.end {
            return None;
        }
        let sel = VideoSelector::parse(self.text(w))?;
        self.bump();
        Some(sel)
    }

    /// `+ expr` or `- expr` folded to a constant.
    fn parse_offset(&mut self) -> PResult<i64> {
        // The sign stays part of the expression: `x-1+2` is x + ((-1) + 2).
        let e = self.parse_expr_prec(BinaryOp::Add.precedence())?;
        let Some(v) = eval_int(&e) else {
            self.error(e.span(), "address offset must be an integer constant");
            return Err(());
        };
        Ok(v as i64)
    }

    fn parse_bracket(&mut self) -> PResult<OperandKind> {
        self.bump(); // '['
        if self.at(TokenKind::Ident) && !matches!(self.peek_next().kind, TokenKind::Comma | TokenKind::Pipe) {
            let t = self.bump();
            let s = self.module.names.intern(self.text(t));
            let mut offset = 0i64;
            if self.at(TokenKind::Minus) {
                // PTX's address grammar is `[base+offset]`; ptxas rejects
                // `[base-4]` as a syntax error (a negative offset is
                // `[base+-4]`), and so does this parser.
                self.error(self.peek().span, "an address offset follows '+': write `[base+-N]` for a negative offset");
                return Err(());
            }
            if self.at(TokenKind::Plus) {
                offset = self.parse_offset()?;
            }
            self.expect(TokenKind::RBracket, "']' closing the address")?;
            return Ok(OperandKind::Address(Address { base: Some(s), offset }));
        }
        if matches!(self.peek_kind(), TokenKind::Int | TokenKind::Minus | TokenKind::LParen | TokenKind::Plus) {
            let e = self.parse_expr(false)?;
            let Some(v) = eval_int(&e) else {
                self.error(e.span(), "absolute address must be an integer constant");
                return Err(());
            };
            self.expect(TokenKind::RBracket, "']' closing the address")?;
            return Ok(OperandKind::Address(Address { base: None, offset: v as i64 }));
        }
        Ok(OperandKind::BracketList(self.parse_operand_list(TokenKind::RBracket, "',' or ']'", false)?))
    }

    // ---- constant expressions --------------------------------------------

    /// A constant expression. `in_section` also allows section names (`.debug_abbrev`) as symbols.
    fn parse_expr(&mut self, in_section: bool) -> PResult<Expr> {
        // A lone literal or name before a separator (most immediates and
        // section data): read it directly rather than through the
        // precedence levels, which would find no operator and return the
        // same node. The depth test keeps their nesting limit.
        if matches!(self.peek_kind(), TokenKind::Int | TokenKind::Float | TokenKind::Ident)
            && matches!(
                self.peek_next().kind,
                TokenKind::Comma | TokenKind::Semi | TokenKind::RBrace | TokenKind::RBracket | TokenKind::RParen
            )
            && self.depth < MAX_DEPTH
        {
            return self.parse_primary(in_section);
        }
        let start = self.peek().span.start;
        let c = self.parse_binary(1, in_section)?;
        if self.at(TokenKind::Question) {
            self.bump();
            self.enter()?;
            let a = self.parse_expr(in_section)?;
            self.expect(TokenKind::Colon, "':'")?;
            let b = self.parse_expr(in_section)?;
            self.leave();
            return Ok(Expr::Cond(Box::new(c), Box::new(a), Box::new(b), self.loc_from(start)));
        }
        Ok(c)
    }

    fn parse_expr_prec(&mut self, min: u8) -> PResult<Expr> {
        self.parse_binary(min, false)
    }

    fn parse_binary(&mut self, min_prec: u8, in_section: bool) -> PResult<Expr> {
        let start = self.peek().span.start;
        self.enter()?;
        let mut lhs = self.parse_unary(in_section)?;
        loop {
            let op = match self.peek_kind() {
                TokenKind::Star => BinaryOp::Mul,
                TokenKind::Slash => BinaryOp::Div,
                TokenKind::Percent => BinaryOp::Rem,
                TokenKind::Plus => BinaryOp::Add,
                TokenKind::Minus => BinaryOp::Sub,
                TokenKind::Shl => BinaryOp::Shl,
                TokenKind::Shr => BinaryOp::Shr,
                TokenKind::Lt => BinaryOp::Lt,
                TokenKind::Gt => BinaryOp::Gt,
                TokenKind::Le => BinaryOp::Le,
                TokenKind::Ge => BinaryOp::Ge,
                TokenKind::EqEq => BinaryOp::Eq,
                TokenKind::NotEq => BinaryOp::Ne,
                TokenKind::Amp => BinaryOp::And,
                TokenKind::Caret => BinaryOp::Xor,
                TokenKind::Pipe => BinaryOp::Or,
                TokenKind::AmpAmp => BinaryOp::LogicalAnd,
                TokenKind::PipePipe => BinaryOp::LogicalOr,
                _ => break,
            };
            let prec = op.precedence();
            if prec < min_prec {
                break;
            }
            self.bump();
            let rhs = self.parse_binary(prec + 1, in_section)?;
            lhs = Expr::Binary(op, Box::new(lhs), Box::new(rhs), self.loc_from(start));
        }
        self.leave();
        Ok(lhs)
    }

    fn parse_unary(&mut self, in_section: bool) -> PResult<Expr> {
        let t = self.peek();
        let start = t.span.start;
        let op = match t.kind {
            TokenKind::Minus => Some(UnaryOp::Neg),
            TokenKind::Plus => Some(UnaryOp::Plus),
            TokenKind::Tilde => Some(UnaryOp::Not),
            TokenKind::Bang => Some(UnaryOp::LogicalNot),
            _ => None,
        };
        if let Some(op) = op {
            self.bump();
            self.enter()?;
            let e = self.parse_unary(in_section)?;
            self.leave();
            // Fold a sign into a literal so that `-1` and `+4` (as in
            // `[%rd1+4]`) stay one node, with no allocation.
            match (op, &e) {
                (UnaryOp::Neg, Expr::Int { value, unsigned, .. }) => {
                    return Ok(Expr::Int { value: value.wrapping_neg(), unsigned: *unsigned, loc: self.loc_from(start) });
                }
                (UnaryOp::Plus, Expr::Int { value, unsigned, .. }) => {
                    return Ok(Expr::Int { value: *value, unsigned: *unsigned, loc: self.loc_from(start) });
                }
                _ => {}
            }
            return Ok(Expr::Unary(op, Box::new(e), self.loc_from(start)));
        }
        self.parse_primary(in_section)
    }

    fn parse_primary(&mut self, in_section: bool) -> PResult<Expr> {
        let t = self.peek();
        let loc = Loc(t.span);
        match t.kind {
            TokenKind::Int => {
                self.bump();
                match parse_int(self.text(t)) {
                    Some((value, unsigned)) => Ok(Expr::Int { value, unsigned, loc }),
                    None => {
                        self.error(t.span, bad_int_literal(self.text(t)));
                        Err(())
                    }
                }
            }
            TokenKind::Float => {
                self.bump();
                let text = self.text(t);
                let b = text.as_bytes();
                if b.len() > 2 && b[0] == b'0' && matches!(b[1], b'f' | b'F') {
                    Ok(Expr::F32(u32::from_str_radix(&text[2..], 16).unwrap_or(0), loc))
                } else if b.len() > 2 && b[0] == b'0' && matches!(b[1], b'd' | b'D') {
                    Ok(Expr::F64(u64::from_str_radix(&text[2..], 16).unwrap_or(0), loc))
                } else {
                    match text.parse::<f64>() {
                        Ok(v) => Ok(Expr::Decimal(v.to_bits(), loc)),
                        Err(_) => {
                            self.error(t.span, format!("invalid float literal '{text}'"));
                            Err(())
                        }
                    }
                }
            }
            TokenKind::Ident => {
                self.bump();
                let text = self.text(t);
                if text == "generic" && self.at(TokenKind::LParen) {
                    self.bump();
                    let (s, _) = self.ident("a variable name")?;
                    self.expect(TokenKind::RParen, "')'")?;
                    return Ok(Expr::Generic(s, self.loc_from(t.span.start)));
                }
                let s = self.module.names.intern(text);
                Ok(Expr::Symbol(s, loc))
            }
            TokenKind::DotWord if in_section => {
                self.bump();
                let s = self.module.names.intern(self.text(t));
                Ok(Expr::Symbol(s, loc))
            }
            TokenKind::LParen => {
                self.bump();
                let e = self.parse_expr(in_section)?;
                self.expect(TokenKind::RParen, "')'")?;
                Ok(e)
            }
            _ => {
                self.error_expected("a constant expression");
                Err(())
            }
        }
    }
}

/// Most statements a replacement statement stack starts with (112-byte
/// statements: just under 128 KiB).
const FRESH_STACK_MAX: usize = 1100;

/// Room for the statements of `bytes` of text: corpus bodies average one
/// statement per ~35 bytes and none is denser than one per 24; capped for
/// huge inputs, which then regrow the stack as usual.
fn stmt_capacity(bytes: usize) -> usize {
    (bytes / 20).clamp(16, 1 << 14)
}

/// Directives that can only appear at module level.
const MODULE_ONLY: &[&str] = &[".version", ".target", ".address_size", ".entry", ".func", ".file", ".section"];

struct DeclAttrs {
    align: Option<u32>,
    vector: Option<u8>,
    ty: VarType,
    ptr: Option<PtrAttr>,
    attributes: Vec<String>,
}

/// Parses an integer literal: decimal, `0x` hex, `0b` binary, leading-`0`
/// octal, optional `U` suffix. Returns the 64-bit pattern and whether `U` was given.
pub fn parse_int(text: &str) -> Option<(u64, bool)> {
    // Most literals are short plain decimals (`0`, `4`, `256`): up to 19
    // digits cannot overflow, so they are summed directly.
    let b = text.as_bytes();
    if !b.is_empty() && b.len() <= 19 && (b[0] != b'0' || b.len() == 1) {
        // Digits are checked and summed in one pass.
        let mut v = 0u64;
        let mut plain = true;
        for &c in b {
            let d = c.wrapping_sub(b'0');
            plain &= d <= 9;
            v = v.wrapping_mul(10).wrapping_add(u64::from(d));
        }
        if plain {
            return Some((v, false));
        }
    }
    let (body, unsigned) = match text.strip_suffix(['U', 'u']) {
        Some(b) => (b, true),
        None => (text, false),
    };
    let v = if let Some(h) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        accumulate_digits(h, 16)?
    } else if let Some(b) = body.strip_prefix("0b").or_else(|| body.strip_prefix("0B")) {
        accumulate_digits(b, 2)?
    } else if body.len() > 1 && body.starts_with('0') {
        accumulate_digits(&body[1..], 8)?
    } else {
        accumulate_digits(body, 10)?
    };
    Some((v, unsigned))
}

/// The message for an integer token `parse_int` refuses: its digits do not
/// fit the radix, or its value overflows.
fn bad_int_literal(text: &str) -> String {
    let body = text.trim_end_matches(['U', 'u']);
    let digits_valid = !body.is_empty() && {
        let (digits, radix) = match body.get(..2) {
            Some("0x" | "0X") => (&body[2..], 16),
            Some("0b" | "0B") => (&body[2..], 2),
            _ if body.len() > 1 && body.starts_with('0') => (&body[1..], 8),
            _ => (body, 10),
        };
        !digits.is_empty() && digits.chars().all(|c| c.is_digit(radix))
    };
    if digits_valid {
        format!("integer literal '{text}' overflows: constant overflow")
    } else {
        format!("invalid integer literal '{text}'")
    }
}

/// The value of `digits` in `radix`, as ptxas 13.5 reads a literal: the
/// digits are accumulated modulo 2^64 and a digit that follows a partial
/// value with its top bit set is an overflow (`None`), so 2^64 + 1 reads
/// as 1 and `0x100000000000000000` as 0, while `0x80000000000000000` and
/// 10^20 are "Constant overflow" (measured: ptxas accepts 2^65 and 2^128
/// written in hex and rejects 2^67).
fn accumulate_digits(digits: &str, radix: u32) -> Option<u64> {
    if digits.is_empty() {
        return None;
    }
    let mut v = 0u64;
    for c in digits.chars() {
        let d = c.to_digit(radix)?;
        if v >> 63 != 0 {
            return None;
        }
        v = v.wrapping_mul(u64::from(radix)).wrapping_add(u64::from(d));
    }
    Some(v)
}

/// Folds an integer constant expression (64-bit wrapping arithmetic).
pub fn eval_int(e: &Expr) -> Option<u64> {
    fold_int(e, &mut |_| None)
}

/// Folds an integer constant expression (64-bit wrapping arithmetic; the
/// signed operators compare and divide as `i64`), asking `leaf` for the
/// value of every operand that is not an integer literal or an operator
/// (symbols, float bit patterns); `None` from `leaf`, a division by zero or
/// an overflowing division makes the whole expression unfoldable.
pub fn fold_int(e: &Expr, leaf: &mut dyn FnMut(&Expr) -> Option<u64>) -> Option<u64> {
    Some(match e {
        Expr::Int { value, .. } => *value,
        Expr::Unary(op, a, _) => {
            let a = fold_int(a, leaf)?;
            match op {
                UnaryOp::Neg => a.wrapping_neg(),
                UnaryOp::Plus => a,
                UnaryOp::Not => !a,
                UnaryOp::LogicalNot => (a == 0) as u64,
            }
        }
        Expr::Binary(op, a, b, _) => {
            let (a, b) = (fold_int(a, leaf)?, fold_int(b, leaf)?);
            let (sa, sb) = (a as i64, b as i64);
            match op {
                BinaryOp::Mul => a.wrapping_mul(b),
                BinaryOp::Div => sa.checked_div(sb)? as u64,
                BinaryOp::Rem => sa.checked_rem(sb)? as u64,
                BinaryOp::Add => a.wrapping_add(b),
                BinaryOp::Sub => a.wrapping_sub(b),
                BinaryOp::Shl => a.checked_shl(b.try_into().ok()?).unwrap_or(0),
                BinaryOp::Shr => (sa.checked_shr(b.try_into().ok()?).unwrap_or(if sa < 0 { -1 } else { 0 })) as u64,
                BinaryOp::Lt => (sa < sb) as u64,
                BinaryOp::Gt => (sa > sb) as u64,
                BinaryOp::Le => (sa <= sb) as u64,
                BinaryOp::Ge => (sa >= sb) as u64,
                BinaryOp::Eq => (a == b) as u64,
                BinaryOp::Ne => (a != b) as u64,
                BinaryOp::And => a & b,
                BinaryOp::Xor => a ^ b,
                BinaryOp::Or => a | b,
                BinaryOp::LogicalAnd => (a != 0 && b != 0) as u64,
                BinaryOp::LogicalOr => (a != 0 || b != 0) as u64,
            }
        }
        Expr::Cond(c, a, b, _) => {
            if fold_int(c, leaf)? != 0 {
                fold_int(a, leaf)?
            } else {
                fold_int(b, leaf)?
            }
        }
        other => leaf(other)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_literals_short_and_long() {
        assert_eq!(parse_int("0"), Some((0, false)));
        assert_eq!(parse_int("256"), Some((256, false)));
        assert_eq!(parse_int("010"), Some((8, false)));
        assert_eq!(parse_int("9999999999999999999"), Some((9_999_999_999_999_999_999, false)));
        assert_eq!(parse_int("18446744073709551615"), Some((u64::MAX, false)));
        // Past 2^64 the digits wrap until a partial value has its top bit
        // set (ptxas 13.5's verdicts and values: 2^64 + 5 is 5).
        assert_eq!(parse_int("18446744073709551621"), Some((5, false)));
        assert_eq!(parse_int("40000000000000000000"), Some((40_000_000_000_000_000_000u128 as u64, false)));
        assert_eq!(parse_int("99999999999999999999"), None);
        assert_eq!(parse_int("0x100000000000000007"), Some((7, false)));
        assert_eq!(parse_int("0x1FFFFFFFFFFFFFFFF"), Some((u64::MAX, false)));
        assert_eq!(parse_int("0x80000000000000000"), None);
        assert_eq!(parse_int("0xFFFFFFFFFFFFFFFFF"), None);
        assert_eq!(parse_int("0x100000000000000000000000000000000"), Some((0, false)));
        assert_eq!(parse_int("0x"), None);
        assert_eq!(parse_int("09"), None);
        assert_eq!(parse_int("7U"), Some((7, true)));
        assert_eq!(parse_int("0x10"), Some((16, false)));
        assert_eq!(parse_int(""), None);
    }

    #[test]
    fn too_deep_statement_does_not_poison_the_rest() {
        let deep = format!("{}1{}", "(".repeat(300), ")".repeat(300));
        let src = format!(
            ".version 8.0\n.target sm_80\n.entry k() {{\n.reg .b32 %r<2>;\nadd.s32 %r1, %r1, {deep};\nadd.s32 %r1, %r1, 1;\nret;\n}}\n"
        );
        let diags = parse(&src).expect_err("nesting beyond the bound is an error");
        let text = format!("{diags:?}");
        assert_eq!(text.matches("nesting deeper than").count(), 1, "one error, no cascade: {text}");
    }
}

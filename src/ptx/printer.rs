//! The PTX printer: [`Module`] back to canonical PTX text.
//!
//! Canonical means one statement per line, tabs for nesting, numbers in
//! decimal (floats in the hex form they were written in), binary constant
//! expressions fully parenthesised. Printing then parsing gives an equal
//! tree (`parse(print(m)) == m`), which the corpus tests check.

use super::ast::*;
use std::fmt::Write as _;

/// Prints a module as PTX text.
pub fn print(m: &Module) -> String {
    let mut p = Printer { m, out: String::with_capacity(4096) };
    p.module();
    p.out
}

struct Printer<'m> {
    m: &'m Module,
    out: String,
}

impl<'m> Printer<'m> {
    fn name(&self, s: Symbol) -> &'m str {
        self.m.names.name(s)
    }

    fn module(&mut self) {
        if let Some(v) = self.m.version {
            let _ = writeln!(self.out, ".version {}.{}", v.major, v.minor);
        }
        if let Some(t) = &self.m.target {
            self.out.push_str(".target ");
            for (i, (e, _)) in t.entries.iter().enumerate() {
                if i > 0 {
                    self.out.push_str(", ");
                }
                match e {
                    TargetEntry::Sm(sm) => {
                        let _ = write!(self.out, "{sm}");
                    }
                    TargetEntry::TexmodeUnified => self.out.push_str("texmode_unified"),
                    TargetEntry::TexmodeIndependent => self.out.push_str("texmode_independent"),
                    TargetEntry::Debug => self.out.push_str("debug"),
                    TargetEntry::MapF64ToF32 => self.out.push_str("map_f64_to_f32"),
                }
            }
            self.out.push('\n');
        }
        if let Some((n, _)) = self.m.address_size {
            let _ = writeln!(self.out, ".address_size {n}");
        }
        for item in &self.m.items {
            self.out.push('\n');
            match item {
                Item::Function(f) => self.function(f),
                Item::Variable(v) => {
                    self.var_decl(v);
                    self.out.push('\n');
                }
                Item::File(f) => {
                    let _ = write!(self.out, ".file {} \"{}\"", f.index, f.name);
                    if let Some((ts, size)) = f.timestamp_size {
                        let _ = write!(self.out, ", {ts}, {size}");
                    }
                    self.out.push('\n');
                }
                Item::Section(s) => self.section(s),
                Item::Pragma(p) => {
                    self.pragma(p);
                    self.out.push('\n');
                }
                Item::Alias(a) => {
                    let _ = writeln!(self.out, ".alias {}, {};", self.name(a.alias), self.name(a.aliasee));
                }
            }
        }
    }

    fn pragma(&mut self, p: &Pragma) {
        self.out.push_str(".pragma ");
        for (i, s) in p.strings.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            let _ = write!(self.out, "\"{s}\"");
        }
        self.out.push(';');
    }

    fn section(&mut self, s: &Section) {
        let _ = writeln!(self.out, ".section {}\n{{", s.name);
        for e in &s.entries {
            match e {
                SectionEntry::Label(l, _) => {
                    let _ = writeln!(self.out, "{}:", self.name(*l));
                }
                SectionEntry::Data(w, vals, _) => {
                    let _ = write!(self.out, "\t.b{w} ");
                    for (i, v) in vals.iter().enumerate() {
                        if i > 0 {
                            self.out.push_str(", ");
                        }
                        self.expr(v);
                    }
                    self.out.push('\n');
                }
            }
        }
        self.out.push_str("}\n");
    }

    fn linkage(&mut self, l: Linkage) {
        self.out.push_str(match l {
            Linkage::Default => "",
            Linkage::Visible => ".visible ",
            Linkage::Extern => ".extern ",
            Linkage::Weak => ".weak ",
            Linkage::Common => ".common ",
        });
    }

    fn function(&mut self, f: &Function) {
        self.linkage(f.linkage);
        self.out.push_str(match f.kind {
            FunctionKind::Entry => ".entry ",
            FunctionKind::Func => ".func ",
        });
        if !f.returns.is_empty() {
            self.param_list(&f.returns);
            self.out.push(' ');
        }
        self.out.push_str(self.m.names.name(f.name));
        if let Some(params) = &f.params {
            self.param_list(params);
        }
        self.out.push('\n');
        for d in &f.directives {
            self.function_directive(d);
            self.out.push('\n');
        }
        match &f.body {
            None => self.out.push_str(";\n"),
            Some(b) => {
                self.block(b, 0);
                self.out.push('\n');
            }
        }
    }

    fn function_directive(&mut self, d: &FunctionDirective) {
        let dims = |out: &mut String, name: &str, v: &[u32]| {
            out.push_str(name);
            for (i, n) in v.iter().enumerate() {
                out.push_str(if i == 0 { " " } else { ", " });
                let _ = write!(out, "{n}");
            }
        };
        match d {
            FunctionDirective::MaxNtid(v, _) => dims(&mut self.out, ".maxntid", v),
            FunctionDirective::ReqNtid(v, _) => dims(&mut self.out, ".reqntid", v),
            FunctionDirective::ReqNctaPerCluster(v, _) => dims(&mut self.out, ".reqnctapercluster", v),
            FunctionDirective::MinNctaPerSm(n, _) => {
                let _ = write!(self.out, ".minnctapersm {n}");
            }
            FunctionDirective::MaxNctaPerSm(n, _) => {
                let _ = write!(self.out, ".maxnctapersm {n}");
            }
            FunctionDirective::MaxNreg(n, _) => {
                let _ = write!(self.out, ".maxnreg {n}");
            }
            FunctionDirective::MaxClusterRank(n, _) => {
                let _ = write!(self.out, ".maxclusterrank {n}");
            }
            FunctionDirective::AbiPreserve(n, _) => {
                let _ = write!(self.out, ".abi_preserve {n}");
            }
            FunctionDirective::AbiPreserveControl(n, _) => {
                let _ = write!(self.out, ".abi_preserve_control {n}");
            }
            FunctionDirective::NoReturn(_) => self.out.push_str(".noreturn"),
            FunctionDirective::ExplicitCluster(_) => self.out.push_str(".explicitcluster"),
            FunctionDirective::BlocksAreClusters(_) => self.out.push_str(".blocksareclusters"),
            FunctionDirective::Pragma(p) => self.pragma(p),
        }
    }

    fn param_list(&mut self, params: &[Param]) {
        self.out.push('(');
        for (i, p) in params.iter().enumerate() {
            self.out.push_str(if i == 0 { "\n\t" } else { ",\n\t" });
            self.param(p);
        }
        if !params.is_empty() {
            self.out.push('\n');
        }
        self.out.push(')');
    }

    fn param(&mut self, p: &Param) {
        self.out.push_str(p.space.spelling());
        self.attrs(p.align, p.vector, p.ty, p.ptr);
        self.out.push(' ');
        self.out.push_str(self.m.names.name(p.name));
        self.dims(&p.dims);
    }

    fn attrs(&mut self, align: Option<u32>, vector: Option<u8>, ty: VarType, ptr: Option<PtrAttr>) {
        if let Some(a) = align {
            let _ = write!(self.out, " .align {a}");
        }
        if let Some(v) = vector {
            let _ = write!(self.out, " .v{v}");
        }
        self.out.push(' ');
        self.out.push_str(match ty {
            VarType::Scalar(s) => s.spelling(),
            VarType::TexRef => ".texref",
            VarType::SamplerRef => ".samplerref",
            VarType::SurfRef => ".surfref",
        });
        if let Some(p) = ptr {
            self.out.push_str(" .ptr");
            if let Some(s) = p.space {
                self.out.push(' ');
                self.out.push_str(s.spelling());
            }
            if let Some(a) = p.align {
                let _ = write!(self.out, " .align {a}");
            }
        }
    }

    fn dims(&mut self, dims: &[Option<u64>]) {
        for d in dims {
            match d {
                Some(n) => {
                    let _ = write!(self.out, "[{n}]");
                }
                None => self.out.push_str("[]"),
            }
        }
    }

    fn var_decl(&mut self, v: &VarDecl) {
        self.linkage(v.linkage);
        self.out.push_str(v.space.spelling());
        for a in &v.attributes {
            let _ = write!(self.out, " .attribute({a})");
        }
        self.attrs(v.align, v.vector, v.ty, v.ptr);
        for (i, d) in v.declarators.iter().enumerate() {
            self.out.push_str(if i == 0 { " " } else { ", " });
            self.out.push_str(self.m.names.name(d.name));
            if let Some(n) = d.range {
                let _ = write!(self.out, "<{n}>");
            }
            self.dims(&d.dims);
            if let Some(init) = &d.init {
                self.out.push_str(" = ");
                self.initializer(init);
            }
        }
        self.out.push(';');
    }

    fn initializer(&mut self, i: &Initializer) {
        match i {
            Initializer::Expr(e) => self.expr(e),
            Initializer::List(items, _) => {
                self.out.push('{');
                for (k, it) in items.iter().enumerate() {
                    if k > 0 {
                        self.out.push_str(", ");
                    }
                    self.initializer(it);
                }
                self.out.push('}');
            }
        }
    }

    fn indent(&mut self, depth: usize) {
        for _ in 0..depth {
            self.out.push('\t');
        }
    }

    fn block(&mut self, b: &Block, depth: usize) {
        self.indent(depth);
        self.out.push_str("{\n");
        for s in &b.stmts {
            self.statement(s, depth + 1);
        }
        self.indent(depth);
        self.out.push('}');
    }

    fn statement(&mut self, s: &Statement, depth: usize) {
        match s {
            Statement::Label(l, _) => {
                let _ = writeln!(self.out, "{}:", self.name(*l));
                return;
            }
            Statement::Block(b) => self.block(b, depth),
            Statement::Instruction(i) => {
                self.indent(depth);
                self.instruction(i);
            }
            Statement::Variable(v) => {
                self.indent(depth);
                self.var_decl(v);
            }
            Statement::Pragma(p) => {
                self.indent(depth);
                self.pragma(p);
            }
            Statement::Loc(l) => {
                self.indent(depth);
                let _ = write!(self.out, ".loc {} {} {}", l.file, l.line, l.column);
                if let Some((f, off)) = l.function_name {
                    let _ = write!(self.out, ", function_name {}", self.name(f));
                    if off != 0 {
                        let _ = write!(self.out, "+{off}");
                    }
                }
                if let Some((f, li, c)) = l.inlined_at {
                    let _ = write!(self.out, ", inlined_at {f} {li} {c}");
                }
            }
            Statement::BranchTargets(n, ts, _) | Statement::CallTargets(n, ts, _) => {
                let kw = if matches!(s, Statement::BranchTargets(..)) { ".branchtargets" } else { ".calltargets" };
                let _ = write!(self.out, "{}: {kw} ", self.name(*n));
                for (i, (t, _)) in ts.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.out.push_str(self.m.names.name(*t));
                }
                self.out.push(';');
            }
            Statement::CallPrototype(p) => {
                let _ = write!(self.out, "{}: .callprototype ", self.name(p.name));
                if !p.returns.is_empty() {
                    self.param_list(&p.returns);
                    self.out.push(' ');
                }
                self.out.push('_');
                if !p.params.is_empty() {
                    self.out.push(' ');
                    self.param_list(&p.params);
                }
                for d in &p.directives {
                    self.out.push(' ');
                    self.function_directive(d);
                }
                self.out.push(';');
            }
        }
        self.out.push('\n');
    }

    /// Prints one instruction without indentation or newline.
    fn instruction(&mut self, i: &Instruction) {
        if let Some(g) = i.guard {
            let _ = write!(self.out, "@{}{} ", if g.negated { "!" } else { "" }, self.name(g.reg));
        }
        self.out.push_str(i.opcode.name());
        for (m, _) in &i.modifiers {
            self.out.push_str(m.spelling());
        }
        for (k, op) in self.m.operands(i.operands).iter().enumerate() {
            self.out.push_str(if k == 0 { " " } else { ", " });
            self.operand(op);
        }
        self.out.push(';');
    }

    fn operand_list(&mut self, open: char, close: char, ops: OperandList) {
        self.out.push(open);
        for (k, op) in self.m.operands(ops).iter().enumerate() {
            if k > 0 {
                self.out.push_str(", ");
            }
            self.operand(op);
        }
        self.out.push(close);
    }

    fn operand(&mut self, op: &Operand) {
        match &op.kind {
            OperandKind::Name(s, comp) => {
                self.out.push_str(self.m.names.name(*s));
                if let Some(c) = comp {
                    self.out.push_str(match c {
                        Component::X => ".x",
                        Component::Y => ".y",
                        Component::Z => ".z",
                        Component::W => ".w",
                    });
                }
            }
            OperandKind::NameOffset(s, off) => {
                self.out.push_str(self.m.names.name(*s));
                self.offset(*off);
            }
            OperandKind::NotPred(s) => {
                let _ = write!(self.out, "!{}", self.name(*s));
            }
            OperandKind::NegReg(s) => {
                let _ = write!(self.out, "-{}", self.name(*s));
            }
            OperandKind::Selected(s, sel, neg) => {
                let _ = write!(self.out, "{}{}{sel}", if *neg { "-" } else { "" }, self.name(*s));
            }
            OperandKind::PredPair(p, q) => {
                let _ = write!(self.out, "{}|{}", self.name(*p), self.name(*q));
            }
            OperandKind::Sink => self.out.push('_'),
            OperandKind::Imm(e) => self.expr(e),
            OperandKind::Address(a) => {
                self.out.push('[');
                match a.base {
                    Some(b) => {
                        self.out.push_str(self.m.names.name(b));
                        if a.offset != 0 {
                            // PTX's address grammar is `[base+offset]`
                            // (ptxas rejects `[base-16]`): a negative
                            // offset prints as `+-16`.
                            let _ = write!(self.out, "+{}", a.offset);
                        }
                    }
                    None => {
                        let _ = write!(self.out, "{}", a.offset);
                    }
                }
                self.out.push(']');
            }
            OperandKind::BracketList(v) => self.operand_list('[', ']', *v),
            OperandKind::Vector(v) => self.operand_list('{', '}', *v),
            OperandKind::ParenList(v) => self.operand_list('(', ')', *v),
        }
    }

    fn offset(&mut self, off: i64) {
        if off < 0 {
            let _ = write!(self.out, "-{}", off.unsigned_abs());
        } else {
            let _ = write!(self.out, "+{off}");
        }
    }

    /// `e`, in parentheses when `paren`.
    fn operand_expr(&mut self, e: &Expr, paren: bool) {
        if paren {
            self.out.push('(');
            self.bare_expr(e);
            self.out.push(')');
        } else {
            self.bare_expr(e);
        }
    }

    /// An expression without enclosing parentheses; its operands get them
    /// only where precedence or left associativity requires.
    fn bare_expr(&mut self, e: &Expr) {
        match e {
            Expr::Binary(op, a, b, _) => {
                let prec = op.precedence();
                let left_paren = match &**a {
                    Expr::Binary(x, ..) => x.precedence() < prec,
                    Expr::Cond(..) => true,
                    _ => false,
                };
                let right_paren = match &**b {
                    Expr::Binary(x, ..) => x.precedence() <= prec,
                    Expr::Cond(..) => true,
                    _ => false,
                };
                self.operand_expr(a, left_paren);
                let _ = write!(self.out, " {} ", op.spelling());
                self.operand_expr(b, right_paren);
            }
            Expr::Cond(c, a, b, _) => {
                self.operand_expr(c, matches!(**c, Expr::Cond(..)));
                self.out.push_str(" ? ");
                self.bare_expr(a);
                self.out.push_str(" : ");
                self.bare_expr(b);
            }
            other => self.expr(other),
        }
    }

    fn expr(&mut self, e: &Expr) {
        match e {
            Expr::Int { value, unsigned: true, .. } => {
                let _ = write!(self.out, "{value}U");
            }
            Expr::Int { value, unsigned: false, .. } => {
                let v = *value as i64;
                if v < 0 {
                    let _ = write!(self.out, "-{}", v.unsigned_abs());
                } else {
                    let _ = write!(self.out, "{v}");
                }
            }
            Expr::F32(bits, _) => {
                let _ = write!(self.out, "0f{bits:08X}");
            }
            Expr::F64(bits, _) => {
                let _ = write!(self.out, "0d{bits:016X}");
            }
            Expr::Decimal(bits, _) => {
                let v = f64::from_bits(*bits);
                if v.is_finite() {
                    let _ = write!(self.out, "{v:?}");
                } else {
                    // Only an overflowing decimal literal gets here; it reads back as infinity.
                    self.out.push_str("1e999");
                }
            }
            Expr::Symbol(s, _) => self.out.push_str(self.m.names.name(*s)),
            Expr::Generic(s, _) => {
                let _ = write!(self.out, "generic({})", self.name(*s));
            }
            Expr::Unary(op, a, _) => {
                self.out.push_str(match op {
                    UnaryOp::Neg => "-",
                    UnaryOp::Not => "~",
                    UnaryOp::LogicalNot => "!",
                    UnaryOp::Plus => "+",
                });
                self.operand_expr(a, matches!(**a, Expr::Binary(..) | Expr::Cond(..)));
            }
            // Operators print with the fewest parentheses that parse back to
            // the same tree: a chain of a thousand `+` stays flat, so its
            // printed form nests no deeper than its source (the parser bounds
            // nesting). A whole binary or conditional expression is still
            // enclosed once, because an operand such as `(a + 1)` must not
            // read back as the address form `a+1`.
            Expr::Binary(..) | Expr::Cond(..) => {
                self.out.push('(');
                self.bare_expr(e);
                self.out.push(')');
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::ptx::{parse, print};

    fn module_with(operand: &str) -> String {
        format!(".version 8.0\n.target sm_80\n.address_size 64\n.entry k() {{\n.reg .b64 %rd<3>;\nadd.s64 %rd1, %rd2, {operand};\nret;\n}}\n")
    }

    fn assert_round_trip(src: &str) {
        let m = parse(src).unwrap_or_else(|d| panic!("source does not parse: {d:?}"));
        let text = print(&m);
        let again = parse(&text).unwrap_or_else(|d| panic!("printed module does not parse: {d:?}\n{text}"));
        assert_eq!(again, m, "printed module means something else:\n{text}");
        assert_eq!(print(&again), text, "printing is not idempotent");
    }

    #[test]
    fn long_operator_chains_print_flat() {
        // Source nesting within the parser's bound must stay within it when printed.
        assert_round_trip(&module_with(&format!("{}1", "+".repeat(150))));
        assert_round_trip(&module_with(&format!("({})", vec!["1"; 1000].join(" + "))));
        assert_round_trip(&module_with(&format!("({})", vec!["2"; 300].join(" << 1 - "))));
    }

    #[test]
    fn precedence_and_associativity_survive() {
        for e in [
            "(1 - (2 - 3))",
            "((1 - 2) - 3)",
            "(1 * (2 + 3))",
            "(-(1 + 2) * 3)",
            "(~-5)",
            "(--%rd2 * 2)",
            "(1 ? 2 : 3 ? 4 : 5)",
            "((1 ? 2 : 3) ? 4 : 5)",
            "(1 || 2 && 3 | 4 ^ 5 & 6 == 7 < 8 << 9 + 10 * 11)",
            "(-1 << 2)",
        ] {
            assert_round_trip(&module_with(e));
        }
    }
}

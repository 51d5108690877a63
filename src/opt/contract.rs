//! Contraction of a floating-point multiply and an add into one fused
//! multiply-add, on raw Ori before legalization, as `ptxas` does it by
//! default (`--fmad=true`); `--fmad=false` and `-O0` turn it off.
//!
//! The PTX ISA lets a `mul`, `add` or `sub` *without* a rounding modifier
//! be contracted into `fma`; one with an explicit rounding (`.rn`
//! included) must stay separate. Which pairs `ptxas` actually contracts was
//! measured with `ptxas` 13.5 on sm_75, sm_80, sm_90 and sm_120 (small
//! kernels compiled with and without `--fmad=false`, read with `nvdisasm`);
//! the rules this pass follows, each with the PTX that showed it:
//!
//! * **Types**: `.f32` (→ `FFMA`), `.f64` (→ `DFMA`), `.f16`, `.f16x2`,
//!   `.bf16`, `.bf16x2` (→ `HFMA2`, `HFMA2.BF16_V2`), `.f32x2` (sm_100+:
//!   `mul.f32x2 t, a, b; add.f32x2 d, t, c` → `FFMA2` on sm_100, an
//!   `FFMA` per word on sm_120).
//!   `mul.f32 t, a, b; add.f32 d, t, c` → `FFMA d, a, b, c`;
//!   `mul.f16x2 t, b, c; sub.f16x2 d, a, t` → `HFMA2 d, -b, c, a`.
//! * **Rounding**: `mul.rn`, `mul.rz`, `add.rn` (any explicit rounding on
//!   either) → `FMUL` + `FADD` kept (`mul.rn.f32 t, a, b; add.f32 d, t, c`,
//!   and `mul.f32; add.rn.f32`; `mul.rn.f16; add.f16` likewise).
//! * **`.ftz`** must be the same on both: `mul.ftz` + `add.ftz` →
//!   `FFMA.FTZ`; `mul.ftz` + `add` and `mul` + `add.ftz` stay separate.
//! * **`.sat`**: on the add it goes to the fused result (`mul.f32` +
//!   `add.sat.f32` → `FFMA.SAT`; `.ftz` + `.ftz.sat` → `FFMA.FTZ.SAT`); a
//!   saturated multiply (`mul.sat.f32`) is never contracted.
//! * **`sub`** negates the other side: `mul t, a, b; sub d, t, c` →
//!   `FFMA d, a, b, -c`; `sub d, c, t` → `FFMA d, -a, b, c` (the product is
//!   negated through the multiply's first operand; `DFMA d, -a, b, c` for
//!   f64).
//! * **`neg`** between them is looked through: `neg t2, t; add d, t2, c` →
//!   `FFMA d, -a, b, c`; `neg t2, t; sub d, c, t2` → `FFMA d, a, b, c`. The
//!   `neg` must carry the same `.ftz` (a `neg.ftz.f32` between a plain
//!   `mul.f32` and `add.f32` stops it). `abs` stops it (`FADD d, |t|, c`).
//! * **Uses**: the multiply is contracted only where *every* use of it
//!   (directly or through such `neg`s) is an add or sub it can fuse into;
//!   it is then fused into each of them and disappears (`mul t; add d1, t,
//!   c; add d2, t, a` → two `FFMA`, no `FMUL`). One other use of any kind
//!   (a store, a `setp`, an `add.rn`, `abs`) keeps the `FMUL` and every
//!   add as it is. An add whose two operands are the same product
//!   (`add d, t, t`) does not take it.
//! * **Which product**: in `add d, t1, t2` with two candidate products the
//!   first operand's is fused (`mul t1, a, a; mul t2, b, b; add d, t1, t2`
//!   → `FFMA d, a, a, t2`), the second's when the first's is not eligible
//!   (`t1` also stored → `FFMA d, b, b, t1`). Adds are visited in program
//!   order and a fusion removes the add's use of the product, so
//!   `mul t4; mul t5; add d6, t5, t4; sub d7, t4, t5` fuses `t5` into both
//!   (`t4` lost its eligibility when `d6` became an `FFMA`).
//! * **Blocks**: `ptxas` contracts within a block, after moving code
//!   (sinking, if-conversion, unrolling), so a product reaching across
//!   blocks fuses only where it could have been moved to its add: a
//!   multiply whose uses are all in its own block fuses; one with a
//!   *single* use in another block fuses when that block is not in a loop
//!   the multiply's block is outside of (`mul` in the entry, its `add` in a
//!   branch's arm: `FFMA` there), or, into a loop, when both factors are
//!   kernel parameters or constants (`mul.f32 t, a, c` of two `ld.param`
//!   values before a loop, the `add` inside: `FFMA R, c[..], R` in every
//!   unrolled copy). A product of loaded values before a loop stays `FMUL`
//!   with an `FADD` in the loop; a product read by an `add` in its block
//!   and a `sub` in another (`mul t5; mul t6; add d, t6, t5; @p bra; sub e,
//!   t6, t5`, a Mandelbrot step) stays apart in both. A product that
//!   reaches the add through a block parameter (a loop-carried register)
//!   does not fuse.
//! * **Approximate division** (`div.approx.f32`, `div.full.f32`) is a
//!   product too: its expansion ends in a multiply by the divisor's
//!   reciprocal, which `ptxas` fuses into the add under the same rules
//!   (`div.full.f32 t, a, b; add.f32 d, t, c` → `MUFU.RCP r, b'; FFMA d,
//!   r, a', c`; `sub` either way; `.ftz` on both; a quotient with another
//!   use stays `FMUL` + `FADD`). The add becomes the division with the
//!   addend as a third operand, which legalization expands with an FFMA
//!   last. IEEE division (`div.rn`) is not a product.
//! * **`fma`/`mad`**: an existing `fma.rn` does not take a product as its
//!   addend (`mul t, a, c; fma.rn d, b, b, t` keeps the `FMUL`); `mad.f32`
//!   without rounding is rejected by `ptxas` for sm_20 and later.
//! * `-O0` (and `-g`) contracts nothing; `-O1` to `-O3` the same pairs.
//!
//! Guarded (predicated) instructions are left alone: their result merges
//! with a prior value, which a fused operation would not reproduce.
//!
//! Where `ptxas` ran common-subexpression elimination first (two equal
//! `mul`s become one with more uses), its choice can differ from this
//! pass's, which sees the two multiplies apart.

use crate::ir::entity::EntityRef;
use crate::ir::{Attrs, Block, DataType, Function, Inst, Opcode, Round, Space, Value, ValueDef};
use smallvec::SmallVec;

/// Bit of [`Attrs::neg`] that negates the fused operation's first factor
/// (the product's sign).
const NEG_PRODUCT: u8 = 1;
/// Bit of [`Attrs::neg`] that negates the addend.
const NEG_ADDEND: u8 = 4;

/// The float types a multiply-add exists for.
fn contractible_type(ty: Option<DataType>) -> bool {
    matches!(ty, Some(DataType::F32 | DataType::F32x2 | DataType::F64 | DataType::F16 | DataType::F16x2 | DataType::Bf16 | DataType::Bf16x2))
}

/// Whether `i` is a multiply that may be fused into an add with `ftz`.
fn is_contractible_mul(f: &Function, i: Inst, ty: Option<DataType>, ftz: bool) -> bool {
    let d = &f.insts[i];
    d.opcode == Opcode::Mul && d.guard.is_none() && d.args.len() == 2 && d.attrs == Attrs { ty, ftz, ..Attrs::default() }
}

/// Whether `i` is an approximate f32 division (`div.approx`, `div.full`)
/// whose last step, a multiply by the divisor's reciprocal, may be fused
/// into an add with `ftz` as a multiply is.
fn is_contractible_div(f: &Function, i: Inst, ty: Option<DataType>, ftz: bool) -> bool {
    let d = &f.insts[i];
    let a = d.attrs;
    d.opcode == Opcode::Div
        && ty == Some(DataType::F32)
        && d.guard.is_none()
        && d.args.len() == 2
        && (a == Attrs { ty, ftz, approx: true, ..Attrs::default() } || a == Attrs { ty, ftz, full: true, ..Attrs::default() })
}

/// Whether `i` is a negation the contraction looks through.
fn is_contractible_neg(f: &Function, i: Inst, ty: Option<DataType>, ftz: bool) -> bool {
    let d = &f.insts[i];
    d.opcode == Opcode::Neg && d.guard.is_none() && d.args.len() == 1 && d.attrs == Attrs { ty, ftz, ..Attrs::default() }
}

/// Whether `i` is an `add` or `sub` without rounding that a product may be
/// fused into.
fn is_contractible_add(f: &Function, i: Inst) -> bool {
    let d = &f.insts[i];
    matches!(d.opcode, Opcode::Add | Opcode::Sub)
        && d.guard.is_none()
        && d.args.len() == 2
        && contractible_type(d.attrs.ty)
        && d.attrs == Attrs { ty: d.attrs.ty, ftz: d.attrs.ftz, sat: d.attrs.sat, ..Attrs::default() }
}

/// The instruction defining `v`, if it is an instruction result.
fn def_inst(f: &Function, v: Value) -> Option<Inst> {
    match f.values[v].def {
        ValueDef::Result(i, 0) => Some(i),
        _ => None,
    }
}

/// The contraction's working state: the function and, per value, the
/// instructions that read it (once per reading operand).
struct Contraction<'f> {
    f: &'f mut Function,
    users: Vec<SmallVec<[Inst; 2]>>,
    /// The block of each placed instruction.
    block_of: Vec<Block>,
}

impl Contraction<'_> {
    /// The multiply behind an add operand, looking through negations:
    /// the multiply and whether the product arrives negated.
    fn product(&self, operand: Value, ty: Option<DataType>, ftz: bool) -> Option<(Inst, bool)> {
        let mut v = operand;
        let mut negated = false;
        loop {
            let i = def_inst(self.f, v)?;
            if is_contractible_mul(self.f, i, ty, ftz) || is_contractible_div(self.f, i, ty, ftz) {
                return Some((i, negated));
            }
            if !is_contractible_neg(self.f, i, ty, ftz) {
                return None;
            }
            negated = !negated;
            v = self.f.insts[i].args[0];
        }
    }

    /// Whether `block` lies on a cycle that does not pass through `avoid`
    /// (a loop that `avoid` is outside of).
    fn in_cycle_avoiding(&self, block: Block, avoid: Block) -> bool {
        let mut seen = vec![false; self.f.blocks.len()];
        let mut stack = self.successors(block);
        while let Some(b) = stack.pop() {
            if b == block {
                return true;
            }
            if b == avoid || std::mem::replace(&mut seen[b.index()], true) {
                continue;
            }
            stack.extend(self.successors(b));
        }
        false
    }

    fn successors(&self, b: Block) -> Vec<Block> {
        let last = self.f.blocks[b].insts.last();
        last.map(|&i| self.f.insts[i].dests.iter().map(|d| d.block).collect()).unwrap_or_default()
    }

    /// Whether `v` is a kernel parameter (`ld.param`) or a constant: a
    /// value `ptxas` recomputes wherever it is needed.
    fn is_invariant(&self, v: Value) -> bool {
        def_inst(self.f, v).is_some_and(|i| {
            let d = &self.f.insts[i];
            d.opcode == Opcode::Iconst || (d.opcode == Opcode::Ld && d.attrs.space == Some(Space::Param) && d.guard.is_none())
        })
    }

    /// Whether the multiply's uses (the adds found) are where `ptxas`
    /// would have them next to it: all in its block, or a single one in a
    /// block it could be moved to (module documentation, "Blocks").
    fn placed_together(&self, mul: Inst, adds: &[Inst]) -> bool {
        let home = self.block_of[mul.index()];
        if adds.iter().all(|&a| self.block_of[a.index()] == home) {
            return true;
        }
        let [add] = adds else { return false };
        let there = self.block_of[add.index()];
        let (a, b) = (self.f.insts[mul].args[0], self.f.insts[mul].args[1]);
        !self.in_cycle_avoiding(there, home) || (self.is_invariant(a) && self.is_invariant(b))
    }

    /// Whether every use of the multiply's result, directly or through
    /// negations, is an add that reads it through exactly one operand, and
    /// the adds are placed as `ptxas` needs them.
    fn only_feeds_adds(&self, mul: Inst) -> bool {
        let d = &self.f.insts[mul];
        let (ty, ftz) = (d.attrs.ty, d.attrs.ftz);
        // The product and its negations.
        let mut chain: SmallVec<[Value; 4]> = SmallVec::from_slice(&[d.results[0]]);
        let mut adds: SmallVec<[Inst; 4]> = SmallVec::new();
        let mut k = 0;
        while k < chain.len() {
            for &user in &self.users[chain[k].index()] {
                if is_contractible_neg(self.f, user, ty, ftz) {
                    chain.push(self.f.insts[user].results[0]);
                } else if is_contractible_add(self.f, user) && self.f.insts[user].attrs.ty == ty && self.f.insts[user].attrs.ftz == ftz {
                    adds.push(user);
                } else {
                    return false;
                }
            }
            k += 1;
        }
        !adds.is_empty() && adds.iter().all(|&a| self.f.insts[a].args.iter().filter(|v| chain.contains(v)).count() == 1) && self.placed_together(mul, &adds)
    }

    /// Fuses a product into `add` if the rules allow; whether it did.
    fn contract(&mut self, add: Inst) -> bool {
        let d = &self.f.insts[add];
        let (ty, ftz, sat, sub) = (d.attrs.ty, d.attrs.ftz, d.attrs.sat, d.opcode == Opcode::Sub);
        let operands = [d.args[0], d.args[1]];
        for k in 0..2 {
            let Some((mul, negated)) = self.product(operands[k], ty, ftz) else { continue };
            if !self.only_feeds_adds(mul) {
                continue;
            }
            // `sub` negates its second operand: the product when that is
            // the product, else the addend.
            let neg_product = negated ^ (sub && k == 1);
            let neg_addend = sub && k == 0;
            let addend = operands[1 - k];
            let (a, b) = (self.f.insts[mul].args[0], self.f.insts[mul].args[1]);
            let removed = operands[k];
            self.users[removed.index()].retain(|u| *u != add);
            self.users[a.index()].push(add);
            self.users[b.index()].push(add);
            let neg = if neg_product { NEG_PRODUCT } else { 0 } | if neg_addend { NEG_ADDEND } else { 0 };
            let division = self.f.insts[mul].opcode == Opcode::Div;
            let (approx, full) = (self.f.insts[mul].attrs.approx, self.f.insts[mul].attrs.full);
            let data = &mut self.f.insts[add];
            if division {
                // `a / b + c`: the division with the addend, its last
                // multiply fused (legalization makes it an FFMA).
                data.opcode = Opcode::Div;
                data.attrs = Attrs { ty, ftz, sat, approx, full, neg, ..Attrs::default() };
            } else {
                data.opcode = Opcode::Fma;
                data.attrs = Attrs { ty, ftz, sat, round: Some(Round::Rn), neg, ..Attrs::default() };
            }
            data.args = SmallVec::from_slice(&[a, b, addend]);
            return true;
        }
        false
    }

    /// Removes the multiplies and negations the fusions left unused.
    fn remove_dead(&mut self) {
        let f = &mut *self.f;
        let users = &mut self.users;
        loop {
            let mut removed = false;
            for bi in 0..f.layout.len() {
                let b = f.layout[bi];
                let insts = std::mem::take(&mut f.blocks[b].insts);
                let mut kept = Vec::with_capacity(insts.len());
                for i in insts {
                    let d = &f.insts[i];
                    let dead = (matches!(d.opcode, Opcode::Mul | Opcode::Neg) || d.opcode == Opcode::Div && d.args.len() == 2 && (d.attrs.approx || d.attrs.full))
                        && contractible_type(d.attrs.ty)
                        && d.guard.is_none()
                        && d.results.iter().all(|r| users[r.index()].is_empty());
                    if dead {
                        for &a in &d.args {
                            if let Some(pos) = users[a.index()].iter().position(|u| *u == i) {
                                users[a.index()].remove(pos);
                            }
                        }
                        removed = true;
                    } else {
                        kept.push(i);
                    }
                }
                f.blocks[b].insts = kept;
            }
            if !removed {
                break;
            }
        }
    }
}

/// Contracts the function's contractible multiply/add pairs into `fma`
/// (see the module documentation for the rules); the number of adds
/// fused.
pub fn contract_mul_add(f: &mut Function) -> usize {
    let adds: Vec<Inst> = f.layout.iter().flat_map(|&b| f.blocks[b].insts.iter().copied()).filter(|&i| is_contractible_add(f, i)).collect();
    if adds.is_empty() {
        return 0;
    }
    let mut users: Vec<SmallVec<[Inst; 2]>> = vec![SmallVec::new(); f.values.len()];
    let mut block_of = vec![Block::new(0); f.insts.len()];
    for &b in &f.layout {
        for &i in &f.blocks[b].insts {
            block_of[i.index()] = b;
            for v in f.insts[i].uses() {
                users[v.index()].push(i);
            }
        }
    }
    let mut c = Contraction { f, users, block_of };
    let fused = adds.into_iter().filter(|&a| c.contract(a)).count();
    if fused > 0 {
        c.remove_dead();
    }
    fused
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::verify::{Stage, verify_function};
    use crate::target::Sm;

    /// A kernel with f32 parameters `a`, `b`, `c` in `%f1`..`%f3`, f64 ones
    /// in `%d1`..`%d3`, an output pointer in `%rd1` and `body` after that;
    /// lowered, contracted (checked by the verifier) and printed: the
    /// operations of the arithmetic left in the blocks, and the number of
    /// adds fused.
    fn contracted(body: &str) -> (Vec<String>, usize) {
        let src = format!(
            ".version 8.5\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 p, .param .f32 a, .param .f32 b, .param .f32 c, \
             .param .f64 x, .param .f64 y, .param .f64 z, .param .u32 n)\n{{\n.reg .f32 %f<40>; .reg .f64 %d<20>; .reg .u64 %rd<4>; \
             .reg .pred %p<4>; .reg .u32 %r<4>; .reg .b32 %h<20>;\nld.param.u64 %rd1, [p]; ld.param.f32 %f1, [a]; ld.param.f32 %f2, [b]; \
             ld.param.f32 %f3, [c]; ld.param.f64 %d1, [x]; ld.param.f64 %d2, [y]; ld.param.f64 %d3, [z]; ld.param.u32 %r1, [n];\n{body}\nret;\n}}\n"
        );
        let module = crate::ptx::parse_and_check(&src, &Default::default()).expect("valid PTX");
        let (mut raw, errors) = crate::driver::lower(&module, Sm::new(90), Some(&src), crate::driver::Options { verify: true, ..Default::default() });
        assert!(errors.is_empty(), "{errors:?}");
        let id = raw.function_by_name("k").expect("the kernel");
        let n = contract_mul_add(&mut raw.functions[id]);
        let f = &raw.functions[id];
        verify_function(&raw, f, Stage::Raw).expect("contracted IR verifies");
        let text = crate::ir::print_function(id, f);
        // The multiplies and negations fused away are left in no block.
        let ops = text
            .lines()
            .take_while(|l| l.trim() != "unplaced:")
            .filter_map(|l| {
                let l = l.trim();
                let op = l.split_once(" = ").map_or(l, |(_, r)| r);
                let op = op.split(" !").next().unwrap_or(op);
                let name = op.split_whitespace().next()?;
                ["mul.", "add.", "sub.", "fma.", "neg.", "abs.", "div."].iter().any(|p| name.starts_with(p)).then(|| name.to_string())
            })
            .collect();
        (ops, n)
    }

    #[test]
    fn a_single_use_product_fuses_into_add_and_sub() {
        // ptxas: FFMA d, a, b, c / FFMA d, a, b, -c / FFMA d, -a, b, c / DFMA.
        let (ops, n) = contracted(
            "mul.f32 %f4, %f1, %f2; add.f32 %f5, %f4, %f3; st.global.f32 [%rd1], %f5;\n\
             mul.f32 %f6, %f1, %f3; sub.f32 %f7, %f6, %f2; st.global.f32 [%rd1+4], %f7;\n\
             mul.f32 %f8, %f2, %f3; sub.f32 %f9, %f1, %f8; st.global.f32 [%rd1+8], %f9;\n\
             mul.f64 %d4, %d1, %d2; add.f64 %d5, %d3, %d4; st.global.f64 [%rd1+16], %d5;",
        );
        assert_eq!(n, 4);
        assert_eq!(ops, ["fma.rn.f32", "fma.rn.neg4.f32", "fma.rn.neg1.f32", "fma.rn.f64"]);
    }

    #[test]
    fn an_approximate_quotient_fuses_as_a_product() {
        // ptxas: FFMA r, a', c after the reciprocal (div.full, div.approx;
        // the add's .ftz must match), FMUL + FADD for div.rn and for a
        // quotient that is also stored.
        let (ops, n) = contracted(
            "div.full.f32 %f4, %f1, %f2; add.f32 %f5, %f4, %f3; st.global.f32 [%rd1], %f5;\n\
             div.approx.f32 %f6, %f1, %f3; sub.f32 %f7, %f2, %f6; st.global.f32 [%rd1+4], %f7;\n\
             div.full.ftz.f32 %f8, %f2, %f3; add.f32 %f9, %f8, %f1; st.global.f32 [%rd1+8], %f9;\n\
             div.rn.f32 %f10, %f3, %f1; add.f32 %f11, %f10, %f2; st.global.f32 [%rd1+12], %f11;\n\
             div.full.f32 %f12, %f3, %f2; add.f32 %f13, %f12, %f1; st.global.f32 [%rd1+16], %f13; st.global.f32 [%rd1+20], %f12;",
        );
        assert_eq!(n, 2, "{ops:?}");
        assert_eq!(ops.iter().filter(|o| o.starts_with("div")).count(), 5, "{ops:?}");
        assert_eq!(ops.iter().filter(|o| o.starts_with("add") || o.starts_with("sub")).count(), 3, "{ops:?}");
    }

    #[test]
    fn explicit_rounding_sat_multiply_and_mismatched_ftz_stop_it() {
        // ptxas keeps FMUL + FADD for each pair.
        let (ops, n) = contracted(
            "mul.rn.f32 %f4, %f1, %f2; add.f32 %f5, %f4, %f3; st.global.f32 [%rd1], %f5;\n\
             mul.f32 %f6, %f1, %f3; add.rn.f32 %f7, %f6, %f2; st.global.f32 [%rd1+4], %f7;\n\
             mul.ftz.f32 %f8, %f2, %f3; add.f32 %f9, %f1, %f8; st.global.f32 [%rd1+8], %f9;\n\
             mul.f32 %f10, %f2, %f2; add.ftz.f32 %f11, %f1, %f10; st.global.f32 [%rd1+12], %f11;\n\
             mul.sat.f32 %f12, %f3, %f3; add.f32 %f13, %f1, %f12; st.global.f32 [%rd1+16], %f13;\n\
             mul.rz.f32 %f14, %f1, %f1; add.f32 %f15, %f1, %f14; st.global.f32 [%rd1+20], %f15;",
        );
        assert_eq!(n, 0);
        assert_eq!(ops.iter().filter(|o| o.starts_with("mul")).count(), 6, "{ops:?}");
    }

    #[test]
    fn ftz_and_sat_of_the_add_carry_over() {
        // ptxas: FFMA.FTZ, FFMA.SAT, FFMA.FTZ.SAT.
        let (ops, n) = contracted(
            "mul.ftz.f32 %f4, %f1, %f2; add.ftz.f32 %f5, %f4, %f3; st.global.f32 [%rd1], %f5;\n\
             mul.f32 %f6, %f1, %f3; add.sat.f32 %f7, %f6, %f2; st.global.f32 [%rd1+4], %f7;\n\
             mul.ftz.f32 %f8, %f2, %f3; add.ftz.sat.f32 %f9, %f8, %f1; st.global.f32 [%rd1+8], %f9;",
        );
        assert_eq!(n, 3);
        assert_eq!(ops, ["fma.rn.ftz.f32", "fma.rn.sat.f32", "fma.rn.ftz.sat.f32"]);
    }

    #[test]
    fn a_product_with_any_other_use_is_kept() {
        // ptxas: FMUL + FADD, the product stored / compared / rounded apart.
        let (ops, n) = contracted(
            "mul.f32 %f4, %f1, %f2; add.f32 %f5, %f4, %f3; st.global.f32 [%rd1], %f5; st.global.f32 [%rd1+4], %f4;\n\
             mul.f32 %f6, %f1, %f3; add.f32 %f7, %f6, %f2; add.rn.f32 %f8, %f6, %f1; st.global.f32 [%rd1+8], %f7; st.global.f32 [%rd1+12], %f8;\n\
             mul.f32 %f9, %f2, %f2; abs.f32 %f10, %f9; add.f32 %f11, %f10, %f1; st.global.f32 [%rd1+16], %f11;\n\
             mul.f32 %f12, %f3, %f2; add.f32 %f13, %f12, %f12; st.global.f32 [%rd1+20], %f13;",
        );
        assert_eq!(n, 0, "{ops:?}");
    }

    #[test]
    fn a_product_feeding_only_adds_fuses_into_each() {
        // ptxas: two FFMA and no FMUL; through `neg` the product's sign
        // flips (`-(a*b) + c`, `c - -(a*b)`).
        let (ops, n) = contracted(
            "mul.f32 %f4, %f1, %f2; add.f32 %f5, %f4, %f3; add.f32 %f6, %f4, %f1; st.global.f32 [%rd1], %f5; st.global.f32 [%rd1+4], %f6;\n\
             mul.f32 %f7, %f3, %f2; neg.f32 %f8, %f7; add.f32 %f9, %f8, %f1; sub.f32 %f10, %f1, %f8; add.f32 %f11, %f7, %f3;\n\
             st.global.f32 [%rd1+8], %f9; st.global.f32 [%rd1+12], %f10; st.global.f32 [%rd1+16], %f11;",
        );
        assert_eq!(n, 5);
        assert_eq!(ops, ["fma.rn.f32", "fma.rn.f32", "fma.rn.neg1.f32", "fma.rn.f32", "fma.rn.f32"]);
    }

    #[test]
    fn a_neg_with_other_ftz_stops_it() {
        // ptxas: FMUL, FADD.FTZ -x, -RZ, FADD.
        let (_, n) = contracted("mul.f32 %f4, %f1, %f2; neg.ftz.f32 %f5, %f4; add.f32 %f6, %f5, %f3; st.global.f32 [%rd1], %f6;");
        assert_eq!(n, 0);
    }

    #[test]
    fn the_first_eligible_operand_is_fused() {
        // ptxas: `a*a + b*b` -> FFMA a, a, (b*b); with `a*b` also stored
        // the second product fuses; `t5` fuses into both adds, `t4` stays.
        let (ops, n) = contracted(
            "mul.f32 %f4, %f1, %f1; mul.f32 %f5, %f2, %f2; add.f32 %f6, %f4, %f5; st.global.f32 [%rd1], %f6;\n\
             mul.f32 %f7, %f1, %f2; mul.f32 %f8, %f3, %f3; sub.f32 %f9, %f7, %f8; st.global.f32 [%rd1+4], %f9; st.global.f32 [%rd1+8], %f7;\n\
             mul.f32 %f10, %f3, %f2; mul.f32 %f11, %f3, %f1; add.f32 %f12, %f11, %f10; sub.f32 %f13, %f10, %f11; \
             st.global.f32 [%rd1+12], %f12; st.global.f32 [%rd1+16], %f13;",
        );
        assert_eq!(n, 4);
        assert_eq!(ops, ["mul.f32", "fma.rn.f32", "mul.f32", "fma.rn.neg1.f32", "mul.f32", "fma.rn.f32", "fma.rn.neg1.f32"]);
    }

    #[test]
    fn a_product_fuses_across_blocks_but_not_through_a_block_parameter() {
        // ptxas: a loop-invariant product fuses into the loop's add; one
        // carried round the loop (defined after its add) does not.
        let (ops, n) = contracted(
            "mul.f32 %f4, %f1, %f2; mov.u32 %r2, 0; mov.f32 %f5, 0f00000000; mov.f32 %f6, 0f00000000;\n\
             LOOP: add.f32 %f7, %f4, %f3; st.global.f32 [%rd1], %f7;\n\
             add.f32 %f5, %f5, %f6; mul.f32 %f6, %f7, %f2;\n\
             add.u32 %r2, %r2, 1; setp.lt.u32 %p1, %r2, %r1; @%p1 bra LOOP;\n\
             st.global.f32 [%rd1+4], %f5;",
        );
        assert_eq!(n, 1);
        assert_eq!(ops, ["fma.rn.f32", "add.f32", "mul.f32", "add.u32"]);
    }

    #[test]
    fn a_product_of_loads_before_a_loop_and_one_read_in_two_blocks_stay_apart() {
        // ptxas: FMUL before the loop, FADD in it; FMUL, FMUL, FADD,
        // FADD -x, y in the next block (no FFMA); the single use in a
        // branch's arm fuses (FFMA there).
        let (ops, n) = contracted(
            "ld.volatile.global.f32 %f4, [%rd1+64]; ld.volatile.global.f32 %f5, [%rd1+68]; mul.f32 %f6, %f4, %f5; mov.u32 %r2, 0;\n\
             LOOP: ld.volatile.global.f32 %f7, [%rd1]; add.f32 %f8, %f6, %f7; st.volatile.global.f32 [%rd1+28], %f8;\n\
             add.u32 %r2, %r2, 1; setp.lt.u32 %p1, %r2, %r1; @%p1 bra LOOP;\n\
             mul.f32 %f9, %f4, %f4; mul.f32 %f10, %f5, %f5; add.f32 %f11, %f10, %f9; setp.gt.f32 %p2, %f11, 0f40800000; @%p2 bra DONE;\n\
             sub.f32 %f12, %f10, %f9; st.global.f32 [%rd1+4], %f12;\n\
             mul.f32 %f13, %f4, %f5; setp.eq.u32 %p3, %r1, 7; @%p3 bra DONE;\n\
             add.f32 %f14, %f13, %f1; st.global.f32 [%rd1+8], %f14;\n\
             DONE:",
        );
        assert_eq!(n, 1);
        assert_eq!(ops, ["mul.f32", "add.f32", "add.u32", "mul.f32", "mul.f32", "add.f32", "sub.f32", "fma.rn.f32"]);
    }

    #[test]
    fn half_types_fuse_too() {
        // ptxas (sm_90): HFMA2, HFMA2 -b, c, a; `mul.rn.f16` stays HMUL2.
        let (ops, n) = contracted(
            "ld.param.b32 %h1, [a]; ld.param.b32 %h2, [b]; ld.param.b32 %h3, [c];\n\
             mul.f16x2 %h4, %h1, %h2; add.f16x2 %h5, %h4, %h3; st.global.b32 [%rd1], %h5;\n\
             mul.bf16x2 %h6, %h2, %h3; sub.bf16x2 %h7, %h1, %h6; st.global.b32 [%rd1+4], %h7;\n\
             mul.rn.f16x2 %h8, %h2, %h3; add.f16x2 %h9, %h1, %h8; st.global.b32 [%rd1+8], %h9;",
        );
        assert_eq!(n, 2);
        assert_eq!(ops, ["fma.rn.f16x2", "fma.rn.neg1.bf16x2", "mul.rn.f16x2", "add.f16x2"]);
    }
}

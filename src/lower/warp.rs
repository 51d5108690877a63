//! Warp-wide and synchronising instructions: `shfl.sync`, `vote.sync`,
//! `activemask`, `match.sync`, `redux.sync`, `bar.warp.sync`, `membar` and
//! `fence`, `nanosleep`, `griddepcontrol`, `bar.red`, `elect.sync`,
//! `setmaxnreg`.
//!
//! Each becomes one PTX-layer Ori instruction whose last argument is the
//! member mask (kept for legalization, which decides whether the machine
//! needs a `WARPSYNC`); `activemask`, which synchronises nothing, is a
//! vote without one. A `!p` vote source is the `negated` attribute.

use super::error::LowerError;
use super::function::FnLower;
use crate::ir::{Attrs, Cmp, DataType, InstData, MemOrder, MemScope, Opcode, RedOp, Type, Value, WarpMode};
use crate::ptx::ast::{Instruction, Operand, OperandKind, ScalarType};
use crate::ptx::opcode::Opcode as P;

impl<'a> FnLower<'_, 'a, '_> {
    /// Lowers a warp or synchronisation instruction (the caller has
    /// checked [`handles`]).
    pub fn warp_op(&mut self, i: &Instruction, attrs: Attrs) -> Result<(), LowerError> {
        match i.opcode {
            P::ShflSync => self.shfl(i, attrs),
            P::VoteSync => self.vote(i, attrs),
            // `vote.ballot.sync`: the same with `.sync` after the mode.
            P::Vote if i.modifiers.iter().any(|(m, _)| m.spelling() == ".sync") => self.vote(i, attrs),
            P::Activemask => self.activemask(i, attrs),
            P::Match => self.match_sync(i, attrs),
            P::ReduxSync => self.redux(i, attrs),
            P::BarWarpSync => self.one_arg_effect(i, attrs, Opcode::WarpSync),
            P::Nanosleep => self.one_arg_effect(i, attrs, Opcode::Nanosleep),
            P::Membar | P::Fence => self.fence(i, attrs),
            P::Griddepcontrol => self.grid_dependency(i),
            P::BarRed | P::BarCtaRed | P::BarrierRed | P::BarrierCtaRed => self.bar_red(i, attrs),
            P::ElectSync => self.elect(i),
            P::Setmaxnreg => self.register_count(i),
            _ => Err(self.unsupported(i)),
        }
    }

    /// A destination `d` or `d|p`: the value's operand and the predicate's.
    fn value_and_pred(o: &Operand) -> (Operand, Option<Operand>) {
        match &o.kind {
            OperandKind::PredPair(d, p) => {
                (Operand { kind: OperandKind::Name(*d, None), loc: o.loc }, Some(Operand { kind: OperandKind::Name(*p, None), loc: o.loc }))
            }
            _ => (o.clone(), None),
        }
    }

    /// Emits `opcode` with `args` and a 32-bit result written to `d`, and
    /// with `p` a second, predicate result written there.
    fn emit_value_and_pred(&mut self, opcode: Opcode, attrs: Attrs, args: &[Value], d: &Operand, p: Option<&Operand>) -> Result<(), LowerError> {
        let mut data = InstData::new(opcode, attrs);
        data.args.extend_from_slice(args);
        let types: &[Type] = if p.is_some() { &[Type::R32, Type::P] } else { &[Type::R32] };
        let inst = self.emit(data, types);
        let r: smallvec::SmallVec<[Value; 2]> = self.b.func.insts[inst].results.iter().copied().collect();
        self.write(d, r[0], false)?;
        if let Some(p) = p {
            self.write(p, r[1], false)?;
        }
        Ok(())
    }

    /// `shfl.sync.mode.b32 d[|p], a, b, c, membermask`.
    fn shfl(&mut self, i: &Instruction, attrs: Attrs) -> Result<(), LowerError> {
        let ops = self.operands_n(i, 5)?;
        if attrs.warp.is_none_or(|m| !matches!(m, WarpMode::Up | WarpMode::Down | WarpMode::Bfly | WarpMode::Idx)) || attrs.ty.is_some_and(|t| t.bits() != 32) {
            return Err(self.unsupported(i));
        }
        let (d, p) = Self::value_and_pred(&ops[0]);
        let mut args: smallvec::SmallVec<[Value; 4]> = smallvec::SmallVec::new();
        for o in &ops[1..] {
            args.push(self.read(o, ScalarType::B32)?);
        }
        let attrs = Attrs { warp: attrs.warp, ty: Some(DataType::B32), ..Attrs::default() };
        self.emit_value_and_pred(Opcode::Shfl, attrs, &args, &d, p.as_ref())
    }

    /// `vote.sync.{all,any,uni}.pred d, [!]a, membermask` and
    /// `vote.sync.ballot.b32 d, [!]a, membermask`.
    fn vote(&mut self, i: &Instruction, attrs: Attrs) -> Result<(), LowerError> {
        let ops = self.operands_n(i, 3)?;
        let Some(mode) = attrs.warp.filter(|m| matches!(m, WarpMode::All | WarpMode::Any | WarpMode::Uni | WarpMode::Ballot)) else {
            return Err(self.unsupported(i));
        };
        let (a, negated) = self.combine_operand(&ops[1])?;
        let mask = self.read(&ops[2], ScalarType::B32)?;
        let ballot = mode == WarpMode::Ballot;
        if !self.full_mask(mask) {
            // The machine's vote takes every converged thread, and threads
            // of other member masks may run with these (CUB's and
            // cooperative groups' tiles: each lane's mask its own tile):
            // the ballot of all, restricted to the member mask, decides
            // all, any and uni.
            // A ballot keeps every converged thread's bit, as ptxas's
            // `VOTE.ANY R5, PT, P2` does for such masks.
            let b = self.op(Opcode::Vote, Attrs { warp: Some(WarpMode::Ballot), negated, ..Attrs::default() }, &[a, mask], Type::R32);
            if mode == WarpMode::Ballot {
                return self.write(&ops[0], b, false);
            }
            let members = self.op(Opcode::And, Attrs::typed(DataType::B32), &[b, mask], Type::R32);
            let zero = self.iconst(Type::R32, 0);
            let (x, y) = match mode {
                WarpMode::Any => (members, zero),
                WarpMode::All => (members, mask),
                // Uniform: none or all of the members, i.e. the smaller of
                // the set and its complement in the mask is empty.
                _ => {
                    let rest = self.op(Opcode::Xor, Attrs::typed(DataType::B32), &[members, mask], Type::R32);
                    (self.op(Opcode::Min, Attrs::typed(DataType::U32), &[members, rest], Type::R32), zero)
                }
            };
            let cmp = if mode == WarpMode::Any { Cmp::Ne } else { Cmp::Eq };
            let v = self.op(Opcode::Setp, Attrs { cmp: Some(cmp), ..Attrs::typed(DataType::U32) }, &[x, y], Type::P);
            return self.write(&ops[0], v, false);
        }
        let attrs = Attrs { warp: Some(mode), negated, ..Attrs::default() };
        let v = self.op(Opcode::Vote, attrs, &[a, mask], if ballot { Type::R32 } else { Type::P });
        self.write(&ops[0], v, false)
    }

    /// Whether a member mask is the constant of every lane (the machine's
    /// warp operations then give the PTX result as they are).
    fn full_mask(&self, mask: Value) -> bool {
        self.b.func.value_const(mask).is_some_and(|m| m as u32 == u32::MAX)
    }

    /// `activemask.b32 d`: the ballot of a true predicate over the threads
    /// executing it, without a member mask (nothing waits for the others).
    fn activemask(&mut self, i: &Instruction, attrs: Attrs) -> Result<(), LowerError> {
        let ops = self.operands_n(i, 1)?;
        if attrs.warp.is_some() || attrs.red.is_some() {
            return Err(self.unsupported(i));
        }
        let t = self.iconst(Type::P, 1);
        let v = self.op(Opcode::Vote, Attrs { warp: Some(WarpMode::Ballot), ..Attrs::default() }, &[t], Type::R32);
        self.write(&ops[0], v, false)
    }

    /// `elect.sync d|p, membermask` (`d` may be `_`): one `elect` with the
    /// elected lane's index and the predicate true in that lane.
    fn elect(&mut self, i: &Instruction) -> Result<(), LowerError> {
        let ops = self.operands_n(i, 2)?;
        let (d, p) = Self::value_and_pred(&ops[0]);
        let d_is_sink = match d.kind {
            OperandKind::Name(s, None) => self.cx.m.names.name(s) == "_",
            OperandKind::Sink => true,
            _ => false,
        };
        let mask = self.read(&ops[1], ScalarType::B32)?;
        let mut data = InstData::new(Opcode::Elect, Attrs::default());
        data.args.push(mask);
        let inst = self.emit(data, &[Type::R32, Type::P]);
        let r: smallvec::SmallVec<[Value; 2]> = self.b.func.insts[inst].results.iter().copied().collect();
        if !d_is_sink {
            self.write(&d, r[0], false)?;
        }
        if let Some(p) = p {
            self.write(&p, r[1], false)?;
        }
        Ok(())
    }

    /// `setmaxnreg.{inc,dec}.sync.aligned.u32 n` (the checker has made
    /// sure of the modifiers, the target and that `n` is a constant): one
    /// `setmaxnreg.inc` / `.dec` of `n` and the full member mask. ptxas
    /// 13.5 drops the instruction (info C7508, "unable to determine
    /// register count at entry") where the kernel does not fix its count
    /// at entry with `.maxnreg` (launch bounds from `.maxntid` do not);
    /// so does this lowering.
    fn register_count(&mut self, i: &Instruction) -> Result<(), LowerError> {
        let ops = self.operands_n(i, 1)?;
        let has = |w: &str| i.modifiers.iter().any(|(m, _)| m.spelling() == w);
        let opcode = match (has(".inc"), has(".dec")) {
            (true, false) => Opcode::RegCountInc,
            (false, true) => Opcode::RegCountDec,
            _ => return Err(self.unsupported(i)),
        };
        if !matches!(ops[0].kind, OperandKind::Imm(_)) {
            return Err(self.unsupported(i));
        }
        if self.b.func.bounds.max_regs.is_none() {
            return Ok(());
        }
        let n = self.read(&ops[0], ScalarType::U32)?;
        let mask = self.iconst(Type::R32, u64::from(u32::MAX));
        let mut data = InstData::new(opcode, Attrs::default());
        data.args.extend_from_slice(&[n, mask]);
        self.emit(data, &[]);
        Ok(())
    }

    /// `match.{any,all}.sync.{b32,b64} d[|p], a, membermask`.
    fn match_sync(&mut self, i: &Instruction, attrs: Attrs) -> Result<(), LowerError> {
        let ops = self.operands_n(i, 3)?;
        let (Some(mode), Some(ty)) = (attrs.warp.filter(|m| matches!(m, WarpMode::Any | WarpMode::All)), attrs.ty) else {
            return Err(self.unsupported(i));
        };
        let sty = if ty.bits() == 64 { ScalarType::B64 } else { ScalarType::B32 };
        let (d, p) = Self::value_and_pred(&ops[0]);
        if p.is_some() && mode == WarpMode::Any {
            return Err(self.unsupported(i));
        }
        let a = self.read(&ops[1], sty)?;
        let mask = self.read(&ops[2], ScalarType::B32)?;
        let data_ty = Some(if ty.bits() == 64 { DataType::B64 } else { DataType::B32 });
        if !self.full_mask(mask) {
            // The machine's match compares every converged thread (as the
            // vote above): the lanes of equal value, restricted to the
            // member mask (ptxas: `MATCH.ANY` then `LOP3.LUT` with the
            // mask); all are equal where that is the whole mask.
            let any = self.op(Opcode::Match, Attrs { warp: Some(WarpMode::Any), ty: data_ty, ..Attrs::default() }, &[a, mask], Type::R32);
            let same = self.op(Opcode::And, Attrs::typed(DataType::B32), &[any, mask], Type::R32);
            if mode == WarpMode::Any {
                return self.write(&d, same, false);
            }
            let all = self.op(Opcode::Setp, Attrs { cmp: Some(Cmp::Eq), ..Attrs::typed(DataType::U32) }, &[same, mask], Type::P);
            let zero = self.iconst(Type::R32, 0);
            let v = self.op(Opcode::Selp, Attrs::typed(DataType::U32), &[mask, zero, all], Type::R32);
            self.write(&d, v, false)?;
            if let Some(p) = p {
                self.write(&p, all, false)?;
            }
            return Ok(());
        }
        let attrs = Attrs { warp: Some(mode), ty: data_ty, ..Attrs::default() };
        self.emit_value_and_pred(Opcode::Match, attrs, &[a, mask], &d, p.as_ref())
    }

    /// `redux.sync.op.type d, a, membermask` (`.add/.min/.max` of
    /// `.u32/.s32`, `.and/.or/.xor` of `.b32`, `.min/.max{.abs}{.NaN}` of
    /// `.f32`: the absolute value as argument 0's `abs` bit, `.NaN` as
    /// `nan`; legalization takes the `.f32` forms on sm_100 only).
    fn redux(&mut self, i: &Instruction, attrs: Attrs) -> Result<(), LowerError> {
        let ops = self.operands_n(i, 3)?;
        let red = attrs.red.or(attrs.combine.map(|c| match c {
            crate::ir::BoolOp::And => RedOp::And,
            crate::ir::BoolOp::Or => RedOp::Or,
            crate::ir::BoolOp::Xor => RedOp::Xor,
        }));
        let (Some(red), Some(ty)) = (red, attrs.ty) else { return Err(self.unsupported(i)) };
        let float = ty == DataType::F32 && matches!(red, RedOp::Min | RedOp::Max);
        if ty.bits() != 32 || ty.is_float() && !float || !matches!(red, RedOp::Add | RedOp::Min | RedOp::Max | RedOp::And | RedOp::Or | RedOp::Xor) {
            return Err(self.unsupported(i));
        }
        if !float && (attrs.abs != 0 || attrs.nan) {
            return Err(self.unsupported(i));
        }
        let a = self.read(&ops[1], ScalarType::B32)?;
        let mask = self.read(&ops[2], ScalarType::B32)?;
        // Below sm_80, which has no `redux.sync`, the instruction is left
        // for legalization to refuse (as ptxas refuses it). A constant
        // mask names the lanes of every thread running the instruction
        // (PTX leaves a thread outside its mask undefined), so `REDUX`
        // over the converged threads is their reduction, as ptxas has it
        // (`redux.sync.add.u32 d, a, 0xffff` -> `REDUX.SUM UR4, R0`).
        let per_lane_mask = self.b.func.value_const(mask).is_none();
        if !float && per_lane_mask && self.cx.sm.number >= 80 {
            let v = self.redux_over_members(red, ty, a, mask);
            return self.write(&ops[0], v, ty.is_signed());
        }
        let at = Attrs { red: Some(red), ty: Some(ty), abs: u8::from(attrs.abs != 0), nan: attrs.nan, ..Attrs::default() };
        let v = self.op(Opcode::Redux, at, &[a, mask], Type::R32);
        self.write(&ops[0], v, ty.is_signed())
    }

    /// The reduction `red` of `a` over the lanes of each lane's member
    /// mask, where the masks may differ between the lanes running together
    /// (CUB's logical warps: `redux.sync.add.s32 d, a, 0xf << (lane & ~3)`).
    /// `REDUX` reduces over every converged thread, so each lane reads
    /// every lane's value (`shfl.idx` from lanes 0 to 31) and combines
    /// those its mask names. ptxas instead runs `REDUX` once per distinct
    /// mask (`WARPSYNC.EXCLUSIVE`, the masks' threads serialised, then
    /// `BSYNC` to bring them together again): this compiler places no
    /// convergence barriers, so it cannot end such a region.
    fn redux_over_members(&mut self, red: RedOp, ty: DataType, a: Value, mask: Value) -> Value {
        let signed = ty.is_signed();
        let (opcode, op_ty, identity) = match red {
            RedOp::Add => (Opcode::Add, ty, 0),
            RedOp::And => (Opcode::And, DataType::B32, u32::MAX),
            RedOp::Or => (Opcode::Or, DataType::B32, 0),
            RedOp::Xor => (Opcode::Xor, DataType::B32, 0),
            RedOp::Min => (Opcode::Min, ty, if signed { i32::MAX as u32 } else { u32::MAX }),
            _ => (Opcode::Max, ty, if signed { i32::MIN as u32 } else { 0 }),
        };
        let (clamp, one, zero) = (self.iconst(Type::R32, 0x1f), self.iconst(Type::R32, 1), self.iconst(Type::R32, 0));
        let mut acc = self.iconst(Type::R32, u64::from(identity));
        for lane in 0..32u64 {
            let l = self.iconst(Type::R32, lane);
            let v = self.op(Opcode::Shfl, Attrs { warp: Some(WarpMode::Idx), ty: Some(DataType::B32), ..Attrs::default() }, &[a, l, clamp, mask], Type::R32);
            let bit = self.op(Opcode::Shr, Attrs::typed(DataType::U32), &[mask, l], Type::R32);
            let bit = self.op(Opcode::And, Attrs::typed(DataType::B32), &[bit, one], Type::R32);
            let member = self.op(Opcode::Setp, Attrs { cmp: Some(Cmp::Ne), ..Attrs::typed(DataType::U32) }, &[bit, zero], Type::P);
            let combined = self.op(opcode, Attrs::typed(op_ty), &[acc, v], Type::R32);
            acc = self.op(Opcode::Selp, Attrs::typed(DataType::U32), &[combined, acc, member], Type::R32);
        }
        acc
    }

    /// `nanosleep.u32 t`, `bar.warp.sync membermask`.
    fn one_arg_effect(&mut self, i: &Instruction, attrs: Attrs, opcode: Opcode) -> Result<(), LowerError> {
        let ops = self.operands_n(i, 1)?;
        if attrs.warp.is_some() || attrs.red.is_some() || attrs.order.is_some() {
            return Err(self.unsupported(i));
        }
        let t = self.read(&ops[0], ScalarType::U32)?;
        let mut data = InstData::new(opcode, Attrs::default());
        data.args.push(t);
        self.emit(data, &[]);
        Ok(())
    }

    /// `membar.{cta,gl,sys}` (a sequentially consistent fence of the CTA,
    /// the GPU, the system) and `fence{.sc,.acq_rel}.scope`.
    fn fence(&mut self, i: &Instruction, attrs: Attrs) -> Result<(), LowerError> {
        if !self.cx.m.operands(i.operands).is_empty() {
            return Err(self.unsupported(i));
        }
        let words: Vec<&str> = i.modifiers.iter().map(|(m, _)| m.spelling()).collect();
        let (order, scope) = if i.opcode == P::Membar {
            let scope = match words[..] {
                [".cta"] => MemScope::Cta,
                [".gl"] => MemScope::Gpu,
                [".sys"] => MemScope::Sys,
                _ => return Err(self.unsupported(i)),
            };
            (MemOrder::Sc, scope)
        } else {
            match (attrs.order, attrs.scope) {
                (Some(o @ (MemOrder::Sc | MemOrder::AcqRel)), Some(s)) if words.len() == 2 => (o, s),
                _ => return Err(self.unsupported(i)),
            }
        };
        self.emit(InstData::new(Opcode::Fence, Attrs { order: Some(order), scope: Some(scope), ..Attrs::default() }), &[]);
        Ok(())
    }
}

impl<'a> FnLower<'_, 'a, '_> {
    /// `bar.red.popc.u32 d, b, [!]p` and `bar.red.{and,or}.pred d, b, [!]p`
    /// (a barrier number; no thread count).
    fn bar_red(&mut self, i: &Instruction, attrs: Attrs) -> Result<(), LowerError> {
        let ops = self.operands_n(i, 3)?;
        let red = attrs.red.or(attrs.combine.map(|c| match c {
            crate::ir::BoolOp::And => RedOp::And,
            crate::ir::BoolOp::Or => RedOp::Or,
            crate::ir::BoolOp::Xor => RedOp::Xor,
        }));
        let Some(red) = red.filter(|r| matches!(r, RedOp::Popc | RedOp::And | RedOp::Or)) else { return Err(self.unsupported(i)) };
        let b = self.read(&ops[1], ScalarType::U32)?;
        let (p, negated) = self.combine_operand(&ops[2])?;
        let ty = if red == RedOp::Popc { Type::R32 } else { Type::P };
        let v = self.op(Opcode::BarRed, Attrs { red: Some(red), negated, ..Attrs::default() }, &[b, p], ty);
        self.write(&ops[0], v, false)
    }

    /// `griddepcontrol.wait` / `griddepcontrol.launch_dependents`.
    fn grid_dependency(&mut self, i: &Instruction) -> Result<(), LowerError> {
        let words: Vec<&str> = i.modifiers.iter().map(|(m, _)| m.spelling()).collect();
        let opcode = match words[..] {
            [".wait"] => Opcode::GridWait,
            [".launch_dependents"] => Opcode::GridLaunch,
            _ => return Err(self.unsupported(i)),
        };
        if !self.cx.m.operands(i.operands).is_empty() {
            return Err(self.unsupported(i));
        }
        self.emit(InstData::new(opcode, Attrs::default()), &[]);
        Ok(())
    }
}

/// Whether [`FnLower::warp_op`] lowers the PTX opcode.
pub(super) fn handles(op: P) -> bool {
    matches!(op, P::ShflSync | P::VoteSync | P::Vote | P::Activemask | P::Match | P::ReduxSync | P::BarWarpSync | P::Nanosleep | P::Membar | P::Fence | P::Griddepcontrol | P::BarRed | P::BarCtaRed | P::BarrierRed | P::BarrierCtaRed | P::ElectSync | P::Setmaxnreg)
}

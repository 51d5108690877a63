//! Inlining of calls, on raw Ori before legalization.
//!
//! Every call of a defined, non-recursive function is replaced by a copy
//! of the callee's body (ptxas inlines such calls at -O3 too, and a call
//! costs every live register a spill under the module's convention,
//! [`crate::regalloc::abi`]): the calling block ends with a jump to the copy's
//! entry (passing the arguments to its parameters), every `Return` of the
//! copy becomes a jump to a continuation block that holds the rest of the
//! calling block and takes the call's results as parameters. The copy's
//! `.local` variables get a frame region of their own after the caller's.
//!
//! Functions are processed callees first, so a copy never contains a call
//! that could still be inlined. A call that belongs to a cycle of the call
//! graph (recursion) or of a function without a body is left alone:
//! emission places the recursive functions in the calling kernel's
//! section ([`crate::emit`]) and calls the bodiless ones (`vprintf`)
//! through relocated addresses.

use crate::ir::entity::EntityRef;
use crate::ir::{Block, BlockCall, FuncId, Function, Inst, InstData, Module, Opcode, Space, Value, ValueData, ValueDef};
use smallvec::SmallVec;
use std::collections::BTreeSet;

/// Frame regions of inlined copies start at this alignment (the largest
/// alignment a `.local` variable of the corpus asks for).
const FRAME_ALIGN: u32 = 16;

/// The defined functions `f` calls directly.
fn callees(module: &Module, f: &Function) -> BTreeSet<FuncId> {
    let mut out = BTreeSet::new();
    for &b in &f.layout {
        for &i in &f.blocks[b].insts {
            let d = &f.insts[i];
            if d.opcode == Opcode::Call {
                let id = FuncId::new(d.imm as usize);
                if module.functions.get(id).is_some_and(|c| !c.layout.is_empty()) {
                    out.insert(id);
                }
            }
        }
    }
    out
}

/// Functions in post order of the call graph (callees before callers), and
/// the set of functions on a cycle.
fn order(module: &Module) -> (Vec<FuncId>, BTreeSet<FuncId>) {
    let edges: Vec<BTreeSet<FuncId>> = module.functions.iter().map(|(_, f)| callees(module, f)).collect();
    let n = edges.len();
    // 0 unvisited, 1 on the stack, 2 done.
    let mut state = vec![0u8; n];
    let mut post = Vec::with_capacity(n);
    let mut cyclic = BTreeSet::new();
    for root in 0..n {
        if state[root] != 0 {
            continue;
        }
        let mut stack: Vec<(usize, Vec<FuncId>)> = vec![(root, edges[root].iter().copied().collect())];
        state[root] = 1;
        while let Some((node, pending)) = stack.last_mut() {
            let node = *node;
            match pending.pop() {
                Some(next) => {
                    let k = next.index();
                    match state[k] {
                        0 => {
                            state[k] = 1;
                            stack.push((k, edges[k].iter().copied().collect()));
                        }
                        1 => {
                            // A back edge: everything on the stack from `k` up is on a cycle.
                            let from = stack.iter().position(|(s, _)| *s == k).unwrap_or(0);
                            cyclic.extend(stack[from..].iter().map(|(s, _)| FuncId::new(*s)));
                        }
                        _ => {}
                    }
                }
                None => {
                    state[node] = 2;
                    post.push(FuncId::new(node));
                    stack.pop();
                }
            }
        }
    }
    (post, cyclic)
}

/// Inlines every call it can (module docs); returns how many it inlined.
pub fn inline_calls(module: &mut Module) -> usize {
    let (post, cyclic) = order(module);
    let mut count = 0;
    for caller in post {
        loop {
            let site = find_site(module, caller, &cyclic);
            let Some((block, position, callee)) = site else { break };
            let callee_body = module.functions[callee].clone();
            inline_one(&mut module.functions[caller], block, position, &callee_body);
            count += 1;
        }
    }
    count
}

/// The first call in `caller` that can be inlined: (block, index in the
/// block, callee).
fn find_site(module: &Module, caller: FuncId, cyclic: &BTreeSet<FuncId>) -> Option<(Block, usize, FuncId)> {
    let f = &module.functions[caller];
    for &b in &f.layout {
        for (k, &i) in f.blocks[b].insts.iter().enumerate() {
            let d = &f.insts[i];
            if d.opcode != Opcode::Call || d.guard.is_some() {
                continue;
            }
            let callee = FuncId::new(d.imm as usize);
            let Some(c) = module.functions.get(callee) else { continue };
            if c.layout.is_empty() || cyclic.contains(&callee) {
                continue;
            }
            if c.returns.len() != d.results.len() || c.layout.first().is_some_and(|&e| c.blocks[e].params.len() != d.args.len()) {
                continue;
            }
            return Some((b, k, callee));
        }
    }
    None
}

/// Replaces the call at `position` of `block` in `f` by a copy of `callee`.
fn inline_one(f: &mut Function, block: Block, position: usize, callee: &Function) {
    let call = f.blocks[block].insts[position];
    let call_data = f.insts[call].clone();
    let call_loc = f.locs[call];

    // The continuation: the rest of the block, the call's results as its
    // parameters (the result values keep their identity).
    let cont = f.create_block();
    let rest: Vec<Inst> = f.blocks[block].insts.split_off(position + 1);
    f.blocks[block].insts.pop();
    f.blocks[cont].insts = rest;
    for (k, &r) in call_data.results.iter().enumerate() {
        f.values[r] = ValueData { ty: f.values[r].ty, def: ValueDef::Param(cont, k as u16) };
        f.blocks[cont].params.push(r);
    }

    // The callee's frame goes after the caller's.
    let frame_base = f.local_bytes.div_ceil(FRAME_ALIGN) * FRAME_ALIGN;
    if callee.local_bytes > 0 {
        f.local_bytes = frame_base + callee.local_bytes;
    }

    // Blocks and their parameters, then instructions with their results.
    let mut block_map: Vec<Option<Block>> = vec![None; callee.blocks.len()];
    let mut value_map: Vec<Option<Value>> = vec![None; callee.values.len()];
    let mut new_blocks = Vec::with_capacity(callee.layout.len());
    for &cb in &callee.layout {
        let nb = f.create_block();
        block_map[cb.index()] = Some(nb);
        new_blocks.push(nb);
        for &p in &callee.blocks[cb].params {
            let v = f.append_block_param(nb, callee.values[p].ty);
            value_map[p.index()] = Some(v);
        }
    }
    let mut copied: Vec<Inst> = Vec::new();
    for (&cb, &nb) in callee.layout.iter().zip(&new_blocks) {
        for &ci in &callee.blocks[cb].insts {
            let data = callee.insts[ci].clone();
            let types: SmallVec<[_; 2]> = data.results.iter().map(|&r| callee.values[r].ty).collect();
            let ni = f.create_inst(data, &types);
            for (k, &r) in callee.insts[ci].results.iter().enumerate() {
                value_map[r.index()] = Some(f.insts[ni].results[k]);
            }
            f.locs[ni] = callee.locs[ci];
            f.append_inst(nb, ni);
            copied.push(ni);
        }
    }
    for &ni in &copied {
        let d = &mut f.insts[ni];
        for u in d.uses_mut() {
            if let Some(Some(m)) = value_map.get(u.index()) {
                *u = *m;
            }
        }
        for dest in d.dests.iter_mut() {
            if let Some(Some(m)) = block_map.get(dest.block.index()) {
                dest.block = *m;
            }
        }
        if d.opcode == Opcode::SymAddr && d.attrs.space == Some(Space::Local) {
            d.offset += frame_base as i32;
        }
        if d.opcode == Opcode::Return {
            let args = std::mem::take(&mut d.args);
            let mut jump = InstData::new(Opcode::Jump, Default::default());
            jump.dests.push(BlockCall { block: cont, args: args.into_iter().collect() });
            *d = jump;
        }
    }

    // The calling block jumps to the copy's entry with the arguments.
    if let Some(&entry) = new_blocks.first() {
        let mut jump = InstData::new(Opcode::Jump, Default::default());
        jump.dests.push(BlockCall { block: entry, args: call_data.args.iter().copied().collect() });
        let j = f.create_inst(jump, &[]);
        f.locs[j] = call_loc;
        f.append_inst(block, j);
    }

    // Layout: the copy right after the calling block, then the continuation.
    let at = f.layout.iter().position(|&b| b == block).map_or(f.layout.len(), |p| p + 1);
    let mut inserted = new_blocks;
    inserted.push(cont);
    f.layout.splice(at..at, inserted);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::verify::{Stage, verify_function};
    use crate::target::Sm;

    fn lowered(src: &str) -> Module {
        let module = crate::ptx::parse_and_check(src, &Default::default()).expect("valid PTX");
        let (raw, errors) = crate::driver::lower(&module, Sm::new(80), Some(src), crate::driver::Options { verify: true, ..Default::default() });
        assert!(errors.is_empty(), "{errors:?}");
        raw
    }

    fn calls(f: &Function) -> usize {
        f.layout.iter().flat_map(|&b| f.blocks[b].insts.iter()).filter(|&&i| f.insts[i].opcode == Opcode::Call).count()
    }

    const TWO_LEVELS: &str = r#"
.version 8.0
.target sm_80
.address_size 64
.func (.reg .b32 r) twice(.reg .b32 a)
{
    add.u32 r, a, a;
    ret;
}
.func (.reg .b32 r) quad(.reg .b32 a)
{
    .reg .b32 t;
    call (t), twice, (a);
    call (r), twice, (t);
    ret;
}
.visible .entry k(.param .u64 out)
{
    .reg .b32 %r<3>;
    .reg .b64 %rd<3>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    call (%r2), quad, (%r1);
    st.global.u32 [%rd1], %r2;
    ret;
}
"#;

    #[test]
    fn nested_calls_are_inlined_and_the_result_verifies() {
        let mut raw = lowered(TWO_LEVELS);
        let kernel = raw.functions.iter().find(|(_, f)| f.name == "k").map(|(id, _)| id).expect("kernel");
        assert_eq!(calls(&raw.functions[kernel]), 1);
        let n = inline_calls(&mut raw);
        // quad's two calls, then k's call of quad.
        assert_eq!(n, 3);
        for (_, f) in raw.functions.iter() {
            assert_eq!(calls(f), 0, "{} still calls", f.name);
            if let Err(e) = verify_function(&raw, f, Stage::Raw) {
                panic!("{} does not verify after inlining: {e:?}", f.name);
            }
        }
        // The kernel now holds quad's body, which holds two copies of twice's addition.
        let k = &raw.functions[kernel];
        let adds = k.layout.iter().flat_map(|&b| k.blocks[b].insts.iter()).filter(|&&i| k.insts[i].opcode == Opcode::Add).count();
        assert_eq!(adds, 2);
    }

    #[test]
    fn recursion_is_left_alone() {
        let src = r#"
.version 8.0
.target sm_80
.address_size 64
.func (.reg .b32 r) f(.reg .b32 a)
{
    .reg .pred p;
    .reg .b32 t;
    setp.eq.u32 p, a, 0;
    mov.u32 r, 1;
    @p bra done;
    sub.u32 t, a, 1;
    call (r), f, (t);
done:
    ret;
}
.visible .entry k(.param .u64 out)
{
    .reg .b32 %r<3>;
    .reg .b64 %rd<3>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    call (%r2), f, (%r1);
    st.global.u32 [%rd1], %r2;
    ret;
}
"#;
        let mut raw = lowered(src);
        assert_eq!(inline_calls(&mut raw), 0);
        let k = raw.functions.iter().find(|(_, f)| f.name == "k").map(|(_, f)| f).expect("kernel");
        assert_eq!(calls(k), 1);
    }
}

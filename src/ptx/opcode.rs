//! The PTX instruction table: every instruction family of the PTX ISA
//! (through PTX ISA 9.x / CUDA 13) with its dotted name, the PTX ISA version
//! and lowest `.target sm_XX` that introduced it, the modifier spellings it
//! accepts, the modifiers that need a newer version or target than the family
//! itself, and an operand signature.
//!
//! The parser recognises an opcode as the longest dotted prefix that is a
//! [`OpcodeInfo::name`]; the remaining `.word`s must be listed in
//! [`OpcodeInfo::modifiers`]. Families are separate entries where the PTX ISA
//! manual has a separate instruction section or where a following word
//! changes the operand list (`mma` / `mma.sp` / `mma.sp::ordered_metadata`,
//! `bar.sync` / `bar.red`, `tcgen05.wait::ld`, ...). `bar{.cta}.*` and
//! `barrier{.cta}.*` are spelled out with and without `.cta`, since the
//! longest-match rule cannot skip a word. Operand selectors of the video
//! instructions (`a.b0`, `d.h1`) and address suffixes (`[a].unified`) are
//! operand syntax, not modifiers, and are not listed.
//!
//! Operand signatures use a small language: slots separated by single
//! spaces, whole alternatives separated by ` | `. A slot is a role,
//! optionally followed by `?` (optional, trailing) or `*` (any number, last):
//! `T` instruction type (the last type modifier; a `{..}` vector under
//! `.vN`), `W` twice the width of `T`, `T1`/`T2` first/second type modifier,
//! `p` predicate, `a` address in brackets, `l` label or function name, `x`
//! anything, or a fixed type (`b16 b32 b64 b128 u16 u32 u64 s32 s64 f32
//! f64`). Slots whose type depends on a modifier in ways this language
//! cannot state (`mul.wide` destination, `mma` fragments, tensor
//! coordinates) are `x`. Alternatives with the same operand count are
//! avoided: a checker that picks the first alternative accepting the count
//! sees the right one.
//!
//! Sources of the facts (facts only; no text or code is copied):
//! * NVIDIA, "Parallel Thread Execution ISA" versions 8.5-9.x, chapter 9.7
//!   (syntax blocks, "PTX ISA Notes" and "Target ISA Notes" of each
//!   instruction) and the release-notes chapter;
//! * NVIDIA CCCL `cuda::ptx` documentation (per-form "PTX ISA xy, SM_zz"
//!   notes) for the newest forms;
//! * `ptxas` 13.5 (V13.5.37, PTX ISA 9.5): every family was probed with
//!   sample instructions, accepted at `.version 9.5` on `sm_100a` / `sm_90a`
//!   / `sm_103a` / `sm_120a`, and its version and target requirements read
//!   from the diagnostics at `.version 1.0 .target sm_10` and at
//!   `.version 9.5` with ascending targets. Where the manual and `ptxas`
//!   disagree (`nanosleep` 6.2, `subc` 1.3, `sured` 2.0), `ptxas` wins.
//!
//! `min_sm` cannot say "architecture-specific": families and modifiers that
//! need `sm_90a` (`wgmma.*`, `setmaxnreg`), `sm_100a` (`tcgen05.*`, several
//! `.kind::`/`.tile::gather4` forms), `sm_103a` (`tcgen05.ld.red`) or
//! `sm_120a` (block-scaled `mma`) carry the plain number; a checker must
//! additionally require the `a`/`f` suffix for those.
//! Requirements that depend on combinations (e.g. `add.cc` with a 64-bit
//! type needs PTX 4.3 / sm_20, `atom.and.b64` sm_32, `.f32` mixed-precision
//! `add.f32.f16` PTX 8.6 / sm_100) are not expressible per spelling and are
//! left to the checker.

/// One PTX instruction family.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Opcode {
    // ---- integer and floating-point arithmetic
    /// `add`
    Add,
    /// `sub`
    Sub,
    /// `mul`
    Mul,
    /// `mad`
    Mad,
    /// `mul24`
    Mul24,
    /// `mad24`
    Mad24,
    /// `sad`
    Sad,
    /// `div`
    Div,
    /// `rem`
    Rem,
    /// `abs`
    Abs,
    /// `neg`
    Neg,
    /// `min`
    Min,
    /// `max`
    Max,
    /// `popc`
    Popc,
    /// `clz`
    Clz,
    /// `bfind`
    Bfind,
    /// `fns`
    Fns,
    /// `brev`
    Brev,
    /// `bfe`
    Bfe,
    /// `bfi`
    Bfi,
    /// `szext`
    Szext,
    /// `bmsk`
    Bmsk,
    /// `dp4a`
    Dp4a,
    /// `dp2a`
    Dp2a,
    /// `addc`
    Addc,
    /// `subc`
    Subc,
    /// `madc`
    Madc,
    /// `testp`
    Testp,
    /// `copysign`
    Copysign,
    /// `fma`
    Fma,
    /// `rcp`
    Rcp,
    /// `sqrt`
    Sqrt,
    /// `rsqrt`
    Rsqrt,
    /// `sin`
    Sin,
    /// `cos`
    Cos,
    /// `lg2`
    Lg2,
    /// `ex2`
    Ex2,
    /// `tanh`
    Tanh,
    // ---- comparison and selection
    /// `set`
    Set,
    /// `setp`
    Setp,
    /// `selp`
    Selp,
    /// `slct`
    Slct,
    // ---- logic and shift
    /// `and`
    And,
    /// `or`
    Or,
    /// `xor`
    Xor,
    /// `not`
    Not,
    /// `cnot`
    Cnot,
    /// `lop3`
    Lop3,
    /// `shf`
    Shf,
    /// `shl`
    Shl,
    /// `shr`
    Shr,
    // ---- data movement and conversion
    /// `mov`
    Mov,
    /// `shfl`
    Shfl,
    /// `shfl.sync`
    ShflSync,
    /// `prmt`
    Prmt,
    /// `ld`
    Ld,
    /// `ldu`
    Ldu,
    /// `st`
    St,
    /// `st.async`
    StAsync,
    /// `st.bulk`
    StBulk,
    /// `multimem.ld_reduce`
    MultimemLdReduce,
    /// `multimem.st`
    MultimemSt,
    /// `multimem.red`
    MultimemRed,
    /// `multimem.cp.async.bulk`
    MultimemCpAsyncBulk,
    /// `multimem.cp.reduce.async.bulk`
    MultimemCpReduceAsyncBulk,
    /// `prefetch`
    Prefetch,
    /// `prefetchu`
    Prefetchu,
    /// `applypriority`
    Applypriority,
    /// `discard`
    Discard,
    /// `createpolicy`
    Createpolicy,
    /// `isspacep`
    Isspacep,
    /// `cvta`
    Cvta,
    /// `cvt`
    Cvt,
    /// `cvt.pack`
    CvtPack,
    /// `mapa`
    Mapa,
    /// `getctarank`
    Getctarank,
    /// `istypep`
    Istypep,
    // ---- asynchronous copies
    /// `cp.async`
    CpAsync,
    /// `cp.async.commit_group`
    CpAsyncCommitGroup,
    /// `cp.async.wait_group`
    CpAsyncWaitGroup,
    /// `cp.async.wait_all`
    CpAsyncWaitAll,
    /// `cp.async.mbarrier.arrive`
    CpAsyncMbarrierArrive,
    /// `cp.async.bulk`
    CpAsyncBulk,
    /// `cp.reduce.async.bulk`
    CpReduceAsyncBulk,
    /// `cp.async.bulk.prefetch`
    CpAsyncBulkPrefetch,
    /// `cp.async.bulk.tensor`
    CpAsyncBulkTensor,
    /// `cp.reduce.async.bulk.tensor`
    CpReduceAsyncBulkTensor,
    /// `cp.async.bulk.prefetch.tensor`
    CpAsyncBulkPrefetchTensor,
    /// `cp.async.bulk.commit_group`
    CpAsyncBulkCommitGroup,
    /// `cp.async.bulk.wait_group`
    CpAsyncBulkWaitGroup,
    /// `tensormap.replace`
    TensormapReplace,
    /// `tensormap.cp_fenceproxy`
    TensormapCpFenceproxy,
    // ---- texture and surface
    /// `tex`
    Tex,
    /// `tld4`
    Tld4,
    /// `txq`
    Txq,
    /// `suld`
    Suld,
    /// `sust`
    Sust,
    /// `sured`
    Sured,
    /// `suq`
    Suq,
    // ---- control flow
    /// `bra`
    Bra,
    /// `brx.idx`
    BrxIdx,
    /// `call`
    Call,
    /// `ret`
    Ret,
    /// `exit`
    Exit,
    // ---- parallel synchronization and communication
    /// `bar.sync`
    BarSync,
    /// `bar.arrive`
    BarArrive,
    /// `bar.red`
    BarRed,
    /// `bar.cta.sync`
    BarCtaSync,
    /// `bar.cta.arrive`
    BarCtaArrive,
    /// `bar.cta.red`
    BarCtaRed,
    /// `barrier.sync`
    BarrierSync,
    /// `barrier.arrive`
    BarrierArrive,
    /// `barrier.red`
    BarrierRed,
    /// `barrier.cta.sync`
    BarrierCtaSync,
    /// `barrier.cta.arrive`
    BarrierCtaArrive,
    /// `barrier.cta.red`
    BarrierCtaRed,
    /// `bar.warp.sync`
    BarWarpSync,
    /// `barrier.cluster.arrive`
    BarrierClusterArrive,
    /// `barrier.cluster.wait`
    BarrierClusterWait,
    /// `membar`
    Membar,
    /// `fence`
    Fence,
    /// `fence.proxy.alias`
    FenceProxyAlias,
    /// `fence.proxy.async`
    FenceProxyAsync,
    /// `fence.proxy.async::generic`
    FenceProxyAsyncGeneric,
    /// `fence.proxy.tensormap::generic`
    FenceProxyTensormapGeneric,
    /// `atom`
    Atom,
    /// `red`
    Red,
    /// `red.async`
    RedAsync,
    /// `vote`
    Vote,
    /// `vote.sync`
    VoteSync,
    /// `match`
    Match,
    /// `activemask`
    Activemask,
    /// `redux.sync`
    ReduxSync,
    /// `griddepcontrol`
    Griddepcontrol,
    /// `elect.sync`
    ElectSync,
    /// `mbarrier.init`
    MbarrierInit,
    /// `mbarrier.inval`
    MbarrierInval,
    /// `mbarrier.expect_tx`
    MbarrierExpectTx,
    /// `mbarrier.complete_tx`
    MbarrierCompleteTx,
    /// `mbarrier.arrive`
    MbarrierArrive,
    /// `mbarrier.arrive_drop`
    MbarrierArriveDrop,
    /// `mbarrier.test_wait`
    MbarrierTestWait,
    /// `mbarrier.try_wait`
    MbarrierTryWait,
    /// `mbarrier.check_layout`
    MbarrierCheckLayout,
    /// `mbarrier.pending_count`
    MbarrierPendingCount,
    /// `setmaxnreg`
    Setmaxnreg,
    /// `clusterlaunchcontrol.try_cancel`
    ClusterlaunchcontrolTryCancel,
    /// `clusterlaunchcontrol.query_cancel`
    ClusterlaunchcontrolQueryCancel,
    /// `nanosleep`
    Nanosleep,
    /// `trap`
    Trap,
    /// `brkpt`
    Brkpt,
    /// `pmevent`
    Pmevent,
    /// `alloca`
    Alloca,
    /// `stacksave`
    Stacksave,
    /// `stackrestore`
    Stackrestore,
    // ---- matrix multiply-accumulate
    /// `wmma.load`
    WmmaLoad,
    /// `wmma.store`
    WmmaStore,
    /// `wmma.mma`
    WmmaMma,
    /// `mma`
    Mma,
    /// `mma.sp`
    MmaSp,
    /// `mma.sp::ordered_metadata`
    MmaSpOrderedMetadata,
    /// `ldmatrix`
    Ldmatrix,
    /// `stmatrix`
    Stmatrix,
    /// `movmatrix`
    Movmatrix,
    /// `wgmma.fence`
    WgmmaFence,
    /// `wgmma.commit_group`
    WgmmaCommitGroup,
    /// `wgmma.wait_group`
    WgmmaWaitGroup,
    /// `wgmma.mma_async`
    WgmmaMmaAsync,
    /// `wgmma.mma_async.sp`
    WgmmaMmaAsyncSp,
    // ---- tensor memory (tcgen05)
    /// `tcgen05.alloc`
    Tcgen05Alloc,
    /// `tcgen05.dealloc`
    Tcgen05Dealloc,
    /// `tcgen05.relinquish_alloc_permit`
    Tcgen05RelinquishAllocPermit,
    /// `tcgen05.ld`
    Tcgen05Ld,
    /// `tcgen05.st`
    Tcgen05St,
    /// `tcgen05.ld.red`
    Tcgen05LdRed,
    /// `tcgen05.wait::ld`
    Tcgen05WaitLd,
    /// `tcgen05.wait::st`
    Tcgen05WaitSt,
    /// `tcgen05.cp`
    Tcgen05Cp,
    /// `tcgen05.shift`
    Tcgen05Shift,
    /// `tcgen05.mma`
    Tcgen05Mma,
    /// `tcgen05.mma.sp`
    Tcgen05MmaSp,
    /// `tcgen05.mma.ws`
    Tcgen05MmaWs,
    /// `tcgen05.mma.ws.sp`
    Tcgen05MmaWsSp,
    /// `tcgen05.commit`
    Tcgen05Commit,
    /// `tcgen05.fence::before_thread_sync`
    Tcgen05FenceBeforeThreadSync,
    /// `tcgen05.fence::after_thread_sync`
    Tcgen05FenceAfterThreadSync,
    // ---- video
    /// `vadd`
    Vadd,
    /// `vsub`
    Vsub,
    /// `vabsdiff`
    Vabsdiff,
    /// `vmin`
    Vmin,
    /// `vmax`
    Vmax,
    /// `vshl`
    Vshl,
    /// `vshr`
    Vshr,
    /// `vmad`
    Vmad,
    /// `vset`
    Vset,
    /// `vadd2`
    Vadd2,
    /// `vsub2`
    Vsub2,
    /// `vavrg2`
    Vavrg2,
    /// `vabsdiff2`
    Vabsdiff2,
    /// `vmin2`
    Vmin2,
    /// `vmax2`
    Vmax2,
    /// `vset2`
    Vset2,
    /// `vadd4`
    Vadd4,
    /// `vsub4`
    Vsub4,
    /// `vavrg4`
    Vavrg4,
    /// `vabsdiff4`
    Vabsdiff4,
    /// `vmin4`
    Vmin4,
    /// `vmax4`
    Vmax4,
    /// `vset4`
    Vset4,
}

pub use info_table::OpcodeInfo;
use info_table::INFO;

// The families' facts: the shared crate's (the build script's generator
// derives the parser's tables from them).
use ptx2sass_shared::ptx::opcode_info as info_table;

impl Opcode {
    /// Every opcode, in declaration order.
    pub const ALL: &'static [Opcode] = &[
        Opcode::Add,
        Opcode::Sub,
        Opcode::Mul,
        Opcode::Mad,
        Opcode::Mul24,
        Opcode::Mad24,
        Opcode::Sad,
        Opcode::Div,
        Opcode::Rem,
        Opcode::Abs,
        Opcode::Neg,
        Opcode::Min,
        Opcode::Max,
        Opcode::Popc,
        Opcode::Clz,
        Opcode::Bfind,
        Opcode::Fns,
        Opcode::Brev,
        Opcode::Bfe,
        Opcode::Bfi,
        Opcode::Szext,
        Opcode::Bmsk,
        Opcode::Dp4a,
        Opcode::Dp2a,
        Opcode::Addc,
        Opcode::Subc,
        Opcode::Madc,
        Opcode::Testp,
        Opcode::Copysign,
        Opcode::Fma,
        Opcode::Rcp,
        Opcode::Sqrt,
        Opcode::Rsqrt,
        Opcode::Sin,
        Opcode::Cos,
        Opcode::Lg2,
        Opcode::Ex2,
        Opcode::Tanh,
        Opcode::Set,
        Opcode::Setp,
        Opcode::Selp,
        Opcode::Slct,
        Opcode::And,
        Opcode::Or,
        Opcode::Xor,
        Opcode::Not,
        Opcode::Cnot,
        Opcode::Lop3,
        Opcode::Shf,
        Opcode::Shl,
        Opcode::Shr,
        Opcode::Mov,
        Opcode::Shfl,
        Opcode::ShflSync,
        Opcode::Prmt,
        Opcode::Ld,
        Opcode::Ldu,
        Opcode::St,
        Opcode::StAsync,
        Opcode::StBulk,
        Opcode::MultimemLdReduce,
        Opcode::MultimemSt,
        Opcode::MultimemRed,
        Opcode::MultimemCpAsyncBulk,
        Opcode::MultimemCpReduceAsyncBulk,
        Opcode::Prefetch,
        Opcode::Prefetchu,
        Opcode::Applypriority,
        Opcode::Discard,
        Opcode::Createpolicy,
        Opcode::Isspacep,
        Opcode::Cvta,
        Opcode::Cvt,
        Opcode::CvtPack,
        Opcode::Mapa,
        Opcode::Getctarank,
        Opcode::Istypep,
        Opcode::CpAsync,
        Opcode::CpAsyncCommitGroup,
        Opcode::CpAsyncWaitGroup,
        Opcode::CpAsyncWaitAll,
        Opcode::CpAsyncMbarrierArrive,
        Opcode::CpAsyncBulk,
        Opcode::CpReduceAsyncBulk,
        Opcode::CpAsyncBulkPrefetch,
        Opcode::CpAsyncBulkTensor,
        Opcode::CpReduceAsyncBulkTensor,
        Opcode::CpAsyncBulkPrefetchTensor,
        Opcode::CpAsyncBulkCommitGroup,
        Opcode::CpAsyncBulkWaitGroup,
        Opcode::TensormapReplace,
        Opcode::TensormapCpFenceproxy,
        Opcode::Tex,
        Opcode::Tld4,
        Opcode::Txq,
        Opcode::Suld,
        Opcode::Sust,
        Opcode::Sured,
        Opcode::Suq,
        Opcode::Bra,
        Opcode::BrxIdx,
        Opcode::Call,
        Opcode::Ret,
        Opcode::Exit,
        Opcode::BarSync,
        Opcode::BarArrive,
        Opcode::BarRed,
        Opcode::BarCtaSync,
        Opcode::BarCtaArrive,
        Opcode::BarCtaRed,
        Opcode::BarrierSync,
        Opcode::BarrierArrive,
        Opcode::BarrierRed,
        Opcode::BarrierCtaSync,
        Opcode::BarrierCtaArrive,
        Opcode::BarrierCtaRed,
        Opcode::BarWarpSync,
        Opcode::BarrierClusterArrive,
        Opcode::BarrierClusterWait,
        Opcode::Membar,
        Opcode::Fence,
        Opcode::FenceProxyAlias,
        Opcode::FenceProxyAsync,
        Opcode::FenceProxyAsyncGeneric,
        Opcode::FenceProxyTensormapGeneric,
        Opcode::Atom,
        Opcode::Red,
        Opcode::RedAsync,
        Opcode::Vote,
        Opcode::VoteSync,
        Opcode::Match,
        Opcode::Activemask,
        Opcode::ReduxSync,
        Opcode::Griddepcontrol,
        Opcode::ElectSync,
        Opcode::MbarrierInit,
        Opcode::MbarrierInval,
        Opcode::MbarrierExpectTx,
        Opcode::MbarrierCompleteTx,
        Opcode::MbarrierArrive,
        Opcode::MbarrierArriveDrop,
        Opcode::MbarrierTestWait,
        Opcode::MbarrierTryWait,
        Opcode::MbarrierCheckLayout,
        Opcode::MbarrierPendingCount,
        Opcode::Setmaxnreg,
        Opcode::ClusterlaunchcontrolTryCancel,
        Opcode::ClusterlaunchcontrolQueryCancel,
        Opcode::Nanosleep,
        Opcode::Trap,
        Opcode::Brkpt,
        Opcode::Pmevent,
        Opcode::Alloca,
        Opcode::Stacksave,
        Opcode::Stackrestore,
        Opcode::WmmaLoad,
        Opcode::WmmaStore,
        Opcode::WmmaMma,
        Opcode::Mma,
        Opcode::MmaSp,
        Opcode::MmaSpOrderedMetadata,
        Opcode::Ldmatrix,
        Opcode::Stmatrix,
        Opcode::Movmatrix,
        Opcode::WgmmaFence,
        Opcode::WgmmaCommitGroup,
        Opcode::WgmmaWaitGroup,
        Opcode::WgmmaMmaAsync,
        Opcode::WgmmaMmaAsyncSp,
        Opcode::Tcgen05Alloc,
        Opcode::Tcgen05Dealloc,
        Opcode::Tcgen05RelinquishAllocPermit,
        Opcode::Tcgen05Ld,
        Opcode::Tcgen05St,
        Opcode::Tcgen05LdRed,
        Opcode::Tcgen05WaitLd,
        Opcode::Tcgen05WaitSt,
        Opcode::Tcgen05Cp,
        Opcode::Tcgen05Shift,
        Opcode::Tcgen05Mma,
        Opcode::Tcgen05MmaSp,
        Opcode::Tcgen05MmaWs,
        Opcode::Tcgen05MmaWsSp,
        Opcode::Tcgen05Commit,
        Opcode::Tcgen05FenceBeforeThreadSync,
        Opcode::Tcgen05FenceAfterThreadSync,
        Opcode::Vadd,
        Opcode::Vsub,
        Opcode::Vabsdiff,
        Opcode::Vmin,
        Opcode::Vmax,
        Opcode::Vshl,
        Opcode::Vshr,
        Opcode::Vmad,
        Opcode::Vset,
        Opcode::Vadd2,
        Opcode::Vsub2,
        Opcode::Vavrg2,
        Opcode::Vabsdiff2,
        Opcode::Vmin2,
        Opcode::Vmax2,
        Opcode::Vset2,
        Opcode::Vadd4,
        Opcode::Vsub4,
        Opcode::Vavrg4,
        Opcode::Vabsdiff4,
        Opcode::Vmin4,
        Opcode::Vmax4,
        Opcode::Vset4,
    ];

    /// The facts for this opcode.
    pub fn info(self) -> &'static OpcodeInfo {
        &INFO[self as usize]
    }

    /// Exact dotted-name lookup (`"cp.async.bulk.tensor"` -> `Some(CpAsyncBulkTensor)`).
    pub fn from_name(name: &str) -> Option<Opcode> {
        Some(match name {
            "add" => Opcode::Add,
            "sub" => Opcode::Sub,
            "mul" => Opcode::Mul,
            "mad" => Opcode::Mad,
            "mul24" => Opcode::Mul24,
            "mad24" => Opcode::Mad24,
            "sad" => Opcode::Sad,
            "div" => Opcode::Div,
            "rem" => Opcode::Rem,
            "abs" => Opcode::Abs,
            "neg" => Opcode::Neg,
            "min" => Opcode::Min,
            "max" => Opcode::Max,
            "popc" => Opcode::Popc,
            "clz" => Opcode::Clz,
            "bfind" => Opcode::Bfind,
            "fns" => Opcode::Fns,
            "brev" => Opcode::Brev,
            "bfe" => Opcode::Bfe,
            "bfi" => Opcode::Bfi,
            "szext" => Opcode::Szext,
            "bmsk" => Opcode::Bmsk,
            "dp4a" => Opcode::Dp4a,
            "dp2a" => Opcode::Dp2a,
            "addc" => Opcode::Addc,
            "subc" => Opcode::Subc,
            "madc" => Opcode::Madc,
            "testp" => Opcode::Testp,
            "copysign" => Opcode::Copysign,
            "fma" => Opcode::Fma,
            "rcp" => Opcode::Rcp,
            "sqrt" => Opcode::Sqrt,
            "rsqrt" => Opcode::Rsqrt,
            "sin" => Opcode::Sin,
            "cos" => Opcode::Cos,
            "lg2" => Opcode::Lg2,
            "ex2" => Opcode::Ex2,
            "tanh" => Opcode::Tanh,
            "set" => Opcode::Set,
            "setp" => Opcode::Setp,
            "selp" => Opcode::Selp,
            "slct" => Opcode::Slct,
            "and" => Opcode::And,
            "or" => Opcode::Or,
            "xor" => Opcode::Xor,
            "not" => Opcode::Not,
            "cnot" => Opcode::Cnot,
            "lop3" => Opcode::Lop3,
            "shf" => Opcode::Shf,
            "shl" => Opcode::Shl,
            "shr" => Opcode::Shr,
            "mov" => Opcode::Mov,
            "shfl" => Opcode::Shfl,
            "shfl.sync" => Opcode::ShflSync,
            "prmt" => Opcode::Prmt,
            "ld" => Opcode::Ld,
            "ldu" => Opcode::Ldu,
            "st" => Opcode::St,
            "st.async" => Opcode::StAsync,
            "st.bulk" => Opcode::StBulk,
            "multimem.ld_reduce" => Opcode::MultimemLdReduce,
            "multimem.st" => Opcode::MultimemSt,
            "multimem.red" => Opcode::MultimemRed,
            "multimem.cp.async.bulk" => Opcode::MultimemCpAsyncBulk,
            "multimem.cp.reduce.async.bulk" => Opcode::MultimemCpReduceAsyncBulk,
            "prefetch" => Opcode::Prefetch,
            "prefetchu" => Opcode::Prefetchu,
            "applypriority" => Opcode::Applypriority,
            "discard" => Opcode::Discard,
            "createpolicy" => Opcode::Createpolicy,
            "isspacep" => Opcode::Isspacep,
            "cvta" => Opcode::Cvta,
            "cvt" => Opcode::Cvt,
            "cvt.pack" => Opcode::CvtPack,
            "mapa" => Opcode::Mapa,
            "getctarank" => Opcode::Getctarank,
            "istypep" => Opcode::Istypep,
            "cp.async" => Opcode::CpAsync,
            "cp.async.commit_group" => Opcode::CpAsyncCommitGroup,
            "cp.async.wait_group" => Opcode::CpAsyncWaitGroup,
            "cp.async.wait_all" => Opcode::CpAsyncWaitAll,
            "cp.async.mbarrier.arrive" => Opcode::CpAsyncMbarrierArrive,
            "cp.async.bulk" => Opcode::CpAsyncBulk,
            "cp.reduce.async.bulk" => Opcode::CpReduceAsyncBulk,
            "cp.async.bulk.prefetch" => Opcode::CpAsyncBulkPrefetch,
            "cp.async.bulk.tensor" => Opcode::CpAsyncBulkTensor,
            "cp.reduce.async.bulk.tensor" => Opcode::CpReduceAsyncBulkTensor,
            "cp.async.bulk.prefetch.tensor" => Opcode::CpAsyncBulkPrefetchTensor,
            "cp.async.bulk.commit_group" => Opcode::CpAsyncBulkCommitGroup,
            "cp.async.bulk.wait_group" => Opcode::CpAsyncBulkWaitGroup,
            "tensormap.replace" => Opcode::TensormapReplace,
            "tensormap.cp_fenceproxy" => Opcode::TensormapCpFenceproxy,
            "tex" => Opcode::Tex,
            "tld4" => Opcode::Tld4,
            "txq" => Opcode::Txq,
            "suld" => Opcode::Suld,
            "sust" => Opcode::Sust,
            "sured" => Opcode::Sured,
            "suq" => Opcode::Suq,
            "bra" => Opcode::Bra,
            "brx.idx" => Opcode::BrxIdx,
            "call" => Opcode::Call,
            "ret" => Opcode::Ret,
            "exit" => Opcode::Exit,
            "bar.sync" => Opcode::BarSync,
            "bar.arrive" => Opcode::BarArrive,
            "bar.red" => Opcode::BarRed,
            "bar.cta.sync" => Opcode::BarCtaSync,
            "bar.cta.arrive" => Opcode::BarCtaArrive,
            "bar.cta.red" => Opcode::BarCtaRed,
            "barrier.sync" => Opcode::BarrierSync,
            "barrier.arrive" => Opcode::BarrierArrive,
            "barrier.red" => Opcode::BarrierRed,
            "barrier.cta.sync" => Opcode::BarrierCtaSync,
            "barrier.cta.arrive" => Opcode::BarrierCtaArrive,
            "barrier.cta.red" => Opcode::BarrierCtaRed,
            "bar.warp.sync" => Opcode::BarWarpSync,
            "barrier.cluster.arrive" => Opcode::BarrierClusterArrive,
            "barrier.cluster.wait" => Opcode::BarrierClusterWait,
            "membar" => Opcode::Membar,
            "fence" => Opcode::Fence,
            "fence.proxy.alias" => Opcode::FenceProxyAlias,
            "fence.proxy.async" => Opcode::FenceProxyAsync,
            "fence.proxy.async::generic" => Opcode::FenceProxyAsyncGeneric,
            "fence.proxy.tensormap::generic" => Opcode::FenceProxyTensormapGeneric,
            "atom" => Opcode::Atom,
            "red" => Opcode::Red,
            "red.async" => Opcode::RedAsync,
            "vote" => Opcode::Vote,
            "vote.sync" => Opcode::VoteSync,
            "match" => Opcode::Match,
            "activemask" => Opcode::Activemask,
            "redux.sync" => Opcode::ReduxSync,
            "griddepcontrol" => Opcode::Griddepcontrol,
            "elect.sync" => Opcode::ElectSync,
            "mbarrier.init" => Opcode::MbarrierInit,
            "mbarrier.inval" => Opcode::MbarrierInval,
            "mbarrier.expect_tx" => Opcode::MbarrierExpectTx,
            "mbarrier.complete_tx" => Opcode::MbarrierCompleteTx,
            "mbarrier.arrive" => Opcode::MbarrierArrive,
            "mbarrier.arrive_drop" => Opcode::MbarrierArriveDrop,
            "mbarrier.test_wait" => Opcode::MbarrierTestWait,
            "mbarrier.try_wait" => Opcode::MbarrierTryWait,
            "mbarrier.check_layout" => Opcode::MbarrierCheckLayout,
            "mbarrier.pending_count" => Opcode::MbarrierPendingCount,
            "setmaxnreg" => Opcode::Setmaxnreg,
            "clusterlaunchcontrol.try_cancel" => Opcode::ClusterlaunchcontrolTryCancel,
            "clusterlaunchcontrol.query_cancel" => Opcode::ClusterlaunchcontrolQueryCancel,
            "nanosleep" => Opcode::Nanosleep,
            "trap" => Opcode::Trap,
            "brkpt" => Opcode::Brkpt,
            "pmevent" => Opcode::Pmevent,
            "alloca" => Opcode::Alloca,
            "stacksave" => Opcode::Stacksave,
            "stackrestore" => Opcode::Stackrestore,
            "wmma.load" => Opcode::WmmaLoad,
            "wmma.store" => Opcode::WmmaStore,
            "wmma.mma" => Opcode::WmmaMma,
            "mma" => Opcode::Mma,
            "mma.sp" => Opcode::MmaSp,
            "mma.sp::ordered_metadata" => Opcode::MmaSpOrderedMetadata,
            "ldmatrix" => Opcode::Ldmatrix,
            "stmatrix" => Opcode::Stmatrix,
            "movmatrix" => Opcode::Movmatrix,
            "wgmma.fence" => Opcode::WgmmaFence,
            "wgmma.commit_group" => Opcode::WgmmaCommitGroup,
            "wgmma.wait_group" => Opcode::WgmmaWaitGroup,
            "wgmma.mma_async" => Opcode::WgmmaMmaAsync,
            "wgmma.mma_async.sp" => Opcode::WgmmaMmaAsyncSp,
            "tcgen05.alloc" => Opcode::Tcgen05Alloc,
            "tcgen05.dealloc" => Opcode::Tcgen05Dealloc,
            "tcgen05.relinquish_alloc_permit" => Opcode::Tcgen05RelinquishAllocPermit,
            "tcgen05.ld" => Opcode::Tcgen05Ld,
            "tcgen05.st" => Opcode::Tcgen05St,
            "tcgen05.ld.red" => Opcode::Tcgen05LdRed,
            "tcgen05.wait::ld" => Opcode::Tcgen05WaitLd,
            "tcgen05.wait::st" => Opcode::Tcgen05WaitSt,
            "tcgen05.cp" => Opcode::Tcgen05Cp,
            "tcgen05.shift" => Opcode::Tcgen05Shift,
            "tcgen05.mma" => Opcode::Tcgen05Mma,
            "tcgen05.mma.sp" => Opcode::Tcgen05MmaSp,
            "tcgen05.mma.ws" => Opcode::Tcgen05MmaWs,
            "tcgen05.mma.ws.sp" => Opcode::Tcgen05MmaWsSp,
            "tcgen05.commit" => Opcode::Tcgen05Commit,
            "tcgen05.fence::before_thread_sync" => Opcode::Tcgen05FenceBeforeThreadSync,
            "tcgen05.fence::after_thread_sync" => Opcode::Tcgen05FenceAfterThreadSync,
            "vadd" => Opcode::Vadd,
            "vsub" => Opcode::Vsub,
            "vabsdiff" => Opcode::Vabsdiff,
            "vmin" => Opcode::Vmin,
            "vmax" => Opcode::Vmax,
            "vshl" => Opcode::Vshl,
            "vshr" => Opcode::Vshr,
            "vmad" => Opcode::Vmad,
            "vset" => Opcode::Vset,
            "vadd2" => Opcode::Vadd2,
            "vsub2" => Opcode::Vsub2,
            "vavrg2" => Opcode::Vavrg2,
            "vabsdiff2" => Opcode::Vabsdiff2,
            "vmin2" => Opcode::Vmin2,
            "vmax2" => Opcode::Vmax2,
            "vset2" => Opcode::Vset2,
            "vadd4" => Opcode::Vadd4,
            "vsub4" => Opcode::Vsub4,
            "vavrg4" => Opcode::Vavrg4,
            "vabsdiff4" => Opcode::Vabsdiff4,
            "vmin4" => Opcode::Vmin4,
            "vmax4" => Opcode::Vmax4,
            "vset4" => Opcode::Vset4,
            _ => return None,
        })
    }

    /// The dotted name.
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// Looks up a dotted name or a dotted prefix of one, for the parser's
    /// longest-match rule: `None` when no family name starts with `name`
    /// (so no longer candidate can match either).
    pub fn name_entry(name: &str) -> Option<NameEntry> {
        let (op, continues) = super::lookup::tables::OPCODE_NAME_INDEX.get(name)?;
        Some(NameEntry { opcode: Opcode::ALL.get(usize::from(op)).copied(), continues })
    }

    /// Whether `.eq`/`.lo`/`.and`-like words are comparisons and boolean
    /// combining operators on this family (`setp`, `set`, `vset*`).
    pub fn is_comparison(self) -> bool {
        matches!(self, Opcode::Setp | Opcode::Set | Opcode::Vset | Opcode::Vset2 | Opcode::Vset4)
    }
}

/// What a dotted name is in the opcode table (see [`Opcode::name_entry`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NameEntry {
    /// The family with exactly this name, if any.
    pub opcode: Option<Opcode>,
    /// Whether some longer family name begins with this name and a dot.
    pub continues: bool,
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    const FIXED: &[&str] = &[
        "b16", "b32", "b64", "b128", "u16", "u32", "u64", "s32", "s64", "f32", "f64",
    ];

    /// Validates one signature string against the mini-language grammar.
    fn valid_signature(text: &str) -> Result<(), String> {
        if text.is_empty() {
            return Ok(());
        }
        for alt in text.split(" | ") {
            if alt.is_empty() {
                continue; // an empty alternative: no operands
            }
            let slots: Vec<&str> = alt.split(' ').collect();
            let mut seen_optional = false;
            for (i, slot) in slots.iter().enumerate() {
                let (role, rep) = match slot.as_bytes().last() {
                    Some(b'?') => (&slot[..slot.len() - 1], '?'),
                    Some(b'*') => (&slot[..slot.len() - 1], '*'),
                    _ => (&slot[..], ' '),
                };
                let known = matches!(role, "T" | "W" | "T1" | "T2" | "p" | "a" | "l" | "x")
                    || FIXED.contains(&role);
                if !known {
                    return Err(format!("unknown role '{role}' in '{alt}'"));
                }
                match rep {
                    '*' if i + 1 != slots.len() => return Err(format!("'*' not last in '{alt}'")),
                    '?' => seen_optional = true,
                    ' ' if seen_optional => {
                        return Err(format!("required slot after optional in '{alt}'"));
                    }
                    _ => {}
                }
            }
        }
        Ok(())
    }

    #[test]
    fn names_round_trip() {
        for &op in Opcode::ALL {
            assert_eq!(Opcode::from_name(op.name()), Some(op), "{}", op.name());
        }
        assert_eq!(
            Opcode::from_name("cp.async.bulk.tensor"),
            Some(Opcode::CpAsyncBulkTensor)
        );
        assert_eq!(Opcode::from_name("add"), Some(Opcode::Add));
        assert_eq!(Opcode::from_name("add.s32"), None);
        assert_eq!(Opcode::from_name(""), None);
    }

    #[test]
    fn all_is_in_declaration_order() {
        for (i, &op) in Opcode::ALL.iter().enumerate() {
            assert_eq!(op as usize, i);
        }
        assert_eq!(Opcode::ALL.len(), INFO.len());
    }

    #[test]
    fn names_are_unique() {
        let mut seen = HashSet::new();
        for &op in Opcode::ALL {
            assert!(seen.insert(op.name()), "duplicate name {}", op.name());
        }
    }

    #[test]
    fn modifiers_are_well_formed() {
        for &op in Opcode::ALL {
            let info = op.info();
            let mut seen = HashSet::new();
            for &m in info.modifiers {
                assert!(m.starts_with('.') && m.len() > 1, "{}: {m}", info.name);
                assert!(
                    !m[1..].contains('.') && !m.contains(' '),
                    "{}: {m}",
                    info.name
                );
                assert!(seen.insert(m), "{}: duplicate {m}", info.name);
            }
            for &(m, ptx, sm) in info.modifier_reqs {
                assert!(
                    info.modifiers.contains(&m),
                    "{}: requirement for unlisted {m}",
                    info.name
                );
                assert!(
                    ptx > info.min_ptx || sm > info.min_sm,
                    "{}: {m} is not above the family",
                    info.name
                );
                assert!(
                    ptx >= info.min_ptx && sm >= info.min_sm,
                    "{}: {m} is below the family",
                    info.name
                );
            }
        }
    }

    #[test]
    fn signatures_parse() {
        for &op in Opcode::ALL {
            let info = op.info();
            if let Err(e) = valid_signature(info.operands) {
                panic!("{}: {e}", info.name);
            }
        }
        assert!(valid_signature("T a u64? | x*").is_ok());
        assert!(valid_signature("T q").is_err());
        assert!(valid_signature("x* T").is_err());
        assert!(valid_signature("T? T").is_err());
    }

    #[test]
    fn versions_are_plausible() {
        for &op in Opcode::ALL {
            let info = op.info();
            assert!(
                info.min_ptx >= (1, 0) && info.min_ptx <= (9, 9),
                "{}",
                info.name
            );
            assert!(
                info.min_sm == 0 || (10..=130).contains(&info.min_sm),
                "{}",
                info.name
            );
        }
    }

    #[test]
    fn common_facts() {
        let setp = Opcode::from_name("setp").unwrap().info();
        assert_eq!(setp.operands, "p T T | p T T p");
        assert!(setp.modifiers.contains(&".ltu") && setp.modifiers.contains(&".and"));
        let ld = Opcode::from_name("ld").unwrap().info();
        assert!(
            ld.modifiers.contains(&".L2::cache_hint") && ld.modifiers.contains(&".shared::cta")
        );
        let cp = Opcode::from_name("cp.async").unwrap().info();
        assert_eq!((cp.min_ptx, cp.min_sm), ((7, 0), 80));
        let min = Opcode::from_name("min").unwrap().info();
        assert!(
            min.modifier_reqs
                .iter()
                .any(|&(m, p, s)| m == ".NaN" && p == (7, 0) && s == 80)
        );
        assert_eq!(Opcode::from_name("ret").unwrap().info().operands, "");
    }
}

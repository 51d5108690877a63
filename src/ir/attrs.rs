//! Instruction attributes: the typed variants of an opcode (data type,
//! rounding, comparison, state space…), shared by both opcode layers.
//!
//! An instruction's attributes print as dotted words after its opcode
//! (`add.s32`, `setp.lt.and.f32`, `cvt.rn.f32.s64`, `ld.global.v2.u32`) in
//! the fixed order of [`Attrs::words`]; [`Attrs::apply_word`] reads one
//! word back, so the text form round-trips. Words that are not attributes
//! belong to the opcode's name (`bar.sync`, `IMAD.WIDE`).

use std::fmt::Write as _;

macro_rules! spelled_enum {
    ($(#[$doc:meta])* $name:ident { $($(#[$vdoc:meta])* $var:ident = $text:literal,)* }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name {
            $($(#[$vdoc])* $var,)*
        }

        impl $name {
            /// Every value with its word (without the dot).
            pub const ALL: &'static [($name, &'static str)] = &[$(($name::$var, $text),)*];
            /// The word (without the dot).
            pub fn word(self) -> &'static str {
                $name::ALL[self as usize].1
            }
            /// The value spelled `word` (without the dot).
            pub fn from_word(word: &str) -> Option<$name> {
                $name::ALL.iter().find(|(_, w)| *w == word).map(|(v, _)| *v)
            }
        }
    };
}

spelled_enum! {
    /// A data type: what the bits of a value mean to an operation.
    DataType {
        /// `.pred`.
        Pred = "pred",
        /// `.b8`.
        B8 = "b8",
        /// `.b16`.
        B16 = "b16",
        /// `.b32`.
        B32 = "b32",
        /// `.b64`.
        B64 = "b64",
        /// `.b128`.
        B128 = "b128",
        /// `.u8`.
        U8 = "u8",
        /// `.u16`.
        U16 = "u16",
        /// `.u32`.
        U32 = "u32",
        /// `.u64`.
        U64 = "u64",
        /// `.s8`.
        S8 = "s8",
        /// `.s16`.
        S16 = "s16",
        /// `.s32`.
        S32 = "s32",
        /// `.s64`.
        S64 = "s64",
        /// `.u16x2`: two unsigned 16-bit lanes (`add`, `min`, `max`).
        U16x2 = "u16x2",
        /// `.s16x2`: two signed 16-bit lanes.
        S16x2 = "s16x2",
        /// `.f16`.
        F16 = "f16",
        /// `.f16x2`.
        F16x2 = "f16x2",
        /// `.bf16`.
        Bf16 = "bf16",
        /// `.bf16x2`.
        Bf16x2 = "bf16x2",
        /// `.e4m3x2`: two 8-bit floats (4 exponent bits), only converted.
        E4m3x2 = "e4m3x2",
        /// `.e5m2x2`: two 8-bit floats (5 exponent bits), only converted.
        E5m2x2 = "e5m2x2",
        /// `.tf32`: an f32 with 10 mantissa bits (the low 13 clear), only
        /// converted to.
        Tf32 = "tf32",
        /// `.f32`.
        F32 = "f32",
        /// `.f32x2`: two f32 in a 64-bit register, the first in the low word.
        F32x2 = "f32x2",
        /// `.f64`.
        F64 = "f64",
    }
}

impl DataType {
    /// Width in bits (1 for `.pred`).
    pub fn bits(self) -> u32 {
        use DataType::*;
        match self {
            Pred => 1,
            B8 | U8 | S8 => 8,
            B16 | U16 | S16 | F16 | Bf16 | E4m3x2 | E5m2x2 => 16,
            B32 | U32 | S32 | U16x2 | S16x2 | F32 | Tf32 | F16x2 | Bf16x2 => 32,
            B64 | U64 | S64 | F64 | F32x2 => 64,
            B128 => 128,
        }
    }
    /// Whether the type is a signed integer.
    pub fn is_signed(self) -> bool {
        matches!(self, DataType::S8 | DataType::S16 | DataType::S32 | DataType::S64)
    }
    /// Whether the type is a float (scalar or packed).
    pub fn is_float(self) -> bool {
        use DataType::*;
        matches!(self, F16 | F16x2 | Bf16 | Bf16x2 | E4m3x2 | E5m2x2 | F32 | Tf32 | F32x2 | F64)
    }
    /// Whether the type is an integer or untyped bits.
    pub fn is_integer(self) -> bool {
        !self.is_float() && self != DataType::Pred
    }
}

spelled_enum! {
    /// Rounding.
    Round {
        /// To nearest even.
        Rn = "rn",
        /// Toward zero.
        Rz = "rz",
        /// Toward minus infinity.
        Rm = "rm",
        /// Toward plus infinity.
        Rp = "rp",
        /// To nearest integral value, ties to even.
        Rni = "rni",
        /// To integral value toward zero.
        Rzi = "rzi",
        /// To integral value toward minus infinity.
        Rmi = "rmi",
        /// To integral value toward plus infinity.
        Rpi = "rpi",
    }
}

spelled_enum! {
    /// Comparisons (PTX's set, which the SASS compares also take).
    Cmp {
        /// `==` (ordered for floats).
        Eq = "eq",
        /// `!=` (ordered).
        Ne = "ne",
        /// `<`.
        Lt = "lt",
        /// `<=`.
        Le = "le",
        /// `>`.
        Gt = "gt",
        /// `>=`.
        Ge = "ge",
        /// Unsigned `<`.
        Lo = "lo",
        /// Unsigned `<=`.
        Ls = "ls",
        /// Unsigned `>`.
        Hi = "hi",
        /// Unsigned `>=`.
        Hs = "hs",
        /// `==` or unordered.
        Equ = "equ",
        /// `!=` or unordered.
        Neu = "neu",
        /// `<` or unordered.
        Ltu = "ltu",
        /// `<=` or unordered.
        Leu = "leu",
        /// `>` or unordered.
        Gtu = "gtu",
        /// `>=` or unordered.
        Geu = "geu",
        /// Both ordered.
        Num = "num",
        /// Either NaN.
        Nan = "nan",
    }
}

spelled_enum! {
    /// How a comparison's result combines with a predicate operand.
    BoolOp {
        /// `.and`.
        And = "and",
        /// `.or`.
        Or = "or",
        /// `.xor`.
        Xor = "xor",
    }
}

spelled_enum! {
    /// Which part of a product an integer multiply keeps.
    MulMode {
        /// The low half (same width as the operands).
        Lo = "lo",
        /// The high half.
        Hi = "hi",
        /// The whole double-width product.
        Wide = "wide",
    }
}

spelled_enum! {
    /// A state space of a memory access or address.
    Space {
        /// Generic addressing.
        Generic = "generic",
        /// `.global`.
        Global = "global",
        /// `.shared` (this CTA's).
        Shared = "shared",
        /// `.local`.
        Local = "local",
        /// `.param` (kernel parameters live in constant bank 0).
        Param = "param",
        /// `.const` (the module's constant bank).
        Const = "const",
    }
}

spelled_enum! {
    /// A special register PTX reads (`%tid.x` is `tid_x`).
    SpecialReg {
        /// `%tid.x`.
        TidX = "tid_x",
        /// `%tid.y`.
        TidY = "tid_y",
        /// `%tid.z`.
        TidZ = "tid_z",
        /// `%ntid.x`.
        NtidX = "ntid_x",
        /// `%ntid.y`.
        NtidY = "ntid_y",
        /// `%ntid.z`.
        NtidZ = "ntid_z",
        /// `%ctaid.x`.
        CtaidX = "ctaid_x",
        /// `%ctaid.y`.
        CtaidY = "ctaid_y",
        /// `%ctaid.z`.
        CtaidZ = "ctaid_z",
        /// `%nctaid.x`.
        NctaidX = "nctaid_x",
        /// `%nctaid.y`.
        NctaidY = "nctaid_y",
        /// `%nctaid.z`.
        NctaidZ = "nctaid_z",
        /// `%laneid`.
        LaneId = "laneid",
        /// `%warpid`.
        WarpId = "warpid",
        /// `%nwarpid`.
        NwarpId = "nwarpid",
        /// `%smid`.
        SmId = "smid",
        /// `%nsmid`.
        NsmId = "nsmid",
        /// `%gridid`.
        GridId = "gridid",
        /// `%lanemask_eq`.
        LanemaskEq = "lanemask_eq",
        /// `%lanemask_le`.
        LanemaskLe = "lanemask_le",
        /// `%lanemask_lt`.
        LanemaskLt = "lanemask_lt",
        /// `%lanemask_ge`.
        LanemaskGe = "lanemask_ge",
        /// `%lanemask_gt`.
        LanemaskGt = "lanemask_gt",
        /// `%clock`.
        Clock = "clock",
        /// `%clock64`.
        Clock64 = "clock64",
        /// `%globaltimer`.
        GlobalTimer = "globaltimer",
        /// `%dynamic_smem_size`.
        DynamicSmemSize = "dynamic_smem_size",
        /// `%total_smem_size`.
        TotalSmemSize = "total_smem_size",
        /// `%cluster_ctarank`.
        ClusterCtaRank = "cluster_ctarank",
        /// `%cluster_nctarank`.
        ClusterNctaRank = "cluster_nctarank",
        /// `%cluster_nctaid.x` (`.y`, `.z` follow): the cluster's shape.
        ClusterNctaidX = "cluster_nctaid_x",
        /// `%cluster_nctaid.y`.
        ClusterNctaidY = "cluster_nctaid_y",
        /// `%cluster_nctaid.z`.
        ClusterNctaidZ = "cluster_nctaid_z",
        /// `%nclusterid.x` (`.y`, `.z` follow): the grid's shape in clusters.
        NclusteridX = "nclusterid_x",
        /// `%nclusterid.y`.
        NclusteridY = "nclusterid_y",
        /// `%nclusterid.z`.
        NclusteridZ = "nclusterid_z",
        /// The launch's cluster word (no PTX name: `%is_explicit_cluster`
        /// is whether it is 1; `barrier.cluster` branches on it).
        ClusterLaunch = "cluster_launch",
        /// The CTA's rank in its cluster (`SR_CgaCtaId`, sm_90+; no PTX
        /// name: legalization reads it for shared-window addresses).
        CgaCtaId = "cgactaid",
        /// The size class of the CTA's cluster (`SR_CgaSize`, sm_100+; no
        /// PTX name: it indexes the cluster words of bank 0).
        CgaSize = "cgasize",
        /// The high word of the shared window's generic addresses
        /// (`SR_SWINHI`; no PTX name).
        SharedWindowHi = "swinhi",
        /// `%envreg<n>`, `n` in the instruction's immediate (0–31).
        EnvReg = "envreg",
        /// `%pm<n>`, a 32-bit performance counter, `n` in the
        /// instruction's immediate (0–7).
        PerfCounter = "pm",
        /// `%pm<n>_64`, the 64-bit performance counter `n` (the
        /// instruction's immediate, 0–7).
        PerfCounter64 = "pm_64",
    }
}

spelled_enum! {
    /// The function of a `MUFU`.
    MufuFunc {
        /// Reciprocal.
        Rcp = "rcp",
        /// Reciprocal square root.
        Rsq = "rsq",
        /// Square root.
        Sqrt = "sqrt",
        /// Sine.
        Sin = "sin",
        /// Cosine.
        Cos = "cos",
        /// Base-2 exponential.
        Ex2 = "ex2",
        /// Base-2 logarithm.
        Lg2 = "lg2",
        /// Reciprocal of a double's high word.
        Rcp64h = "rcp64h",
        /// Reciprocal square root of a double's high word.
        Rsq64h = "rsq64h",
        /// Hyperbolic tangent.
        Tanh = "tanh",
    }
}

spelled_enum! {
    /// The class `testp` tests a float for.
    FpClass {
        /// Neither infinite nor NaN.
        Finite = "finite",
        /// Plus or minus infinity.
        Infinite = "infinite",
        /// Not NaN.
        Number = "number",
        /// NaN.
        NotANumber = "notanumber",
        /// A normal number, or zero (PTX counts zeros as normal).
        Normal = "normal",
        /// A subnormal number (not zero).
        Subnormal = "subnormal",
    }
}

spelled_enum! {
    /// The lane pattern of a warp operation: `shfl`'s source lane, `vote`'s
    /// and `match`'s reduction.
    WarpMode {
        /// `shfl.up`: from lane `i - b`.
        Up = "up",
        /// `shfl.down`: from lane `i + b`.
        Down = "down",
        /// `shfl.bfly`: from lane `i ^ b`.
        Bfly = "bfly",
        /// `shfl.idx`: from lane `b`.
        Idx = "idx",
        /// `vote.all` / `match.all`.
        All = "all",
        /// `vote.any` / `match.any`.
        Any = "any",
        /// `vote.uni`: the predicate is the same in every active lane.
        Uni = "uni",
        /// `vote.ballot`: the mask of lanes whose predicate holds.
        Ballot = "ballot",
    }
}

spelled_enum! {
    /// The operation of an atomic, a reduction (`atom`, `red`, `redux`) or
    /// a barrier reduction (`bar.red`). `and`, `or` and `xor` are also
    /// combining operations: the opcode decides
    /// ([`Opcode::takes_reduction`](super::opcode::Opcode::takes_reduction)).
    RedOp {
        /// Sum.
        Add = "add",
        /// Minimum.
        Min = "min",
        /// Maximum.
        Max = "max",
        /// `inc`: `old >= b ? 0 : old + 1`.
        Inc = "inc",
        /// `dec`: `old == 0 || old > b ? b : old - 1`.
        Dec = "dec",
        /// Bitwise and.
        And = "and",
        /// Bitwise or.
        Or = "or",
        /// Bitwise exclusive or.
        Xor = "xor",
        /// Exchange.
        Exch = "exch",
        /// Compare and swap.
        Cas = "cas",
        /// `bar.red.popc`: the number of threads whose predicate holds.
        Popc = "popc",
    }
}

spelled_enum! {
    /// The memory-ordering semantics of an atomic or a fence.
    MemOrder {
        /// `.relaxed`.
        Relaxed = "relaxed",
        /// `.acquire`.
        Acquire = "acquire",
        /// `.release`.
        Release = "release",
        /// `.acq_rel`.
        AcqRel = "acq_rel",
        /// `.sc` (and `membar`).
        Sc = "sc",
    }
}

spelled_enum! {
    /// The set of threads a memory ordering or atomicity applies to.
    MemScope {
        /// The CTA.
        Cta = "cta",
        /// The cluster.
        Cluster = "cluster",
        /// The GPU.
        Gpu = "gpu",
        /// The system (all GPUs and the host).
        Sys = "sys",
    }
}

/// The attributes of one instruction. Every field has a "not present"
/// value, the default; which fields an opcode reads is its own business
/// (the verifier checks the combinations it relies on).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Attrs {
    /// Operation type (`add.s32`), or destination type of a conversion.
    pub ty: Option<DataType>,
    /// Source type of a conversion (`cvt.f32.s32` has `s32` here).
    pub src_ty: Option<DataType>,
    /// Rounding.
    pub round: Option<Round>,
    /// Comparison.
    pub cmp: Option<Cmp>,
    /// Combining operation of a compare.
    pub combine: Option<BoolOp>,
    /// Integer multiply mode; `hi` also selects `IMAD.HI` / `SHF.*.HI`, and
    /// a half MUFU's high source half (`MUFU.EX2.F16 R5, R0.H1`).
    pub mul: Option<MulMode>,
    /// State space of a memory access or address conversion.
    pub space: Option<Space>,
    /// Special register read.
    pub sreg: Option<SpecialReg>,
    /// MUFU function.
    pub mufu: Option<MufuFunc>,
    /// Lane pattern of a warp operation.
    pub warp: Option<WarpMode>,
    /// Operation of an atomic or reduction.
    pub red: Option<RedOp>,
    /// Memory ordering of an atomic or fence.
    pub order: Option<MemOrder>,
    /// Scope of an atomic or fence.
    pub scope: Option<MemScope>,
    /// Vector width of a memory access (1, 2, 4 or 8; 0 for scalar).
    pub vector: u8,
    /// Flush subnormals to zero.
    pub ftz: bool,
    /// Saturate.
    pub sat: bool,
    /// `.approx`.
    pub approx: bool,
    /// `.full`.
    pub full: bool,
    /// `.volatile` memory access.
    pub volatile: bool,
    /// `cvta.to`: generic to the state space (else state space to generic).
    pub to: bool,
    /// The branch condition or combining predicate is negated.
    pub negated: bool,
    /// Extended (carry-using) integer operation: `IADD3.X`, `ISETP.EX`.
    pub x: bool,
    /// Funnel shift to the left (`SHF.L`; right otherwise).
    pub left: bool,
    /// SASS operand negation: bit `i` negates argument `i` (`-R2` of
    /// `IADD3`/`FADD`/`FFMA`/`DADD`…; on the carry-using `IADD3.X` the
    /// same bit is the bitwise complement `~R2`, as the machine spells it).
    pub neg: u8,
    /// SASS operand absolute value: bit `i` takes `|argument i|`.
    pub abs: u8,
    /// Shift and mask amounts wrap (taken modulo the width: `shf.wrap`,
    /// `bmsk.wrap`, `szext.wrap`, SASS `.W`); they clamp otherwise.
    pub wrap: bool,
    /// `bfind.shiftamt` / `FLO.SH`: the shift amount that brings the bit
    /// found to the top, not its position.
    pub shiftamt: bool,
    /// The class `testp` tests for.
    pub class: Option<FpClass>,
    /// `min/max.NaN` (`FMNMX.NAN`): a NaN operand gives NaN.
    pub nan: bool,
    /// `cvt.relu` (`F2FP.RELU`): negative results become 0 (PTX ISA, `cvt`).
    pub relu: bool,
    /// `min/max.xorsign` (`FMNMX.XORSIGN`): the result's sign is the
    /// operands' signs exclusive-ored.
    pub xorsign: bool,
}

/// The boolean attributes with their words, in print order.
const FLAGS: &[(&str, fn(&Attrs) -> bool, fn(&mut Attrs))] = &[
    ("ftz", |a| a.ftz, |a| a.ftz = true),
    ("sat", |a| a.sat, |a| a.sat = true),
    ("approx", |a| a.approx, |a| a.approx = true),
    ("full", |a| a.full, |a| a.full = true),
    ("volatile", |a| a.volatile, |a| a.volatile = true),
    ("to", |a| a.to, |a| a.to = true),
    ("not", |a| a.negated, |a| a.negated = true),
    ("x", |a| a.x, |a| a.x = true),
    ("l", |a| a.left, |a| a.left = true),
    ("wrap", |a| a.wrap, |a| a.wrap = true),
    ("shiftamt", |a| a.shiftamt, |a| a.shiftamt = true),
    ("NaN", |a| a.nan, |a| a.nan = true),
    ("xorsign", |a| a.xorsign, |a| a.xorsign = true),
    ("relu", |a| a.relu, |a| a.relu = true),
];

impl Attrs {
    /// Attributes with just an operation type.
    pub fn typed(ty: DataType) -> Attrs {
        Attrs { ty: Some(ty), ..Attrs::default() }
    }

    /// The words of the attributes, each with its leading dot, in the
    /// canonical order: `to`, space, special register, comparison,
    /// combine, multiply mode, MUFU function, rounding, `testp` class, flags, operand
    /// negation and absolute-value masks (`.neg2`, `.abs1`), vector, type,
    /// source type.
    pub fn words(&self) -> String {
        let mut out = String::new();
        let mut word = |w: &str| {
            out.push('.');
            out.push_str(w);
        };
        if let Some(s) = self.space {
            word(s.word());
        }
        if let Some(s) = self.sreg {
            word(s.word());
        }
        if let Some(c) = self.cmp {
            word(c.word());
        }
        if let Some(c) = self.combine {
            word(c.word());
        }
        if let Some(m) = self.mul {
            word(m.word());
        }
        if let Some(m) = self.mufu {
            word(m.word());
        }
        if let Some(m) = self.warp {
            word(m.word());
        }
        if let Some(m) = self.red {
            word(m.word());
        }
        if let Some(m) = self.order {
            word(m.word());
        }
        if let Some(m) = self.scope {
            word(m.word());
        }
        if let Some(r) = self.round {
            word(r.word());
        }
        if let Some(c) = self.class {
            word(c.word());
        }
        for (w, get, _) in FLAGS {
            if get(self) {
                word(w);
            }
        }
        if self.neg != 0 {
            let _ = write!(out, ".neg{}", self.neg);
        }
        if self.abs != 0 {
            let _ = write!(out, ".abs{}", self.abs);
        }
        if self.vector != 0 {
            let _ = write!(out, ".v{}", self.vector);
        }
        if let Some(t) = self.ty {
            out.push('.');
            out.push_str(t.word());
        }
        if let Some(t) = self.src_ty {
            out.push('.');
            out.push_str(t.word());
        }
        out
    }

    /// Applies one word (without its dot) of an instruction whose opcode
    /// takes a multiply mode or not (see [`Opcode::takes_mul_mode`]). A
    /// type word fills `ty` first and `src_ty` second. Returns false for a
    /// word that is no attribute or sets a field twice.
    ///
    /// [`Opcode::takes_mul_mode`]: super::opcode::Opcode::takes_mul_mode
    pub fn apply_word(&mut self, word: &str, multiplies: bool) -> bool {
        self.apply_word_of(word, multiplies, false)
    }

    /// [`Attrs::apply_word`] for an opcode that takes a reduction
    /// operation or not (`reduces`: `and`/`or`/`xor` are then a
    /// [`RedOp`], else a combining operation).
    pub fn apply_word_of(&mut self, word: &str, multiplies: bool, reduces: bool) -> bool {
        fn set<T>(slot: &mut Option<T>, v: T) -> bool {
            if slot.is_some() {
                return false;
            }
            *slot = Some(v);
            true
        }
        if let Some(t) = DataType::from_word(word) {
            return if self.ty.is_none() { set(&mut self.ty, t) } else { set(&mut self.src_ty, t) };
        }
        if let Some(v) = Space::from_word(word) {
            return set(&mut self.space, v);
        }
        if let Some(v) = SpecialReg::from_word(word) {
            return set(&mut self.sreg, v);
        }
        // `hi` and `lo` are both a comparison and a multiply mode; the
        // opcode decides (`mul.hi` against `setp.hi`).
        if let Some(v) = MulMode::from_word(word).filter(|_| multiplies) {
            return set(&mut self.mul, v);
        }
        if let Some(v) = Cmp::from_word(word) {
            return set(&mut self.cmp, v);
        }
        if let Some(v) = RedOp::from_word(word).filter(|_| reduces) {
            return set(&mut self.red, v);
        }
        if let Some(v) = BoolOp::from_word(word) {
            return set(&mut self.combine, v);
        }
        if let Some(v) = RedOp::from_word(word) {
            return set(&mut self.red, v);
        }
        if let Some(v) = WarpMode::from_word(word) {
            return set(&mut self.warp, v);
        }
        if let Some(v) = MemOrder::from_word(word) {
            return set(&mut self.order, v);
        }
        if let Some(v) = MemScope::from_word(word) {
            return set(&mut self.scope, v);
        }
        if let Some(v) = MulMode::from_word(word) {
            return set(&mut self.mul, v);
        }
        if let Some(v) = MufuFunc::from_word(word) {
            return set(&mut self.mufu, v);
        }
        if let Some(v) = Round::from_word(word) {
            return set(&mut self.round, v);
        }
        if let Some(v) = FpClass::from_word(word) {
            return set(&mut self.class, v);
        }
        for (w, get, put) in FLAGS {
            if *w == word {
                if get(self) {
                    return false;
                }
                put(self);
                return true;
            }
        }
        // Operand masks: `neg<mask>` / `abs<mask>` with a non-zero mask.
        for (prefix, slot) in [("neg", &mut self.neg), ("abs", &mut self.abs)] {
            if let Some(n) = word.strip_prefix(prefix).and_then(|n| n.parse::<u8>().ok()) {
                if n == 0 || *slot != 0 {
                    return false;
                }
                *slot = n;
                return true;
            }
        }
        if let Some(n) = word.strip_prefix('v').and_then(|n| n.parse::<u8>().ok()) {
            if matches!(n, 1 | 2 | 4 | 8) && self.vector == 0 {
                self.vector = n;
                return true;
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads a `words()` string back.
    fn read(words: &str, multiplies: bool) -> Option<Attrs> {
        let mut a = Attrs::default();
        for w in words.strip_prefix('.')?.split('.') {
            if !a.apply_word(w, multiplies) {
                return None;
            }
        }
        Some(a)
    }

    #[track_caller]
    fn round_trips(a: Attrs, multiplies: bool) {
        let w = a.words();
        assert_eq!(read(&w, multiplies), Some(a), "{w}");
    }

    #[test]
    fn every_value_of_every_field_round_trips() {
        for &(t, word) in DataType::ALL {
            let a = Attrs::typed(t);
            assert_eq!(a.words(), format!(".{word}"));
            round_trips(a, false);
            round_trips(a, true);
            // As the source type of a conversion, after a destination type.
            round_trips(Attrs { src_ty: Some(t), ..Attrs::typed(DataType::F32) }, false);
        }
        for &(v, _) in Round::ALL {
            round_trips(Attrs { round: Some(v), ..Attrs::default() }, false);
        }
        for &(v, word) in Cmp::ALL {
            // `hi`/`lo` read as comparisons only where the opcode does not
            // multiply.
            let a = Attrs { cmp: Some(v), ..Attrs::default() };
            round_trips(a, false);
            if !matches!(word, "hi" | "lo") {
                round_trips(a, true);
            }
        }
        for &(v, _) in BoolOp::ALL {
            round_trips(Attrs { combine: Some(v), ..Attrs::default() }, false);
        }
        for &(v, _) in MulMode::ALL {
            round_trips(Attrs { mul: Some(v), ..Attrs::default() }, true);
        }
        for &(v, _) in Space::ALL {
            round_trips(Attrs { space: Some(v), ..Attrs::default() }, false);
        }
        for &(v, _) in SpecialReg::ALL {
            round_trips(Attrs { sreg: Some(v), ..Attrs::default() }, false);
        }
        for &(v, _) in MufuFunc::ALL {
            round_trips(Attrs { mufu: Some(v), ..Attrs::default() }, false);
        }
        for &(v, _) in WarpMode::ALL {
            round_trips(Attrs { warp: Some(v), ..Attrs::default() }, false);
        }
        for &(v, word) in RedOp::ALL {
            let a = Attrs { red: Some(v), ..Attrs::default() };
            let mut b = Attrs::default();
            assert!(b.apply_word_of(word, false, true) && b == a, "{word}");
            if !matches!(word, "and" | "or" | "xor") {
                round_trips(a, false);
            }
        }
        for &(v, _) in MemOrder::ALL {
            round_trips(Attrs { order: Some(v), ..Attrs::default() }, false);
        }
        for &(v, _) in MemScope::ALL {
            round_trips(Attrs { scope: Some(v), ..Attrs::default() }, false);
        }
        for &(v, _) in FpClass::ALL {
            round_trips(Attrs { class: Some(v), ty: Some(DataType::F64), ..Attrs::default() }, false);
        }
        round_trips(Attrs { nan: true, xorsign: true, abs: 3, ty: Some(DataType::F32), ..Attrs::default() }, false);
        for n in [1, 2, 4, 8] {
            round_trips(Attrs { vector: n, ..Attrs::default() }, false);
        }
        for (word, _, put) in FLAGS {
            let mut a = Attrs::default();
            put(&mut a);
            assert_eq!(a.words(), format!(".{word}"));
            round_trips(a, false);
        }
    }

    #[test]
    fn canonical_order() {
        let mut a = Attrs::typed(DataType::F32);
        a.cmp = Some(Cmp::Lt);
        a.combine = Some(BoolOp::And);
        a.ftz = true;
        assert_eq!(a.words(), ".lt.and.ftz.f32");
        let cvt = Attrs { round: Some(Round::Rn), src_ty: Some(DataType::S64), ..Attrs::typed(DataType::F32) };
        assert_eq!(cvt.words(), ".rn.f32.s64");
        let ld = Attrs { space: Some(Space::Global), vector: 2, volatile: true, ..Attrs::typed(DataType::U32) };
        assert_eq!(ld.words(), ".global.volatile.v2.u32");
        let mut all = Attrs { space: Some(Space::Shared), mul: Some(MulMode::Hi), ..Attrs::default() };
        for (_, _, put) in FLAGS {
            put(&mut all);
        }
        assert_eq!(all.words(), ".shared.hi.ftz.sat.approx.full.volatile.to.not.x.l.wrap.shiftamt.NaN.xorsign.relu");
        round_trips(all, true);
        // Words in another order read the same.
        assert_eq!(read(".f32.and.ftz.lt", false), Some(a));
    }

    #[test]
    fn bad_words_are_refused() {
        let mut a = Attrs::default();
        assert!(a.apply_word("s32", false) && a.apply_word("u64", false));
        assert!(!a.apply_word("f32", false), "a third type");
        assert!(!Attrs::default().apply_word("v3", false));
        assert!(!Attrs::default().apply_word("v16", false));
        assert!(!Attrs::default().apply_word("S32", false));
        assert!(!Attrs::default().apply_word("", false));
        assert_eq!(read(".lt.gt", false), None);
        assert_eq!(read(".v2.v4", false), None);
        assert_eq!(read(".ftz.ftz", false), None);
        assert_eq!(read(".lo.hi", true), None, "two multiply modes");
        // `hi` is a multiply mode for multiplies, a comparison otherwise.
        assert_eq!(read(".hi", true).and_then(|a| a.mul), Some(MulMode::Hi));
        assert_eq!(read(".hi", false).and_then(|a| a.cmp), Some(Cmp::Hi));
    }
}

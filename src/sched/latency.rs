//! Per-SM latency tables, owned by the scheduler ([`super`]) and read by
//! both hazard checkers (the static one, [`super::check`](mod@super::check), and the SASS
//! interpreter's dynamic one, [`crate::interp::sass::hazard`]): the
//! instruction classes, and for each SM the least number of cycles a
//! fixed-latency producer of each class must issue before a consumer of
//! each class reads its result, per register file.
//!
//! The numbers are data (`latency/sm_XX.tsv`, and `latency/sm_XX.library.tsv`,
//! `latency/sm_XX.triton.tsv` and `latency/sm_XX.generated.tsv` for the
//! generated library, Triton and fuzz-generator corpora, see
//! [`LIBRARY_DATA`], [`TRITON_DATA`] and [`GENERATED_DATA`]), measured from the
//! reference `ptxas` 13.5 output over the corpus by `tests/latency_tables.rs`: in
//! every straight-line basic block, for every register a fixed-latency
//! producer (one that sets no write scoreboard) writes and a later
//! instruction reads, with no scoreboard wait in between, the sum of the
//! stall counts between the two is a distance `ptxas` considered safe; the
//! minimum over the corpus per (file, producer class, consumer class) is
//! the table entry. A predicate read as a guard is read by the `guard`
//! class ([`Class::Guard`]) whatever the instruction: guards are read
//! earlier than operands (13 cycles after an ALU predicate, not 4). `ptxas` is trusted, so the table never flags its code;
//! it may be stricter than the hardware where `ptxas` never went lower.
//! The same test rewrites the files (`PTX2SASS_BLESS=1`) and fails when
//! they differ from a fresh measurement.
//!
//! Cross-check: the typical latencies measured this way (4 cycles for
//! integer ALU and single-precision producers on every SM, 5 for IMAD on
//! sm_75–89 and sm_120, 4 on sm_90/100) agree with the dependent-issue
//! latency of about 4 cycles that the Volta and Turing microbenchmark
//! studies of Jia et al. report for such instructions (arXiv 1804.06826,
//! 1903.07486); the numbers here are ptxas's, not re-measured on hardware.
//!
//! A class with no entry at all on an SM is one `ptxas` never consumed
//! without a scoreboard there: variable latency. A pair the corpus never
//! showed, or showed fewer than [`RELIABLE`] times, takes the producer's
//! typical latency (see [`Table::from_entries`]).

use crate::isa::family::{MEASURED_SMS, measured_sm};
// The classes, their list and their names in the data files: the shared
// crate's, with the opcode rows' facts.
pub use crate::isa::op_facts::{CLASSES, Class};
use crate::target::Sm;
use std::sync::OnceLock;

/// A register file, as the tables distinguish them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum File {
    /// General registers.
    R,
    /// Uniform registers.
    Ur,
    /// Predicates.
    P,
    /// Uniform predicates.
    Up,
}

impl File {
    /// Every file, in table order.
    pub const ALL: [File; 4] = [File::R, File::Ur, File::P, File::Up];

    /// The name used in the data files.
    pub const fn name(self) -> &'static str {
        match self {
            File::R => "R",
            File::Ur => "UR",
            File::P => "P",
            File::Up => "UP",
        }
    }
}

/// One measured entry of a data file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Register file of the dependence.
    pub file: File,
    /// Class of the writer.
    pub producer: Class,
    /// Class of the reader.
    pub consumer: Class,
    /// Least distance in cycles ptxas left.
    pub cycles: u8,
    /// How many dependences were measured.
    pub observations: u32,
}

/// Observations from which a measured minimum is taken as it is.
pub const RELIABLE: u32 = 20;

/// Latency value meaning "no fixed latency is known: the producer needs a
/// write scoreboard".
pub const NEEDS_SCOREBOARD: u8 = u8::MAX;

/// A latency `l` for a read that comes `relief` cycles later than its
/// class's ([`crate::sched::info::HazardInfo::reads_with_relief`]).
#[inline(always)]
pub fn relieved(l: u8, relief: u8) -> u8 {
    if l == NEEDS_SCOREBOARD { l } else { l.saturating_sub(relief) }
}

/// The latency table of one SM, with the fallbacks filled in.
#[derive(Clone, Debug)]
pub struct Table {
    /// The measured SM.
    pub sm: u16,
    /// `effective[file][producer][consumer]`: cycles, or [`NEEDS_SCOREBOARD`].
    effective: [[[u8; CLASSES]; CLASSES]; 4],
    /// The entries as measured.
    pub entries: Vec<Entry>,
    /// `effective` by [`Table::row_index`] (see [`Table::rows`]).
    rows: Box<[[u8; ROW_WIDTH]; ROWS]>,
    /// Per reader class, the most cycles IMAD.WIDE's low result may need
    /// ([`Table::wide_low_half_early`]; [`WIDE_LOW_ROW`] is IMAD.WIDE's
    /// row below these); `None`: it is IMAD.WIDE's row.
    wide_low: Option<[u8; CLASSES]>,
    /// [`Table::row_max`] by whether the texture and the tensor-core
    /// readers count, worked out on first use.
    row_max: [OnceLock<Box<[u8; 256]>>; 4],
}

/// The row of [`Table::rows`] of IMAD.WIDE's low result register (the
/// one after every file's class rows).
pub const WIDE_LOW_ROW: u8 = (1 + 4 * CLASSES) as u8;

/// How much sooner IMAD.WIDE's low result register is ready for the
/// coupled readers ([`WIDE_LOW_EARLY_READERS`]) than its high one, as a
/// published floor ([`PUBLISHED_DATA`]'s `imad_wide` row is the high
/// half's):
/// NVIDIA's tables as Mesa NAK publishes them give a CoupledAlu reader
/// 3 cycles after `IMADWideWriteDL` against 5 after `IMADWideWriteDH`
/// (sm80_instr_latencies.rs; `IMADWideLower`/`IMADWideUpper`, 3 against 5,
/// in sm75_instr_latencies.rs), an FMA reader 2 against 4, an IMAD.WIDE
/// `a`/`b` read 4 against 6, FP16 readers 3 against 5; decoupled, address,
/// FP64 and tensor-core readers the same after both. ptxas 13.5 relies on
/// it: `IMAD.WIDE.U32 R48, R51, R58, RZ`, then `@!P4 FSEL R44, R48, R46,
/// !P3` 3 cycles on (a generated program, seed 10159100, sm_90), where
/// the high half needs 4.
pub const WIDE_LOW_EARLY_CYCLES: u8 = 2;

/// The reader classes NVIDIA's tables read IMAD.WIDE's low result in
/// [`WIDE_LOW_EARLY_CYCLES`] sooner: the coupled pipes' (ALU, FMA,
/// IMAD.WIDE's `a`/`b`, FP16).
pub const WIDE_LOW_EARLY_READERS: [Class; 7] = [Class::Alu, Class::Imad, Class::ImadWide, Class::Mov, Class::Fp32, Class::Half, Class::ConvFast];

/// Rows of [`Table::rows`]: a power of two above `1 + 4 * CLASSES`, so that
/// a masked row index needs no bounds check.
pub const ROWS: usize = 128;
/// Columns of a row of [`Table::rows`] (a power of two, at least
/// [`CLASSES`]).
pub const ROW_WIDTH: usize = 32;
const _: () = assert!(4 * CLASSES + 1 < ROWS && CLASSES <= ROW_WIDTH);

impl Table {
    /// Builds a table from measured entries.
    ///
    /// A minimum over few observations says more about where ptxas happened
    /// to place the reader than about the pipeline (`mov → mov: 20 cycles`
    /// from 2 dependences on sm_86, against 4–5 for every well-observed
    /// consumer of MOV), and ptxas's own code elsewhere goes below it. So an
    /// entry with fewer than [`RELIABLE`] observations is lowered to the
    /// producer's typical latency (its most-observed entry in the same file,
    /// else in any file, a tensor-core reader's only where there is no
    /// other) when that is lower; a pair never observed takes the typical
    /// latency.
    pub fn from_entries(sm: u16, entries: Vec<Entry>) -> Table {
        let mut measured = [[[None::<(u8, u32)>; CLASSES]; CLASSES]; 4];
        for e in &entries {
            let slot = &mut measured[e.file as usize][e.producer as usize][e.consumer as usize];
            *slot = Some(slot.map_or((e.cycles, e.observations), |(c, n)| (c.min(e.cycles), n + e.observations)));
        }
        // The most-observed entry of a row (ties: the lower latency). The
        // tensor cores collect their operands later than any other reader
        // (`F2FP -> HMMA` 7 cycles where `F2FP -> IADD3` is 4, sm_80), so
        // their entries say nothing of the row's other readers: they count
        // only in a row that has no other.
        let most_observed = |entries: &mut dyn Iterator<Item = (usize, (u8, u32))>| {
            let key = |(c, n): (u8, u32)| (n, std::cmp::Reverse(c));
            let (mut ordinary, mut any) = (None::<(u8, u32)>, None::<(u8, u32)>);
            for (c, e) in entries {
                let best = if c == Class::Mma as usize { &mut any } else { &mut ordinary };
                if best.is_none_or(|b| key(e) >= key(b)) {
                    *best = Some(e);
                }
            }
            ordinary.or(any).map(|(c, _)| c)
        };
        // Guards are read earlier than any operand (13 cycles after an ALU
        // predicate where operands need 4): their column says nothing of
        // the row's other readers, nor theirs of it.
        let typical = |row: &[Option<(u8, u32)>; CLASSES]| most_observed(&mut row.iter().enumerate().filter(|(c, _)| *c != Class::Guard as usize).filter_map(|(c, e)| Some((c, (*e)?))));
        // A guard after a producer the corpus never showed guarding takes
        // the most a well-observed producer of its file needed.
        let guard_fallback: [Option<u8>; 4] =
            std::array::from_fn(|f| (0..CLASSES).filter_map(|p| measured[f][p][Class::Guard as usize]).filter(|(_, n)| *n >= RELIABLE).map(|(c, _)| c).max());
        let mut effective = [[[NEEDS_SCOREBOARD; CLASSES]; CLASSES]; 4];
        for p in 0..CLASSES {
            let any_file = most_observed(&mut (0..4).flat_map(|f| measured[f][p].iter().enumerate().filter(|(c, _)| *c != Class::Guard as usize).filter_map(|(c, e)| Some((c, (*e)?)))));
            for f in 0..4 {
                let Some(typical) = typical(&measured[f][p]).or(any_file) else { continue };
                for c in 0..CLASSES {
                    let fallback = if c == Class::Guard as usize { guard_fallback[f].map_or(typical, |g| g.max(typical)) } else { typical };
                    effective[f][p][c] = match measured[f][p][c] {
                        Some((cycles, n)) if n >= RELIABLE => cycles,
                        Some((cycles, _)) => cycles.min(fallback),
                        None => fallback,
                    };
                }
            }
        }
        Table::with_effective(sm, effective, entries, None)
    }

    fn with_effective(sm: u16, effective: [[[u8; CLASSES]; CLASSES]; 4], entries: Vec<Entry>, wide_low: Option<[u8; CLASSES]>) -> Table {
        let mut rows = Box::new([[0u8; ROW_WIDTH]; ROWS]);
        for (f, by_producer) in effective.iter().enumerate() {
            for (p, by_consumer) in by_producer.iter().enumerate() {
                rows[1 + f * CLASSES + p][..CLASSES].copy_from_slice(by_consumer);
            }
        }
        let mut low = effective[File::R as usize][Class::ImadWide as usize];
        if let Some(bound) = wide_low {
            for (l, b) in low.iter_mut().zip(bound) {
                if *l != NEEDS_SCOREBOARD {
                    *l = (*l).min(b);
                }
            }
        }
        rows[usize::from(WIDE_LOW_ROW)][..CLASSES].copy_from_slice(&low);
        Table { sm, effective, entries, rows, wide_low, row_max: Default::default() }
    }

    /// This table with IMAD.WIDE's low result ready for the coupled
    /// readers [`WIDE_LOW_EARLY_CYCLES`] sooner than NVIDIA's published
    /// latency of the high one (`published`'s `imad_wide` row), in
    /// [`WIDE_LOW_ROW`]; the checker's: the scheduler keeps the high
    /// half's latency for both. A reader with no published entry keeps
    /// IMAD.WIDE's.
    pub fn wide_low_half_early(self, published: &[Entry]) -> Table {
        let mut bound = [u8::MAX; CLASSES];
        for e in published.iter().filter(|e| e.file == File::R && e.producer == Class::ImadWide && WIDE_LOW_EARLY_READERS.contains(&e.consumer)) {
            bound[e.consumer as usize] = e.cycles.saturating_sub(WIDE_LOW_EARLY_CYCLES).max(1);
        }
        Table::with_effective(self.sm, self.effective, self.entries, Some(bound))
    }

    /// This table with no latency above `bound`'s (entries kept as they
    /// are).
    pub fn at_most(self, bound: &Table) -> Table {
        let mut effective = self.effective;
        for (mine, theirs) in effective.iter_mut().flatten().flatten().zip(bound.effective.iter().flatten().flatten()) {
            *mine = (*mine).min(*theirs);
        }
        Table::with_effective(self.sm, effective, self.entries, self.wide_low)
    }

    /// This table with no fixed latency above a published entry's
    /// ([`PUBLISHED_DATA`]): each entry lowers its pair's latency to its
    /// cycles, never raises it, and leaves a pair that needs a scoreboard
    /// as it is (a published number says nothing of whether ptxas's code
    /// waits on a scoreboard there).
    pub fn at_most_published(self, published: &[Entry]) -> Table {
        let mut effective = self.effective;
        for e in published {
            let cell = &mut effective[e.file as usize][e.producer as usize][e.consumer as usize];
            if *cell != NEEDS_SCOREBOARD {
                *cell = (*cell).min(e.cycles);
            }
        }
        Table::with_effective(self.sm, effective, self.entries, self.wide_low)
    }

    /// This table with no fixed latency after a MOV above the same
    /// reader's after an ALU result, where NVIDIA's tables ([`PUBLISHED_DATA`])
    /// make a MOV write as the ALU does: on every SM they cover, the `mov`
    /// and `alu` rows of the general registers are equal for every reader.
    /// It reaches the readers those tables do not cover (ptxas 13.5 reads a
    /// `@!P0 MOV R2, 0x80` in `SYNCS.ARRIVE.TRANS64` 4 cycles on, sm_120,
    /// `filetests/compile/mbarrier_bulk_copy.ptx`, as it does ALU results,
    /// 358 times over the library corpus, where the 26 MOVs it read seen
    /// there were 6 cycles or more ahead). A table whose published rows
    /// differ, or that has none, is returned as it is.
    pub fn mov_writes_as_alu(self, published: &[Entry]) -> Table {
        let row = |p: Class| {
            let mut row: Vec<(Class, u8)> = published.iter().filter(|e| e.file == File::R && e.producer == p).map(|e| (e.consumer, e.cycles)).collect();
            row.sort_by_key(|&(c, _)| c as usize);
            row
        };
        let alu = row(Class::Alu);
        if alu.is_empty() || alu != row(Class::Mov) {
            return self;
        }
        let mut effective = self.effective;
        let (r, mov, alu) = (File::R as usize, Class::Mov as usize, Class::Alu as usize);
        for c in 0..CLASSES {
            let bound = effective[r][alu][c];
            let cell = &mut effective[r][mov][c];
            if *cell != NEEDS_SCOREBOARD && bound != NEEDS_SCOREBOARD {
                *cell = (*cell).min(bound);
            }
        }
        Table::with_effective(self.sm, effective, self.entries, self.wide_low)
    }

    /// The row of [`Table::rows`] holding the consumer latencies of a
    /// producer class writing a register file.
    #[inline]
    pub fn row_index(file: File, producer: Class) -> u8 {
        (1 + file as usize * CLASSES + producer as usize) as u8
    }

    /// The latencies as rows indexed by one byte: row 0 is all zeros (no
    /// fixed-latency result in flight), row [`Table::row_index`] has the
    /// cycles each consumer class must issue after that producer (columns
    /// by `Class as usize`; those past [`CLASSES`] unused). A checker keeps
    /// a row index per register and reads one byte per dependence.
    #[inline]
    pub fn rows(&self) -> &[[u8; ROW_WIDTH]; ROWS] {
        &self.rows
    }

    /// Per row of [`Table::rows`] (file × producer class, and IMAD.WIDE's
    /// low half; 256 entries, those past the rows 0), the largest fixed
    /// latency to any consumer class, the texture unit's counted only with
    /// `fetches` and the tensor cores' only with `multiplies`.
    pub fn row_max(&self, fetches: bool, multiplies: bool) -> &[u8; 256] {
        let counts = |c: Class| (c != Class::Texture || fetches) && (c != Class::Mma || multiplies);
        self.row_max[usize::from(fetches) | usize::from(multiplies) << 1].get_or_init(|| {
            let mut out = Box::new([0u8; 256]);
            for (m, row) in out.iter_mut().zip(self.rows.iter()) {
                *m = Class::ALL.iter().filter(|&&c| counts(c)).map(|&c| row[c as usize]).filter(|&l| l != NEEDS_SCOREBOARD).max().unwrap_or(0);
            }
            out
        })
    }

    /// The cycles a consumer must issue after a fixed-latency producer, or
    /// [`NEEDS_SCOREBOARD`] when the producer class has no fixed latency here.
    #[inline]
    pub fn latency(&self, file: File, producer: Class, consumer: Class) -> u8 {
        self.effective[file as usize][producer as usize][consumer as usize]
    }

    /// [`Table::latency`] with the producer class as its number
    /// (`Class as u8`); [`NEEDS_SCOREBOARD`] for a number that is no class.
    #[inline]
    pub fn latency_by_index(&self, file: File, producer: u8, consumer: Class) -> u8 {
        self.effective[file as usize].get(usize::from(producer)).map_or(NEEDS_SCOREBOARD, |row| row[consumer as usize])
    }
}

/// The SMs with latency tables of their own: those whose encodings were
/// measured ([`MEASURED_SMS`]), and sm_103, which shares sm_100's
/// encodings but not all of its latencies: ptxas 13.5 reads HSETP2's
/// predicate 4 cycles on for sm_103, where for sm_100 it leaves 5 (112
/// generated programs' reads) and NVIDIA's sm_100 table says 5 (fuzz
/// programs, seeds 94 and 230 of the CI smoke). Another SM takes the
/// table of its measured SM ([`measured_sm`]).
pub const LATENCY_SMS: [u16; 8] = [75, 80, 86, 89, 90, 100, 103, 120];

/// The data file of each SM of [`LATENCY_SMS`], in its order.
const DATA: &[(u16, &str)] = &[
    (75, include_str!("latency/sm_75.tsv")),
    (80, include_str!("latency/sm_80.tsv")),
    (86, include_str!("latency/sm_86.tsv")),
    (89, include_str!("latency/sm_89.tsv")),
    (90, include_str!("latency/sm_90.tsv")),
    (100, include_str!("latency/sm_100.tsv")),
    (103, include_str!("latency/sm_103.tsv")),
    (120, include_str!("latency/sm_120.tsv")),
];

/// The observations of ptxas's code for the library corpus (CUB, Thrust,
/// cuRAND, cooperative groups, generated by `scripts/library-corpus.sh`),
/// measured the same way and merged into the checker's table of each SM
/// ([`checking_table`]): code nobody here
/// wrote shows dependences the shared corpus has too few of (`DADD` read
/// by `SHFL` 7 cycles later, `DMUL` by `FRND.F64` after 7, `DSETP`'s
/// predicate by `SEL` after 12 on sm_90). Kept in files of their own
/// because that corpus is generated, not checked in: the measuring test
/// re-measures them where it has been generated.
const LIBRARY_DATA: &[(u16, &str)] = &[
    (75, include_str!("latency/sm_75.library.tsv")),
    (80, include_str!("latency/sm_80.library.tsv")),
    (86, include_str!("latency/sm_86.library.tsv")),
    (89, include_str!("latency/sm_89.library.tsv")),
    (90, include_str!("latency/sm_90.library.tsv")),
    (100, include_str!("latency/sm_100.library.tsv")),
    (103, include_str!("latency/sm_103.library.tsv")),
    (120, include_str!("latency/sm_120.library.tsv")),
];

/// The observations of ptxas's code for Triton's PTX (the kernels of
/// `corpus/triton`, compiled by Triton for sm_80, sm_90a, sm_100a and
/// sm_120a by `scripts/triton-corpus.sh`), measured the same way and
/// merged into the checker's table like [`LIBRARY_DATA`]: Triton's code
/// reads `F2FP` and `I2FP` results 4 cycles on where the corpora never went
/// below 5 (sm_90, sm_100), `HMNMX2`'s after 4 (sm_80), an `IADD3` carry
/// in `IMAD.WIDE.X` after 5 (sm_90). Triton targets no other SM.
const TRITON_DATA: &[(u16, &str)] = &[
    (80, include_str!("latency/sm_80.triton.tsv")),
    (90, include_str!("latency/sm_90.triton.tsv")),
    (100, include_str!("latency/sm_100.triton.tsv")),
    (120, include_str!("latency/sm_120.triton.tsv")),
];

/// The observations of ptxas's code for programs of the fuzz crate's
/// generator (`scripts/generated-corpus.sh`), measured the same way and
/// merged into the checker's table like [`LIBRARY_DATA`]: generated
/// arithmetic reads `IMAD.HI`'s carry-out predicate in `IMAD.X` 4 cycles
/// on (sm_80), `HADD2`'s result after 4 (sm_86), pairs the corpora never
/// showed that close.
const GENERATED_DATA: &[(u16, &str)] = &[
    (75, include_str!("latency/sm_75.generated.tsv")),
    (80, include_str!("latency/sm_80.generated.tsv")),
    (86, include_str!("latency/sm_86.generated.tsv")),
    (89, include_str!("latency/sm_89.generated.tsv")),
    (90, include_str!("latency/sm_90.generated.tsv")),
    (100, include_str!("latency/sm_100.generated.tsv")),
    (103, include_str!("latency/sm_103.generated.tsv")),
    (120, include_str!("latency/sm_120.generated.tsv")),
];
/// NVIDIA's own fixed latencies, as Mesa NAK publishes them
/// (`latency/sm_XX.published.tsv`, each naming its source), in this
/// module's classes: for each pair of classes the least latency NVIDIA's
/// tables give any pair of their instructions. A floor of the checker's
/// table ([`checking_table`]): ptxas's code goes below what the corpora
/// measured where the hardware allows it (an `IADD3.X` reading `IMAD.HI`'s
/// carry-out 5 cycles on, where 935 measured reads in generated programs
/// were 9 or more; `FMNMX` then `F2FP` at 4 on sm_80, where FFMA's result
/// needs 5). NAK's Ampere table serves sm_86 and sm_89 as well; it has
/// none for sm_90, whose file holds the pairs its Ampere and Blackwell
/// tables both give, at the larger latency.
const PUBLISHED_DATA: &[(u16, &str)] = &[
    (75, include_str!("latency/sm_75.published.tsv")),
    (80, include_str!("latency/sm_80.published.tsv")),
    (86, include_str!("latency/sm_80.published.tsv")),
    (89, include_str!("latency/sm_80.published.tsv")),
    (90, include_str!("latency/sm_90.published.tsv")),
    (100, include_str!("latency/sm_100.published.tsv")),
    // NVIDIA publishes no sm_103 table: B100's, assumed (ptxas's sm_103
    // code goes at or below its sm_100 latencies wherever both were measured).
    (103, include_str!("latency/sm_100.published.tsv")),
    // sm_120 too takes B100's table as it is. Mesa NAK adds a cycle to
    // every entry for the RTX parts ("padding to get everything passing",
    // `sm120_instr_latencies.rs`), a blanket margin rather than NVIDIA's
    // numbers, and ptxas's own sm_120 code goes below it: `IMAD.X` reads
    // `IMAD.WIDE.U32.X`'s carry-out 4 cycles on (B100's 4; seed 9938495),
    // and `PLOP3` an `HSETP2` predicate after 4 (110 reads of the
    // generated corpus, below B100's 5).
    (120, include_str!("latency/sm_100.published.tsv")),
];

// One lazily parsed table per data file ([`table`]).
const _: () = assert!(DATA.len() == LATENCY_SMS.len() && LIBRARY_DATA.len() == LATENCY_SMS.len() && GENERATED_DATA.len() == LATENCY_SMS.len());
const _: () = {
    let mut k = 0;
    while k < LATENCY_SMS.len() {
        assert!(DATA[k].0 == LATENCY_SMS[k] && LIBRARY_DATA[k].0 == LATENCY_SMS[k] && GENERATED_DATA[k].0 == LATENCY_SMS[k], "the data files are in LATENCY_SMS's order");
        k += 1;
    }
};

/// The data file text of a measured SM (for the measuring test).
pub fn data_file(measured: u16) -> Option<&'static str> {
    DATA.iter().find(|(s, _)| *s == measured).map(|(_, t)| *t)
}

/// The library-corpus data file text of a measured SM (for the measuring
/// test).
pub fn library_data_file(measured: u16) -> Option<&'static str> {
    LIBRARY_DATA.iter().find(|(s, _)| *s == measured).map(|(_, t)| *t)
}

/// The generated-corpus data file text of a measured SM (for the
/// measuring test).
pub fn generated_data_file(measured: u16) -> Option<&'static str> {
    GENERATED_DATA.iter().find(|(s, _)| *s == measured).map(|(_, t)| *t)
}

/// The Triton data file text of a measured SM, if Triton targets it (for
/// the measuring test).
pub fn triton_data_file(measured: u16) -> Option<&'static str> {
    TRITON_DATA.iter().find(|(s, _)| *s == measured).map(|(_, t)| *t)
}

/// The index in [`DATA`] of the table for an SM: its own (an SM of
/// [`LATENCY_SMS`]), else its measured SM's, or for an SM outside the
/// measured families the nearest measured SM below it (sm_75 below that).
fn data_index(sm: Sm) -> usize {
    if let Some(k) = LATENCY_SMS.iter().position(|&m| m == sm.number) {
        return k;
    }
    let want = measured_sm(sm).unwrap_or_else(|| MEASURED_SMS.iter().copied().filter(|m| *m <= sm.number).max().unwrap_or(75));
    DATA.iter().position(|(m, _)| *m == want).unwrap_or(0) % DATA.len()
}

/// The scheduler's table for an SM: the shared corpus's measurement
/// ([`DATA`]), what our code is scheduled by and statically checked
/// against.
pub fn table(sm: Sm) -> &'static Table {
    // Each SM's table is made the first time it is wanted (a compilation
    // wants one SM's), from the entries parsed at build time.
    static TABLES: [OnceLock<Table>; LATENCY_SMS.len()] = [const { OnceLock::new() }; LATENCY_SMS.len()];
    let k = data_index(sm);
    TABLES[k].get_or_init(|| Table::from_entries(DATA[k].0, PARSED[k].entries[..PARSED[k].len].to_vec()))
}

/// The hazard checker's table for an SM: the shared corpus's, the
/// library corpus's, Triton's and the generated programs' measurements
/// together ([`LIBRARY_DATA`], [`TRITON_DATA`], [`GENERATED_DATA`]), the least
/// distances ptxas was seen to leave. A checker of ptxas's code must accept
/// all of them; the scheduler keeps the shared corpus's, which a minimum
/// over half a million more instructions would lower by one operand's
/// timing standing for its whole class (`IADD3.X` writing the high half of
/// `IMAD.WIDE`'s addend 3 cycles ahead, where the class needs 4), so no
/// entry of this table is above [`table`]'s (a pair the shared corpus saw
/// rarely may take the producer's typical latency there and a higher
/// well-observed minimum here: the lower one holds). NVIDIA's published
/// latencies are a floor under it all ([`PUBLISHED_DATA`]).
pub fn checking_table(sm: Sm) -> &'static Table {
    static TABLES: [OnceLock<Table>; LATENCY_SMS.len()] = [const { OnceLock::new() }; LATENCY_SMS.len()];
    let k = data_index(sm);
    TABLES[k].get_or_init(|| {
        let entries = PARSED[k].entries[..PARSED[k].len]
            .iter()
            .chain(&PARSED_LIBRARY[k].entries[..PARSED_LIBRARY[k].len])
            .chain(&PARSED_TRITON[k].entries[..PARSED_TRITON[k].len])
            .chain(&PARSED_GENERATED[k].entries[..PARSED_GENERATED[k].len])
            .copied()
            .collect();
        let published = &PARSED_PUBLISHED[k].entries[..PARSED_PUBLISHED[k].len];
        Table::from_entries(DATA[k].0, entries).at_most(table(sm)).at_most_published(published).mov_writes_as_alu(published).wide_low_half_early(published)
    })
}

/// The most entries a data file may have (a longer one does not build).
const MAX_ENTRIES: usize = 256;

/// A data file's entries, parsed at build time ([`parse_const`]).
#[derive(Clone, Copy)]
struct Parsed {
    entries: [Entry; MAX_ENTRIES],
    len: usize,
}

/// Every data file, parsed when the crate is compiled: a compilation then
/// reads no text (parsing it at run time was about 3% of compiling a
/// small kernel), and a malformed file is a build error.
static PARSED: [Parsed; LATENCY_SMS.len()] = {
    let mut out = [Parsed { entries: [PLACEHOLDER; MAX_ENTRIES], len: 0 }; LATENCY_SMS.len()];
    let mut k = 0;
    while k < DATA.len() {
        out[k] = parse_const(DATA[k].1);
        k += 1;
    }
    out
};

/// Every generated-corpus data file, parsed when the crate is compiled.
static PARSED_GENERATED: [Parsed; LATENCY_SMS.len()] = {
    let mut out = [Parsed { entries: [PLACEHOLDER; MAX_ENTRIES], len: 0 }; LATENCY_SMS.len()];
    let mut k = 0;
    while k < GENERATED_DATA.len() {
        out[k] = parse_const(GENERATED_DATA[k].1);
        k += 1;
    }
    out
};
/// Every library-corpus data file, parsed when the crate is compiled.
static PARSED_LIBRARY: [Parsed; LATENCY_SMS.len()] = {
    let mut out = [Parsed { entries: [PLACEHOLDER; MAX_ENTRIES], len: 0 }; LATENCY_SMS.len()];
    let mut k = 0;
    while k < LIBRARY_DATA.len() {
        out[k] = parse_const(LIBRARY_DATA[k].1);
        k += 1;
    }
    out
};

/// Every Triton data file, parsed when the crate is compiled, at the index
/// of its SM in [`DATA`] (empty for the SMs Triton does not target).
static PARSED_TRITON: [Parsed; LATENCY_SMS.len()] = parse_by_sm(TRITON_DATA);

/// Every published data file, parsed when the crate is compiled, at the
/// index of its SM in [`DATA`] (empty for an SM NAK has no table for).
static PARSED_PUBLISHED: [Parsed; LATENCY_SMS.len()] = parse_by_sm(PUBLISHED_DATA);

/// Data files of some of the SMs, parsed at the index of their SM in
/// [`DATA`] (the others empty).
const fn parse_by_sm(files: &[(u16, &str)]) -> [Parsed; LATENCY_SMS.len()] {
    let mut out = [Parsed { entries: [PLACEHOLDER; MAX_ENTRIES], len: 0 }; LATENCY_SMS.len()];
    let mut t = 0;
    while t < files.len() {
        let mut k = 0;
        while k < DATA.len() {
            if DATA[k].0 == files[t].0 {
                out[k] = parse_const(files[t].1);
            }
            k += 1;
        }
        t += 1;
    }
    out
}

/// An unused entry slot.
const PLACEHOLDER: Entry = Entry { file: File::R, producer: Class::Alu, consumer: Class::Alu, cycles: 0, observations: 0 };

/// Parses a data file: `file producer consumer cycles observations` lines
/// separated by tabs; `#` starts a comment line. Run at compile time
/// ([`PARSED`]), where a panic is a build error naming what is wrong.
const fn parse_const(text: &str) -> Parsed {
    let b = text.as_bytes();
    let mut out = Parsed { entries: [PLACEHOLDER; MAX_ENTRIES], len: 0 };
    let mut start = 0;
    while start < b.len() {
        let mut end = start;
        while end < b.len() && b[end] != b'\n' {
            end += 1;
        }
        // The line without surrounding white space.
        let (mut s, mut e) = (start, end);
        while s < e && b[s].is_ascii_whitespace() {
            s += 1;
        }
        while e > s && b[e - 1].is_ascii_whitespace() {
            e -= 1;
        }
        if s < e && b[s] != b'#' {
            // Five tab-separated columns.
            let mut cols = [(0usize, 0usize); 5];
            let (mut n, mut from, mut k) = (0, s, s);
            while k <= e {
                if k == e || b[k] == b'\t' {
                    assert!(n < 5, "a latency data line has more than five columns");
                    cols[n] = (from, k);
                    n += 1;
                    from = k + 1;
                }
                k += 1;
            }
            assert!(n == 5, "a latency data line has fewer than five columns");
            let cycles = number(b, cols[3]);
            assert!(cycles < NEEDS_SCOREBOARD as u64, "a latency data line's cycles are out of range");
            let observations = number(b, cols[4]);
            assert!(observations <= u32::MAX as u64, "a latency data line's observations are out of range");
            assert!(out.len < MAX_ENTRIES, "a latency data file has more than MAX_ENTRIES entries");
            out.entries[out.len] = Entry {
                file: file_named(b, cols[0]),
                producer: class_named(b, cols[1]),
                consumer: class_named(b, cols[2]),
                cycles: cycles as u8,
                observations: observations as u32,
            };
            out.len += 1;
        }
        start = end + 1;
    }
    out
}

/// Whether `b[range]` spells `name`.
const fn spells(b: &[u8], (from, to): (usize, usize), name: &str) -> bool {
    let name = name.as_bytes();
    if to - from != name.len() {
        return false;
    }
    let mut k = 0;
    while k < name.len() {
        if b[from + k] != name[k] {
            return false;
        }
        k += 1;
    }
    true
}

/// The value of `$kind` (a type with `ALL` and a const `name`) whose name
/// `b[range]` spells; a build error naming `$what` when none does. (A
/// macro: const functions cannot be generic over the two enums' names.)
macro_rules! named {
    ($kind:ident, $b:expr, $range:expr, $what:literal) => {{
        let mut k = 0;
        loop {
            assert!(k < $kind::ALL.len(), concat!("a latency data line names no ", $what));
            if spells($b, $range, $kind::ALL[k].name()) {
                break $kind::ALL[k];
            }
            k += 1;
        }
    }};
}

/// The file `b[range]` names ([`File::name`]).
const fn file_named(b: &[u8], range: (usize, usize)) -> File {
    named!(File, b, range, "register file")
}

/// The class `b[range]` names ([`Class::name`]).
const fn class_named(b: &[u8], range: (usize, usize)) -> Class {
    named!(Class, b, range, "instruction class")
}

/// The decimal number `b[range]`.
const fn number(b: &[u8], (from, to): (usize, usize)) -> u64 {
    assert!(from < to, "a latency data line has an empty number");
    let (mut v, mut k) = (0u64, from);
    while k < to {
        assert!(b[k].is_ascii_digit() && v < u64::MAX / 10 - 9, "a latency data line has a malformed number");
        v = v * 10 + (b[k] - b'0') as u64;
        k += 1;
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_files_parse() {
        for (k, (sm, text)) in DATA.iter().enumerate() {
            assert!(PARSED[k].len > 0, "sm_{sm}: no entries");
            assert!(text.contains("measured from ptxas"), "sm_{sm}: the file names its source");
        }
    }

    /// The checker's tables never ask for more cycles than the scheduler's,
    /// and take what ptxas's library code showed: on sm_90 `DADD` is read
    /// by `SHFL` after 7 cycles (`cub_warp_scan`, `DADD R6, RZ, R6` with
    /// S07, then `SHFL.UP PT, R8, R6, 0x1, 0x1800`), where the shared corpus
    /// alone never showed the pair and takes DADD's typical 8.
    #[test]
    fn checking_tables_are_the_library_lowered_bound() {
        for (sm, _) in DATA {
            let (sched, check) = (table(Sm::new(*sm)), checking_table(Sm::new(*sm)));
            for f in [File::R, File::Ur, File::P, File::Up] {
                for p in Class::ALL {
                    for c in Class::ALL {
                        assert!(check.latency(f, p, c) <= sched.latency(f, p, c), "sm_{sm} {f:?} {p:?} -> {c:?}");
                    }
                }
            }
        }
        assert!(LIBRARY_DATA.iter().all(|(_, t)| t.contains("measured from ptxas")), "every library file is a measurement");
        assert_eq!(table(Sm::new(90)).latency(File::R, Class::Fp64, Class::Shfl), 8);
        assert_eq!(checking_table(Sm::new(90)).latency(File::R, Class::Fp64, Class::Shfl), 7);
    }

    /// The shfl class holds REDUX and MATCH, which NVIDIA's tables read as
    /// decoupled instructions (4 cycles after an ALU result on Ampere, Ada,
    /// Hopper and Blackwell), besides SHFL, which reads through the memory
    /// pipe (5): the floor is the lesser. ptxas 13.5's sm_89 code for a
    /// generated program (seed 10068427) has `REDUX.SUM UR4, R39` 4 cycles
    /// after `I2FP.F32.S32 R39, R22`.
    #[test]
    fn warp_reductions_read_as_decoupled_instructions() {
        for sm in [80, 86, 89, 90, 100, 103, 120] {
            assert_eq!(checking_table(Sm::new(sm)).latency(File::R, Class::ConvFast, Class::Shfl), 4, "sm_{sm}");
            assert_eq!(checking_table(Sm::new(sm)).latency(File::R, Class::Alu, Class::Shfl), 4, "sm_{sm}");
        }
    }

    /// Comment and blank lines are skipped, white space around a line is
    /// not part of it, and every column is read.
    #[test]
    fn data_lines_read_column_by_column() {
        let parsed = parse_const("# file\tproducer\n\n  R\talu\tmem\t6\t120  \nUP\tuniform\tcontrol\t13\t7\n");
        let e = |file, producer, consumer, cycles, observations| Entry { file, producer, consumer, cycles, observations };
        assert_eq!(&parsed.entries[..parsed.len], &[e(File::R, Class::Alu, Class::Mem, 6, 120), e(File::Up, Class::Uniform, Class::Control, 13, 7)]);
    }

    #[test]
    #[should_panic(expected = "names no instruction class")]
    fn an_unknown_class_is_refused() {
        parse_const("R\tbogus\talu\t4\t1\n");
    }

    #[test]
    #[should_panic(expected = "fewer than five columns")]
    fn a_short_line_is_refused() {
        parse_const("R\talu\talu\t4\n");
    }

    #[test]
    fn classes_by_instruction_and_name() {
        use crate::isa::inst::Inst;
        use crate::isa::operand::{Mem, Operand, Reg, RegNum};
        use crate::sched::info::class_of;
        let sm = Sm::new(80);
        let r = |n| Operand::reg(Reg::gpr(n));
        let build = |text: &str, ops: &[Operand]| Inst::build(sm, text, None, ops).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(class_of(&build("IMAD.WIDE.U32", &[r(2), r(4), r(5), r(6)])), Class::ImadWide);
        assert_eq!(class_of(&build("IMAD", &[r(2), r(4), r(5), r(6)])), Class::Imad);
        assert_eq!(class_of(&build("IADD3", &[r(2), r(4), r(5), r(6)])), Class::Alu);
        let addr = Operand::Mem(Mem::new(RegNum::Phys(2), 0x10));
        assert_eq!(class_of(&build("LDS.64", &[r(4), addr])), Class::Mem);
        for c in Class::ALL {
            assert_eq!(class_named(c.name().as_bytes(), (0, c.name().len())), c);
        }
        for f in File::ALL {
            assert_eq!(file_named(f.name().as_bytes(), (0, f.name().len())), f);
        }
        assert_eq!(Class::ALL.len(), CLASSES);
    }

    #[test]
    fn a_mov_is_read_no_later_than_an_alu_result_by_the_checker() {
        // NVIDIA's rows agree on every SM with published tables; the
        // measured async reader is the one they do not cover.
        for sm in [75, 80, 86, 89, 90, 100, 103, 120] {
            let t = checking_table(Sm::new(sm));
            for c in Class::ALL {
                let (alu, mov) = (t.latency(File::R, Class::Alu, c), t.latency(File::R, Class::Mov, c));
                if alu != NEEDS_SCOREBOARD && mov != NEEDS_SCOREBOARD {
                    assert!(mov <= alu, "sm_{sm} {c:?}: mov {mov} alu {alu}");
                }
            }
        }
        assert_eq!(checking_table(Sm::new(120)).latency(File::R, Class::Mov, Class::Async), 4);
        // Rows that differ in the published data leave the table as it is.
        let e = |producer, cycles| Entry { file: File::R, producer, consumer: Class::Alu, cycles, observations: 0 };
        let t = Table::from_entries(80, vec![e(Class::Alu, 3), e(Class::Mov, 6)]);
        assert_eq!(t.clone().mov_writes_as_alu(&[e(Class::Alu, 4), e(Class::Mov, 5)]).latency(File::R, Class::Mov, Class::Alu), 6);
        assert_eq!(t.mov_writes_as_alu(&[e(Class::Alu, 4), e(Class::Mov, 4)]).latency(File::R, Class::Mov, Class::Alu), 3);
    }

    #[test]
    fn imad_wide_low_half_is_read_sooner_by_the_checker_alone() {
        let alu = |t: &Table, row: u8| t.rows()[usize::from(row)][Class::Alu as usize];
        for sm in [75, 80, 86, 89, 90, 100, 103, 120] {
            let high = Table::row_index(File::R, Class::ImadWide);
            // NVIDIA's high half to an ALU reader is 5 cycles, the low 3.
            assert_eq!(alu(checking_table(Sm::new(sm)), WIDE_LOW_ROW), 3.min(alu(checking_table(Sm::new(sm)), high)), "sm_{sm}");
            // The scheduler's row is the high half's; a decoupled reader
            // (MUFU) gets nothing sooner.
            assert_eq!(table(Sm::new(sm)).rows()[usize::from(WIDE_LOW_ROW)], table(Sm::new(sm)).rows()[usize::from(high)], "sm_{sm}");
            let mufu = |row: u8| checking_table(Sm::new(sm)).rows()[usize::from(row)][Class::Mufu as usize];
            assert_eq!(mufu(WIDE_LOW_ROW), mufu(high), "sm_{sm}");
        }
    }

    #[test]
    fn rare_and_missing_pairs_take_the_typical_latency() {
        let e = |file, producer, consumer, cycles, observations| Entry { file, producer, consumer, cycles, observations };
        let t = Table::from_entries(
            80,
            vec![
                e(File::R, Class::Alu, Class::Alu, 4, 100),
                e(File::R, Class::Alu, Class::Mem, 6, 50),
                e(File::R, Class::Alu, Class::Mov, 9, 2),
                e(File::R, Class::Alu, Class::Fp32, 3, 2),
                e(File::P, Class::Fp32, Class::Control, 13, 20),
                e(File::R, Class::ConvFast, Class::Mma, 7, 24),
                e(File::R, Class::ConvFast, Class::Mem, 5, 8),
                e(File::R, Class::ConvFast, Class::Alu, 4, 2),
            ],
        );
        // A tensor-core reader is no row's typical one (sm_80's F2FP row).
        assert_eq!([Class::Mma, Class::Mem, Class::Alu, Class::Fp32].map(|c| t.latency(File::R, Class::ConvFast, c)), [7, 5, 4, 5]);
        // Well observed: as measured, even above the typical latency.
        assert_eq!((t.latency(File::R, Class::Alu, Class::Alu), t.latency(File::R, Class::Alu, Class::Mem)), (4, 6));
        // Rarely observed: lowered to the typical one, never raised.
        assert_eq!((t.latency(File::R, Class::Alu, Class::Mov), t.latency(File::R, Class::Alu, Class::Fp32)), (4, 3));
        // Never observed: the typical latency of the file, else of any file.
        assert_eq!(t.latency(File::R, Class::Alu, Class::Conv), 4);
        assert_eq!(t.latency(File::P, Class::Alu, Class::Control), 4);
        assert_eq!(t.latency(File::R, Class::Fp32, Class::Alu), 13);
        assert_eq!(t.latency(File::R, Class::Mufu, Class::Alu), NEEDS_SCOREBOARD);
    }
}

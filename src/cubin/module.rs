//! What a compiled module is, as later stages describe it: kernels with
//! their code, parameters, resource counts and the instruction offsets the
//! driver wants to know about, and the module's variables.
//!
//! [`build()`] (in `build.rs`) turns a [`Module`] into an [`super::elf::Elf`]
//! laid out the way ptxas lays out the same program; [`from_elf`] (in
//! `extract.rs`) reads a ptxas cubin of this shape back into one.
//!
//! ptxas lists the kernels in the reverse of their PTX order; [`Module`]
//! keeps them in file order, so a compiler reverses them when it wants
//! ptxas's layout. Device functions ptxas copies into a kernel's section
//! are [`Function`]s of that kernel. Parts whose derivation is not known
//! are carried as data, named: a kernel's or function's call-frame
//! instructions ([`Kernel::frame_program`], [`Function::frame_program`]),
//! line information ([`Module::line_info`]) and the sm_100+
//! `.nv.merc.*` / `.nv.capmerc.*` sections ([`Module::merc`]: the code
//! again in the form the driver finalises, with a symbol table, frame,
//! records and relocations of its own, which nothing here derives yet).
//!
//! Not modelled yet (such cubins are listed section by section, see
//! [`super::section_listing`]): device functions with sections of their
//! own and calls across sections (`ptxas -c`), relocations in code
//! (function pointers), textures and surfaces, reading back `-G` debug
//! information (the DWARF copied from the PTX is written,
//! [`super::debug_info`], not extracted), and a few symbol and section
//! orders of multi-kernel files with variables. A kernel's constant bank 2
//! is bytes ([`Kernel::constant2`]; ptxas's switch tables there need no
//! relocation).

pub use super::build::{BuildError, build};
pub use super::extract::from_elf;


/// A module ready to be written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Module {
    /// The SM the code is for (`e_flags`).
    pub sm: u32,
    /// The virtual architecture the PTX named (`.target`; `.note.nv.cuinfo`).
    pub virtual_sm: u32,
    /// What `.note.nv.tkinfo` says made the file.
    pub tool: ToolInfo,
    /// Kernels in file order.
    pub kernels: Vec<Kernel>,
    /// `.global` variables: initialised ones in `.nv.global.init`, the rest
    /// in `.nv.global` (offsets within those sections).
    pub globals: Vec<Variable>,
    /// `.const` variables, in constant bank 3 (`.nv.constant3`).
    pub constants: Vec<Variable>,
    /// Names of the globals whose addresses constant bank 4 holds, 8 bytes
    /// each in this order (where the code loads them from); also the order
    /// in which the variables' symbols are listed (ptxas lists them as the
    /// code first uses them). A name may also be one of a kernel's
    /// [`Kernel::externs`] (the slot of a function outside the module).
    pub global_addresses: Vec<String>,
    /// `.nv.compat` ISA class (EICOMPAT_ATTR_ISA_CLASS): 1, or 2 when the
    /// code uses architecture-specific instructions (measured on sm_90
    /// kernels converting to e4m3 pairs).
    pub isa_class: u8,
    /// The top byte of `e_flags`: 0x06, except with line information (0x09
    /// or 0x0a measured, 0x0b with `-g`; what its bits mean is not known).
    /// [`build`] writes 0x0c instead where `line_info` holds DWARF copied
    /// from the PTX (`.debug_info`, ...).
    pub flags_top: u8,
    /// Line information (`ptxas -lineinfo`): `.debug_line`, `.debug_str`,
    /// `.nv_debug_line_sass`, `.nv_debug_ptx_txt`, in this order, then the
    /// DWARF of `-G` PTX (`.debug_abbrev`, `.debug_loc`, `.debug_info`,
    /// ...), carried as bytes with their relocations (`.rela` sections
    /// from sm_90, `.rel` before, but `.rela.debug_info` at every SM). A
    /// compiler makes them with [`super::line_info`].
    pub line_info: Vec<DebugSection>,
    /// The sm_100+ `.nv.merc.*` and `.nv.capmerc.*` sections, written as
    /// they are after the sections [`build`] lays out (their links and
    /// symbol references are header and table indices of the whole file).
    /// Empty below sm_100.
    pub merc: Vec<super::elf::Section>,
}

/// A debug section carried as bytes, with the addresses in it the loader
/// relocates (code addresses of kernels and device functions).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DebugSection {
    /// Its name (`.debug_line`).
    pub name: String,
    /// Its bytes.
    pub bytes: Vec<u8>,
    /// Its relocations (`.rela<name>`), in file order.
    pub relocations: Vec<CodeAddress>,
    /// Kernel parameters it names, filled in when the cubin is built
    /// (their addresses in constant bank 0 depend on the SM).
    pub parameters: Vec<ParamAddress>,
}

/// A kernel parameter's address in a debug section: ptxas writes its
/// offset in constant bank 0 (`DW_OP_addr 0x160` for the first parameter
/// at sm_80, measured on nvcc `-G` PTX), no relocation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamAddress {
    /// Byte offset in the section.
    pub offset: u64,
    /// Bytes of the value.
    pub width: u8,
    /// The kernel.
    pub kernel: String,
    /// The parameter's index in the kernel's list.
    pub index: usize,
    /// Added to the address.
    pub addend: i64,
}

/// A relocated code address in a debug section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodeAddress {
    /// Byte offset in the section.
    pub offset: u64,
    /// The kernel or device function whose address it is.
    pub symbol: String,
    /// `R_CUDA_*` type (`R_CUDA_64`, 2, in every corpus cubin).
    pub kind: u32,
    /// Added to the address.
    pub addend: i64,
}

/// A module-scope variable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variable {
    /// Its name.
    pub name: String,
    /// Byte offset in its section.
    pub offset: u64,
    /// Size in bytes.
    pub size: u64,
    /// Alignment in bytes.
    pub align: u64,
    /// Initial bytes (`size` of them); `None` for zero-initialised globals.
    pub init: Option<Vec<u8>>,
    /// `.visible` (a GLOBAL symbol) rather than file-local.
    pub visible: bool,
}

/// The producing tool, as `.note.nv.tkinfo` records it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolInfo {
    /// Tool name (`ptxas`).
    pub name: String,
    /// Version line.
    pub version: String,
    /// Build identification.
    pub branch: String,
    /// Command-line arguments.
    pub arguments: String,
}

impl Default for ToolInfo {
    fn default() -> Self {
        ToolInfo {
            name: "ptx2sass".into(),
            version: concat!("ptx2sass ", env!("CARGO_PKG_VERSION")).into(),
            branch: String::new(),
            arguments: String::new(),
        }
    }
}

/// One kernel parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Param {
    /// Byte offset in the parameter block.
    pub offset: u32,
    /// Size in bytes.
    pub size: u32,
    /// The low 12 bits of its `EIATTR_KPARAM_INFO` flags word: 0 up to
    /// sm_100; sm_120 sets 0x500 on the 8-byte parameters the code uses as
    /// global pointers (measured).
    pub flags: u16,
}

impl Param {
    /// A parameter without flags.
    pub fn new(offset: u32, size: u32) -> Param {
        Param { offset, size, flags: 0 }
    }
}

/// One `.entry`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kernel {
    /// Its name.
    pub name: String,
    /// Instruction words.
    pub code: Vec<u128>,
    /// Parameters in declaration order.
    pub params: Vec<Param>,
    /// General registers used (`EIATTR_REGCOUNT`).
    pub registers: u32,
    /// Named barriers used (`EIATTR_NUM_BARRIERS`, omitted when 0).
    pub barriers: u32,
    /// Static shared memory the kernel declares, in bytes (the reserved
    /// area of sm_90+ is added by [`build`]).
    pub shared_bytes: u64,
    /// Alignment of the kernel's `.nv.shared.<k>` section (4, or the
    /// largest alignment its shared variables ask for).
    pub shared_align: u64,
    /// The kernel uses dynamically sized (`.extern .shared`) memory: ptxas
    /// writes its shared section (the reserve only) even without static
    /// shared memory. Recorded only where it changes the file.
    pub dynamic_shared: bool,
    /// Per-thread local frame (`EIATTR_FRAME_SIZE`).
    pub frame_size: u32,
    /// Minimum stack (`EIATTR_MIN_STACK_SIZE`).
    pub min_stack_size: u32,
    /// `.maxnreg` (`EIATTR_MAXREG_COUNT`; ptxas writes 0xff when absent).
    pub max_registers: Option<u32>,
    /// `.reqntid` (`EIATTR_REQNTID`).
    pub required_threads: Option<[u32; 3]>,
    /// `.maxntid` (`EIATTR_MAX_THREADS`).
    pub max_threads: Option<[u32; 3]>,
    /// Byte offsets of every `EXIT`.
    pub exit_offsets: Vec<u32>,
    /// Byte offsets of the warp-wide instructions (`EIATTR_INT_WARP_WIDE_INSTR_OFFSETS`).
    pub warp_wide_offsets: Vec<u32>,
    /// Byte offsets of the cooperative-group instructions (warp
    /// synchronisation, shuffles: `EIATTR_COOP_GROUP_INSTR_OFFSETS`).
    pub coop_group_offsets: Vec<u32>,
    /// `EIATTR_COOP_GROUP_MASK_REGIDS`: per cooperative-group instruction,
    /// the register holding its mask (0xffffffff: none, a full mask).
    pub coop_group_mask_registers: Vec<u32>,
    /// `EIATTR_CRS_STACK_SIZE` (ptxas writes it for kernels that call, and
    /// some others).
    pub crs_stack_size: Option<u32>,
    /// The call-frame instructions of the kernel's `.debug_frame` entry
    /// (DWARF `DW_CFA_*` bytes, padding included) where they are not the
    /// ones [`build`] derives from the exits: ptxas writes them from its
    /// call and stack analysis, which nothing here reproduces yet.
    pub frame_program: Option<Vec<u8>>,
    /// Device functions ptxas placed in the kernel's section after the
    /// kernel's own code (a kernel's callees, copied into each caller).
    pub functions: Vec<Function>,
    /// Functions outside the module the code calls (`EIATTR_EXTERNS`:
    /// undefined symbols the driver links, such as `vprintf`), in order
    /// of first call; their addresses are bank 4 slots
    /// ([`Module::global_addresses`] names them).
    pub externs: Vec<String>,
    /// Byte offsets of those calls (`EIATTR_SYSCALL_OFFSETS`).
    pub syscall_offsets: Vec<u32>,
    /// Words of constant bank 0 the driver fills with the handle of the
    /// texture bound to a `.texref`: the byte offset in the bank and the
    /// texref's name (an undefined STT_CUDA_TEXTURE symbol, a relocation of
    /// type 6 in `.rel.nv.constant0.<kernel>`; ptxas 13.5).
    pub textures: Vec<(u32, String)>,
    /// Likewise the words of the `.surfref`s it accesses (relocations of
    /// type 52 against `STT_CUDA_SURFACE` symbols).
    pub surfaces: Vec<(u32, String)>,
    /// The kernel's constant bank 2 (`.nv.constant2.<kernel>`, written
    /// when not empty): constants the code reads as `c[0x2][…]` operands,
    /// such as the f64 values no 32-bit immediate holds (see
    /// `crate::select::pool`).
    pub constant2: Vec<u8>,
}

/// A device function inside a kernel's code section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Function {
    /// Its symbol (`$kernel$callee`, or `$__internal_N_$…` for ptxas's
    /// own subroutines).
    pub name: String,
    /// Byte offset in the kernel's code.
    pub offset: u32,
    /// Size in bytes.
    pub size: u32,
    /// A GLOBAL symbol (a `.visible` callee), else LOCAL.
    pub visible: bool,
    /// `EIATTR_FRAME_SIZE`.
    pub frame_size: u32,
    /// The register holding the return address on entry (`CALL` puts it in
    /// R0 … as the caller chose); its `.debug_frame` CIE names it.
    pub return_register: u32,
    /// The call-frame instructions of its `.debug_frame` entry (padding
    /// included), as [`Kernel::frame_program`].
    pub frame_program: Vec<u8>,
    /// The bytes of that entry's initial-location field, to which the
    /// relocation adds the kernel's address and the function's offset:
    /// ptxas leaves the offset of the function's closing self-branch there
    /// on sm_90 (measured; the `RELA` addend says where the function is).
    pub frame_location: u64,
}

impl Kernel {
    /// A kernel with its code and register count and nothing else: no
    /// parameters, barriers, shared memory, frame or launch bounds, and
    /// no exits recorded.
    pub fn new(name: impl Into<String>, code: Vec<u128>, registers: u32) -> Kernel {
        Kernel {
            name: name.into(),
            code,
            params: Vec::new(),
            registers,
            barriers: 0,
            shared_bytes: 0,
            shared_align: 4,
            dynamic_shared: false,
            frame_size: 0,
            min_stack_size: 0,
            max_registers: None,
            required_threads: None,
            max_threads: None,
            exit_offsets: Vec::new(),
            warp_wide_offsets: Vec::new(),
            coop_group_offsets: Vec::new(),
            coop_group_mask_registers: Vec::new(),
            crs_stack_size: None,
            frame_program: None,
            functions: Vec::new(),
            externs: Vec::new(),
            syscall_offsets: Vec::new(),
            textures: Vec::new(),
            surfaces: Vec::new(),
            constant2: Vec::new(),
        }
    }
}

/// The first parameter's offset in constant bank 0 (FACTS.md: 0x160 up to
/// sm_89, 0x210 on sm_90, 0x380 from sm_100).
pub fn param_base(sm: u32) -> u32 {
    match sm {
        ..90 => 0x160,
        90..100 => 0x210,
        _ => 0x380,
    }
}

/// Shared memory ptxas reserves at the start of every block from sm_90 on
/// (user variables start after it).
pub fn reserved_shared(sm: u32) -> u64 {
    if sm >= 90 { 0x400 } else { 0 }
}

/// `e_flags` as ptxas 13.5 writes them (FACTS.md): the SM in bits 8–15, 0x06
/// in the top byte, low byte 0x04 up to sm_90 and 0x02 from sm_100.
pub fn elf_flags(sm: u32) -> u32 {
    0x0600_0000 | (sm << 8) | if sm >= 100 { 0x02 } else { 0x04 }
}

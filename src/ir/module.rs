//! A module of the Ori IR: the target, its functions and its module-scope
//! variables (`.global`, `.const`, `.shared` declared outside functions).

use super::attrs::Space;
use super::entity::PrimaryMap;
use super::function::Function;
use crate::target::Sm;

crate::ir_entity!(
    /// A function of a module ([`super::Opcode::Call`]'s immediate).
    FuncId,
    "fn"
);
crate::ir_entity!(
    /// A module-scope variable ([`super::Opcode::SymAddr`]'s immediate).
    GlobalId,
    "g"
);

/// A module-scope variable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GlobalVar {
    /// Name.
    pub name: String,
    /// `global`, `const` or `shared`.
    pub space: Space,
    /// Size in bytes (0 for `extern .shared` arrays of unknown size).
    pub size: u64,
    /// Alignment in bytes.
    pub align: u32,
    /// Initial bytes (empty: zero-filled / uninitialised); shorter than
    /// `size` means the rest is zero.
    pub init: Vec<u8>,
    /// Whether the variable is visible outside the module.
    pub visible: bool,
    /// Words of `init` that hold the address of another variable (an
    /// initialiser such as `{ x, y+8 }`), filled in when the variables
    /// are laid out (`init` holds zeros there).
    pub addresses: Vec<AddressInit>,
    /// The function whose body declares the variable (a function-scope
    /// `.shared`, `.global` or `.const`); `None` at module scope. Shared
    /// memory is laid out by it ([`crate::emit::variables`]).
    pub owner: Option<FuncId>,
}

/// One word of a variable's initialiser that is the address of a
/// variable plus a constant: for a `.const` variable, its offset in
/// constant bank 3 (ptxas 13.5 writes the offsets into `.nv.constant3`,
/// with no relocation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AddressInit {
    /// Byte offset of the word in the initialiser.
    pub at: u64,
    /// Its size in bytes (4 or 8).
    pub bytes: u8,
    /// The variable whose address it holds.
    pub target: GlobalId,
    /// The constant added to the address.
    pub addend: i64,
}

/// Where the `.const` variables lie in constant bank 3, by variable, and
/// the bank's size: declaration order, each at the next offset its
/// alignment allows (ptxas 13.5; the size is also the length of the
/// generic window `isspacep.const` tests).
pub fn constant_bank_layout<'a>(globals: impl Iterator<Item = (GlobalId, &'a GlobalVar)>) -> (Vec<(GlobalId, u64)>, u64) {
    let mut end = 0u64;
    let mut offsets = Vec::new();
    for (id, g) in globals.filter(|(_, g)| g.space == Space::Const) {
        let align = u64::from(g.align.max(1));
        let offset = end.div_ceil(align) * align;
        end = offset + g.size;
        offsets.push((id, offset));
    }
    (offsets, end)
}

/// A module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Module {
    /// The target SM.
    pub sm: Sm,
    /// Functions, kernels and device functions; one without blocks is a
    /// declaration (`.extern`).
    pub functions: PrimaryMap<FuncId, Function>,
    /// Module-scope variables.
    pub globals: PrimaryMap<GlobalId, GlobalVar>,
    /// The chains of `inlined_at` call sites that positions name
    /// ([`super::SrcLoc::inlined_at`]).
    pub inline_chains: Vec<super::function::InlineChain>,
    /// The module's `.texref` variables by name, in declaration order (a
    /// texture fetch names one by its index: [`super::texture::TexFetch`]).
    pub texrefs: Vec<String>,
    /// The module's `.surfref` variables, by index (a surface access's
    /// `SurfaceAccess::surfref`): their names, the relocation symbols of
    /// the constant-bank words the driver fills with their handles.
    pub surfrefs: Vec<String>,
}

impl Module {
    /// An empty module for a target.
    pub fn new(sm: Sm) -> Module {
        Module { sm, functions: PrimaryMap::new(), globals: PrimaryMap::new(), inline_chains: Vec::new(), texrefs: Vec::new(), surfrefs: Vec::new() }
    }

    /// The function named `name`.
    pub fn function_by_name(&self, name: &str) -> Option<FuncId> {
        self.functions.iter().find(|(_, f)| f.name == name).map(|(id, _)| id)
    }

    /// The variable named `name`.
    pub fn global_by_name(&self, name: &str) -> Option<GlobalId> {
        self.globals.iter().find(|(_, g)| g.name == name).map(|(id, _)| id)
    }
}

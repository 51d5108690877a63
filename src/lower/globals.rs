//! Variables with storage: sizes and alignments of declarations, module
//! variables ([`GlobalVar`]) with their initialisers as little-endian
//! bytes.

use super::types::imm_bits;
use crate::ir::{AddressInit, GlobalId, GlobalVar, Space};
use crate::ptx::ast::{BinaryOp, Declarator, Expr, Initializer, Linkage, ScalarType, StateSpace, Symbol, TypeKind, VarDecl, VarType};

/// What a name in an initialiser stands for: a module variable and its
/// state space, or nothing known.
pub(super) type ResolveVar<'a> = &'a dyn Fn(Symbol) -> Option<(GlobalId, Space)>;

/// The largest variable lowering lays out (a hostile `[1<<60]` must not
/// overflow offsets): 4 GiB.
const MAX_BYTES: u64 = u32::MAX as u64;

/// Size, alignment and element type of one declared variable.
pub(super) struct Layout {
    /// Bytes (0 for `extern` arrays of unknown size).
    pub size: u64,
    /// Alignment in bytes (a power of two).
    pub align: u32,
    /// Element type.
    pub elem: ScalarType,
}

/// Bytes of one element of a PTX type in memory.
pub(super) fn type_bytes(t: ScalarType) -> u64 {
    u64::from(t.bits()).div_ceil(8).max(1)
}

/// The layout of a declarator of `d`.
pub(super) fn layout(ty: VarType, vector: Option<u8>, align: Option<u32>, dims: &[Option<u64>], init: Option<&Initializer>) -> Result<Layout, String> {
    let elem = match ty {
        VarType::Scalar(t) => t,
        VarType::TexRef => return Err("unsupported in lowering: .texref variable".into()),
        VarType::SamplerRef => return Err("unsupported in lowering: .samplerref variable".into()),
        VarType::SurfRef => return Err("unsupported in lowering: .surfref variable".into()),
    };
    let elem_bytes = type_bytes(elem) * u64::from(vector.unwrap_or(1).max(1));
    let mut count: u64 = 1;
    for (i, dim) in dims.iter().enumerate() {
        let n = match dim {
            Some(n) => *n,
            None if i == 0 => match init {
                Some(Initializer::List(items, _)) => items.len() as u64,
                _ => 0,
            },
            None => 0,
        };
        count = count.saturating_mul(n);
    }
    let size = elem_bytes.saturating_mul(count);
    if size > MAX_BYTES {
        return Err(format!("variable of {size} bytes is larger than lowering lays out"));
    }
    let natural = u32::try_from(elem_bytes).unwrap_or(16).clamp(1, 16);
    let align = align.unwrap_or(natural).max(1);
    if !align.is_power_of_two() {
        return Err(format!(".align {align} is not a power of two"));
    }
    Ok(Layout { size, align, elem })
}

/// The module-variable space of a declaration's state space.
pub(super) fn global_space(s: StateSpace) -> Option<Space> {
    match s {
        StateSpace::Global => Some(Space::Global),
        StateSpace::Const => Some(Space::Const),
        StateSpace::Shared | StateSpace::SharedCta => Some(Space::Shared),
        _ => None,
    }
}

/// A module variable for one declarator; `resolve` names the variables
/// its initialiser may take the address of.
pub(super) fn global_var(d: &VarDecl, decl: &Declarator, name: String, resolve: ResolveVar) -> Result<GlobalVar, String> {
    let Some(space) = global_space(d.space) else {
        return Err(format!("unsupported in lowering: {} variable", d.space.spelling()));
    };
    let l = layout(d.ty, d.vector, d.align, &decl.dims, decl.init.as_ref())?;
    let mut addresses = Vec::new();
    let init = match &decl.init {
        Some(init) => init_bytes(l.elem, init, l.size, &mut Addresses { resolve, found: &mut addresses })?,
        None => Vec::new(),
    };
    let visible = matches!(d.linkage, Linkage::Visible | Linkage::Extern | Linkage::Weak | Linkage::Common);
    Ok(GlobalVar { name, space, size: l.size, align: l.align, init, visible, addresses, owner: None })
}

/// The address words an initialiser holds, found while it is flattened.
struct Addresses<'a, 'b> {
    resolve: ResolveVar<'a>,
    found: &'b mut Vec<AddressInit>,
}

/// The bytes of an initialiser of a variable of `size` bytes with
/// elements of type `elem`, little-endian, padded with zeros to `size`
/// (zeros where a word is an address, which `addresses` records).
fn init_bytes(elem: ScalarType, init: &Initializer, size: u64, addresses: &mut Addresses) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(usize::try_from(size).unwrap_or(0).min(1 << 20));
    flatten(elem, init, &mut out, addresses)?;
    let size = usize::try_from(size).unwrap_or(usize::MAX);
    if out.len() > size {
        return Err(format!("initialiser of {} bytes for a variable of {size} bytes", out.len()));
    }
    out.resize(size, 0);
    Ok(out)
}

/// `name` or `name + k` / `k + name` / `name - k`: the variable and the
/// constant.
fn symbol_plus_constant(e: &Expr) -> Option<(Symbol, i64)> {
    match e {
        Expr::Symbol(s, _) => Some((*s, 0)),
        Expr::Binary(BinaryOp::Add, a, b, _) => match (&**a, &**b) {
            (Expr::Symbol(s, _), Expr::Int { value, .. }) | (Expr::Int { value, .. }, Expr::Symbol(s, _)) => Some((*s, *value as i64)),
            _ => None,
        },
        Expr::Binary(BinaryOp::Sub, a, b, _) => match (&**a, &**b) {
            (Expr::Symbol(s, _), Expr::Int { value, .. }) => Some((*s, (*value as i64).wrapping_neg())),
            _ => None,
        },
        _ => None,
    }
}

/// Records the address word `e` (an element of type `elem` at byte `at`).
/// Only addresses of `.const` variables are laid out here: they are
/// offsets in bank 3 that need no relocation. A `.global` variable's or a
/// function's address (or `generic(..)`) needs an `R_CUDA_64` relocation
/// of the initialised section (ptxas 13.5 writes them in
/// `.rel.nv.global.init` / `.rela.nv.global.init` / `.rel.nv.constant3`),
/// which the cubin writer does not produce yet.
fn address_word(elem: ScalarType, e: &Expr, at: u64, addresses: &mut Addresses) -> Result<(), String> {
    let unsupported = |what: &str| Err(format!("unsupported in lowering: address-of initialiser ({what})"));
    let Some((symbol, addend)) = symbol_plus_constant(e) else {
        return unsupported(if matches!(e, Expr::Generic(..)) { "a generic address, which needs a relocation" } else { "an expression other than a variable plus a constant" });
    };
    let bytes = type_bytes(elem);
    if elem.kind() == TypeKind::Float || !(bytes == 4 || bytes == 8) {
        return unsupported("an address in an element that is not a 32- or 64-bit integer");
    }
    match (addresses.resolve)(symbol) {
        Some((target, Space::Const)) => {
            addresses.found.push(AddressInit { at, bytes: bytes as u8, target, addend });
            Ok(())
        }
        Some(_) => unsupported("the address of a .global or .shared variable, which needs a relocation"),
        None => unsupported("the address of a function or an unknown name"),
    }
}

fn flatten(elem: ScalarType, init: &Initializer, out: &mut Vec<u8>, addresses: &mut Addresses) -> Result<(), String> {
    match init {
        Initializer::List(items, _) => {
            for i in items {
                flatten(elem, i, out, addresses)?;
            }
        }
        Initializer::Expr(e) => {
            if refers_to_symbol(e) {
                address_word(elem, e, out.len() as u64, addresses)?;
                out.resize(out.len() + type_bytes(elem) as usize, 0);
                return Ok(());
            }
            let bits = match e {
                // An integer for a float element is its value (PTX converts
                // integer initialisers of float variables).
                Expr::Int { value, .. } if elem.kind() == TypeKind::Float => {
                    let v = *value as i64 as f64;
                    imm_bits(&Expr::Decimal(v.to_bits(), Default::default()), elem)
                }
                _ => imm_bits(e, elem),
            }
            .ok_or_else(|| "initialiser does not fold to a constant".to_string())?;
            let n = type_bytes(elem) as usize;
            out.extend_from_slice(&bits.to_le_bytes()[..n.min(8)]);
            if n > 8 {
                out.resize(out.len() + n - 8, 0);
            }
        }
    }
    Ok(())
}

fn refers_to_symbol(e: &Expr) -> bool {
    match e {
        Expr::Symbol(..) | Expr::Generic(..) => true,
        Expr::Unary(_, a, _) => refers_to_symbol(a),
        Expr::Binary(_, a, b, _) => refers_to_symbol(a) || refers_to_symbol(b),
        Expr::Cond(c, a, b, _) => refers_to_symbol(c) || refers_to_symbol(a) || refers_to_symbol(b),
        _ => false,
    }
}

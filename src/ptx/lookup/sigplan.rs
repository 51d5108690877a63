//! A signature check planned once per instruction head.
//!
//! Which signature an instruction matches, the type each operand slot
//! wants, which operands are destinations and which typing policy applies
//! depend only on the head (family, modifiers, operand count). The checker
//! works them out the first time a head passes and keeps the result in the
//! head memo (see [`super::headmemo`]); a recurring head then checks each
//! operand with one table lookup instead of re-deriving its role.

use crate::ptx::ast::ScalarType;
use crate::ptx::signature::Role;

/// Most operands a plan covers; longer instructions take the full path.
pub(crate) const PLAN_OPS: usize = 8;

/// What the signature asks of one operand slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Slot {
    /// Nothing: the role accepts any operand (`x`, or a type role whose
    /// type the head does not give).
    Pass,
    /// A value of this type (the role is kept for vector operands, whose
    /// rules need it).
    Want(ScalarType, Role),
    /// An address or label: the role's own rules apply.
    Role(Role),
}

/// The planned signature check of one head.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SigPlan {
    /// One entry per operand.
    pub(crate) slots: [Slot; PLAN_OPS],
    /// How many operands the head has.
    pub(crate) len: u8,
    /// How many leading operands are destinations.
    pub(crate) dests: u8,
    /// Whether the relaxed (`ld`/`st`/`cvt`) register typing applies.
    pub(crate) relaxed: bool,
}

impl SigPlan {
    /// The slot a role gives an operand, with the head's type modifiers.
    pub(crate) fn slot(role: Role, types: &[ScalarType], widen: impl Fn(ScalarType) -> Option<ScalarType>) -> Slot {
        let want = match role {
            Role::Any => return Slot::Pass,
            Role::Address | Role::Label => return Slot::Role(role),
            Role::Pred => Some(ScalarType::Pred),
            Role::Fixed(t) => Some(t),
            Role::InstType => types.last().copied(),
            Role::Wide => types.last().and_then(|t| widen(*t)),
            Role::FirstType => types.first().copied(),
            Role::SecondType => types.get(1).copied(),
        };
        match want {
            Some(t) => Slot::Want(t, role),
            None => Slot::Pass,
        }
    }
}

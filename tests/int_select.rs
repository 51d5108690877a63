//! Integer-to-float conversions of a byte or half of a register
//! (`tests/data/int_select`): ptxas's code reads the part in place
//! (`I2F.U8 R8, R0.B1`, `I2F.F64.S16 R6, R0.H1`), ours extracts it first;
//! both cubins must give the same outputs in the SASS interpreter on
//! sm_75, 80, 90 and 120 ([`common::ptxas_match`]), which checks the
//! interpreter's source selects against code that uses none.

mod common;

#[test]
fn byte_and_half_selects_match_ptxas_on_the_sass_interpreter() {
    common::ptxas_match::all_kernels_match("int_select", 4, |_, _| Ok(()));
}

//! Saturating narrowing conversions from 32-bit integers
//! (`tests/data/int_narrowing`): ptxas's code uses I2I
//! (`I2I.S8.S32.SAT R0, R4`, then a PRMT sign extension), ours clamps with
//! IMNMX; both cubins must give the same outputs in the SASS interpreter
//! on sm_75, 80, 90 and 120 ([`common::ptxas_match`]), which checks the
//! interpreter's I2I against a computation that uses no I2I.

mod common;

#[test]
fn narrowing_conversions_match_ptxas_on_the_sass_interpreter() {
    common::ptxas_match::all_kernels_match("int_narrowing", 4, |_, _| Ok(()));
}

//! The tensor-core test kernels (`tests/data/matrix`, written by its
//! `generate.py`): every `mma` shape and type ptx2sass lowers, every
//! `ldmatrix` form, and an ldmatrix-fed mma chain. Each kernel names the
//! SMs it runs on (`// sms: 80 90 120`: where ptxas emits one machine
//! instruction for it); for each, ptxas's cubin (cached under
//! `target/matrix-kernel-cubins`) and ours must give the same outputs
//! ([`common::ptxas_match`]).

mod common;

#[test]
fn matrix_kernels_match_ptxas_on_the_sass_interpreter() {
    common::ptxas_match::all_kernels_match("matrix", 63, |_, _| Ok(()));
}

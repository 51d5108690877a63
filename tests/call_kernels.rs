//! Calls and addresses (`tests/data/calls`): structs passed and returned
//! by value through `.param` aggregates (nvcc's PTX for the `.cu` file of
//! the same name), inlined and across a real call, and `.const`
//! initialisers that hold variables' addresses. Each kernel names its SMs
//! (`// sms:`); ptxas's cubin (cached under `target/calls-kernel-cubins`)
//! and ours must give the same outputs ([`common::ptxas_match`]). A
//! kernel with a `// calls: kept` line must keep a `CALL` in our code
//! (its callee is recursive, so the inliner leaves it), so the call
//! convention itself is what the outputs check.

mod common;

#[test]
fn call_kernels_match_ptxas_on_the_sass_interpreter() {
    common::ptxas_match::all_kernels_match("calls", 12, |text, cubin| {
        if !text.lines().any(|l| l.starts_with("// calls: kept")) {
            return Ok(());
        }
        let listing = ptx2sass::disassemble(cubin).map_err(|e| e.to_string())?;
        match listing.contains("CALL.REL") {
            true => Ok(()),
            false => Err("no CALL.REL in our code: the call was inlined, the convention is not tested".into()),
        }
    });
}

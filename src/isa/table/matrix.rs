//! Tensor-core forms: HMMA (half / bf16 / tf32 matrix multiply-accumulate)
//! and LDSM (matrix loads from shared memory). `nvdisasm` prints only the
//! first register of each register tuple, so the operands are plain
//! registers here. Fields from single-bit flips and field enumerations of
//! the words ptxas emits for ZLUDA's mma and ldmatrix tests (sm_80, sm_90,
//! sm_120, nvdisasm 13.5).

use super::{Generation, RD, f, gpr};
use crate::isa::bits::Field;
use crate::isa::form::{Form, ModField, Slot, UNMEASURED as U};

/// The forms of this module.
pub(super) fn matrix_ops(v: &mut Vec<Form>, g: Generation) {
    let from_80 = |form: Form| Form { sms: (g.sms.0.max(80), g.sms.1), ..form };
    // ---- HMMA (0x23c): d, a (`-` 72), b (`-` 63), c; shape bit 75 with
    // 78 as its high bit (1688, 16816, 1684; both set `.INVALID3`), result
    // type 76, input type 82–83 (f16, `.BF16`, `.TF32`); bit 73 is the
    // sparse form (`.SP`, more operands: not modelled).
    const SHAPE: ModField = ModField { field: f(75, 75), names: &[".1688", ".16816", ".1684", U], extra: Some(78) };
    const RESULT: ModField = ModField { field: f(76, 76), names: &[".F16", ".F32"], extra: None };
    const INPUT: ModField = ModField { field: f(82, 83), names: &["", ".BF16", ".TF32", U], extra: None };
    const DENSE: &[(Field, u64)] = &[(f(73, 73), 0)];
    let slots = vec![RD, gpr(24, Some(72), Some(0)), gpr(32, Some(63), Some(1)), gpr(64, None, Some(2))];
    v.push(from_80(g.form("HMMA", 0x23c, DENSE, &[SHAPE, RESULT, INPUT], slots)));
    // ---- LDSM (0x83b): d, a shared address (base 24–31, signed offset
    // 40–63); element size 75–77 (0 `.16`; others print nothing or
    // `.INVALIDn`), matrix shape 78–79, matrix count 72–73.
    const LDSM_SIZE: &[(Field, u64)] = &[(f(75, 77), 0)];
    const LDSM_SHAPE: ModField = ModField { field: f(78, 79), names: &[".M88", ".MT88", ".M816", ".M832"], extra: None };
    const LDSM_COUNT: ModField = ModField { field: f(72, 73), names: &["", ".2", ".4", U], extra: None };
    let shared = Slot::Addr { base: f(24, 31), wide: false, offset: f(40, 63), scale: None, desc: None, show_desc: false, uniform: None, zero_base: true };
    v.push(from_80(g.form("LDSM.16", 0x83b, LDSM_SIZE, &[LDSM_SHAPE, LDSM_COUNT], vec![RD, shared])));
}

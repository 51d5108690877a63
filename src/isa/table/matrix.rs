//! Tensor-core forms: HMMA (half / bf16 / tf32 matrix multiply-accumulate)
//! and LDSM (matrix loads from shared memory). `nvdisasm` prints only the
//! first register of each register tuple, so the operands are plain
//! registers here. Fields from single-bit flips and field enumerations of
//! the words ptxas emits for ZLUDA's mma and ldmatrix tests (sm_80, sm_90,
//! sm_120, nvdisasm 13.5).

use super::{Generation, RD, f, gpr};
use crate::isa::bits::Field;
use crate::isa::form::{Form, ModField, OperandSuffix, Slot, UNMEASURED as U};

/// The forms of this module.
pub(super) fn matrix_ops(v: &mut Vec<Form>, g: Generation) {
    let from_80 = |form: Form| Form { sms: (g.sms.0.max(80), g.sms.1), ..form };
    // ---- HMMA (0x23c): d, a, b, c; shape bit 75 with 78 as its high bit
    // (1688, 16816, 1684), result type 76 (`.F16`, `.F32`), input type
    // 82–83 (f16, `.BF16`, `.TF32`); bit 73 is the sparse form (`.SP`);
    // 72 and 63 negate a and b. nvdisasm refuses many combinations of
    // these (some SMs refuse negation, 1688 with bf16, tf32 with 16816...),
    // so only the m16n8k16 forms PTX's mma emits are here: f32 results
    // from f16 or bf16, f16 results from f16 (oracle, every SM).
    const F32: &[(Field, u64)] = &[(f(72, 72), 0), (f(73, 73), 0), (f(63, 63), 0), (f(75, 76), 3), (f(78, 78), 0), (f(83, 83), 0)];
    const F16: &[(Field, u64)] = &[(f(72, 72), 0), (f(73, 73), 0), (f(63, 63), 0), (f(75, 76), 1), (f(78, 78), 0), (f(82, 83), 0)];
    const INPUT: ModField = ModField { field: f(82, 82), names: &["", ".BF16"], extra: None };
    // c has no reuse flag (nvdisasm refuses one: oracle).
    let slots = vec![RD, gpr(24, None, Some(0)), gpr(32, None, Some(1)), gpr(64, None, None)];
    // sm_120 refuses reuse flags on a and b under the oracle's control
    // fields (not understood yet): there the forms have none.
    let plain = vec![RD, gpr(24, None, None), gpr(32, None, None), gpr(64, None, None)];
    let hmma_sms: &[((u16, u16), &Vec<Slot>)] = if g.wide_ur { &[((100, 100), &slots), ((120, 120), &plain)] } else { &[((80, 90), &slots)] };
    for &(sms, slots) in hmma_sms {
        v.push(Form { sms, ..g.form("HMMA.16816.F32", 0x23c, F32, &[INPUT], slots.clone()) });
        v.push(Form { sms, ..g.form("HMMA.16816.F16", 0x23c, F16, &[], slots.clone()) });
    }
    // ---- IMMA (0x237): d, a, b, c like HMMA; the shape is 75 with 85–86
    // as its high bits (5 `.16832`, 4 `.16816`, others `.INVALIDn`), 76–77 and 78–79 the types of a and b (0 `.U8`, 1
    // `.S8`; 83 and 84 extend them to 4-bit types), bit 73 a's layout (0
    // `.ROW`) and 74 b's (1 `.COL`), printed after those operands (the
    // other values print `.???`); 72 the sparse form, 82 `.SAT`, 87–90 a
    // uniform predicate on sm_120: all kept 0.
    const IMMA_FIXED: &[(Field, u64)] = &[(f(72, 72), 0), (f(75, 75), 1), (f(82, 85), 0), (f(86, 86), 1), (f(87, 90), 0)];
    const INT8: ModField = ModField { field: f(76, 77), names: &[".U8", ".S8", U, U], extra: None };
    const INT8_B: ModField = ModField { field: f(78, 79), names: &[".U8", ".S8", U, U], extra: None };
    const ROW: ModField = ModField { field: f(73, 73), names: &[".ROW", U], extra: None };
    const COL: ModField = ModField { field: f(74, 74), names: &[U, ".COL"], extra: None };
    const LAYOUTS: &[OperandSuffix] = &[OperandSuffix::Mod { modifier: 2, slot: 1 }, OperandSuffix::Mod { modifier: 3, slot: 2 }];
    for &(sms, slots) in hmma_sms {
        v.push(Form { sms, operand_suffixes: LAYOUTS, ..g.form("IMMA.16832", 0x237, IMMA_FIXED, &[INT8, INT8_B, ROW, COL], slots.clone()) });
    }
    // ---- LDSM (0x83b): d, a shared address (base 24–31, signed offset
    // 40–63; with RZ nvdisasm prints the offset signed, which the address
    // slot does not: not decoded); element size 75–77 (0 `.16`; others print nothing or
    // `.INVALIDn`), matrix shape 78–79, matrix count 72–73.
    const LDSM_SIZE: &[(Field, u64)] = &[(f(75, 77), 0)];
    const LDSM_SHAPE: ModField = ModField { field: f(78, 79), names: &[".M88", ".MT88", ".M816", ".M832"], extra: None };
    const LDSM_COUNT: ModField = ModField { field: f(72, 73), names: &["", ".2", ".4", U], extra: None };
    let shared = Slot::Addr { base: f(24, 31), wide: false, offset: f(40, 63), scale: None, desc: None, show_desc: false, uniform: None, zero_base: false };
    v.push(from_80(g.form("LDSM.16", 0x83b, LDSM_SIZE, &[LDSM_SHAPE, LDSM_COUNT], vec![RD, shared])));
}

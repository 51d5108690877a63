//! Hand-written listings assembled by `sass asm -o X.cubin` (a kernel with
//! parameters; one with shared memory and a barrier; one with initialised,
//! zero-initialised and constant variables; one calling a device function)
//! against ptxas's
//! cubin for the equivalent PTX: the reference `cuobjdump -elf` and
//! `nvdisasm` must accept ours, and ours must have the same sections (name,
//! type, flags, link, info, alignment, size, bytes), the same attribute
//! records and the same symbols as ptxas's, the `.note.nv.tkinfo` tool note aside (ours
//! names ptx2sass). The listings are written here by hand, in the
//! instruction selection ptxas makes for the PTX, so that the code (and so
//! the code-dependent records) can agree.

use ptx2sass::internals::cubin::elf::{self, Content, Elf};
use std::path::Path;
use std::process::Command;

/// A kernel storing its `u32` parameter through its pointer parameter.
const STORE_PTX: &str = "\
.version 9.0
.target sm_75
.address_size 64
.visible .entry k2(.param .u64 p, .param .u32 n)
{
  .reg .b64 %rd<3>; .reg .b32 %r<2>;
  ld.param.u64 %rd1, [p];
  ld.param.u32 %r1, [n];
  cvta.to.global.u64 %rd2, %rd1;
  st.global.u32 [%rd2], %r1;
  ret;
}
";

const STORE_SM90: &str = "\
.target sm_90
.virtual sm_75
.kernel k2
.param 0x0 8
.param 0x8 4
.registers 8
k2:
  [B------:R-:W-:Y:S08] LDC R1, c[0x0][0x28] ;
  [B------:R-:W0:Y:S01] LDC R5, c[0x0][0x218] ;
  [B------:R-:W-:-:S07] ULDC.64 UR4, c[0x0][0x208] ;
  [B------:R-:W0:Y:S02] LDC.64 R2, c[0x0][0x210] ;
  [B0-----:R-:W-:Y:S01] STG.E desc[UR4][R2.64], R5 ;
  [B------:R-:W-:Y:S05] EXIT ;
  [B------:R-:W-:-:S00] BRA 0x60;
  NOP_PADDING
";

/// A kernel using shared memory and a barrier.
const SHARED_PTX: &str = "\
.version 9.0
.target sm_75
.address_size 64
.visible .entry k3(.param .u64 p)
{
  .reg .b64 %rd<3>; .reg .b32 %r<4>;
  .shared .align 4 .b32 sh[32];
  mov.u32 %r1, %tid.x;
  shl.b32 %r2, %r1, 2;
  mov.u32 %r3, sh;
  add.s32 %r3, %r3, %r2;
  st.shared.u32 [%r3], %r1;
  bar.sync 0;
  ld.shared.u32 %r1, [%r3+4];
  ld.param.u64 %rd1, [p];
  cvta.to.global.u64 %rd2, %rd1;
  st.global.u32 [%rd2], %r1;
  ret;
}
";

const SHARED_SM90: &str = "\
.target sm_90
.virtual sm_75
.kernel k3
.param 0x0 8
.registers 10
.barriers 1
.shared 0x80
k3:
  [B------:R-:W-:Y:S01] LDC R1, c[0x0][0x28] ;
  [B------:R-:W0:Y:S07] S2R R7, SR_TID.X ;
  [B------:R-:W1:Y:S01] S2UR UR5, SR_CgaCtaId ;
  [B------:R-:W-:-:S07] UMOV UR4, 0x400 ;
  [B------:R-:W2:Y:S01] LDC.64 R2, c[0x0][0x210] ;
  /* ULEA UR4, UR5, UR4, 0x18 (no form in the table yet) */
  [B-1----:R-:W-:-:S06] .raw 0x0000000405047291, 0x002fcc000f8ec03f ;
  [B0-----:R-:W-:Y:S01] LEA R0, R7, UR4, 0x2 ;
  [B------:R-:W-:-:S04] ULDC.64 UR4, c[0x0][0x208] ;
  [B------:R-:W-:Y:S01] STS [R0], R7 ;
  [B------:R-:W-:Y:S06] BAR.SYNC.DEFER_BLOCKING 0x0 ;
  [B------:R-:W2:Y:S04] LDS R5, [R0+0x4] ;
  [B--2---:R-:W-:Y:S01] STG.E desc[UR4][R2.64], R5 ;
  [B------:R-:W-:Y:S05] EXIT ;
  [B------:R-:W-:-:S00] BRA 0xd0;
  NOP_PADDING
";

/// A kernel reading initialised, zero-initialised and constant variables.
const GLOBALS_PTX: &str = "\
.version 9.0
.target sm_75
.address_size 64
.global .align 4 .u32 gcount = 5;
.global .align 8 .b8 gtab[16] = {1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16};
.global .align 4 .u32 gzero;
.const .align 4 .f32 cscale = 0f40000000;
.visible .entry kg(.param .u64 out)
{
  .reg .b32 %r<4>; .reg .b64 %rd<6>; .reg .f32 %f<3>;
  ld.global.u32 %r1, [gcount];
  ld.global.u32 %r2, [gtab+4];
  ld.global.u32 %r3, [gzero];
  add.s32 %r1, %r1, %r2;
  add.s32 %r1, %r1, %r3;
  ld.const.f32 %f1, [cscale];
  cvt.rn.f32.u32 %f2, %r1;
  mul.f32 %f2, %f2, %f1;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  st.global.f32 [%rd2], %f2;
  ret;
}
";

const GLOBALS_SM90: &str = "\
.target sm_90
.virtual sm_75
.global gcount 0x10 0x4 4 05000000
.global gtab 0x0 0x10 8 0102030405060708090a0b0c0d0e0f10
.global gzero 0x0 0x4 4
.const cscale 0x0 0x4 4 00000040
.address gcount
.address gtab
.address gzero
.kernel kg
.param 0x0 8
.registers 14
kg:
  [B------:R-:W-:Y:S08] LDC R1, c[0x0][0x28] ;
  [B------:R-:W0:Y:S01] LDC.64 R2, c[0x4][RZ] ;
  [B------:R-:W-:Y:S01] ULDC.64 UR4, c[0x0][0x208] ;
  [B------:R-:W-:-:S06] ULDC UR6, c[0x3][0x0] ;
  [B------:R-:W1:Y:S08] LDC.64 R8, c[0x4][0x8] ;
  [B------:R-:W2:Y:S01] LDC.64 R4, c[0x4][0x10] ;
  [B0-----:R-:W3:Y:S04] LDG.E R2, desc[UR4][R2.64] ;
  [B-1----:R-:W3:Y:S04] LDG.E R9, desc[UR4][R8.64+0x4] ;
  [B--2---:R-:W3:Y:S01] LDG.E R4, desc[UR4][R4.64] ;
  [B------:R-:W0:Y:S01] LDC.64 R6, c[0x0][0x210] ;
  [B---3--:R-:W-:-:S04] IADD3 R0, R4, R2, R9 ;
  /* I2F.U32 R0, R0 */
  [B------:R-:W-:-:S05] .raw 0x0000000000007245, 0x000fca0000201000 ;
  [B------:R-:W-:-:S05] FMUL R11, R0, UR6 ;
  [B0-----:R-:W-:Y:S01] STG.E desc[UR4][R6.64], R11 ;
  [B------:R-:W-:Y:S05] EXIT ;
  [B------:R-:W-:-:S00] BRA 0xf0;
  NOP_PADDING
";

/// [`CALL_PTX`] by hand: the callee ptxas copies into the kernel's section
/// (`$kc$addone`, at 0x80), its return address in R2. The kernel's
/// call-frame program and the callee's frame entry are ptxas's (the model
/// carries them; see `cubin::module::Function`).
const CALL_SM90: &str = "\
.target sm_90
.virtual sm_75
.kernel kc
.param 0x0 8
.registers 8
.crs_stack 0x0
.frame_program 04100000000c8180802800040c00000000000000
.function $kc$addone 0x80 0x100 0x0 R2 0xb0 -
kc:
  [B------:R-:W-:Y:S01] LDC R1, c[0x0][0x28] ;
  [B------:R-:W0:Y:S01] S2R R5, SR_TID.X ;
  [B------:R-:W-:Y:S01] MOV R2, 0x50 ;
  [B------:R-:W-:-:S06] ULDC.64 UR4, c[0x0][0x208] ;
  [B0-----:R-:W-:Y:S05] CALL.REL.NOINC 0x80 ;
  [B------:R-:W0:Y:S02] LDC.64 R2, c[0x0][0x210] ;
  [B0-----:R-:W-:Y:S01] STG.E desc[UR4][R2.64], R5 ;
  [B------:R-:W-:Y:S05] EXIT ;
  [B------:R-:W-:Y:S01] HFMA2.MMA R3, -RZ, RZ, 0, 0 ;
  [B------:R-:W-:-:S05] VIADD R5, R5, 0x1 ;
  [B------:R-:W-:Y:S05] RET.REL.NODEC R2 0x0 ;
  [B------:R-:W-:-:S00] BRA 0xb0;
  NOP_PADDING
";

/// `NOP_PADDING` stands for the `nops` NOPs ptxas pads the code with.
fn expand(listing: &str, nops: usize) -> String {
    listing.replace("NOP_PADDING", &"  NOP;\n".repeat(nops))
}

fn sections(e: &Elf) -> Vec<(String, u32, u64, u32, u32, u64, u64)> {
    e.sections.iter().filter(|s| !s.name.starts_with(".nv.merc.") && !s.name.starts_with(".nv.capmerc.")).map(|s| (s.name.clone(), s.kind, s.flags, s.link, s.info, s.align, s.size(e))).collect()
}

fn records(e: &Elf) -> Vec<(String, Vec<ptx2sass::internals::cubin::info::Attribute>)> {
    e.sections
        .iter()
        .filter_map(|s| match &s.content {
            Content::Info(r) if !s.name.starts_with(".nv.merc.") => Some((s.name.clone(), r.clone())),
            _ => None,
        })
        .collect()
}

fn check(name: &str, ptx: &str, listing: &str, nops: usize, dir: &Path, ptxas: &Path, cuobjdump: &Path, nvdisasm: &Path) {
    let (ptx_file, theirs_file, listing_file, ours_file) = (dir.join(format!("{name}.ptx")), dir.join(format!("{name}.ptxas.cubin")), dir.join(format!("{name}.sass")), dir.join(format!("{name}.cubin")));
    std::fs::write(&ptx_file, ptx).unwrap();
    assert!(Command::new(ptxas).arg("-arch=sm_90").arg(&ptx_file).arg("-o").arg(&theirs_file).status().unwrap().success());
    std::fs::write(&listing_file, expand(listing, nops)).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_sass")).args(["asm", "-arch=sm_90"]).arg(&listing_file).arg("-o").arg(&ours_file).output().unwrap();
    assert!(out.status.success(), "{name}: sass asm failed: {}", String::from_utf8_lossy(&out.stderr));
    for (tool, args) in [(cuobjdump, &["-elf"][..]), (nvdisasm, &["-hex"][..])] {
        let run = Command::new(tool).args(args).arg(&ours_file).output().unwrap();
        assert!(run.status.success() && run.stderr.is_empty(), "{name}: {} refuses our cubin: {}", tool.display(), String::from_utf8_lossy(&run.stderr));
    }
    let theirs = elf::read(&std::fs::read(&theirs_file).unwrap()).unwrap().elf;
    let ours = elf::read(&std::fs::read(&ours_file).unwrap()).unwrap().elf;
    let tool_note = |v: Vec<(String, u32, u64, u32, u32, u64, u64)>| v.into_iter().filter(|s| s.0 != ".note.nv.tkinfo").collect::<Vec<_>>();
    assert_eq!(tool_note(sections(&ours)), tool_note(sections(&theirs)), "{name}: sections");
    assert_eq!(records(&ours), records(&theirs), "{name}: attribute records");
    assert_eq!(ours.symbols, theirs.symbols, "{name}: symbols");
    let text = |e: &Elf| e.sections.iter().find(|s| s.name.starts_with(".text.")).map(|s| s.bytes(e));
    assert_eq!(text(&ours), text(&theirs), "{name}: code");
    // Every other section's bytes too (frames, relocations, banks), the
    // tool note and the sm_100+ merc copies aside.
    for (a, b) in ours.sections.iter().zip(&theirs.sections) {
        if a.name != ".note.nv.tkinfo" && !a.name.starts_with(".nv.merc.") && !a.name.starts_with(".nv.capmerc.") {
            assert_eq!(a.bytes(&ours), b.bytes(&theirs), "{name}: bytes of {}", a.name);
        }
    }
}

#[test]
fn hand_written_listings_build_the_cubins_ptxas_builds() {
    let tools: Vec<_> = ["ptxas", "cuobjdump", "nvdisasm"].iter().filter_map(|t| ptx2sass::internals::reference::require(t, "hand_written_listings_build_the_cubins_ptxas_builds")).collect();
    let [ptxas, cuobjdump, nvdisasm] = &tools[..] else { return };
    let dir = std::env::temp_dir().join(format!("ptx2sass-cubin-asm-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    check("store", STORE_PTX, STORE_SM90, 9, &dir, ptxas, cuobjdump, nvdisasm);
    check("shared", SHARED_PTX, SHARED_SM90, 10, &dir, ptxas, cuobjdump, nvdisasm);
    check("globals", GLOBALS_PTX, GLOBALS_SM90, 8, &dir, ptxas, cuobjdump, nvdisasm);
    check("call", CALL_PTX, CALL_SM90, 12, &dir, ptxas, cuobjdump, nvdisasm);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A kernel calling a device function that ptxas places inside it.
const CALL_PTX: &str = "\
.version 9.0
.target sm_75
.address_size 64
.func (.reg .b32 r) addone(.reg .b32 a)
{
  add.s32 r, a, 1;
  ret;
}
.visible .entry kc(.param .u64 out)
{
  .reg .b32 %r<3>; .reg .b64 %rd<3>;
  mov.u32 %r1, %tid.x;
  call (%r2), addone, (%r1);
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  st.global.u32 [%rd2], %r2;
  ret;
}
";

#[test]
fn listings_mark_device_functions_inside_kernels() {
    let Some(ptxas) = ptx2sass::internals::reference::require("ptxas", "listings_mark_device_functions_inside_kernels") else { return };
    let dir = std::env::temp_dir().join(format!("ptx2sass-cubin-call-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (ptx, cubin, listing, bin) = (dir.join("c.ptx"), dir.join("c.cubin"), dir.join("c.sass"), dir.join("c.bin"));
    std::fs::write(&ptx, CALL_PTX).unwrap();
    assert!(Command::new(&ptxas).arg("-arch=sm_90").arg(&ptx).arg("-o").arg(&cubin).status().unwrap().success());
    let file = elf::read(&std::fs::read(&cubin).unwrap()).unwrap().elf;
    // Where ptxas put the callee: a local FUNC symbol in the kernel's section.
    let callee = file.symbols.iter().find(|s| s.name.as_deref() == Some("$kc$addone")).expect("ptxas names the callee $kc$addone");
    let out = Command::new(env!("CARGO_BIN_EXE_sass")).arg("dis").arg(&cubin).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let marker = format!("// device function $kc$addone (at {:#x}, {:#x} bytes)", callee.value, callee.size);
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    let at = lines.iter().position(|l| *l == marker).unwrap_or_else(|| panic!("no '{marker}' in\n{text}"));
    assert!(lines[at + 1].starts_with(&format!("/*{:04x}*/", callee.value)), "the marker precedes the callee's first instruction: {}", lines[at + 1]);
    std::fs::write(&listing, &text).unwrap();
    assert!(Command::new(env!("CARGO_BIN_EXE_sass")).args(["asm", "-arch=sm_90"]).arg(&listing).arg("-o").arg(&bin).status().unwrap().success());
    let code = file.sections.iter().find(|s| s.name == ".text.kc").unwrap().bytes(&file);
    assert_eq!(std::fs::read(&bin).unwrap(), code, "the marked listing assembles to ptxas's words");
    let _ = std::fs::remove_dir_all(&dir);
}

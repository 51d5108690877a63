//! How `ptx2sass -o FILE` treats what is already at FILE: a regular file is
//! replaced (removed, then written, as linkers do), a symbolic link is
//! written through and stays a link.

use std::path::{Path, PathBuf};
use std::process::Command;

fn compile_to(out: &Path) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let status = Command::new(env!("CARGO_BIN_EXE_ptx2sass")).arg("-arch=sm_90").arg(root.join("examples/saxpy.ptx")).arg("-o").arg(out).output().expect("runs");
    assert!(status.status.success(), "{}", String::from_utf8_lossy(&status.stderr));
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ptx2sass-output-file-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

#[test]
fn an_existing_larger_file_is_replaced_by_the_cubin() {
    let dir = scratch("replace");
    let fresh = dir.join("fresh.cubin");
    compile_to(&fresh);
    let expected = std::fs::read(&fresh).expect("fresh cubin");
    let old = dir.join("old.cubin");
    std::fs::write(&old, vec![0x5a; expected.len() * 3]).expect("old file");
    compile_to(&old);
    let got = std::fs::read(&old).expect("rewritten cubin");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(got.starts_with(b"\x7fELF"), "output is an ELF file");
    assert_eq!(got, expected, "no bytes of the old file remain");
}

#[cfg(unix)]
#[test]
fn a_symbolic_link_is_written_through() {
    let dir = scratch("link");
    let target = dir.join("target.cubin");
    std::fs::write(&target, b"old").expect("target");
    let link = dir.join("link.cubin");
    std::os::unix::fs::symlink(&target, &link).expect("link");
    compile_to(&link);
    let is_link = std::fs::symlink_metadata(&link).is_ok_and(|m| m.file_type().is_symlink());
    let written = std::fs::read(&target).expect("target read");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(is_link, "the link is still a link");
    assert!(written.starts_with(b"\x7fELF"), "the cubin went to the link's target");
}

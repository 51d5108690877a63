//! Locating NVIDIA's reference tools (`ptxas`, `nvdisasm`, `cuobjdump`,
//! `nvcc`) for tests that compare against them.
//!
//! The tools are not part of the repository. `scripts/install-reference.sh`
//! installs a pinned release into `<crate root>/.reference/bin`; the
//! environment variable `PTX2SASS_REF_BIN` points elsewhere instead (for
//! example at a CUDA installation's `bin/`).
//!
//! A test that needs a tool calls [`require`]. Under `CI=true` a missing tool
//! is a test failure (a panic that says how to install it); elsewhere the test
//! prints a visible `SKIPPED (...)` line on stderr and returns early, so a
//! plain `cargo test` still works on a machine without the tools.
//!
//! This module owns only the look-up; running the tools is up to the caller.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// The environment variable that overrides the reference binary directory.
pub const ENV_BIN_DIR: &str = "PTX2SASS_REF_BIN";

/// The script that installs the reference tools, relative to the crate root.
pub const INSTALL_SCRIPT: &str = "scripts/install-reference.sh";

/// Directory holding the reference binaries: `$PTX2SASS_REF_BIN` if set (and
/// not empty), else `<crate root>/.reference/bin`.
pub fn bin_dir() -> PathBuf {
    bin_dir_from(std::env::var_os(ENV_BIN_DIR))
}

/// [`bin_dir`] with the environment value passed in (testable without
/// touching the process environment).
fn bin_dir_from(env_value: Option<OsString>) -> PathBuf {
    match env_value {
        Some(v) if !v.is_empty() => PathBuf::from(v),
        _ => Path::new(env!("CARGO_MANIFEST_DIR"))
            .join(".reference")
            .join("bin"),
    }
}

/// Path of a reference tool (`"ptxas"`, `"nvdisasm"`, `"cuobjdump"`,
/// `"nvcc"`) in [`bin_dir`] if it is present and executable.
pub fn find(tool: &str) -> Option<PathBuf> {
    find_in(&bin_dir(), tool)
}

/// [`find`] in an explicit directory. Symbolic links are followed (the
/// install script links the binaries out of a Python virtual environment).
fn find_in(dir: &Path, tool: &str) -> Option<PathBuf> {
    // A tool name is a plain file name; anything with a separator or `..`
    // would escape the directory.
    if tool.is_empty() || tool.contains(['/', '\\']) || tool == "." || tool == ".." {
        return None;
    }
    let path = dir.join(tool);
    is_executable(&path).then_some(path)
}

#[cfg(unix)]
fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    match std::fs::metadata(path) {
        Ok(meta) => meta.is_file() && meta.permissions().mode() & 0o111 != 0,
        Err(_) => false,
    }
}

#[cfg(not(unix))]
fn is_executable(path: &Path) -> bool {
    std::fs::metadata(path)
        .map(|m| m.is_file())
        .unwrap_or(false)
}

/// For tests: the tool's path, or, when it is missing, either a panic (when
/// the environment variable `CI` is `true`) that says how to install it, or a
/// visible line on stderr,
/// `SKIPPED (reference <tool> not installed; run scripts/install-reference.sh): <test_name>`,
/// and `None`.
///
/// ```no_run
/// let Some(ptxas) = ptx2sass::internals::reference::require("ptxas", "my_test") else { return };
/// let status = std::process::Command::new(ptxas).arg("--version").status().unwrap();
/// assert!(status.success());
/// ```
pub fn require(tool: &str, test_name: &str) -> Option<PathBuf> {
    let ci = std::env::var("CI").is_ok_and(|v| v == "true");
    match require_in(&bin_dir(), tool, test_name, ci) {
        Ok(found) => found,
        Err(message) => panic!("{message}"),
    }
}

/// The logic of [`require`] without the environment: `Ok(Some(path))` when
/// found, `Ok(None)` after printing the skip line, `Err(message)` when the
/// caller must fail (CI).
fn require_in(
    dir: &Path,
    tool: &str,
    test_name: &str,
    ci: bool,
) -> Result<Option<PathBuf>, String> {
    if let Some(path) = find_in(dir, tool) {
        return Ok(Some(path));
    }
    if ci {
        return Err(format!(
            "reference {tool} not found in {} (test {test_name}); CI=true requires it: \
             run {INSTALL_SCRIPT} or set {ENV_BIN_DIR} to a directory holding it",
            dir.display()
        ));
    }
    eprintln!("{}", skip_line(tool, test_name));
    Ok(None)
}

/// The line printed when a test is skipped for want of `tool`.
fn skip_line(tool: &str, test_name: &str) -> String {
    format!("SKIPPED (reference {tool} not installed; run {INSTALL_SCRIPT}): {test_name}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// A fresh, empty directory under the system temp dir, removed on drop.
    struct TempDir(PathBuf);

    impl TempDir {
        fn new(tag: &str) -> TempDir {
            static COUNTER: AtomicUsize = AtomicUsize::new(0);
            let n = COUNTER.fetch_add(1, Ordering::Relaxed);
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos())
                .unwrap_or(0);
            let dir = std::env::temp_dir().join(format!(
                "ptx2sass-reference-{tag}-{}-{n}-{nanos}",
                std::process::id()
            ));
            std::fs::create_dir_all(&dir).expect("create temp dir");
            TempDir(dir)
        }
    }

    impl Drop for TempDir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    #[cfg(unix)]
    fn write_file(dir: &Path, name: &str, mode: u32) -> PathBuf {
        use std::os::unix::fs::PermissionsExt;
        let path = dir.join(name);
        std::fs::write(&path, "#!/bin/sh\nexit 0\n").expect("write file");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).expect("chmod");
        path
    }

    #[test]
    fn env_value_overrides_the_default_directory() {
        assert_eq!(
            bin_dir_from(Some("/opt/cuda/bin".into())),
            PathBuf::from("/opt/cuda/bin")
        );
    }

    #[test]
    fn default_directory_is_under_the_crate_root() {
        let expected = Path::new(env!("CARGO_MANIFEST_DIR")).join(".reference/bin");
        assert_eq!(bin_dir_from(None), expected);
        // An empty value counts as unset.
        assert_eq!(bin_dir_from(Some(OsString::new())), expected);
    }

    #[cfg(unix)]
    #[test]
    fn executable_file_is_found() {
        let dir = TempDir::new("exec");
        let fake = write_file(&dir.0, "ptxas", 0o755);
        assert_eq!(find_in(&dir.0, "ptxas"), Some(fake.clone()));
        assert_eq!(require_in(&dir.0, "ptxas", "t", true), Ok(Some(fake)));
    }

    #[cfg(unix)]
    #[test]
    fn non_executable_file_is_not_found() {
        let dir = TempDir::new("noexec");
        write_file(&dir.0, "nvdisasm", 0o644);
        assert_eq!(find_in(&dir.0, "nvdisasm"), None);
    }

    #[cfg(unix)]
    #[test]
    fn symlink_to_executable_is_found_and_dangling_link_is_not() {
        let dir = TempDir::new("link");
        let target = write_file(&dir.0, "real-ptxas", 0o755);
        std::os::unix::fs::symlink(&target, dir.0.join("ptxas")).expect("symlink");
        std::os::unix::fs::symlink(dir.0.join("missing"), dir.0.join("nvcc")).expect("symlink");
        assert_eq!(find_in(&dir.0, "ptxas"), Some(dir.0.join("ptxas")));
        assert_eq!(find_in(&dir.0, "nvcc"), None);
    }

    #[cfg(unix)]
    #[test]
    fn directory_and_path_like_names_are_not_found() {
        let dir = TempDir::new("dir");
        std::fs::create_dir(dir.0.join("cuobjdump")).expect("mkdir");
        write_file(&dir.0, "ptxas", 0o755);
        assert_eq!(find_in(&dir.0, "cuobjdump"), None);
        assert_eq!(find_in(&dir.0, ""), None);
        assert_eq!(find_in(&dir.0, "../ptxas"), None);
        assert_eq!(find_in(&dir.0.join("sub"), "../ptxas"), None);
    }

    #[test]
    fn missing_tool_skips_outside_ci_and_fails_in_ci() {
        let dir = TempDir::new("missing");
        assert_eq!(require_in(&dir.0, "ptxas", "some_test", false), Ok(None));
        let err = require_in(&dir.0, "ptxas", "some_test", true).unwrap_err();
        assert!(err.contains("scripts/install-reference.sh"), "{err}");
        assert!(err.contains("some_test"), "{err}");
        assert!(err.contains("ptxas"), "{err}");
    }

    #[test]
    fn skip_line_has_the_documented_format() {
        assert_eq!(
            skip_line("nvdisasm", "enc_roundtrip"),
            "SKIPPED (reference nvdisasm not installed; run scripts/install-reference.sh): enc_roundtrip"
        );
    }
}

//! Files written at paths the user named (`--json`, `--markdown`, `--vcd`, `asm --out`): one
//! function, [`Output::new`], decides before any work what a path is and how it is written, so
//! that writing an output never harms what the path already names.
//!
//! | the path resolves to (links followed) | what happens |
//! |---|---|
//! | nothing, or a regular file | written whole beside it, then renamed over it (a link stays a link) |
//! | a character device, or a FIFO with a reader | opened before any work, then streamed |
//! | a directory, a socket, a block device, a FIFO with no reader | refused in one line |
//! | `-` | standard output; the command's other output goes to standard error |
//!
//! A path that names an input of the command, or another of its outputs, is refused too.

use std::fs::File;
use std::io::Write;
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use anyhow::{bail, Context, Result};

/// Set once an output is standard output: the command's messages then go to standard error.
static STDOUT_IS_DOCUMENT: AtomicBool = AtomicBool::new(false);

/// Whether some output of this command is standard output (`-`), so that its messages must go
/// to standard error.
pub fn stdout_is_document() -> bool {
    STDOUT_IS_DOCUMENT.load(Ordering::Relaxed)
}

/// An output path, checked and (for a device or a FIFO) opened before any work.
#[derive(Debug)]
pub struct Output {
    /// The path as the user named it (errors and messages show it).
    named: PathBuf,
    kind: Kind,
}

#[derive(Debug)]
enum Kind {
    Stdout,
    /// A character device or a FIFO, opened for writing.
    Stream(Mutex<File>),
    /// A regular file, or nothing yet, at this path (links resolved).
    File(PathBuf),
}

/// What a command's output may be.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Allow {
    /// Any output: a file, a device, a FIFO, or `-` for standard output.
    Any,
    /// A regular file (or nothing yet) only: the output is read back or has a file beside it.
    FileOnly,
}

impl Output {
    /// Checks the output `path` of option `flag` (`--json`) before any work: what it resolves
    /// to, that its directory exists (created if not) and is writable, and that it is none of
    /// `others` (the command's inputs and other outputs, each with what it is, e.g. `("the
    /// kernel", path)`). A device or a FIFO with a reader is opened here.
    pub fn new(flag: &str, path: &Path, allow: Allow, others: &[(&str, &Path)]) -> Result<Output> {
        let at = format!("{flag} {}", path.display());
        if path.as_os_str() == "-" {
            if allow == Allow::FileOnly {
                bail!("{at}: standard output is refused here: {flag} needs a regular file");
            }
            STDOUT_IS_DOCUMENT.store(true, Ordering::Relaxed);
            return Ok(Output { named: path.into(), kind: Kind::Stdout });
        }
        let named_dir =
            path.as_os_str().as_encoded_bytes().ends_with(b"/") || path.file_name().is_none();
        if named_dir {
            bail!("{at}: names a directory, not a file: {flag} needs a file name");
        }
        let target = resolve(path).with_context(|| format!("{at}: cannot follow its links"))?;
        for (what, other) in others {
            if same_target(&target, other) {
                bail!("{at} is {what}: it would be overwritten");
            }
        }
        let kind = match std::fs::metadata(&target) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => file_kind(&at, target)?,
            Err(e) => bail!("{at}: {e}"),
            Ok(m) => {
                let t = m.file_type();
                if t.is_file() {
                    file_kind(&at, target)?
                } else if allow == Allow::FileOnly && (t.is_char_device() || t.is_fifo()) {
                    bail!("{at}: is {}: {flag} needs a regular file", describe(&t));
                } else if t.is_char_device() {
                    Kind::Stream(Mutex::new(open_device(&at, &target)?))
                } else if t.is_fifo() {
                    Kind::Stream(Mutex::new(open_fifo(&at, &target)?))
                } else {
                    bail!("{at}: is {}, not a file", describe(&t));
                }
            }
        };
        Ok(Output { named: path.into(), kind })
    }

    /// The path as the user named it.
    pub fn path(&self) -> &Path {
        &self.named
    }

    /// Whether this output is standard output.
    pub fn is_stdout(&self) -> bool {
        matches!(self.kind, Kind::Stdout)
    }

    /// Writes `data` as the whole output: to a file whole or not at all, to a stream as it is.
    pub fn write(&self, data: impl AsRef<[u8]>) -> Result<()> {
        let fail = || format!("cannot write {}", self.named.display());
        match &self.kind {
            Kind::Stdout => {
                let mut out = std::io::stdout().lock();
                out.write_all(data.as_ref()).and_then(|_| out.flush()).with_context(fail)
            }
            Kind::Stream(file) => {
                let mut file = file.lock().unwrap_or_else(|p| p.into_inner());
                file.write_all(data.as_ref()).and_then(|_| file.flush()).with_context(fail)
            }
            Kind::File(target) => write_resolved(target, data.as_ref()).with_context(fail),
        }
    }
}

/// Writes `data` to `path` whole or not at all: into a temporary file beside the file `path`
/// resolves to, renamed over it (a link stays a link, the file keeps its permissions). Nothing
/// is left behind when the write fails. Files the commands write inside their own directories
/// go through it; paths the user named go through [`Output`] first.
pub fn write_whole(path: &Path, data: impl AsRef<[u8]>) -> Result<()> {
    let fail = || format!("cannot write {}", path.display());
    let target = resolve(path).with_context(fail)?;
    write_resolved(&target, data.as_ref()).with_context(fail)
}

fn write_resolved(target: &Path, data: &[u8]) -> std::io::Result<()> {
    let mut name = std::ffi::OsString::from(".");
    name.push(target.file_name().unwrap_or_default());
    name.push(format!(".{}.simt-rtl.tmp", std::process::id()));
    let tmp = target.with_file_name(name);
    let mode = std::fs::metadata(target).ok().filter(|m| m.is_file()).map(|m| m.permissions());
    let written = std::fs::write(&tmp, data)
        .and_then(|_| mode.map_or(Ok(()), |m| std::fs::set_permissions(&tmp, m)))
        .and_then(|_| std::fs::rename(&tmp, target));
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

/// `path` with its symbolic links followed to the path they end at, which need not exist.
fn resolve(path: &Path) -> std::io::Result<PathBuf> {
    let mut path = path.to_path_buf();
    for _ in 0..40 {
        match std::fs::symlink_metadata(&path) {
            Ok(m) if m.file_type().is_symlink() => {
                let link = std::fs::read_link(&path)?;
                path = path.parent().unwrap_or(Path::new("")).join(link);
            }
            _ => return Ok(path),
        }
    }
    Err(std::io::Error::other("too many levels of symbolic links"))
}

/// Whether `target` (resolved) is the file `other` names, or will name: both existing, or
/// both the same name in the same directory.
fn same_target(target: &Path, other: &Path) -> bool {
    match (absolute(target), resolve(other).ok().and_then(|o| absolute(&o))) {
        (Some(a), Some(b)) => a == b,
        _ => false,
    }
}

/// `path` (links resolved) as an absolute path without `.` or `..`: the file itself when it
/// exists, else its name in its directory.
fn absolute(path: &Path) -> Option<PathBuf> {
    if let Ok(p) = path.canonicalize() {
        return Some(p);
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.canonicalize().ok()?,
        _ => std::env::current_dir().ok()?,
    };
    Some(dir.join(path.file_name()?))
}

/// A regular file's output: its directory created if missing and checked writable now.
fn file_kind(at: &str, target: PathBuf) -> Result<Kind> {
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    writable_dir(&dir).with_context(|| at.to_string())?;
    Ok(Kind::File(target))
}

/// Creates `dir` if needed and checks that a file can be written in it, before any work whose
/// output goes there (a file output's directory, or a command's `--out`).
pub fn writable_dir(dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir)
        .with_context(|| format!("cannot create output directory {}", dir.display()))?;
    let probe = dir.join(format!(".simt-rtl-probe-{}", std::process::id()));
    std::fs::write(&probe, b"")
        .with_context(|| format!("cannot write in output directory {}", dir.display()))?;
    let _ = std::fs::remove_file(&probe);
    Ok(())
}

fn open_device(at: &str, target: &Path) -> Result<File> {
    std::fs::OpenOptions::new()
        .write(true)
        .open(target)
        .with_context(|| format!("{at}: cannot open"))
}

/// A FIFO opened for writing without waiting: with no reader, the open fails (`ENXIO`) and the
/// output is refused instead of hanging; with one, the FIFO is then written as a blocking file.
fn open_fifo(at: &str, target: &Path) -> Result<File> {
    let file = std::fs::OpenOptions::new()
        .write(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(target)
        .map_err(|e| match e.raw_os_error() {
            Some(libc::ENXIO) => anyhow::anyhow!("{at}: is a FIFO with no reader"),
            _ => anyhow::anyhow!("{at}: cannot open: {e}"),
        })?;
    use std::os::fd::AsRawFd;
    // SAFETY: fcntl on a file descriptor this function owns, with integer arguments only.
    let blocking = unsafe {
        let fd = file.as_raw_fd();
        let flags = libc::fcntl(fd, libc::F_GETFL);
        flags >= 0 && libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK) == 0
    };
    if !blocking {
        bail!("{at}: cannot open: {}", std::io::Error::last_os_error());
    }
    Ok(file)
}

fn describe(t: &std::fs::FileType) -> &'static str {
    if t.is_dir() {
        "a directory"
    } else if t.is_socket() {
        "a socket"
    } else if t.is_block_device() {
        "a block device"
    } else if t.is_char_device() {
        "a character device"
    } else if t.is_fifo() {
        "a FIFO"
    } else {
        "not a regular file"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("simt-output-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_link_stays_a_link_and_a_file_keeps_its_mode() {
        let dir = scratch("link");
        let real = dir.join("real.json");
        std::fs::write(&real, "old").unwrap();
        std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o640)).unwrap();
        let link = dir.join("link.json");
        std::os::unix::fs::symlink("real.json", &link).unwrap();
        Output::new("--json", &link, Allow::Any, &[]).unwrap().write("new").unwrap();
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
        assert_eq!(std::fs::read_to_string(&real).unwrap(), "new");
        assert_eq!(std::fs::metadata(&real).unwrap().permissions().mode() & 0o777, 0o640);
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 2, "no temporary file left");
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_failed_rename_leaves_no_temporary_file() {
        let dir = scratch("rename");
        let sub = dir.join("sub");
        std::fs::create_dir(&sub).unwrap();
        assert!(write_whole(&sub, "x").is_err());
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1, "only sub/ is left");
        std::fs::remove_dir_all(dir).unwrap();
    }
}

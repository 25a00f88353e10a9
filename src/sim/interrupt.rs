//! Tools end with the command that started them. After [`end_tools_on_interrupt`], SIGINT,
//! SIGTERM or SIGHUP (the terminal closed) stops every process this one started, and every process those started, whatever
//! process group or session they are in (`prove` runs `yosys-smtbmc` in a group of its own,
//! which a terminal's Ctrl-C never reaches), kills them, reaps them, and exits with 128 + the
//! signal (130, 143, 129) after one line on standard error (when it can still be written).
//!
//! Descendants are found through `/proc` (Linux). They are stopped first, round after round,
//! until a round finds no new one, so that none can start another while they are being ended;
//! this process becomes their subreaper, so that the ones whose parent dies first are still its
//! to reap. Every tool is started through [`Guarded`]'s methods, which share a
//! lock that the interrupt thread takes for good before it looks for descendants: a tool being
//! started then is in `/proc` before the first round, and none starts after it (a thread that
//! tries waits until the exit), so a signal that comes while another thread starts a tool, or a
//! second signal soon after the first, leaves nothing running. SIGKILL of this process is not
//! covered.

use std::collections::BTreeSet;
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::{PoisonError, RwLock};

/// Where the signal handler writes the signal's number: the write end of a pipe whose read end
/// a thread of its own waits on.
static SIGNAL_PIPE: AtomicI32 = AtomicI32::new(-1);

/// Set by the handler before anything else: from then on the interrupt thread owns the exit.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Held shared while a tool is started, and taken whole, never to be given back, by the interrupt
/// thread before it ends the tools.
static STARTING: RwLock<()> = RwLock::new(());

/// [`Command`]'s ways to start a tool, each through the lock the interrupt thread takes: once
/// the command is being interrupted, a start waits for the exit, so that no tool starts after
/// the interrupt thread has looked for them. Every tool the crate starts is started so
/// (`tests/layering.rs` checks).
pub trait Guarded {
    /// [`Command::spawn`], guarded.
    fn spawn_guarded(&mut self) -> std::io::Result<Child>;
    /// [`Command::output`], guarded: standard input empty, output and errors captured.
    fn output_guarded(&mut self) -> std::io::Result<Output>;
    /// [`Command::status`], guarded.
    fn status_guarded(&mut self) -> std::io::Result<ExitStatus>;
}

impl Guarded for Command {
    fn spawn_guarded(&mut self) -> std::io::Result<Child> {
        let _starting = STARTING.read().unwrap_or_else(PoisonError::into_inner);
        self.spawn()
    }

    fn output_guarded(&mut self) -> std::io::Result<Output> {
        self.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
        self.spawn_guarded()?.wait_with_output()
    }

    fn status_guarded(&mut self) -> std::io::Result<ExitStatus> {
        self.spawn_guarded()?.wait()
    }
}

/// The handler: one byte, the signal's number, into [`SIGNAL_PIPE`] (`write` is
/// async-signal-safe; nothing else is done here).
extern "C" fn on_signal(signal: libc::c_int) {
    INTERRUPTED.store(true, Ordering::SeqCst);
    let byte = signal as u8;
    // SAFETY: write(2) of one byte from the stack to a pipe this process owns.
    unsafe { libc::write(SIGNAL_PIPE.load(Ordering::Relaxed), (&byte as *const u8).cast(), 1) };
}

/// Handles SIGINT, SIGTERM and SIGHUP from now on: a handler passes the signal to a thread, which ends
/// the tools and then the command. The tools keep the default handling and an empty signal
/// mask (exec resets handled signals to the default).
pub fn end_tools_on_interrupt() -> anyhow::Result<()> {
    let mut fds = [0; 2];
    // SAFETY: pipe(2) into a two-element array; sigaction with a handler that only writes.
    unsafe {
        if libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) != 0 {
            anyhow::bail!("cannot make the signal pipe: {}", std::io::Error::last_os_error());
        }
        SIGNAL_PIPE.store(fds[1], Ordering::Relaxed);
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
        action.sa_flags = libc::SA_RESTART;
        libc::sigemptyset(&mut action.sa_mask);
        for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
            if libc::sigaction(signal, &action, std::ptr::null_mut()) != 0 {
                anyhow::bail!("cannot handle signal {signal}");
            }
        }
    }
    let read_end = fds[0];
    std::thread::Builder::new().name("interrupt".into()).spawn(move || {
        let mut byte = 0u8;
        // SAFETY: read(2) of one byte into a local, from the pipe's read end.
        while unsafe { libc::read(read_end, (&mut byte as *mut u8).cast(), 1) } != 1 {}
        let signal = byte as libc::c_int;
        // A start under way finishes (its tool is then in /proc); none begins after this.
        std::mem::forget(STARTING.write().unwrap_or_else(PoisonError::into_inner));
        let ended = end_descendants();
        let name = match signal {
            libc::SIGINT => "SIGINT",
            libc::SIGHUP => "SIGHUP",
            _ => "SIGTERM",
        };
        // Not eprintln!: after SIGHUP the terminal may be gone, and a failed write must not
        // stop the exit.
        let line = format!("simt-rtl: interrupted by {name}: ended {ended} tool process(es)\n");
        let _ = std::io::Write::write_all(&mut std::io::stderr(), line.as_bytes());
        std::process::exit(128 + signal);
    })?;
    Ok(())
}

/// Call before the command reports its end: once a signal has arrived, this never returns, so
/// that an error caused by the ended tools (a tool killed under a running step) is not reported
/// and the exit code is the interrupt thread's 128 + the signal.
pub fn wait_if_interrupted() {
    while INTERRUPTED.load(Ordering::SeqCst) {
        std::thread::sleep(std::time::Duration::from_secs(1));
    }
}

/// Stops, kills and reaps every descendant of this process; returns how many there were.
fn end_descendants() -> usize {
    // SAFETY: prctl and kill with integer arguments only.
    unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) };
    let mut ended = BTreeSet::new();
    loop {
        let new: Vec<i32> = descendants().into_iter().filter(|p| !ended.contains(p)).collect();
        if new.is_empty() {
            break;
        }
        for pid in new {
            unsafe { libc::kill(pid, libc::SIGSTOP) };
            ended.insert(pid);
        }
    }
    for &pid in &ended {
        unsafe { libc::kill(pid, libc::SIGKILL) };
    }
    reap(ended.len());
    ended.len()
}

/// Waits (at most 2 s) for `n` children, this process's own and the orphans it became the
/// subreaper of.
fn reap(n: usize) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(2);
    let mut reaped = 0;
    while reaped < n && std::time::Instant::now() < deadline {
        // SAFETY: waitpid with a null status pointer.
        match unsafe { libc::waitpid(-1, std::ptr::null_mut(), libc::WNOHANG) } {
            0 => std::thread::sleep(std::time::Duration::from_millis(10)),
            pid if pid > 0 => reaped += 1,
            _ => break, // no child left
        }
    }
}

/// Every process below this one in the process tree, read from `/proc`.
fn descendants() -> Vec<i32> {
    let parents: Vec<(i32, i32)> = std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter_map(|pid| Some((pid, parent_of(pid)?)))
        .collect();
    let mut found = vec![std::process::id() as i32];
    let mut i = 0;
    while i < found.len() {
        let parent = found[i];
        found.extend(parents.iter().filter(|(_, pp)| *pp == parent).map(|(p, _)| *p));
        i += 1;
    }
    found.remove(0);
    found
}

/// The parent of process `pid`: the fourth field of `/proc/PID/stat`, after the command name
/// in parentheses (which may itself hold spaces and parentheses).
fn parent_of(pid: i32) -> Option<i32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    stat.rsplit_once(')')?.1.split_whitespace().nth(1)?.parse().ok()
}

//! For unit tests only: the CPU time a thread has used, so that a test bounds work,
//! not wall time. A busy machine does not add to it: while the thread waits for a core
//! its wall clock runs on, its CPU clock does not.

use std::time::Duration;

/// The CPU time this thread has used (user and system).
pub(crate) fn thread_cpu_time() -> Duration {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: a clock every Linux has, and a timespec for it to fill.
    let status = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) };
    assert_eq!(status, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID)");
    Duration::new(
        u64::try_from(now.tv_sec).unwrap_or_default(),
        u32::try_from(now.tv_nsec).unwrap_or_default(),
    )
}

//! Reusable OS threads: each connection and each game loop still runs on an OS thread
//! of its own for its whole life, but a thread whose job is done goes back to its pool
//! and waits for the next one instead of exiting.
//!
//! Why: creating and destroying a thread maps, guards, advises away and unmaps its
//! stack, and each of those steps takes the process's memory lock and interrupts the
//! other cores to flush their address caches. A lab server that pairs a few thousand
//! games a second spent most of both cores doing exactly that.
//!
//! How: each idle worker waits on a slot of its own (a mutex and a condition
//! variable), and the pool keeps the idle workers' slots on a stack. [`Workers::run`]
//! pops the most recently idle worker, puts the job in its slot and wakes exactly that
//! thread (its stack and caches are the warmest), or starts a new thread when none is
//! idle. Nothing spins: a shared queue made every idle worker poll and yield on its
//! way to sleep. A worker that waited [`IDLE_TIMEOUT`] without work retires, but only
//! if it is still on the stack: once popped, a job is on its way to it.

use parking_lot::{Condvar, Mutex};
use std::io;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread;
use std::time::{Duration, Instant};

/// How long an idle worker waits for a job before its thread ends.
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(60);

/// A job a worker runs.
type Job = Box<dyn FnOnce() + Send>;

/// Where one idle worker waits for its next job.
#[derive(Default)]
struct Slot {
    job: Mutex<Option<Job>>,
    filled: Condvar,
}

/// The slots of the idle workers, the most recently idle last.
type IdleStack = Mutex<Vec<Arc<Slot>>>;

/// A pool of threads of one kind (their name prefix and stack size).
pub struct Workers {
    /// Threads are named `<kind>-<number>`.
    kind: &'static str,
    stack_bytes: usize,
    /// At most this many workers wait idle; one more finishing its job ends instead.
    max_idle: usize,
    idle: Arc<IdleStack>,
    /// Threads started so far (for their names).
    started: AtomicUsize,
}

/// A job's completion, for whoever must wait for it (a game loop at shutdown).
#[derive(Clone, Debug, Default)]
pub struct Finished(Arc<AtomicBool>);

impl Finished {
    /// Whether the job has returned (or panicked).
    pub fn is_finished(&self) -> bool {
        self.0.load(Ordering::Acquire)
    }

    /// Waits until the job has returned, or until `deadline`; returns whether it has.
    pub fn wait_until(&self, deadline: Instant) -> bool {
        while !self.is_finished() && Instant::now() < deadline {
            thread::sleep(Duration::from_millis(5));
        }
        self.is_finished()
    }
}

impl Workers {
    /// A pool of threads named `<kind>-<n>` with stacks of `stack_bytes`, keeping at
    /// most `max_idle` of them waiting.
    pub fn new(kind: &'static str, stack_bytes: usize, max_idle: usize) -> Workers {
        Workers {
            kind,
            stack_bytes,
            max_idle,
            idle: Arc::default(),
            started: AtomicUsize::new(0),
        }
    }

    /// Runs `job` on an idle worker, or on a new thread when none is idle.
    ///
    /// # Errors
    ///
    /// When no worker is idle and no thread can be started (the job is not run).
    pub fn run(&self, job: impl FnOnce() + Send + 'static) -> io::Result<Finished> {
        let finished = Finished::default();
        let done = finished.clone();
        let job: Job = Box::new(move || {
            // Set however the job ends: a panic is caught by the worker below.
            struct SetOnDrop(Finished);
            impl Drop for SetOnDrop {
                fn drop(&mut self) {
                    self.0.0.store(true, Ordering::Release);
                }
            }
            let _done = SetOnDrop(done);
            job();
        });
        let idle = self.idle.lock().pop();
        if let Some(slot) = idle {
            // Popped, the worker cannot retire: it waits for this job.
            *slot.job.lock() = Some(job);
            slot.filled.notify_one();
            return Ok(finished);
        }
        let number = self.started.fetch_add(1, Ordering::Relaxed) + 1;
        let idle = Arc::clone(&self.idle);
        let max_idle = self.max_idle;
        thread::Builder::new()
            .name(format!("{}-{number}", self.kind))
            .stack_size(self.stack_bytes)
            .spawn(move || work(job, &idle, max_idle))?;
        Ok(finished)
    }
}

/// A worker's life: its first job, then the jobs put in its slot until it retires.
fn work(first: Job, idle: &IdleStack, max_idle: usize) {
    let slot = Arc::new(Slot::default());
    let mut job = first;
    loop {
        if panic::catch_unwind(AssertUnwindSafe(job)).is_err() {
            // The panic hook has logged it; the thread is sound after unwinding.
            log::error!("a job of this thread panicked; the thread goes on");
        }
        {
            let mut stack = idle.lock();
            if stack.len() >= max_idle {
                return; // enough workers wait already
            }
            stack.push(Arc::clone(&slot));
        }
        match next_job(&slot, idle) {
            Some(next) => job = next,
            None => return,
        }
    }
}

/// Waits for the job put in `slot`; `None` when the worker retires instead (it waited
/// [`IDLE_TIMEOUT`] and was still on the stack, so no job can come).
fn next_job(slot: &Arc<Slot>, idle: &IdleStack) -> Option<Job> {
    let mut waiting = slot.job.lock();
    loop {
        if let Some(job) = waiting.take() {
            return Some(job);
        }
        if slot.filled.wait_for(&mut waiting, IDLE_TIMEOUT).timed_out() && waiting.is_none() {
            // Never both locks at once: `run` takes the stack's, then the slot's.
            drop(waiting);
            let mut stack = idle.lock();
            if let Some(at) = stack.iter().position(|s| Arc::ptr_eq(s, slot)) {
                stack.remove(at);
                return None;
            }
            // Popped meanwhile: the job is on its way.
            drop(stack);
            waiting = slot.job.lock();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc::channel;

    #[test]
    fn a_finished_worker_runs_the_next_job() {
        let workers = Workers::new("test", 64 * 1024, 4);
        let (names, seen) = channel();
        for _ in 0..20 {
            let names = names.clone();
            let finished = workers
                .run(move || {
                    let _ = names.send(thread::current().name().map(str::to_string));
                })
                .expect("run");
            assert!(finished.wait_until(Instant::now() + Duration::from_secs(20)));
            // Let the worker get back to the stack before the next job.
            while workers.idle.lock().is_empty() {
                thread::yield_now();
            }
        }
        drop(names);
        let names: Vec<_> = seen.iter().collect();
        assert_eq!(names.len(), 20);
        assert!(
            names.iter().all(|n| n.as_deref() == Some("test-1")),
            "{names:?}"
        );
    }

    #[test]
    fn jobs_that_overlap_get_threads_of_their_own_and_a_panic_spares_the_thread() {
        let workers = Workers::new("test", 64 * 1024, 8);
        let (release, gate) = crossbeam_channel::bounded::<()>(0);
        let blocked: Vec<Finished> = (0..5)
            .map(|_| {
                let gate = gate.clone();
                workers
                    .run(move || {
                        let _ = gate.recv();
                    })
                    .expect("run")
            })
            .collect();
        assert_eq!(workers.started.load(Ordering::Relaxed), 5);
        drop(release);
        let deadline = Instant::now() + Duration::from_secs(20);
        assert!(blocked.iter().all(|f| f.wait_until(deadline)));
        let panicked = workers.run(|| panic!("a bug in a job")).expect("run");
        assert!(panicked.wait_until(deadline));
        let after = workers.run(|| {}).expect("run");
        assert!(after.wait_until(deadline));
        assert_eq!(workers.started.load(Ordering::Relaxed), 5, "no new thread");
    }
}

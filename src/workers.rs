//! Reusable OS threads: each connection and each game loop still runs on an OS thread
//! of its own for its whole life, but a thread whose job is done goes back to its pool
//! and waits for the next one instead of exiting.
//!
//! Why: creating and destroying a thread maps, guards, advises away and unmaps its
//! stack, and each of those steps takes the process's memory lock and interrupts the
//! other cores to flush their address caches. A lab server that pairs a few thousand
//! games a second spent most of both cores doing exactly that.
//!
//! How: idle workers wait on one shared queue. [`Workers::run`] claims an idle worker
//! if there is one (a counter, changed with compare-and-swap) and queues the job for
//! it, or else starts a new thread with the job. A worker that waited
//! [`IDLE_TIMEOUT`] without work retires, but only by claiming an idle slot itself, so
//! a queued job always finds a worker that has not retired.

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender, bounded};
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

/// A pool of threads of one kind (their name prefix and stack size).
pub struct Workers {
    /// Threads are named `<kind>-<number>`.
    kind: &'static str,
    stack_bytes: usize,
    /// At most this many workers wait idle; one more finishing its job ends instead.
    max_idle: usize,
    jobs: Sender<Job>,
    queue: Receiver<Job>,
    /// Workers waiting for a job that no job has been queued for yet.
    idle: Arc<AtomicUsize>,
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
        // A job is queued only for a worker that waits idle and has been claimed for
        // it, so the queue never holds more than `max_idle` jobs: bounded there, the
        // send below never waits.
        let (jobs, queue) = bounded(max_idle.max(1));
        Workers {
            kind,
            stack_bytes,
            max_idle,
            jobs,
            queue,
            idle: Arc::new(AtomicUsize::new(0)),
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
        if claim(&self.idle) {
            // A claimed worker is waiting on the queue and cannot retire: the send
            // cannot fail while this pool holds the receiver too.
            self.jobs
                .send(job)
                .map_err(|_| io::Error::other("the worker pool is gone"))?;
            return Ok(finished);
        }
        let number = self.started.fetch_add(1, Ordering::Relaxed) + 1;
        let queue = self.queue.clone();
        let idle = Arc::clone(&self.idle);
        let max_idle = self.max_idle;
        thread::Builder::new()
            .name(format!("{}-{number}", self.kind))
            .stack_size(self.stack_bytes)
            .spawn(move || work(job, &queue, &idle, max_idle))?;
        Ok(finished)
    }
}

/// A worker's life: its first job, then jobs from the queue until it retires.
fn work(first: Job, queue: &Receiver<Job>, idle: &AtomicUsize, max_idle: usize) {
    let mut job = first;
    loop {
        if panic::catch_unwind(AssertUnwindSafe(job)).is_err() {
            // The panic hook has logged it; the thread is sound after unwinding.
            log::error!("a job of this thread panicked; the thread goes on");
        }
        if idle.fetch_add(1, Ordering::AcqRel) >= max_idle {
            // Enough workers wait already: retire, if no job has claimed us yet.
            if claim(idle) {
                return;
            }
        }
        job = loop {
            match queue.recv_timeout(IDLE_TIMEOUT) {
                Ok(next) => break next,
                Err(RecvTimeoutError::Timeout) if claim(idle) => return,
                // A job was queued for an idle worker meanwhile: it may be ours.
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return,
            }
        };
    }
}

/// Takes one idle slot, if there is one.
fn claim(idle: &AtomicUsize) -> bool {
    idle.fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| n.checked_sub(1))
        .is_ok()
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
            // Let the worker get back to the queue before the next job.
            while workers.idle.load(Ordering::Acquire) == 0 {
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

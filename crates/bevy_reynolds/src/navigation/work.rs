//! Work done off the step: on a thread of its own, or at once on the web
//! (which has none), and taken at a step fixed when it was asked for,
//! whatever the machine's speed, so that a run goes the same way on any
//! machine. Work made of many small pieces (routes) waits between them
//! while the app runs a frame, so that it takes its cores between frames
//! (while a game waits for the display) rather than from them; in an app
//! that runs its frames back to back, it waits for nothing.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use bevy::platform::time::Instant;

/// The least time between two frames worth leaving work for: an app that
/// runs frames back to back (a server, a benchmark) leaves none, and its
/// work runs beside its frames.
const IDLE_WORTH_WAITING_FOR: Duration = Duration::from_millis(1);

/// Whether the app is running a frame, and how many it has ended: set as
/// a frame begins (`First`), cleared as it ends (after `Last`).
#[derive(Default, Clone)]
pub(super) struct Frames(Arc<Shared>);

#[derive(Default)]
struct Shared {
    state: Mutex<FrameState>,
    /// Woken as a frame ends, and as work is wanted.
    changed: Condvar,
}

#[derive(Default)]
struct FrameState {
    running: bool,
    ended: u64,
    ended_at: Option<Instant>,
    /// Whether work waits for this frame: the app left time before it.
    worth_waiting: bool,
}

impl Frames {
    fn state(&self) -> MutexGuard<'_, FrameState> {
        self.0.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn wake(&self) {
        self.0.changed.notify_all();
    }

    pub(super) fn begin(&self) {
        let mut state = self.state();
        state.running = true;
        state.worth_waiting = state
            .ended_at
            .is_some_and(|at| at.elapsed() >= IDLE_WORTH_WAITING_FOR);
    }

    /// Whether a frame is running (begun, not yet ended).
    #[cfg(test)]
    pub(super) fn running(&self) -> bool {
        self.state().running
    }

    pub(super) fn end(&self) {
        let mut state = self.state();
        state.running = false;
        state.ended += 1;
        state.ended_at = Some(Instant::now());
        drop(state);
        self.wake();
    }
}

/// What a piece of work waits on between its pieces: the frame, unless it
/// is wanted now.
pub(super) struct Gate {
    frames: Frames,
    wanted: Arc<AtomicBool>,
}

impl Gate {
    /// Waits while the app runs a frame (at most until that frame ends) if
    /// it leaves time between frames, unless the work is wanted now.
    pub(super) fn wait(&self) {
        let mut state = self.frames.state();
        let began = state.ended;
        while state.running
            && state.worth_waiting
            && state.ended == began
            && !self.wanted.load(Ordering::Acquire)
        {
            state = (self.frames.0.changed)
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }
}

/// Work under way, and the step it is taken at.
pub(super) struct Work<T> {
    /// The step it is taken at.
    pub(super) due: u64,
    /// Set when it is taken (or dropped): it stops waiting for frames.
    wanted: Arc<AtomicBool>,
    frames: Frames,
    #[cfg(not(target_arch = "wasm32"))]
    thread: Option<std::thread::JoinHandle<T>>,
    #[cfg(target_arch = "wasm32")]
    done: Option<T>,
}

impl<T: Send + 'static> Work<T> {
    /// Starts `work`, to be taken at step `due`; it may wait at the gate
    /// it is given between its pieces.
    pub(super) fn start(
        due: u64,
        frames: &Frames,
        work: impl FnOnce(&Gate) -> T + Send + 'static,
    ) -> Self {
        let gate = Gate {
            frames: frames.clone(),
            // The web has no threads: done now, in the step, waiting for
            // nothing.
            wanted: Arc::new(AtomicBool::new(cfg!(target_arch = "wasm32"))),
        };
        let wanted = Arc::clone(&gate.wanted);
        Self {
            due,
            wanted,
            frames: frames.clone(),
            #[cfg(not(target_arch = "wasm32"))]
            thread: Some(
                std::thread::Builder::new()
                    .name("bevy_reynolds navigation".into())
                    .spawn(move || {
                        idle_class();
                        work(&gate)
                    })
                    .expect("the system makes a thread"),
            ),
            #[cfg(target_arch = "wasm32")]
            done: Some(work(&gate)),
        }
    }

    /// What it made, waiting for it if it is not done yet.
    pub(super) fn finish(mut self) -> T {
        self.want();
        #[cfg(not(target_arch = "wasm32"))]
        let made = self.thread.take().map(|thread| {
            thread
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
        });
        #[cfg(target_arch = "wasm32")]
        let made = self.done.take();
        made.expect("work is taken once")
    }
}

impl<T> Work<T> {
    /// Wanted now: it stops waiting for frames.
    pub(super) fn want(&self) {
        // Set under the lock, so that a gate between its check and its
        // wait does not miss the wake.
        let state = self.frames.state();
        self.wanted.store(true, Ordering::Release);
        drop(state);
        self.frames.wake();
    }
}

impl<T> Drop for Work<T> {
    /// Work dropped untaken waits for no step: its thread ends.
    fn drop(&mut self) {
        self.want();
    }
}

/// Puts the calling thread in the system's idle class, where it has one
/// (Linux's and Android's `SCHED_IDLE`): it runs only on a core nothing
/// else wants. At the normal priority, a thread woken as a frame ended
/// took the core of the thread that woke it for the system's whole slice,
/// and the app's next frame waited (BENCHMARKS.md, "Routes"). Elsewhere it keeps its priority.
#[cfg(not(target_arch = "wasm32"))]
fn idle_class() {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    {
        use thread_priority::{
            NormalThreadSchedulePolicy, ThreadPriority, ThreadSchedulePolicy,
            set_thread_priority_and_policy, thread_native_id,
        };
        // Not allowed (a sandbox): the normal class, as elsewhere.
        let _ = set_thread_priority_and_policy(
            thread_native_id(),
            ThreadPriority::Min,
            ThreadSchedulePolicy::Normal(NormalThreadSchedulePolicy::Idle),
        );
    }
}

/// How many steps of `dt` seconds `lag` seconds is: at least one.
pub(super) fn steps_in(lag: f32, dt: f32) -> u64 {
    if lag.is_finite() && dt.is_finite() && dt > 0.0 && lag > 0.0 {
        ((lag / dt).ceil() as u64).clamp(1, 3600)
    } else {
        1
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use std::sync::mpsc;
    use std::time::Duration;

    use super::*;

    /// Frames in which one has begun, `idle` after the one before ended.
    fn a_frame_after(idle: Duration) -> Frames {
        let frames = Frames::default();
        frames.end();
        std::thread::sleep(idle);
        frames.begin();
        frames
    }

    /// Work whose one piece, once through the gate, says so.
    fn one_piece(frames: &Frames) -> (Work<()>, mpsc::Receiver<()>) {
        let (through, said) = mpsc::channel();
        let work = Work::start(1, frames, move |gate| {
            gate.wait();
            let _ = through.send(());
        });
        (work, said)
    }

    #[test]
    fn a_piece_waits_for_the_frame_to_end_when_the_app_leaves_time_between_frames() {
        let frames = a_frame_after(Duration::from_millis(3));
        let (work, said) = one_piece(&frames);
        assert!(
            said.recv_timeout(Duration::from_millis(50)).is_err(),
            "the piece ran while the frame did"
        );
        frames.end();
        assert!(said.recv_timeout(Duration::from_secs(5)).is_ok());
        work.finish();
    }

    #[test]
    fn a_piece_runs_beside_frames_run_back_to_back() {
        let frames = a_frame_after(Duration::ZERO);
        let (work, said) = one_piece(&frames);
        assert!(said.recv_timeout(Duration::from_secs(5)).is_ok());
        work.finish();
    }

    #[test]
    fn work_taken_during_a_frame_waits_for_nothing() {
        let frames = a_frame_after(Duration::from_millis(3));
        let (work, said) = one_piece(&frames);
        // Taken in this frame, which never ends: done all the same (on a
        // thread of the test's, so that a wait for good fails, not hangs).
        std::thread::spawn(move || work.finish());
        assert!(said.recv_timeout(Duration::from_secs(5)).is_ok());
    }

    /// Work off the step never takes a core the app wants: its thread is
    /// in the idle class.
    #[cfg(any(target_os = "linux", target_os = "android"))]
    #[test]
    fn work_runs_in_the_idle_class() {
        use thread_priority::{
            NormalThreadSchedulePolicy, ThreadSchedulePolicy, thread_schedule_policy,
        };
        let work = Work::start(1, &Frames::default(), |_| thread_schedule_policy().ok());
        assert_eq!(
            work.finish(),
            Some(ThreadSchedulePolicy::Normal(
                NormalThreadSchedulePolicy::Idle
            ))
        );
    }
}

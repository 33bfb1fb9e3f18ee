//! Work done off the step: on a thread of its own, or at once on the web
//! (which has none), and taken at a step fixed when it was asked for,
//! whatever the machine's speed, so that a run goes the same way on any
//! machine.

/// Work under way, and the step it is taken at.
pub(super) struct Work<T> {
    /// The step it is taken at.
    pub(super) due: u64,
    #[cfg(not(target_arch = "wasm32"))]
    thread: std::thread::JoinHandle<T>,
    #[cfg(target_arch = "wasm32")]
    done: T,
}

impl<T: Send + 'static> Work<T> {
    /// Starts `work`, to be taken at step `due`.
    pub(super) fn start(due: u64, work: impl FnOnce() -> T + Send + 'static) -> Self {
        Self {
            due,
            #[cfg(not(target_arch = "wasm32"))]
            thread: std::thread::Builder::new()
                .name("bevy_reynolds navigation".into())
                .spawn(work)
                .expect("the system makes a thread"),
            #[cfg(target_arch = "wasm32")]
            done: work(),
        }
    }

    /// What it made, waiting for it if it is not done yet.
    pub(super) fn finish(self) -> T {
        #[cfg(not(target_arch = "wasm32"))]
        return self
            .thread
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        #[cfg(target_arch = "wasm32")]
        return self.done;
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

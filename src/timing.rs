//! Stage timings for profiling: `RULEBOOK_TIMINGS=1 rulebook build` prints how long each stage
//! of the pipeline took, on stderr. Off by default; costs nothing when off.

use std::sync::OnceLock;
use std::time::Instant;

fn enabled() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("RULEBOOK_TIMINGS").is_some_and(|v| v != "0"))
}

/// Measures from its creation to each `lap`.
pub struct Stopwatch {
    last: Instant,
}

impl Stopwatch {
    pub fn start() -> Self {
        Stopwatch {
            last: Instant::now(),
        }
    }

    /// Prints the time since the previous lap under `stage`.
    pub fn lap(&mut self, stage: &str) {
        if enabled() {
            let now = Instant::now();
            eprintln!(
                "timing: {stage:<24} {:>8.1} ms",
                (now - self.last).as_secs_f64() * 1000.0
            );
            self.last = now;
        }
    }
}

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
    last_cpu: f64,
}

impl Stopwatch {
    pub fn start() -> Self {
        Stopwatch {
            last: Instant::now(),
            last_cpu: cpu_ms(),
        }
    }

    /// Prints the time since the previous lap under `stage`.
    pub fn lap(&mut self, stage: &str) {
        if enabled() {
            let now = Instant::now();
            let cpu = cpu_ms();
            // `serve` keeps going with its standard error closed (its log lines ignore it)
            use std::io::Write as _;
            let _ = writeln!(
                std::io::stderr(),
                "timing: {stage:<24} {:>8.1} ms  cpu {:>7.1} ms  rss {:>5} MiB  peak {:>5} MiB",
                (now - self.last).as_secs_f64() * 1000.0,
                cpu - self.last_cpu,
                memory_kib("VmRSS:") / 1024,
                memory_kib("VmHWM:") / 1024,
            );
            self.last = now;
            self.last_cpu = cpu;
        }
    }
}

/// User and system time of the whole process so far, in milliseconds: set beside the wall
/// time of a stage, it shows how many cores the stage kept busy.
fn cpu_ms() -> f64 {
    // SAFETY: getrusage only writes into the struct it is given.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut u) } != 0 {
        return 0.0;
    }
    let ms = |t: libc::timeval| t.tv_sec as f64 * 1000.0 + t.tv_usec as f64 / 1000.0;
    ms(u.ru_utime) + ms(u.ru_stime)
}

/// A line of /proc/self/status in KiB (0 where there is no /proc): memory is a build cost too,
/// and seeing it per stage shows which stage holds it.
fn memory_kib(key: &str) -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines().find(|l| l.starts_with(key)).and_then(|l| {
                l[key.len()..]
                    .trim()
                    .trim_end_matches("kB")
                    .trim()
                    .parse()
                    .ok()
            })
        })
        .unwrap_or(0)
}

#!/usr/bin/env bash
# Benchmark: rulebook next to Hugo, Pagefind and mdBook on generated corpora, in one run.
#
#   bash bench/run.sh                       # scales 200 and 2000, 5 runs each (about 25 minutes here)
#   bash bench/run.sh --scales "20 200" --runs 3 --tools hugo,rulebook
#
# Needs the shared bench folder beside the repository (../shared/bench: the corpus generator and
# the peers' install and timing scripts). Installs the peers if missing, builds rulebook in
# release mode, times everything with ../shared/bench/run_baselines.sh, then prints a report with
# medians, ratios to Hugo, peak memory, output sizes and the targets of the performance issue.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/.." && pwd)
SHARED=${RULEBOOK_SHARED:-$REPO/../shared}
[ -x "$SHARED/bench/run_baselines.sh" ] || { echo "no $SHARED/bench/run_baselines.sh: put the shared folder beside the repository or set RULEBOOK_SHARED" >&2; exit 2; }
SCALES="200 2000"; RUNS=5; TOOLS=hugo,pagefind,mdbook,rulebook; WORK=${TMPDIR:-/tmp}/rulebook-bench
while [ $# -gt 0 ]; do
  case "$1" in
    --scales) SCALES=$2; shift 2 ;;
    --runs) RUNS=$2; shift 2 ;;
    --tools) TOOLS=$2; shift 2 ;;
    --work) WORK=$2; shift 2 ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done
case ",$TOOLS," in *,mdbook,*|*,hugo,*|*,pagefind,*) bash "$SHARED/bench/install_baselines.sh" >&2 ;; esac
(cd "$REPO" && cargo build --release --quiet)
bash "$SHARED/bench/run_baselines.sh" --scales "$SCALES" --runs "$RUNS" --tools "$TOOLS" --work "$WORK" --rulebook "$REPO/target/release/rulebook" >&2
# The floor of the performance issue (read every chapter, render it with pulldown-cmark, write
# the HTML, on both cores), timed in this run on these corpora: the machine's speed moves from
# one day to the next, and a floor measured on another day says little about this run. Built
# from a copy, as the shared folder may be read-only.
rm -rf "$WORK/floor-src" && cp -r "$SHARED/bench/floor" "$WORK/floor-src" && chmod -R u+w "$WORK/floor-src"
cargo build --release --quiet --manifest-path "$WORK/floor-src/Cargo.toml" --target-dir "$WORK/floor-target" >&2
for n in $SCALES; do
  hyperfine --style basic -N --warmup 1 --runs "$RUNS" --prepare "rm -rf $WORK/floor-out" \
    --export-json "$WORK/results/raw/floor-$n.json" \
    "$WORK/floor-target/release/floor $WORK/c$n/rulebook/content $WORK/floor-out" >&2
done
# Hugo and rulebook in turns, each round's ratio (see paired.py): steadier than the ratio of two
# medians timed minutes apart on this machine
case ",$TOOLS," in
  *,hugo,*) case ",$TOOLS," in *,rulebook,*)
    python3 "$HERE/paired.py" "$WORK" "$REPO/target/release/rulebook" "$SCALES" "$RUNS" > "$WORK/results/paired.md" ;;
  esac ;;
esac
python3 "$HERE/report.py" "$WORK" "$REPO/target/release/rulebook"

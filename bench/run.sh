#!/usr/bin/env bash
# The speed harness in one command (BENCHMARKS.md): inputs, whole-process times (hyperfine),
# peak memory, the criterion benches (benches/speed.rs), the macro figures, then the report
# (bench/report.py), which prints ratios of measurements taken in this same run.
#
#   bench/run.sh                 every input: target/bench-inputs/*.bc and the largest
#                                ../shared/corpus files; full criterion and hyperfine runs
#   bench/run.sh --quick         one file, short criterion windows, 3 process runs, no macro
#   bench/run.sh --files A:B     these files instead (BENCH_FILES=A:B works too)
#   bench/run.sh --no-macro      skip the macro figures (expansion report, facade build time)
#   bench/run.sh --macro         do them even with --quick
#   bench/run.sh --no-pgo        skip the PGO build (bench/pgo.sh) and its --dis timing
#   bench/run.sh --pgo           do them even with --quick
#
# The round trip is timed against LLVM's own: `bcdump --rewrite FILE -o OUT` beside
# `opt-N FILE -o OUT`, N the LLVM version that wrote FILE (its IDENTIFICATION block), opt-N
# found on PATH or as rustup's llvm-tools opt (`rustup component add llvm-tools`), by its
# --version. A file whose version has no opt here is said and skipped. The disassembler
# likewise: `bcdump --dis FILE -o OUT` beside `llvm-dis-N FILE -o OUT`, with the peak RSS
# of each, and beside them the same bcdump built with profile-guided optimisation
# (bench/pgo.sh, trained on corpus files other than these), as rustup's llvm-dis is.
#
# Results go to target/bench-results/ (hyperfine JSON, time -v output, macro.txt, report.md)
# and target/criterion/ (criterion's estimates, speed-records.json, speed-paired.json: the
# in-process ratios round by round, BENCH_PAIRED_ROUNDS of them, 21 by default, 5 with --quick).
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
. bench/inputs.sh

quick=0
macro=""
pgo=""
files="${BENCH_FILES:-}"
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=1 ;;
    --macro) macro=1 ;;
    --no-macro) macro=0 ;;
    --files) files="$2"; shift ;;
    --files=*) files="${1#--files=}" ;;
    --pgo) pgo=1 ;;
    --no-pgo) pgo=0 ;;
    -h|--help) sed -n '2,23p' "$0"; exit 0 ;;
    *) echo "run.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done
[ -n "$macro" ] || macro=$((1 - quick))
[ -n "$pgo" ] || pgo=$((1 - quick))

target="${CARGO_TARGET_DIR:-$root/target}"
results="$target/bench-results"
mkdir -p "$results"
BCANALYZER="${BCANALYZER:-/usr/bin/llvm-bcanalyzer}"
HYPERFINE="${HYPERFINE:-hyperfine}"
bcdump="$target/release/bcdump"

# --- inputs ---------------------------------------------------------------------------
if [ -z "$files" ]; then
  if [ ! -f target/bench-inputs/sqlite3_O2_g.bc ] || [ ! -f target/bench-inputs/syn_release_g.bc ]; then
    bench/make-inputs.sh >&2
  fi
  IFS=: read -r -a list <<<"$(default_bench_inputs)"
  if [ "$quick" = 1 ]; then list=("${list[0]}"); fi
  files="$(IFS=:; echo "${list[*]}")"
fi
IFS=: read -r -a list <<<"$files"
[ ${#list[@]} -gt 0 ] || { echo "run.sh: no input files" >&2; exit 1; }

# The criterion group of a file, as benches/speed.rs names it.
group_of() { basename "$1" | sed -e 's/\.[^.]*$//' -e 's/[^A-Za-z0-9_.-]/_/g'; }

# The major version of the LLVM that wrote FILE, from the producer string of its
# IDENTIFICATION block ("LLVM16.0.6", "LLVM22.1.2-rust-1.95.0-stable") as bcdump's trace
# gives it (the block comes first); empty when the file has none (LLVM before 5).
llvm_major_of() {
  { "$bcdump" --trace "$1" 2>/dev/null || true; } | head -n 8 | python3 -c '
import json, re, sys
block = None
for line in sys.stdin:
    entry = json.loads(line)
    if "enter" in entry:
        block = entry["enter"]
    elif block == 13 and entry.get("record") == 1:
        m = re.match(r"LLVM(\d+)", "".join(map(chr, entry.get("ops", []))))
        print(m.group(1) if m else "")
        break
'
}

# LLVM's TOOL (opt, llvm-dis) of major version N: TOOL-N, rustup's llvm-tools TOOL or
# TOOL, whichever says "LLVM version N." first; empty when none does.
tool_for() {
  local candidate path
  for candidate in "$1-$2" "$(rustc --print sysroot 2>/dev/null)"/lib/rustlib/*/bin/"$1" "$1"; do
    path="$(command -v "$candidate" 2>/dev/null)" || continue
    if "$path" --version 2>/dev/null | grep -q "LLVM version $2\."; then
      echo "$path"
      return
    fi
  done
  return 0
}

{
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo '?')$(git diff --quiet 2>/dev/null || echo ' (with uncommitted changes)')"
  echo "cpu: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1), $(nproc) cores available"
  echo "rustc: $(rustc --version)"
  echo "llvm-bcanalyzer: $("$BCANALYZER" --version 2>/dev/null | sed -n 's/^.*LLVM version //p' | head -n1)"
  echo "mode: $([ "$quick" = 1 ] && echo quick || echo full)"
} >"$results/machine.txt"

# --- whole processes ------------------------------------------------------------------
echo "run.sh: cargo build --release -p bcdump" >&2
cargo build --release -p bcdump
bcdump_pgo=""
if [ "$pgo" = 1 ]; then
  echo "run.sh: bench/pgo.sh (bcdump with profile-guided optimisation)" >&2
  bcdump_pgo="$(BENCH_FILES="$files" bench/pgo.sh)" \
    || { echo "run.sh: warning: bench/pgo.sh failed: no PGO figures" >&2; bcdump_pgo=""; }
fi

if [ "$quick" = 1 ]; then hf_runs=(--warmup 1 --runs 3); else hf_runs=(--warmup 3 --runs 15); fi
for f in "${list[@]}"; do
  g="$(group_of "$f")"
  echo "run.sh: hyperfine, $g" >&2
  rm -f "$results/hyperfine-$g.json" "$results/rss-$g.txt"
  # One invocation, so the four commands are measured side by side.
  "$HYPERFINE" -N "${hf_runs[@]}" --style basic --export-json "$results/hyperfine-$g.json" \
    -n "bcdump --stats" "$bcdump --stats $f" \
    -n "bcdump --check" "$bcdump --check $f" \
    -n "bcdump --symbols" "$bcdump --symbols $f" \
    -n "llvm-bcanalyzer" "$BCANALYZER $f" \
    || echo "run.sh: warning: hyperfine failed on $f" >&2
  /usr/bin/time -v "$bcdump" --check "$f" >/dev/null 2>"$results/rss-$g.txt" \
    || echo "run.sh: warning: bcdump --check failed on $f (see $results/rss-$g.txt)" >&2

  major="$(llvm_major_of "$f")"
  out="$results/out"
  mkdir -p "$out"

  # The disassembler against llvm-dis of the LLVM version that wrote the file, in one
  # invocation, then the peak RSS of each; the two texts must agree but the ModuleID line.
  rm -f "$results/hyperfine-dis-$g.json" "$results/llvm-dis-$g.txt" "$results/rss-dis-$g.txt" \
    "$results/rss-llvm-dis-$g.txt"
  dis=""
  [ -z "$major" ] || dis="$(tool_for llvm-dis "$major")"
  if [ -z "$dis" ]; then
    echo "run.sh: warning: no llvm-dis of LLVM ${major:-?} (the version that wrote $f): the" \
      "disassembler is not timed against it" >&2
  else
    echo "$dis: LLVM $("$dis" --version | sed -n 's/^.*LLVM version //p' | head -n1)" >"$results/llvm-dis-$g.txt"
    echo "run.sh: hyperfine, $g: bcdump --dis against $dis" >&2
    pgo_dis=()
    [ -z "$bcdump_pgo" ] || pgo_dis=(-n "bcdump --dis (PGO)" "$bcdump_pgo --dis $f -o $out/bcdump-pgo.ll")
    "$HYPERFINE" -N "${hf_runs[@]}" --style basic --export-json "$results/hyperfine-dis-$g.json" \
      -n "bcdump --dis" "$bcdump --dis $f -o $out/bcdump.ll" \
      "${pgo_dis[@]}" \
      -n "llvm-dis" "$dis $f -o $out/llvm-dis.ll" \
      || echo "run.sh: warning: hyperfine failed on the disassembly of $f" >&2
    /usr/bin/time -v "$bcdump" --dis "$f" -o "$out/bcdump.ll" 2>"$results/rss-dis-$g.txt" \
      || echo "run.sh: warning: bcdump --dis failed on $f (see $results/rss-dis-$g.txt)" >&2
    /usr/bin/time -v "$dis" "$f" -o "$out/llvm-dis.ll" 2>"$results/rss-llvm-dis-$g.txt" || true
    cmp -s <(grep -v '^; ModuleID' "$out/bcdump.ll") <(grep -v '^; ModuleID' "$out/llvm-dis.ll") \
      || echo "run.sh: warning: bcdump --dis of $f differs from llvm-dis's" >&2
    if [ -n "$bcdump_pgo" ]; then
      cmp -s "$out/bcdump.ll" "$out/bcdump-pgo.ll" \
        || echo "run.sh: warning: the PGO build's --dis of $f differs from the release build's" >&2
    fi
  fi

  # The round trip against opt of the LLVM version that wrote the file, in one invocation.
  rm -f "$results/hyperfine-rewrite-$g.json" "$results/opt-$g.txt"
  opt=""
  [ -z "$major" ] || opt="$(tool_for opt "$major")"
  if [ -z "$opt" ]; then
    echo "run.sh: warning: no opt of LLVM ${major:-?} (the version that wrote $f): the round trip" \
      "is not timed against it (LLVM 22: rustup component add llvm-tools)" >&2
    continue
  fi
  echo "$opt: LLVM $("$opt" --version | sed -n 's/^.*LLVM version //p' | head -n1)" >"$results/opt-$g.txt"
  echo "run.sh: hyperfine, $g: bcdump --rewrite against $opt" >&2
  "$HYPERFINE" -N "${hf_runs[@]}" --style basic --export-json "$results/hyperfine-rewrite-$g.json" \
    -n "bcdump --rewrite" "$bcdump --rewrite $f -o $out/rewrite.bc" \
    -n "opt" "$opt $f -o $out/opt.bc" \
    || echo "run.sh: warning: hyperfine failed on the round trip of $f" >&2
  cmp -s "$f" "$out/rewrite.bc" \
    || echo "run.sh: warning: bcdump --rewrite of $f is not the input byte for byte" >&2
  rm -rf "$out"
done

# --- criterion --------------------------------------------------------------------------
echo "run.sh: cargo bench -p bitcode-schema-bench --bench speed" >&2
criterion_args=()
paired_rounds="${BENCH_PAIRED_ROUNDS:-21}"
if [ "$quick" = 1 ]; then
  criterion_args=(-- --warm-up-time 0.5 --measurement-time 1)
  paired_rounds="${BENCH_PAIRED_ROUNDS:-5}"
fi
rm -f "$target/criterion/speed-paired.json"
BENCH_FILES="$files" BENCH_PAIRED_ROUNDS="$paired_rounds" cargo bench -p bitcode-schema-bench --bench speed "${criterion_args[@]}"

# --- macro figures ----------------------------------------------------------------------
if [ "$macro" = 1 ]; then
  echo "run.sh: macro figures" >&2
  {
    echo "\$ cargo test -p bitcode-schema-derive --release -- --ignored --nocapture expansion_report"
    cargo test -q -p bitcode-schema-derive --release -- --ignored --nocapture expansion_report 2>/dev/null \
      | grep -E '\.toml: ' || echo "(expansion_report failed)"
    echo
    cargo build -q --release --lib 2>/dev/null || true
    touch schema/llvm_ir.toml
    start=$(date +%s.%N)
    if cargo build -q --release --lib 2>/dev/null; then
      end=$(date +%s.%N)
      echo "\$ touch schema/llvm_ir.toml && cargo build --release --lib"
      awk -v s="$start" -v e="$end" 'BEGIN { printf "facade release build after touching the schema: %.1f s\n", e - s }'
    else
      echo "(cargo build --release --lib failed)"
    fi
  } >"$results/macro.txt"
  cat "$results/macro.txt" >&2
else
  rm -f "$results/macro.txt"
fi

# --- report -----------------------------------------------------------------------------
python3 bench/report.py --results "$results" | tee "$results/report.md"
echo "run.sh: report in $results/report.md" >&2

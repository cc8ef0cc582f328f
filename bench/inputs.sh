# Sourced by bench/run.sh and bench/pgo.sh, from the repository root: the benchmark inputs.

# The inputs timed when none are named, as paths joined by ':': every file of
# target/bench-inputs/ (bench/make-inputs.sh) and the largest files of ../shared/corpus,
# those that are there.
default_bench_inputs() {
  local list=() f
  for f in target/bench-inputs/*.bc; do [ -f "$f" ] && list+=("$PWD/$f"); done
  for f in clang16__sqlite3__O0_g.bc clang14__sqlite3__O2.bc rustc195__cargo_regex_automata_release_O3.bc; do
    [ -f "../shared/corpus/$f" ] && list+=("$(cd ../shared/corpus && pwd)/$f")
  done
  (IFS=:; echo "${list[*]}")
}

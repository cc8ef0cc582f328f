#!/usr/bin/env bash
# Makes the large benchmark inputs (5-20 MiB of bitcode each) in DIR (default
# target/bench-inputs/, under target/ so git ignores it). Idempotent: a file that exists
# is kept. Prints every input with its size.
#
#   sqlite3_O2_g.bc    sqlite3.c (the amalgamation shipped in the crates.io crate
#                      libsqlite3-sys) compiled by clang-16 -O2 -g -c -emit-llvm
#   syn_release_g.bc   the syn crate (features full, visit, visit-mut, fold, extra-traits)
#                      compiled by rustc --release with --emit=llvm-bc -C debuginfo=2
#                      -C codegen-units=1
#
# Needs: curl (or libsqlite3-sys in ~/.cargo/registry), tar, clang-16, cargo; network to
# crates.io unless the crates are cached.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
out="${1:-target/bench-inputs}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
work="$root/target/bench-work"
mkdir -p "$work"

CLANG="${CLANG:-clang-16}"
SQLITE_CRATE_VERSION="${SQLITE_CRATE_VERSION:-0.40.0}" # libsqlite3-sys; bundles sqlite3.c
MIN_BYTES=$((5 * 1024 * 1024))
MAX_BYTES=$((20 * 1024 * 1024))

size_of() { stat -c %s "$1"; }

check_size() { # FILE: warn when outside 5-20 MiB
  local n
  n="$(size_of "$1")"
  if [ "$n" -lt "$MIN_BYTES" ] || [ "$n" -gt "$MAX_BYTES" ]; then
    echo "make-inputs: warning: $1 is $n bytes, outside 5-20 MiB" >&2
  fi
}

# --- sqlite3 amalgamation, clang-16 -O2 -g ------------------------------------------
sqlite_bc="$out/sqlite3_O2_g.bc"
if [ ! -f "$sqlite_bc" ]; then
  src_dir="$work/libsqlite3-sys-$SQLITE_CRATE_VERSION"
  if [ ! -f "$src_dir/sqlite3/sqlite3.c" ]; then
    crate_file="$work/libsqlite3-sys-$SQLITE_CRATE_VERSION.crate"
    if [ ! -f "$crate_file" ]; then
      cached="$(ls "$HOME"/.cargo/registry/cache/*/"libsqlite3-sys-$SQLITE_CRATE_VERSION.crate" 2>/dev/null | head -n1 || true)"
      if [ -n "$cached" ]; then
        cp "$cached" "$crate_file"
      else
        echo "make-inputs: downloading libsqlite3-sys $SQLITE_CRATE_VERSION" >&2
        curl -fsSL -o "$crate_file.part" \
          "https://static.crates.io/crates/libsqlite3-sys/libsqlite3-sys-$SQLITE_CRATE_VERSION.crate"
        mv "$crate_file.part" "$crate_file"
      fi
    fi
    tar -xzf "$crate_file" -C "$work" "libsqlite3-sys-$SQLITE_CRATE_VERSION/sqlite3"
  fi
  echo "make-inputs: $CLANG -O2 -g sqlite3.c" >&2
  "$CLANG" -O2 -g -c -emit-llvm -w -o "$sqlite_bc.part" "$src_dir/sqlite3/sqlite3.c"
  mv "$sqlite_bc.part" "$sqlite_bc"
fi
check_size "$sqlite_bc"

# --- syn, rustc --release with full debug info ---------------------------------------
syn_bc="$out/syn_release_g.bc"
if [ ! -f "$syn_bc" ]; then
  proj="$work/syn-bench"
  mkdir -p "$proj/src"
  cat >"$proj/Cargo.toml" <<'TOML'
[package]
name = "syn-bench"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
syn = { version = "2", features = ["full", "visit", "visit-mut", "fold", "extra-traits"] }

[workspace]
TOML
  echo 'pub use syn;' >"$proj/src/lib.rs"
  echo "make-inputs: cargo rustc -p syn --release --emit=llvm-bc" >&2
  rm -rf "$proj/target/release/deps"/syn-*.bc
  (cd "$proj" && cargo rustc -q -p syn --release -- --emit=llvm-bc -C debuginfo=2 -C codegen-units=1)
  bc="$(ls -t "$proj"/target/release/deps/syn-*.bc | head -n1)"
  cp "$bc" "$syn_bc.part"
  mv "$syn_bc.part" "$syn_bc"
fi
check_size "$syn_bc"

for f in "$sqlite_bc" "$syn_bc"; do
  awk -v n="$(size_of "$f")" -v f="$f" 'BEGIN { printf "%10.2f MiB  %s\n", n / 1048576, f }'
done

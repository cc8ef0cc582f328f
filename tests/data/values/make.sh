#!/usr/bin/env bash
# Rebuilds the value-numbering fixtures: values14.bc from values14.ll with LLVM 14's
# assembler, values22.bc and values22.ll from values22.rs with rustc (LLVM 22), and
# values14+22.bc, both modules in one file, with LLVM 14's llvm-cat -b.
set -euo pipefail
cd "$(dirname "$0")"
llvm-as-14 values14.ll -o values14.bc
rustc --edition 2021 -C opt-level=1 -C panic=unwind --emit=llvm-bc=values22.bc,llvm-ir=values22.ll values22.rs
llvm-cat-14 -b values14.bc values22.bc -o values14+22.bc

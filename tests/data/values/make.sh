#!/usr/bin/env bash
# Rebuilds the value-numbering fixtures: values14.bc from values14.ll with LLVM 14's
# assembler, values22.bc and values22.ll from values22.rs with rustc (LLVM 22).
set -euo pipefail
cd "$(dirname "$0")"
llvm-as-14 values14.ll -o values14.bc
rustc --edition 2021 -C opt-level=1 -C panic=unwind --emit=llvm-bc=values22.bc,llvm-ir=values22.ll values22.rs

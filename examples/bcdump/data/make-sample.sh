#!/usr/bin/env bash
# Rebuilds the bundled sample from its IR text with LLVM 14's assembler.
set -euo pipefail
cd "$(dirname "$0")"
llvm-as-14 hello.ll -o hello.bc

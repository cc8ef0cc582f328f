#!/usr/bin/env bash
# Rebuilds the multi-module fixtures from alpha.ll, beta.ll and gamma.ll with LLVM 14's
# tools (llvm-as-14, llvm-cat-14):
#   alpha+beta.bc          llvm-cat -b of two modules: each followed by its own STRTAB
#   alpha+beta.shared.bc   llvm-cat (not -b) of the same: one SYMTAB and one STRTAB after
#                          both modules, shared
#   alpha+beta+gamma.bc    llvm-cat -b of alpha+beta.shared.bc and gamma: the shared STRTAB
#                          copied after each of the first two modules, gamma's after gamma
# Each module's global values are those of its .ll (see ../../../src/llvm/symbols.rs's
# tests and tests/it/llvm_multimodule.rs).
set -euo pipefail
cd "$(dirname "$0")"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
for m in alpha beta gamma; do
  llvm-as-14 "$m.ll" -o "$tmp/$m.bc"
done
llvm-cat-14 -b "$tmp/alpha.bc" "$tmp/beta.bc" -o alpha+beta.bc
llvm-cat-14 "$tmp/alpha.bc" "$tmp/beta.bc" -o alpha+beta.shared.bc
llvm-cat-14 -b alpha+beta.shared.bc "$tmp/gamma.bc" -o alpha+beta+gamma.bc

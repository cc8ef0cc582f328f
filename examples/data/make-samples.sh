#!/usr/bin/env bash
# Rebuilds the samples of bitcode_schema::diagnostics and bitcode_schema::remarks (clang 19,
# llvm-remarkutil 19), run in this directory so that the files name their sources relatively:
#
# - warnings.dia: clang's serialized diagnostics of warnings.c; warnings.stderr: what clang
#   printed for them (without colors);
# - inline.opt.yaml: clang's YAML remarks for inline.c, compiled for Darwin;
# - inline.o + inline.o.opt.bitstream: the same compilation with bitstream remarks: the
#   object's __LLVM,__remarks section holds the string table and names the remarks file (by
#   its absolute path at build time; readers also look beside the object), which has none;
# - inline.opt.bitstream: a standalone bitstream remarks file (string table first) from
#   llvm-remarkutil yaml2bitstream of inline.opt.yaml. LLVM 19's yaml2bitstream stores
#   quoted scalars as the YAML spells them (a quote as four), so those strings differ from
#   the compiler's.
set -euo pipefail
cd "$(dirname "$0")"
# The diagnostics fail the compilation (one is an error): the status is not checked.
clang-19 -fno-color-diagnostics -fsyntax-only -Wall -Wextra \
  --serialize-diagnostics warnings.dia warnings.c 2>warnings.stderr || true
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
darwin=(-target x86_64-apple-macosx11 -O2 -gline-tables-only -c inline.c)
clang-19 "${darwin[@]}" -o "$scratch/inline.o" \
  -fsave-optimization-record=yaml -foptimization-record-file=inline.opt.yaml
clang-19 "${darwin[@]}" -o inline.o \
  -fsave-optimization-record=bitstream -foptimization-record-file=inline.o.opt.bitstream
llvm-remarkutil-19 yaml2bitstream inline.opt.yaml -o inline.opt.bitstream

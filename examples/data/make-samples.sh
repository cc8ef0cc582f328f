#!/usr/bin/env bash
# Rebuilds the samples of bitcode_schema::diagnostics and bitcode_schema::remarks (clang 19,
# llvm-remarkutil 19), run in this directory so that the files name their sources relatively:
#
# - warnings.dia: clang's serialized diagnostics of warnings.c; warnings.stderr: what clang
#   printed for them (without colors);
# - inline.opt.yaml: clang's YAML remarks for inline.c; inline.opt.bitstream: the same
#   remarks as a standalone bitstream remarks file (string table first), from
#   llvm-remarkutil yaml2bitstream;
# - inline.o + inline.o.opt.bitstream: the same source compiled for Darwin with bitstream
#   remarks: the object's __LLVM,__remarks section holds the string table and names the
#   remarks file (by its absolute path at build time; readers also look beside the object).
set -euo pipefail
cd "$(dirname "$0")"
# The diagnostics fail the compilation (one is an error): the status is not checked.
clang-19 -fno-color-diagnostics -fsyntax-only -Wall -Wextra \
  --serialize-diagnostics warnings.dia warnings.c 2>warnings.stderr || true
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
clang-19 -O2 -gline-tables-only -c inline.c -o "$scratch/inline.o" \
  -fsave-optimization-record=yaml -foptimization-record-file=inline.opt.yaml
llvm-remarkutil-19 yaml2bitstream inline.opt.yaml -o inline.opt.bitstream
clang-19 -target x86_64-apple-macosx11 -O2 -gline-tables-only -c inline.c -o inline.o \
  -fsave-optimization-record=bitstream -foptimization-record-file=inline.o.opt.bitstream

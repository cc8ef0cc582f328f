#!/usr/bin/env bash
# Makes ast_module.pcm: the clang module of ../clang-ast/ast_module.h (its module map is
# ../clang-ast/module.modulemap) as clang 22.1 writes it, the clang of zig 0.17.1 (PyPI's
# `ziglang` package, pinned in .ci/run). Checked by tests/it/clang_ast_files.rs without zig.
#
# Why this file: every AST file clang 19 and 22 write (.pch and .pcm alike; clang 13 to 16
# do not, 17 and 18 are untried) defines, in DECLTYPES_BLOCK (id 11, inside AST_BLOCK 8),
# an abbreviation for DECL_CXX_METHOD (record code 101) of a dependent function template
# specialization (template kind 4) that would be invalid to use: its operands are
#   literal 101, literal 0, literal 4, array, literal 0, fixed 8, vbr 6, ... (21 in all)
# — an array that is not the second to last operand, and whose element is a literal
# (clang's ASTWriterDecl.cpp, getCXXMethodAbbrev). clang never writes a record with it.
# LLVM's reader checks at definition only what ReadAbbrevRecord checks, and the rest when
# a record uses the abbreviation, so llvm-bcanalyzer reads these files completely.
# A header module is the smallest such file (about 19 KiB; a .pch holds 240 KiB of
# predefined macros and builtins even for an empty header), and, like every clang 19+
# module, it holds this abbreviation.
#
# Usage: tests/data/clang22/make.sh [ZIG]   (ZIG: the zig binary; default $BITCODE_ZIG,
# then `zig` on PATH). Build paths are neutral: the inputs are copied to a fixed directory,
# with a fixed modification time.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
zig="${1:-${BITCODE_ZIG:-zig}}"
clang_version="$("$zig" clang --version | sed -n 's/^clang version \([0-9.]*\).*/\1/p')"
case "$clang_version" in
  22.*) ;;
  *) echo "make.sh: $zig's clang is ${clang_version:-unknown}, not 22.x (pip install ziglang==0.17.1)" >&2; exit 1 ;;
esac

work=/tmp/bitcode-clang22-fixture
rm -rf "$work"
mkdir -p "$work"
cp "$here/../clang-ast/ast_module.h" "$here/../clang-ast/module.modulemap" "$work/"
touch -d '2000-01-01 00:00:00 UTC' "$work/ast_module.h" "$work/module.modulemap"
cd "$work"
ZIG_GLOBAL_CACHE_DIR="$work/zig-cache" ZIG_LOCAL_CACHE_DIR="$work/zig-cache" \
  "$zig" clang -c -fmodules -fmodules-cache-path="$work/module-cache" -fmodule-name=ast_module \
  -Xclang -emit-module -x c module.modulemap -o ast_module.pcm
llvm-bcanalyzer ast_module.pcm >/dev/null
cp ast_module.pcm "$here/ast_module.pcm"
echo "$here/ast_module.pcm: $(wc -c <ast_module.pcm) bytes, clang $clang_version ($("$zig" version))"
rm -rf "$work"

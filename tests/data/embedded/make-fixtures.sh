#!/usr/bin/env bash
# Rebuilds the native objects that embed bitcode, used by tests/it/embedded_objects.rs.
# Needs clang-14 and LLVM 14's tools (apt-get install clang-14 llvm-14) and python3.
set -euo pipefail
cd "$(dirname "$0")"
embed() { clang-14 -target "$1" -O1 -fembed-bitcode -c hello.c -o "$2"; }
embed x86_64-pc-windows-msvc hello.coff.obj
embed x86_64-apple-macosx10.15 hello.x86_64.macho.o
embed arm64-apple-macosx11 arm64.tmp.o
# A universal binary of the two Mach-O objects (fat header written by hand: llvm-lipo-14
# given these objects stores their bitcode sections, which makes the next fixture).
python3 - hello.x86_64.macho.o arm64.tmp.o hello.universal.macho.o <<'PY'
import struct, sys
members = [open(p, "rb").read() for p in sys.argv[1:3]]
cpu = [(0x01000007, 3), (0x0100000C, 0)]  # x86_64, arm64 (CPU_TYPE | ABI64, subtype)
offset, entries, body = 64, b"", b""  # members aligned to 2^3 bytes
for (ctype, sub), data in zip(cpu, members):
    entries += struct.pack(">IIIII", ctype, sub, offset + len(body), len(data), 3)
    body += data + b"\0" * (-len(data) % 8)
header = struct.pack(">II", 0xCAFEBABE, len(members)) + entries
open(sys.argv[3], "wb").write(header + b"\0" * (offset - len(header)) + body)
PY
# A universal file whose members are wrapper-headed bitcode, as llvm-lipo makes it.
llvm-lipo-14 -create hello.x86_64.macho.o arm64.tmp.o -output hello.universal.bitcode
rm arm64.tmp.o
# FatLTO objects carry their bitcode in .llvm.lto; clang 14 cannot make one, so add the
# section to a plain ELF object the way such objects hold it.
clang-14 -O1 -c -emit-llvm hello.c -o lto.tmp.bc
clang-14 -O1 -c hello.c -o plain.tmp.o
llvm-objcopy-14 --add-section .llvm.lto=lto.tmp.bc --set-section-flags .llvm.lto=exclude plain.tmp.o hello.fatlto.elf.o
rm lto.tmp.bc plain.tmp.o

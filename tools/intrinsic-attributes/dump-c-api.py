#!/usr/bin/env python3
"""dump.cpp's tables from an LLVM library's C API, for a version with no -dev package here.

    dump-c-api.py LIBLLVM.so POOL.bc > NAMES.tsv

Writes POOL.bc, a module with one declaration per distinct attribute list of the intrinsics
that are not overloaded, named by its number ("0", "1", ...) and carrying the list LLVM
gives such an intrinsic (the Function constructor sets it for a declaration of the
intrinsic's own type, which the C API gives: LLVMIntrinsicGetType). Prints dump.cpp's lines: name, `e` and the number for
those; name, `o` and `-` for an overloaded intrinsic, whose type needs its overload types,
which the C API cannot list (the printer keeps a file's list for such an intrinsic).

rustup's llvm-tools component brings LLVM 22's library:
~/.rustup/toolchains/*/lib/libLLVM.so.22.1-rust-*.
"""
import ctypes
import subprocess
import sys


def api(path):
    lib = ctypes.CDLL(path)
    vp, uint, size = ctypes.c_void_p, ctypes.c_uint, ctypes.c_size_t

    def fn(name, res, args):
        f = getattr(lib, name)
        f.restype, f.argtypes = res, args
        return f

    return {
        "context": fn("LLVMContextCreate", vp, []),
        "module": fn("LLVMModuleCreateWithNameInContext", vp, [ctypes.c_char_p, vp]),
        "name": fn("LLVMIntrinsicGetName", vp, [uint, ctypes.POINTER(size)]),
        "lookup": fn("LLVMLookupIntrinsicID", uint, [ctypes.c_char_p, size]),
        "overloaded": fn("LLVMIntrinsicIsOverloaded", ctypes.c_int, [uint]),
        "type": fn("LLVMIntrinsicGetType", vp, [vp, uint, vp, size]),
        "add": fn("LLVMAddFunction", vp, [vp, ctypes.c_char_p, vp]),
        "rename": fn("LLVMSetValueName2", None, [vp, ctypes.c_char_p, size]),
        "write": fn("LLVMWriteBitcodeToFile", ctypes.c_int, [vp, ctypes.c_char_p]),
        "params": fn("LLVMCountParams", uint, [vp]),
        "count": fn("LLVMGetAttributeCountAtIndex", uint, [vp, uint]),
        "attributes": fn("LLVMGetAttributesAtIndex", None, [vp, uint, ctypes.POINTER(vp)]),
        "delete": fn("LLVMDeleteFunction", None, [vp]),
    }


def name_of(llvm, intrinsic):
    length = ctypes.c_size_t()
    pointer = llvm["name"](intrinsic, ctypes.byref(length))
    return ctypes.string_at(pointer, length.value)


def fingerprint(llvm, function):
    """The attribute list of `function`: per index (function, return, each parameter) its
    attributes, which a context uniques (so their addresses tell them apart)."""
    indices = [0xFFFFFFFF, 0] + list(range(1, llvm["params"](function) + 1))
    lists = []
    for index in indices:
        n = llvm["count"](function, index)
        found = (ctypes.c_void_p * n)()
        if n:
            llvm["attributes"](function, index, found)
        lists.append(tuple(sorted(a or 0 for a in found)))
    while lists and not lists[-1]:
        lists.pop()
    return tuple(lists)


def probe(path, intrinsic):
    """Whether `intrinsic` is an id of the library (read past the last one, its name table
    faults: asked in a child process)."""
    code = (
        "import sys; sys.path.insert(0, %r); import importlib.util as u; "
        "s = u.spec_from_file_location('d', %r); d = u.module_from_spec(s); s.loader.exec_module(d); "
        "l = d.api(%r); n = d.name_of(l, %d); sys.exit(0 if l['lookup'](n, len(n)) == %d else 1)"
    ) % (sys.path[0], __file__, path, intrinsic, intrinsic)
    return subprocess.run([sys.executable, "-c", code], capture_output=True).returncode == 0


def count(path):
    """The number of intrinsic ids (1 up to it, excluded), by bisection over child probes."""
    low, high = 1, 2
    while probe(path, high):
        low, high = high, high * 2
    while high - low > 1:
        middle = (low + high) // 2
        if probe(path, middle):
            low = middle
        else:
            high = middle
    return high


def main():
    path, pool_path = sys.argv[1], sys.argv[2]
    end = count(path)
    llvm = api(path)
    context = llvm["context"]()
    pool = llvm["module"](b"intrinsic-attributes", context)
    numbers = {}
    for intrinsic in range(1, end):
        name = name_of(llvm, intrinsic).decode()
        if llvm["overloaded"](intrinsic):
            print(f"{name}\to\t-")
            continue
        declaration = llvm["add"](pool, name.encode(), llvm["type"](context, intrinsic, None, 0))
        key = fingerprint(llvm, declaration)
        if key in numbers:
            llvm["delete"](declaration)
        else:
            numbers[key] = len(numbers)
            label = str(numbers[key]).encode()
            llvm["rename"](declaration, label, len(label))
        print(f"{name}\te\t{numbers[key]}")
    if llvm["write"](pool, pool_path.encode()) != 0:
        sys.exit(f"{pool_path}: not written")


if __name__ == "__main__":
    main()

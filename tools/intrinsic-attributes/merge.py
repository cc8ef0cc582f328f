#!/usr/bin/env python3
"""Merges the per-version tables dump.cpp prints into one, front-coded.

    merge.py 13=llvm-13.tsv 14=llvm-14.tsv ... > names.txt
    merge.py --existing names.txt 22=llvm-22.tsv > names.new   (adds or replaces versions)

The first line is `versions 13 14 ...`. Then one line per intrinsic name (in byte order
of the names): how many leading bytes it shares with the name before it, the rest of the
name, and per version the number of its attribute list in that version's llvm-N.bc,
followed by `o` when the intrinsic is overloaded there (its name is a base name), or `-`
when that version has no such intrinsic. Fields are separated by single spaces.
"""
import sys


def existing(path):
    """The versions and per-version tables of a names.txt this script wrote."""
    with open(path, encoding="utf-8") as f:
        versions = f.readline().split()[1:]
        tables = [{} for _ in versions]
        previous = ""
        for line in f:
            shared, rest, *cells = line.rstrip("\n").split(" ")
            name = previous.encode()[: int(shared)].decode() + rest
            for table, cell in zip(tables, cells):
                if cell != "-":
                    table[name] = cell
            previous = name
    return versions, tables


def main():
    versions, tables = [], []
    args = sys.argv[1:]
    if args[:1] == ["--existing"]:
        versions, tables = existing(args[1])
        args = args[2:]
    for arg in args:
        major, path = arg.split("=", 1)
        table = {}
        with open(path, encoding="utf-8") as f:
            for line in f:
                name, kind, number = line.rstrip("\n").split("\t")
                # An overloaded intrinsic whose list the dump could not take (dump-c-api.py).
                if number == "-":
                    continue
                table[name] = number + ("o" if kind == "o" else "")
        if major in versions:
            tables[versions.index(major)] = table
        else:
            versions.append(major)
            tables.append(table)
    names = sorted(set().union(*tables), key=lambda n: n.encode())
    out = ["versions " + " ".join(versions)]
    previous = b""
    for name in names:
        raw = name.encode()
        shared = 0
        while shared < min(len(raw), len(previous)) and raw[shared] == previous[shared]:
            shared += 1
        cells = [t.get(name, "-") for t in tables]
        out.append(" ".join([str(shared), raw[shared:].decode(), *cells]))
        previous = raw
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()

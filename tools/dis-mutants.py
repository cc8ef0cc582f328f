#!/usr/bin/env python3
"""Compares `bcdump --dis` with an llvm-dis on random mutants of bitcode files.

Usage: SEED=5 tools/dis-mutants.py N LLVM_DIS FILE... (from the repository root, after
`cargo build --release -p bcdump`; BCDUMP names another build). Each file gets N mutants of 1 to 3 random bit flips
past its first 20 bytes; both tools read each one (30 s limit) and the outcome is counted:
both print the same text (the ModuleID line aside), both print different texts, both
refuse, or one prints what the other refuses (llvm-dis crashing is counted apart). Every
mutant of a disagreement is kept in OUT (default /tmp/dis-mutants) with its file, index
and flips in its name, and the counts and a few examples of each are printed.
"""
import collections
import os
import random
import subprocess
import sys

BCDUMP = os.environ.get("BCDUMP") or os.path.join(os.path.dirname(__file__), "..", "target", "release", "bcdump")


def text_after_module_id(path):
    with open(path, "rb") as f:
        return f.read().split(b"\n", 1)[-1]


def outcome(mutant, dis, out):
    ours, theirs = os.path.join(out, "ours.ll"), os.path.join(out, "theirs.ll")
    try:
        a = subprocess.run([BCDUMP, "--dis", mutant, "-o", ours], capture_output=True, timeout=30)
        b = subprocess.run([dis, mutant, "-o", theirs], capture_output=True, timeout=30)
    except subprocess.TimeoutExpired as e:
        return "timeout (%s)" % os.path.basename(e.cmd[0]), b"", b""
    if a.returncode == 0 and b.returncode == 0:
        same = text_after_module_id(ours) == text_after_module_id(theirs)
        key = "both print, equal" if same else "both print, different"
    elif a.returncode == 0:
        key = "bcdump prints, llvm-dis refuses"
    elif b.returncode == 0:
        key = "bcdump refuses, llvm-dis prints"
    else:
        key = "both refuse"
    if b.returncode < 0:
        key += " (llvm-dis killed by signal %d)" % -b.returncode
    return key, a.stderr, b.stderr


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    count, dis, files = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
    out = os.environ.get("OUT", "/tmp/dis-mutants")
    os.makedirs(out, exist_ok=True)
    rng = random.Random(int(os.environ.get("SEED", "5")))
    counts, examples = collections.Counter(), collections.defaultdict(list)
    for path in files:
        data = open(path, "rb").read()
        for k in range(count):
            mutant, flips = bytearray(data), []
            for _ in range(rng.choice([1, 1, 1, 2, 3])):
                i, bit = rng.randrange(20, len(mutant)), 1 << rng.randrange(8)
                mutant[i] ^= bit
                flips.append("%d^%d" % (i, bit))
            name = os.path.join(out, "m.bc")
            with open(name, "wb") as f:
                f.write(mutant)
            key, ours, theirs = outcome(name, dis, out)
            counts[key] += 1
            if not key.startswith(("both print, equal", "both refuse")):
                kept = os.path.join(out, "%s-%d-%s.bc" % (os.path.basename(path), k, "_".join(flips)))
                os.replace(name, kept)
                examples[key].append((kept, ours.decode(errors="replace").strip()[-160:],
                                      theirs.decode(errors="replace").strip()[-160:]))
    for key, n in sorted(counts.items()):
        print("%5d  %s" % (n, key))
    for key, found in sorted(examples.items()):
        print("\n%s (%d), for example:" % (key, len(found)))
        for kept, ours, theirs in found[:5]:
            print("  %s\n    bcdump: %s\n    llvm-dis: %s" % (kept, ours, theirs))


if __name__ == "__main__":
    main()

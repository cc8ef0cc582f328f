#!/usr/bin/env python3
"""Prints the speed report: one table per input file, from the results of one bench/run.sh.

Reads (paths relative to the repository root, or --criterion / --results):
  target/criterion/speed-records.json            bytes and record counts per file (benches/speed.rs)
  target/criterion/<group>/<bench>/new/estimates.json   criterion's estimates (median used)
  target/criterion/speed-paired.json             the in-process ratios, round by round (benches/speed.rs)
  target/bench-results/hyperfine-<group>.json    whole-process times (hyperfine --export-json)
  target/bench-results/hyperfine-rewrite-<group>.json   `bcdump --rewrite` against opt, whole process
  target/bench-results/opt-<group>.txt           which opt that was, and its LLVM version
  target/bench-results/hyperfine-dis-<group>.json  `bcdump --dis` (and its PGO build) against llvm-dis, whole process
  target/bench-results/llvm-dis-<group>.txt      which llvm-dis that was, and its LLVM version
  target/bench-results/rss-dis-<group>.txt, rss-llvm-dis-<group>.txt   /usr/bin/time -v of each
  target/bench-results/rss-<group>.txt           /usr/bin/time -v of `bcdump --check FILE`
  target/bench-results/macro.txt                 expansion report and facade build time
  target/bench-results/machine.txt               date, commit, CPU, tool versions

Every figure compared with a target is a ratio of two measurements of the same run (same
machine, same minutes), never an absolute time. For the in-process targets it is the median
of the paired rounds' ratios when the bench wrote them (each round times every measurement
once, so a noisy minute moves a few rounds); the ratio of criterion's medians, each from its
own window of seconds, is shown beside it. Python 3 standard library only.
"""

import argparse
import json
import os
import re
import sys

MIB = 1024 * 1024

# (key, label, comparison, target)
TARGETS = [
    ("walk_vs_llvm_bitcode", "raw_walk rec/s / llvm_bitcode rec/s", ">=", 2.5),
    ("bcanalyzer_vs_stats", "llvm-bcanalyzer / bcdump --stats (process)", ">=", 4.0),
    ("check_vs_walk", "typed_check / raw_walk (time)", "<=", 1.6),
    ("symbols_vs_walk", "symbols / raw_walk (time)", "<=", 0.1),
    ("check_vs_parallel", "typed_check / typed_check_parallel (time)", ">=", 1.7),
    # Not a target: the same with rayon's default pool, whose threads the scheduler places.
    ("check_vs_parallel_unpinned", "the same, threads not pinned (rayon's default pool)", None, None),
    ("rss_over_file", "peak RSS of bcdump --check - file size (MiB)", "<=", 16.0),
    ("opt_vs_rewrite", "opt / bcdump --rewrite (process)", ">=", 5.0),
    ("llvm_dis_vs_dis", "llvm-dis / bcdump --dis (process)", ">=", 4.0),
    # The same with bcdump built by bench/pgo.sh, as rustup's llvm-dis links a libLLVM built
    # with PGO and BOLT.
    ("llvm_dis_vs_dis_pgo", "llvm-dis / bcdump --dis, PGO build (process)", ">=", 4.0),
    ("dis_rss_vs_llvm_dis", "peak RSS of bcdump --dis / of llvm-dis", "<=", 1.0),
    ("encode_vs_check", "encode / typed_check (time per record)", "<=", 1.0),
    # Not a target: the same encoding of values decoded all beforehand, read back from memory.
    ("encode_cold_vs_check", "encode_cold / typed_check (time per record)", None, None),
    # Not a target: what the whole round trip costs against the typed decode alone.
    ("round_trip_vs_check", "round_trip / typed_check (time)", None, None),
]

BENCHES = ["raw_walk", "llvm_bitcode", "typed_check", "typed_check_parallel", "symbols", "encode", "encode_cold",
           "round_trip"]
# (hyperfine command name, as shown); the last two come from hyperfine-rewrite-<group>.json.
PROCESSES = [
    ("bcdump --stats", "bcdump --stats FILE"),
    ("bcdump --check", "bcdump --check FILE"),
    ("bcdump --symbols", "bcdump --symbols FILE"),
    ("llvm-bcanalyzer", "llvm-bcanalyzer FILE"),
    ("bcdump --rewrite", "bcdump --rewrite FILE -o OUT"),
    ("opt", "opt FILE -o OUT"),
    ("bcdump --dis", "bcdump --dis FILE -o OUT"),
    ("bcdump --dis (PGO)", "bcdump --dis FILE -o OUT, PGO build"),
    ("llvm-dis", "llvm-dis FILE -o OUT"),
]


def load_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def criterion_seconds(criterion_dir, group, bench):
    """Median time of one criterion benchmark, in seconds (None when not measured)."""
    est = load_json(os.path.join(criterion_dir, group, bench, "new", "estimates.json"))
    if not est:
        return None
    return est["median"]["point_estimate"] / 1e9


def hyperfine_seconds(results_dir, group, prefix="hyperfine"):
    """Median whole-process time of each command of the file's hyperfine run."""
    data = load_json(os.path.join(results_dir, "%s-%s.json" % (prefix, group)))
    out = {}
    for r in (data or {}).get("results", []):
        name = r.get("command", "")
        # hyperfine's --command-name is exported as "command"
        out[name] = r.get("median", r.get("mean"))
    return out


def read_text(path):
    """A file's text, stripped; empty when it cannot be read."""
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return ""


def peak_rss_bytes(results_dir, group, prefix="rss"):
    text = read_text(os.path.join(results_dir, "%s-%s.txt" % (prefix, group)))
    m = re.search(r"Maximum resident set size \(kbytes\):\s*(\d+)", text)
    return int(m.group(1)) * 1024 if m else None


def fmt(value, spec):
    return "-" if value is None else format(value, spec)


def verdict(value, op, target):
    if op is None:
        return ""
    if value is None:
        return "n/a"
    ok = value >= target if op == ">=" else value <= target
    return "PASS" if ok else "MISS"


def target_text(op, target):
    if op is None:
        return "-"
    return "%s %g" % ("≥" if op == ">=" else "≤", target)


def ratio(a, b):
    return a / b if a is not None and b else None


def report_file(entry, criterion_dir, results_dir, paired, out):
    group = entry["group"]
    size = entry["bytes"]
    records = entry["raw_walk"]["records"]
    comparable = entry["raw_walk_outside_blockinfo"]["records"]
    lb = entry.get("llvm_bitcode", {})
    lb_records = lb.get("records")
    check = entry.get("typed_check", {})

    out.append("### %s" % group)
    out.append("")
    out.append(
        "`%s`: %.2f MiB, %d records (%d outside BLOCKINFO), symbols: %s"
        % (entry["path"], size / MIB, records, comparable, entry.get("symbols", {}).get("count", "-"))
    )
    notes = []
    if "error" in lb:
        notes.append("llvm-bitcode fails on this file: %s (its anchor is skipped)" % lb["error"])
    elif not entry.get("llvm_bitcode_matches"):
        notes.append("llvm-bitcode's records or operand sum differ from the raw walk's (see the bench's output)")
    if "error" in check:
        notes.append("typed check fails: %s" % check["error"])
    elif check.get("unknown") or check.get("errors"):
        notes.append("typed check: %(records)d records, %(unknown)d unknown, %(errors)d errors" % check)
    enc = entry.get("encode", {})
    if "error" in enc:
        notes.append("decoding for encode fails: %s (not measured)" % enc["error"])
    elif enc.get("records") != comparable or enc.get("gives_back") != enc.get("records"):
        notes.append("encode: %s records decoded typed (%d outside BLOCKINFO), %s of them encode back to what was read"
                     % (enc.get("records"), comparable, enc.get("gives_back")))
    rt = entry.get("round_trip", {})
    if "error" in rt:
        notes.append("the rewrite fails: %s (not measured)" % rt["error"])
    elif not rt.get("identical") or rt.get("raw"):
        notes.append("round trip %s the input byte for byte: %s"
                     % ("gives" if rt.get("identical") else "does NOT give", rt.get("summary")))
    opt = read_text(os.path.join(results_dir, "opt-%s.txt" % group))
    if opt:
        notes.append("opt: `%s`" % opt)
    llvm_dis = read_text(os.path.join(results_dir, "llvm-dis-%s.txt" % group))
    if llvm_dis:
        notes.append("llvm-dis: `%s`" % llvm_dis)
    par = entry.get("typed_check_parallel_matches")
    if par is not True:
        notes.append("check_stream_parallel: %s (not measured)" % (par if isinstance(par, dict) else "differs from check_stream"))
    out.append("")

    times = {b: criterion_seconds(criterion_dir, group, b) for b in BENCHES}
    procs = hyperfine_seconds(results_dir, group)
    procs.update(hyperfine_seconds(results_dir, group, "hyperfine-rewrite"))
    procs.update(hyperfine_seconds(results_dir, group, "hyperfine-dis"))
    encoded = enc.get("records")

    out.append("| measurement | median | MiB/s | M records/s |")
    out.append("| --- | ---: | ---: | ---: |")
    for b in BENCHES:
        t = times[b]
        n = {"llvm_bitcode": lb_records, "encode": encoded, "encode_cold": encoded}.get(b, records)
        out.append(
            "| %s | %s | %s | %s |"
            % (b, fmt(t and t * 1e3, ".2f") + (" ms" if t else ""), fmt(ratio(size / MIB, t), ".1f"),
               fmt(ratio(n / 1e6, t) if n is not None else None, ".2f"))
        )
    for p, shown in PROCESSES:
        t = procs.get(p)
        out.append(
            "| `%s` (process) | %s | %s | %s |"
            % (shown, fmt(t and t * 1e3, ".1f") + (" ms" if t else ""), fmt(ratio(size / MIB, t), ".1f"),
               fmt(ratio(records / 1e6, t), ".2f"))
        )
    out.append("")

    rss = peak_rss_bytes(results_dir, group)
    values = {
        # Both walks read the same records outside BLOCKINFO (llvm-bitcode applies BLOCKINFO
        # without returning its records): records/s over the same count is the time ratio.
        "walk_vs_llvm_bitcode": ratio(comparable / times["raw_walk"], comparable / times["llvm_bitcode"])
        if times["raw_walk"] and times["llvm_bitcode"] else None,
        "bcanalyzer_vs_stats": ratio(procs.get("llvm-bcanalyzer"), procs.get("bcdump --stats")),
        "check_vs_walk": ratio(times["typed_check"], times["raw_walk"]),
        "symbols_vs_walk": ratio(times["symbols"], times["raw_walk"]),
        "check_vs_parallel": ratio(times["typed_check"], times["typed_check_parallel"]),
        "check_vs_parallel_unpinned": None,
        "rss_over_file": (rss - size) / MIB if rss is not None else None,
        "opt_vs_rewrite": ratio(procs.get("opt"), procs.get("bcdump --rewrite")),
        "llvm_dis_vs_dis": ratio(procs.get("llvm-dis"), procs.get("bcdump --dis")),
        "llvm_dis_vs_dis_pgo": ratio(procs.get("llvm-dis"), procs.get("bcdump --dis (PGO)")),
        "dis_rss_vs_llvm_dis": ratio(peak_rss_bytes(results_dir, group, "rss-dis"),
                                     peak_rss_bytes(results_dir, group, "rss-llvm-dis")),
        # Per record: encode encodes the records outside BLOCKINFO, the check checks all.
        "encode_vs_check": ratio(times["encode"] / encoded, times["typed_check"] / records)
        if times["encode"] and times["typed_check"] and encoded else None,
        "encode_cold_vs_check": ratio(times["encode_cold"] / encoded, times["typed_check"] / records)
        if times["encode_cold"] and times["typed_check"] and encoded else None,
        "round_trip_vs_check": ratio(times["round_trip"], times["typed_check"]),
    }
    # The paired rounds' medians replace the ratios of criterion's medians where measured.
    from_criterion = dict(values)
    rounds = (paired or {}).get(group, {})
    for key in rounds:
        if key in values and rounds[key].get("median") is not None:
            values[key] = rounds[key]["median"]
    out.append("| ratio | value | paired rounds: q1-q3 (rounds) | from criterion's medians | target | |")
    out.append("| --- | ---: | --- | ---: | ---: | --- |")
    for key, label, op, target in TARGETS:
        v = values[key]
        r = rounds.get(key)
        spread = "%.2f-%.2f (%d)" % (r["q1"], r["q3"], r["rounds"]) if r else "-"
        shown = fmt(from_criterion[key], ".2f") if r else "-"
        out.append("| %s | %s | %s | %s | %s | %s |" % (label, fmt(v, ".2f"), spread, shown,
                                                      target_text(op, target), verdict(v, op, target)))
    if rss is not None:
        notes.append("peak RSS of `bcdump --check`: %.1f MiB (the file, read whole, is %.1f MiB of it)"
                     % (rss / MIB, size / MIB))
    for n in notes:
        out.append("")
        out.append("- " + n)
    out.append("")
    return values


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(root, "target"))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--criterion", default=os.environ.get("CRITERION_HOME", os.path.join(target, "criterion")))
    ap.add_argument("--results", default=os.path.join(target, "bench-results"))
    args = ap.parse_args()

    side = load_json(os.path.join(args.criterion, "speed-records.json"))
    if not side:
        sys.exit("report.py: %s/speed-records.json is missing: run `cargo bench --bench speed` (bench/run.sh)"
                 % args.criterion)
    paired = load_json(os.path.join(args.criterion, "speed-paired.json"))
    out = []
    summary = []
    machine = read_text(os.path.join(args.results, "machine.txt"))
    if machine:
        out.extend(["```text", machine, "```", ""])
    for entry in side["files"]:
        values = report_file(entry, args.criterion, args.results, paired, out)
        summary.append((entry["group"], values))

    if len(summary) > 1:
        out.append("### All files")
        out.append("")
        out.append("| ratio | target | " + " | ".join(g for g, _ in summary) + " |")
        out.append("| --- | ---: |" + " ---: |" * len(summary))
        for key, label, op, target in TARGETS:
            cells = ["%s %s" % (fmt(v[key], ".2f"), verdict(v[key], op, target)) for _, v in summary]
            out.append("| %s | %s | %s |" % (label, target_text(op, target), " | ".join(cells)))
        out.append("")

    macro = read_text(os.path.join(args.results, "macro.txt"))
    if macro:
        out.extend(["### Macro", "", "```text", macro, "```", ""])
    print("\n".join(out))


if __name__ == "__main__":
    main()

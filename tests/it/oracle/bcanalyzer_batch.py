#!/usr/bin/env python3
"""Run the trace oracle (../shared/oracle/bcanalyzer-jsonl) over many files in one process.

Usage: bcanalyzer_batch.py ORACLE TOOL MEMORY_BYTES TIMEOUT_SECONDS OUTPUT_BYTES

ORACLE is the path of bcanalyzer-jsonl; its own flags (BCANALYZER_FLAGS) and its own
conversion (convert) are used, so a trace here is exactly what that script prints. TOOL is
the llvm-bcanalyzer to run (llvm-bcanalyzer, llvm-bcanalyzer-19, ...).

Reads one file path a line from standard input and writes one JSON object a line:
  {"trace": [...]}            the analyzer read the file to its end; the entries, as the oracle gives them
  {"rejected": "message"}     the analyzer stopped with an error (exit status 1, or a fatal
                              error of LLVM's about the stream, which aborts)
  {"crashed": "why"}          it did not answer: a signal (an assertion, a failed allocation
                              under the memory limit, output over OUTPUT_BYTES), another exit
                              status, a timeout, or a dump the oracle cannot read
One process per file would spend more time starting Python than running the analyzer.

One thing is done to the dump before the oracle reads it: llvm-bcanalyzer prints the array
of an abbreviated record as text when every element is printable ("record string = '...'",
after the '/>'), and then the blob; the oracle takes the text after '/>' for a blob only
when it starts with "blob data", so a blob behind a printed array (an empty one, say) would
be lost. The record string, which says nothing the operands do not, is cut out first.
"""
import importlib.machinery
import importlib.util
import json
import re
import resource
import subprocess
import sys
import tempfile


def load_oracle(path):
    loader = importlib.machinery.SourceFileLoader("bcanalyzer_jsonl", path)
    spec = importlib.util.spec_from_loader(loader.name, loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


# The fatal errors that say an allocation failed, not that the stream is wrong.
ALLOCATION_FAILURES = ("out of memory", "unable to grow", "Unable to allocate", "bad_alloc")

RECORD_STRING = "/> record string = '"
OPERAND = re.compile(r" op\d+=(-?\d+)")


def without_record_string(line):
    """The dump line without the text form of its record's array (see above).

    The text is the record's last operands as characters (each printable ASCII), so the
    longest such tail of the operands that the line spells, quoted, is what is cut.
    """
    head, sep, tail = line.partition(RECORD_STRING)
    if not sep:
        return line
    ops = [int(v) % (1 << 64) for v in OPERAND.findall(head)]
    for k in range(len(ops), -1, -1):
        chars = [v & 0xFF for v in ops[len(ops) - k:]]
        if not all(0x20 <= c <= 0x7E for c in chars):
            continue
        text = "".join(map(chr, chars)) + "'"
        rest = tail[len(text):]
        if tail.startswith(text) and (rest == "" or rest.startswith(" blob data = ")):
            return head + "/>" + rest
    return line


def limit(memory, output):
    def apply():
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
        resource.setrlimit(resource.RLIMIT_FSIZE, (output, output))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    return apply


def analyze(oracle, tool, path, memory, timeout, output):
    with tempfile.TemporaryFile() as dump:
        try:
            done = subprocess.run(
                [tool, *oracle.BCANALYZER_FLAGS, path],
                stdout=dump,
                stderr=subprocess.PIPE,
                timeout=timeout,
                preexec_fn=limit(memory, output),
            )
        except subprocess.TimeoutExpired:
            return {"crashed": f"no answer within {timeout} s"}
        stderr = done.stderr.decode("utf-8", "replace")
        fatal = next((l for l in stderr.splitlines() if l.startswith("LLVM ERROR: ")), None)
        if done.returncode < 0:
            # LLVM 14's analyzer reports some errors of the stream through
            # report_fatal_error, which aborts: a rejection, unless the error is that an
            # allocation failed (under the memory limit, or past what a vector can hold).
            if fatal and not any(m in fatal for m in ALLOCATION_FAILURES):
                return {"rejected": fatal}
            return {"crashed": f"signal {-done.returncode} {fatal or ''}".strip()}
        if done.returncode == 1:
            return {"rejected": stderr.strip()}
        if done.returncode != 0:
            return {"crashed": f"exit status {done.returncode}"}
        dump.seek(0)
        lines = [without_record_string(l) for l in dump.read().decode("utf-8", "surrogateescape").splitlines()]
    entries = []
    try:
        oracle.convert(lines, entries.append)
    except ValueError as err:
        return {"crashed": f"the oracle cannot read the dump: {err}"}
    return {"trace": entries}


def main():
    if len(sys.argv) != 6:
        print(__doc__, file=sys.stderr)
        return 2
    oracle = load_oracle(sys.argv[1])
    tool = sys.argv[2]
    memory, timeout, output = int(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5])
    for line in sys.stdin:
        path = line.rstrip("\n")
        if not path:
            continue
        answer = analyze(oracle, tool, path, memory, timeout, output)
        sys.stdout.write(json.dumps(answer, separators=(",", ":")) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Whole-process times of two commands, run alternately, and the ratio of each pair.

    bench/paired.py N "COMMAND A" "COMMAND B"

Runs each once to warm up, then N pairs, A and B in turn (the order swapped every other
pair), and prints the median time of each and the median and quartiles of B/A. On a
machine whose speed drifts (a shared VM), the ratio of runs taken side by side holds
better than two medians taken minutes apart, as hyperfine takes them.

Each command is split as a shell would split its words and run directly, not through
`sh -c`: a shell's start (about 1.2 ms here) would be timed with both commands and
narrow their ratio. Redirections and pipes are therefore not available.
"""
import shlex
import statistics
import subprocess
import sys
import time


def run(argv):
    start = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    pairs, a, b = int(sys.argv[1]), shlex.split(sys.argv[2]), shlex.split(sys.argv[3])
    run(a)
    run(b)
    times_a, times_b, ratios = [], [], []
    for i in range(pairs):
        if i % 2 == 0:
            x, y = run(a), run(b)
        else:
            y, x = run(b), run(a)
        times_a.append(x)
        times_b.append(y)
        ratios.append(y / x)
    q = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else [ratios[0]] * 3
    print(
        f"A median {statistics.median(times_a) * 1000:.1f} ms, "
        f"B median {statistics.median(times_b) * 1000:.1f} ms, "
        f"B/A median {statistics.median(ratios):.2f} (quartiles {q[0]:.2f}-{q[2]:.2f}), {pairs} pairs"
    )


if __name__ == "__main__":
    main()

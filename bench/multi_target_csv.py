#!/usr/bin/env python3
"""Writes the three-target CSV of BENCHMARKS.md's multi_target_sgbt table.

Ten U[0, 1) features x0..x9 and three targets from the Friedman family:
  a = Friedman #1 + N(0, 1)
  b = Friedman #2 shape / 100 + N(0, 0.1)
  c = Friedman #3 shape + N(0, 0.1)
(the #2 and #3 shapes on the unit cube, with small guards against division
by zero). Deterministic: Python's Mersenne Twister with seed 3.

Usage: bench/multi_target_csv.py OUT.csv [ROWS]   (default 50000 rows)
"""
import math
import random
import sys


def main():
    out = sys.argv[1]
    rows = int(sys.argv[2]) if len(sys.argv) > 2 else 50000
    rng = random.Random(3)
    with open(out, "w", encoding="ascii") as f:
        f.write(",".join(f"x{i}" for i in range(10)) + ",a,b,c\n")
        for _ in range(rows):
            x = [rng.random() for _ in range(10)]
            a = (10 * math.sin(math.pi * x[0] * x[1]) + 20 * (x[2] - 0.5) ** 2 + 10 * x[3] + 5 * x[4]
                 + rng.gauss(0, 1))
            inner = x[1] * x[2] - 1 / (x[1] * x[3] + 1e-3)
            b = math.sqrt(x[0] ** 2 + inner ** 2) / 100 + rng.gauss(0, 0.1)
            c = math.atan(inner / (x[0] + 1e-3)) + rng.gauss(0, 0.1)
            f.write(",".join(f"{v:.6f}" for v in x) + f",{a:.6f},{b:.6f},{c:.6f}\n")


if __name__ == "__main__":
    main()

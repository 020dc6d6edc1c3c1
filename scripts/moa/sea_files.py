#!/usr/bin/env python3
"""Writes the SEA files the MOA comparison reads, as CSV and ARFF with the
same rows: f1, f2, f3 uniform on [0, 10), class 1 iff f1 + f2 > theta, 10%
of labels flipped.

    sea100k       theta 8 throughout (stationary)
    seadrift100k  theta 8, 9, 7, 9.5, switching every 25,000 rows

    /usr/bin/python3 scripts/moa/sea_files.py [OUT_DIR] [SEED ...]

Extra seeds also write sea100k_sN and seadrift100k_sN.
"""
import os
import random
import sys


def write(path, thetas, every, seed, n=100000):
    rng = random.Random(seed)
    name = os.path.basename(path)
    with open(path + ".csv", "w") as csv, open(path + ".arff", "w") as arff:
        csv.write("f1,f2,f3,class\n")
        arff.write(f"@relation {name}\n")
        for f in ("f1", "f2", "f3"):
            arff.write(f"@attribute {f} numeric\n")
        arff.write("@attribute class {0,1}\n@data\n")
        for t in range(n):
            theta = thetas[(t // every) % len(thetas)] if every else thetas[0]
            x = [rng.uniform(0, 10) for _ in range(3)]
            y = 1 if x[0] + x[1] > theta else 0
            if rng.random() < 0.1:
                y = 1 - y
            row = "%.6f,%.6f,%.6f,%d\n" % (x[0], x[1], x[2], y)
            csv.write(row)
            arff.write(row)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "."
    os.makedirs(out, exist_ok=True)
    write(os.path.join(out, "sea100k"), [8.0], 0, 1)
    write(os.path.join(out, "seadrift100k"), [8.0, 9.0, 7.0, 9.5], 25000, 1)
    for s in sys.argv[2:]:
        write(os.path.join(out, "sea100k_s" + s), [8.0], 0, int(s))
        write(os.path.join(out, "seadrift100k_s" + s), [8.0, 9.0, 7.0, 9.5], 25000, int(s))
    return 0


if __name__ == "__main__":
    sys.exit(main())

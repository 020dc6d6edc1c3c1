"""Streaming k-means against scikit-learn's batch KMeans.

For several seeded Gaussian mixtures (5 components; 10-d well separated, and
2-d with components close enough to touch) the script writes a CSV, runs
`irithyll cluster --model kmeans --n-clusters 5 --json` over it (one pass,
every row learned once), and computes the inertia (sum of squared distances
to the nearest centre) of the printed centres over all rows. scikit-learn's
KMeans(n_clusters=5, n_init=10) over the same rows is the reference: the
streaming inertia must be within 5% of it. River's own rules (init gaussian,
update halflife) are run too and reported, not checked.

Usage: kmeans_sklearn.py PATH/TO/irithyll. Exit 77 (skip) when NumPy or
scikit-learn is missing (Debian: python3-numpy python3-sklearn).
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from missing_tool import missing_tool  # noqa: E402

try:
    import numpy as np
except ImportError:
    missing_tool("NumPy", "python3-numpy")
try:
    from sklearn.cluster import KMeans
except ImportError:
    missing_tool("scikit-learn", "python3-sklearn")

TOLERANCE = 1.05
N = 20000


def mixture(seed, d, spread):
    rng = np.random.default_rng(seed)
    means = rng.uniform(-spread, spread, size=(5, d))
    labels = rng.integers(0, 5, size=N)
    return means[labels] + rng.normal(size=(N, d))


def inertia(X, centres):
    d2 = ((X[:, None, :] - centres[None, :, :]) ** 2).sum(axis=2)
    return float(d2.min(axis=1).sum())


def streaming_centres(cli, path, extra):
    out = subprocess.run([cli, "cluster", "--data", path, "--model", "kmeans", "--n-clusters", "5", "--json"] + extra,
                         check=True, capture_output=True, text=True).stdout
    return np.array(json.loads(out)["centers"], dtype=float)


def main():
    cli = sys.argv[1]
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for seed, d, spread in [(1, 10, 5.0), (2, 10, 5.0), (3, 10, 5.0), (4, 2, 6.0), (5, 2, 6.0), (6, 2, 6.0)]:
            X = mixture(seed, d, spread)
            path = os.path.join(tmp, f"mix{seed}.csv")
            np.savetxt(path, X, delimiter=",", header=",".join(f"x{i}" for i in range(d)), comments="", fmt="%.17g")
            ref = KMeans(n_clusters=5, n_init=10, random_state=0).fit(X).inertia_
            ours = inertia(X, streaming_centres(cli, path, []))
            river = inertia(X, streaming_centres(cli, path, ["--init", "gaussian", "--update", "halflife"]))
            ratio = ours / ref
            ok = ratio <= TOLERANCE
            failures += not ok
            print(f"seed {seed} d={d}: sklearn {ref:.1f}, irithyll kmeans {ours:.1f} (x{ratio:.4f}) "
                  f"{'ok' if ok else 'FAIL'}; River's rules {river:.1f} (x{river / ref:.3f})")
    if failures:
        print(f"{failures} mixture(s) above {TOLERANCE} x scikit-learn's inertia", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()

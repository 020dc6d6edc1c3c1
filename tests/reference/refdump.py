"""Shared helpers for the NumPy references: run a gtest dump and parse it.

The dump format is one record per line: `key count v1 v2 ...` (doubles printed
with 17 significant digits) and `model NAME` separators.
"""
import os
import subprocess
import sys
import tempfile

from missing_tool import missing_tool

try:
    import numpy as np  # noqa: F401
except ImportError:
    missing_tool("numpy", "python3-numpy")

import numpy as np


def run_dump(binary, gtest_filter, env_var):
    fd, path = tempfile.mkstemp(suffix=".txt")
    os.close(fd)
    try:
        env = dict(os.environ)
        env[env_var] = path
        subprocess.run([binary, "--gtest_filter=" + gtest_filter], check=True, env=env,
                       stdout=subprocess.DEVNULL)
        data = {}
        with open(path) as f:
            for line in f:
                parts = line.split()
                if not parts or parts[0] == "model":
                    continue
                n = int(parts[1])
                data[parts[0]] = np.array([float(v) for v in parts[2:2 + n]], dtype=np.float64)
        return data
    finally:
        os.unlink(path)


class Checker:
    def __init__(self, tol):
        self.tol = tol
        self.failures = 0

    def close(self, name, got, want):
        err = float(np.max(np.abs(np.asarray(got) - np.asarray(want)))) if np.size(want) else 0.0
        ok = err <= self.tol
        print(f"{'ok  ' if ok else 'FAIL'} {name}: max abs diff {err:.3e} (tol {self.tol:g})")
        if not ok:
            self.failures += 1

    def exit(self):
        sys.exit(1 if self.failures else 0)

"""Shared helpers for the Python suite (run by CTest as python_pytest)."""
import os
import random

import pytest

ROOT = os.environ.get("IRITHYLL_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
SHARED = os.path.join(ROOT, "..", "shared", "datasets")


def elec_path():
    path = os.path.join(SHARED, "elec.csv")
    if not os.path.exists(path):
        pytest.skip(f"dataset not found: {path} (../shared/datasets is absent in this checkout)")
    return path


def stream(n=300, seed=0, classification=True):
    """A small deterministic stream: y depends on a + b."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        a, b, c = rng.random(), rng.random(), rng.random()
        y = ("up" if a + b > 1.0 else "down") if classification else 2.0 * a - b + 0.1 * c
        out.append(({"a": a, "b": b, "c": c}, y))
    return out


def need_module(name, package):
    """Imports an optional module a test needs: skip when it is missing
    locally, fail under CI=true, where scripts/install-deps installs it
    (the rule of tests/reference/missing_tool.py)."""
    import importlib
    try:
        return importlib.import_module(name)
    except ImportError:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{name} not available (Debian: {package}): CI=true, the install step should have provided it")
        pytest.skip(f"{name} not available (Debian: {package})")

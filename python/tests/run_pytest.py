"""CTest entry point for the Python suite: runs pytest on python/tests.

A missing pytest follows tests/reference/missing_tool.py: skip (77) locally,
fail under CI=true, where scripts/install-deps should have installed it.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "tests", "reference"))
from missing_tool import missing_tool  # noqa: E402

try:
    import pytest
except ImportError:
    missing_tool("pytest", "python3-pytest")

sys.exit(pytest.main(["-q", "-p", "no:cacheprovider", *sys.argv[1:]]))

"""One rule for a reference check whose tool is missing (NumPy, objdump).

Locally a missing tool is a skip (exit 77, CTest's SKIP_RETURN_CODE). In CI
(CI=true) scripts/test-all has installed every package the tests need, so a
tool that is still missing means the install list is wrong: that is a failure
(exit 1), never a silent skip.
"""
import os
import sys


def missing_tool(what, package):
    ci = os.environ.get("CI") == "true"
    verdict = "FAIL (CI=true: the install step should have provided it)" if ci else "SKIP"
    print(f"{what} not available (Debian: {package}): {verdict}", file=sys.stderr)
    sys.exit(1 if ci else 77)

"""The documented install command: `cmake --install build --component python --prefix DIR`."""
import os
import shutil
import subprocess
import sys

import pytest


def test_cmake_install_component(tmp_path):
    build = os.environ.get("IRITHYLL_BUILD_DIR")
    cmake = shutil.which("cmake")
    if not build or not cmake:
        pytest.skip("IRITHYLL_BUILD_DIR or cmake not available (CTest sets the former)")
    subprocess.run([cmake, "--install", build, "--component", "python", "--prefix", str(tmp_path)], check=True,
                   capture_output=True)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(tmp_path)
    code = "import irithyll, sys; print(irithyll.__file__); print(irithyll.ensemble.SGBTRegressor(n_steps=3))"
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True, env=env,
                         cwd=str(tmp_path)).stdout.splitlines()
    assert out[0].startswith(str(tmp_path)) and out[1] == "SGBTRegressor(n_steps=3)"
    assert os.path.exists(tmp_path / "irithyll" / "ensemble.pyi")

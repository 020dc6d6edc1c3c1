"""Installing the package: `pip install .` (offline, Debian's pip, a venv) and `cmake --install`."""
import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.abspath(os.environ.get("IRITHYLL_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", "..")))


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


def _pip_ready():
    """(build dir, reason to skip): pip and venv from Debian, and CTest's build dir."""
    build = os.environ.get("IRITHYLL_BUILD_DIR")
    if not build or not os.path.exists(os.path.join(build, "CMakeCache.txt")):
        pytest.skip("IRITHYLL_BUILD_DIR not set (CTest sets it): the pip install test reuses that build")
    for module, package in (("pip", "python3-pip"), ("venv", "python3-venv"), ("ensurepip", "python3-venv")):
        try:
            __import__(module)
        except ImportError:
            pytest.skip(f"module {module} missing (Debian: apt-get install {package})")
    return build


def _pip(python, *args, env=None):
    # --no-index: nothing may come from a registry; --no-build-isolation: the
    # backend needs no build requirements, and an isolated env would be empty anyway.
    return subprocess.run([python, "-m", "pip", "--disable-pip-version-check", "--no-input", *args], check=True,
                          capture_output=True, text=True, env=env)


def _env():
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PIP_REQUIRE_VIRTUALENV")}
    env["PIP_NO_INDEX"] = "1"
    return env


@pytest.mark.parametrize("where", [".", "python"])
def test_pip_install_into_venv_offline(tmp_path, where):
    """`pip install .` (and ./python) into a fresh venv, offline: dist-info,
    pip show, import from outside the source tree, pip uninstall."""
    build = _pip_ready()
    venv = tmp_path / "venv"
    # --system-site-packages: numpy and pandas come from Debian, as they would for a user.
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", "--without-pip", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    env = _env()
    _pip(python, "install", "--no-build-isolation", "--no-index", "--config-settings", f"build-dir={build}",
         os.path.join(ROOT, where), env=env)
    shown = _pip(python, "show", "irithyll", env=env).stdout
    assert "Name: irithyll" in shown and str(venv) in shown, shown
    code = ("import irithyll; print(irithyll.__file__); "
            "m = irithyll.tree.HoeffdingTreeClassifier(); m.learn_one({'a': 1.0}, 'x'); print(m.predict_one({'a': 1.0}))")
    out = subprocess.run([python, "-c", code], check=True, capture_output=True, text=True, env=env,
                         cwd=str(tmp_path)).stdout.splitlines()
    assert out[0].startswith(str(venv)) and out[1] == "x", out
    site = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['platlib'])"], check=True,
                          capture_output=True, text=True, env=env).stdout.strip()
    dist = [d for d in os.listdir(site) if d.startswith("irithyll-") and d.endswith(".dist-info")]
    assert len(dist) == 1 and os.path.exists(os.path.join(site, dist[0], "RECORD")), os.listdir(site)
    _pip(python, "uninstall", "-y", "irithyll", env=env)
    assert not os.path.exists(os.path.join(site, "irithyll")) and not os.path.exists(os.path.join(site, dist[0]))
    gone = subprocess.run([python, "-c", "import irithyll"], capture_output=True, text=True, env=env,
                          cwd=str(tmp_path))
    assert gone.returncode != 0 and "No module named 'irithyll'" in gone.stderr


def test_pip_install_target_with_debian_pip(tmp_path):
    """Debian's own pip (no venv) installs into a --target directory."""
    build = _pip_ready()
    target = tmp_path / "site"
    env = _env()
    _pip(sys.executable, "install", "--no-build-isolation", "--no-index", "--target", str(target),
         "--config-settings", f"build-dir={build}", ROOT, env=env)
    env["PYTHONPATH"] = str(target)
    out = subprocess.run([sys.executable, "-c", "import irithyll; print(irithyll.__file__, irithyll.__version__)"],
                         check=True, capture_output=True, text=True, env=env, cwd=str(tmp_path)).stdout
    assert out.startswith(str(target))
    assert any(d.startswith("irithyll-") and d.endswith(".dist-info") for d in os.listdir(target))

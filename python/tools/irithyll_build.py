"""A PEP 517 build backend for `pip install .`: drives CMake, then zips the
package CMake assembled (build/python/irithyll) into a wheel.

It needs nothing beyond the standard library, CMake, a C++20 compiler and
pybind11 (Debian: cmake g++ pybind11-dev python3-dev), so `pip install .`
works offline, with or without build isolation (the backend declares no
build requirements, so pip has nothing to download).

Options, as `pip install . --config-settings KEY=VALUE` or environment
variables:
  build-dir  (IRITHYLL_PIP_BUILD_DIR)  the CMake build directory; default
             build/pip-cpXY in the source tree, kept between installs so a
             second install rebuilds only what changed. An existing build
             directory configured with IRITHYLL_PYTHON=ON is reused as it is.
  jobs       (IRITHYLL_PIP_JOBS)       parallel compile jobs (default: CPUs).
  cmake-args (IRITHYLL_PIP_CMAKE_ARGS) extra arguments for the configure step.
"""
import base64
import hashlib
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import zipfile

NAME = "irithyll"
SOURCE = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SUMMARY = "Streaming machine learning with River's API on a C++20 core"


def _version():
    with open(os.path.join(SOURCE, "python", "irithyll", "__init__.py"), encoding="utf-8") as f:
        for line in f:
            if line.startswith("__version__"):
                return line.split("=", 1)[1].strip().strip("\"'")
    raise RuntimeError("irithyll_build: no __version__ in python/irithyll/__init__.py")


def _setting(config, key, env, default=None):
    value = (config or {}).get(key)
    if value is None:
        value = os.environ.get(env, default)
    return value


def _tag():
    """The wheel tag of the running interpreter (CPython, its ABI, its platform)."""
    impl = f"cp{sys.version_info.major}{sys.version_info.minor}"
    abi = impl + getattr(sys, "abiflags", "")
    plat = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return f"{impl}-{abi}-{plat}"


def _build(config):
    """Configures (when needed) and builds the extension; returns the package folder."""
    cmake = shutil.which("cmake")
    if cmake is None:
        raise RuntimeError("irithyll_build: cmake not found (Debian: apt-get install cmake)")
    tag = f"cp{sys.version_info.major}{sys.version_info.minor}"
    build = os.path.abspath(_setting(config, "build-dir", "IRITHYLL_PIP_BUILD_DIR",
                                     os.path.join(SOURCE, "build", f"pip-{tag}")))
    if not os.path.exists(os.path.join(build, "CMakeCache.txt")):
        args = [cmake, "-S", SOURCE, "-B", build, "-DCMAKE_BUILD_TYPE=Release", "-DIRITHYLL_PYTHON=ON",
                "-DIRITHYLL_BUILD_TESTS=OFF", "-DIRITHYLL_BUILD_BENCHMARKS=OFF",
                f"-DPython_EXECUTABLE={sys.executable}"]
        args += shlex.split(_setting(config, "cmake-args", "IRITHYLL_PIP_CMAKE_ARGS", ""))
        subprocess.run(args, check=True, stdout=sys.stderr)
    jobs = str(_setting(config, "jobs", "IRITHYLL_PIP_JOBS", os.cpu_count() or 1))
    subprocess.run([cmake, "--build", build, "-j", jobs, "--target", "irithyll_python"], check=True,
                   stdout=sys.stderr)
    package = os.path.join(build, "python", NAME)
    if not os.path.exists(os.path.join(package, "__init__.py")):
        raise RuntimeError(f"irithyll_build: {package} holds no package; was the build directory configured "
                           "with -DIRITHYLL_PYTHON=ON and pybind11 found?")
    return package


def _metadata(version):
    return (f"Metadata-Version: 2.1\nName: {NAME}\nVersion: {version}\nSummary: {SUMMARY}\n"
            "Requires-Python: >=3.9\nLicense: see the LICENSE file of the source tree\n")


def _record_line(path, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{path},sha256={digest},{len(data)}"


def _write_wheel(directory, files, version):
    """files: [(path in the wheel, bytes)]; adds dist-info and RECORD."""
    dist = f"{NAME}-{version}.dist-info"
    name = f"{NAME}-{version}-{_tag()}.whl"
    files = list(files) + [
        (f"{dist}/METADATA", _metadata(version).encode()),
        (f"{dist}/WHEEL", f"Wheel-Version: 1.0\nGenerator: irithyll_build\nRoot-Is-Purelib: false\n"
                          f"Tag: {_tag()}\n".encode()),
        (f"{dist}/top_level.txt", f"{NAME}\n".encode()),
    ]
    record = [_record_line(p, d) for p, d in files] + [f"{dist}/RECORD,,"]
    files.append((f"{dist}/RECORD", ("\n".join(record) + "\n").encode()))
    with zipfile.ZipFile(os.path.join(directory, name), "w", zipfile.ZIP_DEFLATED) as z:
        for path, data in files:
            z.writestr(zipfile.ZipInfo(path, date_time=(2020, 1, 1, 0, 0, 0)), data, zipfile.ZIP_DEFLATED)
    return name


def _package_files(package):
    out = []
    for root, dirs, names in os.walk(package):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for n in sorted(names):
            full = os.path.join(root, n)
            rel = os.path.relpath(full, os.path.dirname(package)).replace(os.sep, "/")
            with open(full, "rb") as f:
                out.append((rel, f.read()))
    return out


# --- PEP 517 hooks -------------------------------------------------------------------
def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    dist = f"{NAME}-{_version()}.dist-info"
    os.makedirs(os.path.join(metadata_directory, dist), exist_ok=True)
    with open(os.path.join(metadata_directory, dist, "METADATA"), "w", encoding="utf-8") as f:
        f.write(_metadata(_version()))
    return dist


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    package = _build(config_settings)
    return _write_wheel(wheel_directory, _package_files(package), _version())


def build_sdist(sdist_directory, config_settings=None):
    """The tracked source tree (git ls-files) as NAME-VERSION.tar.gz."""
    version = _version()
    base = f"{NAME}-{version}"
    listed = subprocess.run(["git", "-C", SOURCE, "ls-files", "-z"], check=True, capture_output=True).stdout
    name = f"{base}.tar.gz"
    with tarfile.open(os.path.join(sdist_directory, name), "w:gz") as tar:
        for rel in sorted(p for p in listed.decode().split("\0") if p):
            full = os.path.join(SOURCE, rel)
            if os.path.isfile(full):
                tar.add(full, arcname=f"{base}/{rel}", recursive=False)
        info = tarfile.TarInfo(f"{base}/PKG-INFO")
        data = _metadata(version).encode()
        info.size = len(data)
        import io
        tar.addfile(info, io.BytesIO(data))
    return name

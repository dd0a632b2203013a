"""The package installs offline into a virtual environment (Debian's numpy,
setuptools and wheel, no network: --no-build-isolation --no-index), ships the
library inside, and works there without KF3DS_LIBRARY; its wheel is a
platform wheel that carries libkf3ds.so."""
import os
import shutil
import subprocess
import sys
import zipfile

import pytest

from conftest import ROOT


def _copy_source(tmp_path):
    src = tmp_path / "src"
    shutil.copytree(os.path.join(ROOT, "python"), src,
                    ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__",
                                                  "libkf3ds.so*"))
    return src


def test_offline_venv_install(tmp_path):
    venv = tmp_path / "v"
    r = subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if r.returncode:
        pytest.skip("no venv (python3-venv): %s" % r.stdout.decode(errors="replace")[-200:])
    src = _copy_source(tmp_path)
    env = dict(os.environ, PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1")
    r = subprocess.run([str(venv / "bin" / "pip"), "install", "--no-build-isolation",
                        "--no-index", str(src)], env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT)
    assert r.returncode == 0, r.stdout.decode(errors="replace")
    env.pop("KF3DS_LIBRARY", None)
    env.pop("PYTHONPATH", None)
    r = subprocess.run([str(venv / "bin" / "python"), "-c",
                        "import kf3ds, sys; s = kf3ds.load(sys.argv[1]); "
                        "print(kf3ds.library_path); print(s.eval([0, 1.5]).shape)",
                        os.path.join(ROOT, "data", "arm.3ds")], env=env, cwd=str(tmp_path),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert r.returncode == 0, r.stderr.decode(errors="replace")
    lib, shape = r.stdout.decode().split("\n")[:2]
    assert lib.startswith(str(venv)) and lib.endswith("libkf3ds.so")
    assert shape == "(2, 10, 4, 4)"


def test_wheel_carries_the_library(tmp_path):
    src = _copy_source(tmp_path)
    env = dict(os.environ, PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1")
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-build-isolation",
                        "--no-deps", "--no-index", "-w", str(tmp_path / "dist"), str(src)],
                       env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if r.returncode and b"No module named pip" in r.stdout:
        pytest.skip("no pip for %s" % sys.executable)
    assert r.returncode == 0, r.stdout.decode(errors="replace")
    wheels = os.listdir(tmp_path / "dist")
    assert len(wheels) == 1 and wheels[0].endswith(".whl") and "-py3-none-linux" in wheels[0]
    with zipfile.ZipFile(tmp_path / "dist" / wheels[0]) as z:
        names = z.namelist()
    assert "kf3ds/libkf3ds.so" in names and "kf3ds/__init__.py" in names

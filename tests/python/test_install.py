"""The package's wheel is a platform wheel that carries libkf3ds.so. The
offline install into a virtual environment, and the wheel's in a venv without
build tools, are test_readme_install.py's."""
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

"""The README's Python section as a user meets it (issue 27, "Done means"):

- its shell block, run as written (less the leading `make`: the library under
  test is already built) in a fresh folder laid out like a checkout, with no
  network (PIP_NO_INDEX) and no KF3DS_LIBRARY: `pip install ./python` into a
  fresh venv, the example, `python -m kf3ds eval`, whose bytes must be the
  command's;
- the wheel (`make python-wheel`'s recipe, mk/python.mk), a platform wheel
  with libkf3ds.so inside, installed into a
  second venv made --without-pip, with PATH holding nothing but that venv's
  bin/ (no cc, gcc, ld or make anywhere on it), where the README's example
  runs again and loads the library from the wheel.

Both skip, saying so, without python3-venv. About 14 s of CPU together."""
import os
import re
import shutil
import subprocess
import sys
import zipfile

import pytest

from conftest import ROOT, TOOL

BUILD_TOOLS = ("cc", "gcc", "clang", "ld", "make")

# Installing checks packaging, not memory safety, and pip under a preloaded
# ASan runtime takes twice as long: the sanitizer pass of make test
# (mk/python.mk, PY_SAN_ENV) leaves these to the plain pass.
pytestmark = pytest.mark.skipif("libasan" in os.environ.get("LD_PRELOAD", ""),
                                reason="install checks run in the plain pass only "
                                       "(ASan preloaded)")


def _readme_block():
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        text = f.read()
    section = text[text.index("## Python and Blender"):]
    m = re.search(r"```sh\n(.*?)```", section, re.S)
    assert m, "README.md: no ```sh block under 'Python and Blender'"
    return m.group(1)


def _example(block):
    """The Python program of the block's `venv/bin/python -c '...'`."""
    m = re.search(r"venv/bin/python -c '(.*?)'\n", block, re.S)
    assert m, "README.md: no venv/bin/python -c '...' example"
    return m.group(1)


def _checkout(tmp_path):
    """A folder shaped like a built checkout: python/ (copied: pip builds in
    place), build/libkf3ds.so (where setup.py looks) and data/."""
    top = tmp_path / "checkout"
    shutil.copytree(os.path.join(ROOT, "python"), top / "python",
                    ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__",
                                                  "libkf3ds.so*"))
    (top / "build").mkdir()
    lib = os.environ.get("KF3DS_LIBRARY") or os.path.join(ROOT, "build", "libkf3ds.so")
    shutil.copyfile(os.path.realpath(lib), top / "build" / "libkf3ds.so")
    os.symlink(os.path.join(ROOT, "data"), top / "data")
    return top


def _env(path):
    env = dict(os.environ, PATH=path, PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1")
    for k in ("KF3DS_LIBRARY", "PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV"):
        env.pop(k, None)
    return env


def _venv(path, *flags):
    r = subprocess.run([sys.executable, "-m", "venv", "--system-site-packages"] + list(flags)
                       + [str(path)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if r.returncode:
        pytest.skip("no venv (python3-venv): %s" % r.stdout.decode(errors="replace")[-200:])


def _expected_example_output():
    arm = os.path.join(ROOT, "data", "arm.3ds")
    eval12 = subprocess.run([TOOL, "eval", "data/arm.3ds", "--json", "--frame", "12.5"],
                            cwd=ROOT, stdout=subprocess.PIPE, check=True).stdout
    # data/arm.3ds: segment 0..60, nodes Base, UpperArm, Forearm first, 10
    # nodes (README, `kf3ds info data/arm.3ds`)
    assert os.path.exists(arm)
    return b"(0, 60) ['Base', 'UpperArm', 'Forearm']\n(2, 10, 4, 4)\n", eval12


def test_readme_block_offline(tmp_path):
    block = _readme_block()
    lines = block.split("\n")
    assert lines[0].startswith("make "), lines[0]
    script = "\n".join(lines[1:])
    top = _checkout(tmp_path)
    # `python3` is the Python under test (the README means the system's)
    shim = tmp_path / "shim"
    shim.mkdir()
    os.symlink(sys.executable, shim / "python3")
    if subprocess.run([sys.executable, "-c", "import venv, ensurepip"]).returncode:
        pytest.skip("no venv with pip for %s (python3-venv)" % sys.executable)
    r = subprocess.run(["sh", "-e", "-c", script], cwd=str(top),
                       env=_env(str(shim) + os.pathsep + "/usr/bin:/bin"),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert r.returncode == 0, r.stderr.decode(errors="replace")[-2000:]
    example, eval12 = _expected_example_output()
    out = r.stdout
    assert example in out, out[-800:]
    assert out.endswith(eval12), "python -m kf3ds eval differs from kf3ds eval"
    lib = subprocess.run([str(top / "venv" / "bin" / "python"), "-c",
                          "import kf3ds; print(kf3ds.library_path)"], cwd=str(top),
                         env=_env("/usr/bin:/bin"), stdout=subprocess.PIPE, check=True)
    assert lib.stdout.decode().strip().startswith(str(top / "venv"))


def test_wheel_in_venv_without_build_tools(tmp_path):
    top = _checkout(tmp_path)
    # mk/python.mk's python-wheel recipe, on the copy
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-build-isolation",
                        "--no-deps", "--no-index", "-w", str(tmp_path / "dist"), "."],
                       cwd=str(top / "python"), env=_env(os.environ.get("PATH", "")),
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if r.returncode and b"No module named pip" in r.stdout:
        pytest.skip("no pip for %s (python3-pip)" % sys.executable)
    assert r.returncode == 0, r.stdout.decode(errors="replace")[-2000:]
    (wheel,) = (tmp_path / "dist").iterdir()
    # a platform wheel (the library is plain C: any Python 3) that carries it
    assert wheel.name.endswith(".whl") and "-py3-none-linux" in wheel.name, wheel.name
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
    assert "kf3ds/libkf3ds.so" in names and "kf3ds/__init__.py" in names
    # the second venv, and a folder with nothing but the tools a user runs
    venv = tmp_path / "v2"
    _venv(venv, "--without-pip")
    bare = _env(str(venv / "bin"))
    probe = subprocess.run([str(venv / "bin" / "python"), "-c",
                            "import shutil, sys; print([t for t in sys.argv[1:] "
                            "if shutil.which(t)])"] + list(BUILD_TOOLS),
                           env=bare, stdout=subprocess.PIPE, check=True)
    assert probe.stdout.strip() == b"[]", probe.stdout
    # the host's pip installs into it (pip >= 22.3: --python); no network
    r = subprocess.run([sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"),
                        "install", "--no-index", "--no-deps", str(wheel)], env=bare,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if r.returncode and b"no such option: --python" in r.stdout:
        pytest.skip("pip for %s is older than 22.3 (no --python)" % sys.executable)
    assert r.returncode == 0, r.stdout.decode(errors="replace")[-2000:]
    example, eval12 = _expected_example_output()
    r = subprocess.run([str(venv / "bin" / "python"), "-c",
                        _example(_readme_block()) + "print(kf3ds.library_path)\n"],
                       cwd=str(top), env=bare, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert r.returncode == 0, r.stderr.decode(errors="replace")
    assert r.stdout.startswith(example), r.stdout
    lib = r.stdout[len(example):].decode().strip()
    assert lib.startswith(str(venv)) and lib.endswith("kf3ds/libkf3ds.so"), lib
    r = subprocess.run([str(venv / "bin" / "python"), "-m", "kf3ds", "eval", "data/arm.3ds",
                        "--json", "--frame", "12.5"], cwd=str(top), env=bare,
                       stdout=subprocess.PIPE, check=True)
    assert r.stdout == eval12

"""Shared fixtures of the Python binding's tests (make test-python).

KF3DS_LIBRARY names the library under test and KF3DS_TOOL the kf3ds command
whose output the binding must reproduce (mk/python.mk sets both; by default
build/libkf3ds.so and build/kf3ds). KF3DS_CORPUS names the corpus folder
(default ../shared/corpus); without it the corpus tests skip, saying so.
"""
import glob
import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))
os.environ.setdefault("KF3DS_LIBRARY", os.path.join(ROOT, "build", "libkf3ds.so"))

TOOL = os.environ.get("KF3DS_TOOL") or os.path.join(ROOT, "build", "kf3ds")
DATA = sorted(glob.glob(os.path.join(ROOT, "data", "*.3ds")))
CORPUS_DIR = os.environ.get("KF3DS_CORPUS") or os.path.join(ROOT, "..", "shared", "corpus")
CORPUS = sorted(p for p in glob.glob(os.path.join(CORPUS_DIR, "*"))
                if p.lower().endswith(".3ds")) if os.path.isdir(CORPUS_DIR) else []
# KF3DS_CORPUS_SAMPLE=N: every Nth corpus file, as tests/support.c takes them
# (the sanitizer pass of make test runs on such a sample).
_STEP = os.environ.get("KF3DS_CORPUS_SAMPLE", "")
if _STEP.isdigit() and 1 < int(_STEP) < 1000:
    CORPUS = CORPUS[::int(_STEP)]


def _id(path):
    return os.path.basename(path)


def corpus_params():
    """The corpus files as parameters, or one parameter that skips with the reason."""
    if not CORPUS:
        return [pytest.param(None, marks=pytest.mark.skip(
            reason="no corpus: %s has no .3ds files (set KF3DS_CORPUS)" % CORPUS_DIR))]
    return [pytest.param(p, id=_id(p)) for p in CORPUS]


def data_params():
    return [pytest.param(p, id=_id(p)) for p in DATA]


EMBEDDABLE_MAPS = (".png", ".jpg", ".jpeg")


def embeddable_copy(path, tmp_path):
    """path linked into a folder of its own beside only the PNG and JPEG files of
    its folder. The command re-encodes other maps (BMP, TGA, CEL...) as PNG with
    its image libraries, which the package does not have (it leaves them out,
    docs/python.md); byte comparisons with the command run on this copy, where
    both find the same maps."""
    d = tmp_path / "in"
    d.mkdir(parents=True, exist_ok=True)
    src = os.path.dirname(os.path.abspath(path))
    for name in os.listdir(src):
        if name.lower().endswith(EMBEDDABLE_MAPS) and not (d / name).exists():
            os.symlink(os.path.join(src, name), str(d / name))
    target = d / os.path.basename(path)
    if not target.exists():
        os.symlink(os.path.abspath(path), str(target))
    return str(target)


def run_tool(*args, check=True):
    """Runs the kf3ds command; its CompletedProcess (stdout bytes)."""
    if not os.access(TOOL, os.X_OK):
        pytest.skip("no kf3ds command at %s (make)" % TOOL)
    r = subprocess.run([TOOL] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if check and r.returncode not in (0, 1):
        raise AssertionError("kf3ds %s: exit %d: %s" % (" ".join(args), r.returncode, r.stderr))
    return r


def tool_eval_json(path, frames, verts=False):
    """`kf3ds eval FILE --json` parsed, or None when the command printed nothing."""
    args = ["eval", path, "--json", "-q"] + (["--verts"] if verts else [])
    for f in frames:
        args += ["--frame", repr(float(f))]
    r = run_tool(*args)
    if not r.stdout:
        return None
    return json.loads(r.stdout, parse_int=float)  # "-0" stays -0.0

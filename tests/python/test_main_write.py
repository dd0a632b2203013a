"""`python -m kf3ds export` and `bake` write the bytes `kf3ds export` and
`kf3ds bake` write, and print the same "wrote" line (run in twin folders so the
output names, which the files record, are the same)."""
import os
import subprocess
import sys

import pytest

from conftest import ROOT, TOOL, data_params, corpus_params, embeddable_copy

EXPORT_OPTIONS = [[], ["--cubic", "--rate", "2"], ["--static-frame", "12.5"],
                  ["--frames", "3:9", "--fps", "24", "--no-ease"], ["--visibility-ext"]]
BAKE_OPTIONS = [[], ["--step", "0.5", "--fixed"], ["--frames", "10:20", "--no-meshes"],
                ["--frac-bits", "auto"], ["--tolerance", "1e-3", "--between"],
                ["--between", "--step", "0.5"]]


def _run(cmd, cwd):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.path.join(ROOT, "python") + os.pathsep + env.get("PYTHONPATH", "")
    return subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _both(tmp_path, args, outputs):
    """Runs the command and the module on args in folders c/ and p/; their
    results and the bytes of each output file (None when not written)."""
    if not os.access(TOOL, os.X_OK):
        pytest.skip("no kf3ds command at %s (make)" % TOOL)
    got = []
    for side, cmd in (("c", [TOOL]), ("p", [sys.executable, "-m", "kf3ds"])):
        d = tmp_path / side
        d.mkdir(parents=True)
        r = _run(cmd + args, d)
        files = {}
        for o in outputs:
            p = d / o
            files[o] = p.read_bytes() if p.exists() else None
        got.append((r, files))
    return got


def _samples():
    return data_params() + [p for p in corpus_params() if p.values[0] is not None][:6]


@pytest.mark.parametrize("opts", EXPORT_OPTIONS, ids=" ".join)
@pytest.mark.parametrize("path", _samples())
def test_export_writes_the_commands_bytes(tmp_path, path, opts):
    path = embeddable_copy(path, tmp_path)
    (c, cf), (p, pf) = _both(tmp_path, ["export", path, "-o", "out.gltf"] + opts,
                             ["out.gltf", "out.bin"])
    assert p.returncode == c.returncode, p.stderr
    assert pf == cf
    assert p.stdout == c.stdout
    if c.returncode == 0:
        assert cf["out.gltf"]


@pytest.mark.parametrize("path", data_params())
def test_export_glb_and_standard_output(tmp_path, path):
    path = embeddable_copy(path, tmp_path)
    (c, cf), (p, pf) = _both(tmp_path, ["export", path, "-o", "out.glb"], ["out.glb"])
    assert (p.returncode, pf, p.stdout) == (c.returncode, cf, c.stdout)
    assert cf["out.glb"][:4] == b"glTF"
    (c, _), (p, _) = _both(tmp_path / "stdout", ["export", path, "-o", "-", "-q"], [])
    assert p.stdout == c.stdout and c.stdout[:4] == b"glTF"


@pytest.mark.parametrize("opts", BAKE_OPTIONS, ids=" ".join)
@pytest.mark.parametrize("path", _samples())
def test_bake_writes_the_commands_bytes(tmp_path, path, opts):
    (c, cf), (p, pf) = _both(tmp_path, ["bake", path, "-o", "out.kfb"] + opts, ["out.kfb"])
    assert p.returncode == c.returncode, p.stderr
    assert pf == cf
    assert p.stdout == c.stdout
    if c.returncode == 0:
        assert cf["out.kfb"][:4] == b"KFB1" or len(cf["out.kfb"]) > 16


def test_bake_nodes_and_unknown_node(tmp_path):
    arm = os.path.join(ROOT, "data", "arm.3ds")
    (c, cf), (p, pf) = _both(tmp_path, ["bake", arm, "-o", "o.kfb", "--nodes", "UpperArm"],
                             ["o.kfb"])
    assert (p.returncode, pf, p.stdout) == (0, cf, c.stdout)
    (c, _), (p, _) = _both(tmp_path / "x", ["bake", arm, "-o", "o.kfb", "--nodes", "Nope"], [])
    assert p.returncode == c.returncode == 1
    assert b"Nope" in p.stderr


@pytest.mark.parametrize("args", [["export", "x.3ds"], ["export", "x.3ds", "-o", "a.dae"],
                                  ["export", "x.3ds", "-o", "a.glb", "--rate", "0"],
                                  ["export", "x.3ds", "-o", "a.glb", "--static-frame", "1",
                                   "--cubic"],
                                  ["bake", "x.3ds"], ["bake", "x.3ds", "-o", "a.kfb",
                                                      "--frac-bits", "40"],
                                  ["export", "x.3ds", "-o", "a.glb", "--bogus"]])
def test_wrong_usage_is_status_2(tmp_path, args):
    (c, _), (p, _) = _both(tmp_path, args, [])
    assert p.returncode == c.returncode == 2
    assert p.stderr.startswith(b"kf3ds: ")


def test_missing_and_not_3ds_files_are_status_1(tmp_path):
    bad = tmp_path / "bad.3ds"
    bad.write_bytes(b"not a 3ds file at all")
    for args in (["export", str(bad), "-o", "o.glb"], ["bake", str(bad), "-o", "o.kfb"],
                 ["export", str(tmp_path / "none.3ds"), "-o", "o.glb"]):
        (c, cf), (p, pf) = _both(tmp_path / str(len(os.listdir(tmp_path))), args, ["o.glb"])
        assert p.returncode == c.returncode == 1
        assert pf == cf

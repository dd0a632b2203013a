"""scene.eval and scene.vertices give exactly the numbers `kf3ds eval --json`
prints (%.9g of float32 reads back as the same float32), at integer and
fractional frames, for every sample and corpus file; `python -m kf3ds eval
--json` prints the command's bytes."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

from conftest import ROOT, corpus_params, data_params, run_tool, tool_eval_json

import kf3ds

FRAMES = [0, 1, 7, 12.5, 30, 33.333, -4.75, 100, 1000.125]


def _bits(a):
    return np.asarray(a, dtype=np.float32).view(np.uint32)


def _json_floats(values):
    """JSON numbers as float32; null (a NaN or infinity in C) as NaN."""
    return np.array([np.nan if v is None else v for v in values], dtype=np.float32)


def _same(ours, theirs):
    ours = np.asarray(ours, np.float32).reshape(-1)
    theirs = _json_floats(theirs)
    finite = np.isfinite(theirs)
    assert np.array_equal(_bits(ours[finite]), _bits(theirs[finite]))
    assert not np.isfinite(ours[~finite]).any()


def _check_eval(path, frames, verts=False):
    doc = tool_eval_json(path, frames, verts)
    try:
        scene = kf3ds.load(path)
    except kf3ds.Error:
        assert doc is None, "the command read %s, the binding did not" % path
        return
    assert doc is not None, "the binding read %s, the command did not" % path
    with scene:
        worlds = scene.eval(frames)
        assert worlds.shape == (len(frames), scene.num_nodes, 4, 4)
        assert worlds.dtype == np.float32
        nodes = scene.nodes
        for f, fr in enumerate(doc["frames"]):
            assert fr["frame"] == frames[f]
            assert len(fr["nodes"]) == len(nodes)
            for i, jn in enumerate(fr["nodes"]):
                if nodes[i].name.isascii():
                    assert jn["name"] == nodes[i].name
                assert jn["type"] == nodes[i].type
                assert jn["id"] == nodes[i].id
                _same(worlds[f, i], jn["world"])
                if verts:
                    v = scene.vertices(frames[f], i)
                    if "verts" in jn:
                        assert v is not None
                        _same(v, [x for p in jn["verts"] for x in p])
                    else:
                        assert v is None
            one = scene.eval(frames[f])
            assert np.array_equal(_bits(one), _bits(worlds[f]))


@pytest.mark.parametrize("path", data_params())
def test_eval_equals_command_data(path):
    _check_eval(path, FRAMES, verts=True)


@pytest.mark.parametrize("path", corpus_params())
def test_eval_equals_command_corpus(path):
    _check_eval(path, [0, 5, 17.25, 60.5], verts=True)


@pytest.mark.parametrize("path", data_params())
def test_no_ease(path):
    with kf3ds.load(path) as s:
        a = s.eval([3.5, 10.25], no_ease=True)
    r = run_tool("eval", path, "--json", "-q", "--no-ease", "--frame", "3.5", "--frame", "10.25")
    doc = json.loads(r.stdout, parse_int=float)
    for f in range(2):
        for i, jn in enumerate(doc["frames"][f]["nodes"]):
            _same(a[f, i], jn["world"])


def _py_main(*args):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.path.join(ROOT, "python") + os.pathsep + env.get("PYTHONPATH", "")
    return subprocess.run([sys.executable, "-m", "kf3ds"] + list(args), env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _all_samples():
    return data_params() + ([p for p in corpus_params() if p.values[0] is not None])


@pytest.mark.parametrize("path", _all_samples())
def test_main_eval_json_is_byte_identical(path):
    args = ["eval", path, "--json", "--frame", "0", "--frame", "12.5", "--frame", "0.1",
            "--frame", "-3"]
    theirs = run_tool(*args)
    ours = _py_main(*args)
    assert ours.stdout == theirs.stdout
    assert ours.returncode == theirs.returncode


@pytest.mark.parametrize("path", data_params())
def test_main_eval_verts_and_text_are_byte_identical(path):
    for args in (["eval", path, "--json", "--verts", "--frame", "8.75"],
                 ["eval", path, "--verts", "--frame", "8.75", "--frame", "2"]):
        theirs = run_tool(*args)
        ours = _py_main(*args)
        assert ours.stdout == theirs.stdout
        assert ours.returncode == theirs.returncode


@pytest.mark.parametrize("path", _all_samples())
def test_main_info_matches_the_command(path):
    theirs = run_tool("info", path)
    ours = _py_main("info", path)
    assert ours.returncode == theirs.returncode
    if theirs.stdout.startswith(b"file: "):
        assert ours.stdout == theirs.stdout


def test_eval_shapes_and_types():
    with kf3ds.load(os.path.join(ROOT, "data", "arm.3ds")) as s:
        n = s.num_nodes
        assert s.eval(5).shape == (n, 4, 4)
        assert s.eval([]).shape == (0, n, 4, 4)
        assert s.eval(np.arange(4)).shape == (4, n, 4, 4)
        assert s.eval((1, 2.5)).shape == (2, n, 4, 4)
        with pytest.raises(TypeError):
            s.eval("12")
        with pytest.raises(TypeError):
            s.eval(None)
        with pytest.raises(TypeError):
            s.eval([[1, 2]])
        with pytest.raises(TypeError):
            s.eval(["a"])
        with pytest.raises(ValueError):
            s.eval(float("nan"))
        with pytest.raises(ValueError):
            s.eval([1, float("inf")])
        i = s.find_node("UpperArm")
        assert i is not None
        assert np.array_equal(s.vertices(10, "UpperArm"), s.vertices(10, i))
        assert s.vertices(10, s.find_node("Cam01")) is None
        with pytest.raises(KeyError):
            s.vertices(0, "no such node")
        with pytest.raises(IndexError):
            s.vertices(0, 1000)
        with pytest.raises(TypeError):
            s.vertices(0, 1.5)
        poses = s.poses(10)
        assert len(poses) == n
        assert np.array_equal(poses[i]["world"], s.eval(10)[i])

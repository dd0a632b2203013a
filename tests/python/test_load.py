"""Every sample and corpus file loads through the binding, and what the scene
holds is what the C structs hold: counts, names, arrays (zero-copy views)."""
import gc
import os

import numpy as np
import pytest

from conftest import ROOT, corpus_params, data_params, run_tool

import kf3ds


def _check_scene(s):
    assert isinstance(s.diagnostics, list)
    for d in s.diagnostics:
        assert isinstance(d, kf3ds.Diagnostic)
        assert d.severity in ("error", "warning")
        assert isinstance(d.offset, int) and isinstance(d.chunk, int)
        assert isinstance(d.message, str) and str(d)
    a, b = s.segment
    assert isinstance(a, int) and isinstance(b, int)
    n = s.num_nodes
    for i, node in enumerate(s.nodes):
        assert node.index == i
        assert node.type in kf3ds.NODE_TYPES
        assert -1 <= node.parent < n
        assert len(node.pivot) == 3
        assert set(node.key_counts) == set(kf3ds.TRACK_NAMES)
        for kind, t in node.tracks.items():
            assert len(t) == node.key_counts[kind] > 0
            assert np.all(np.diff(t.frames) >= 0)
    for m in s.meshes:
        assert m.points.dtype == np.float32 and m.points.shape[1:] == (3,)
        assert m.faces.dtype == np.uint16 and m.faces.shape == (len(m.face_flags), 3)
        assert m.uvs.shape[1:] == (2,)
        assert m.smoothing.shape == (len(m.faces),)
        assert m.face_materials.shape == (len(m.faces),)
        assert not m.points.flags.writeable
        assert m.matrix.shape == (4, 4)
    for mat in s.materials:
        assert isinstance(mat.name, str) and len(mat.diffuse) == 3
        for kind, tm in mat.maps.items():
            assert kind in kf3ds.MAP_NAMES and tm.file
    for c in s.cameras:
        assert len(c.position) == 3 and len(c.target) == 3
    for light in s.lights:
        assert len(light.color) == 3


def _check_file(path):
    try:
        s = kf3ds.load(path)
    except kf3ds.Error as e:
        # only files the command refuses too (not 3DS: empty, text)
        r = run_tool("info", path)
        assert r.returncode == 1 and not r.stdout.startswith(b"file: "), str(e)
        assert e.code is not None and e.message
        return
    with s:
        _check_scene(s)
        info = run_tool("info", path)
        assert (info.returncode == 0) == s.ok
        assert b"meshes: %d " % len(s.meshes) in info.stdout
        assert b"nodes: %d" % s.num_nodes in info.stdout
        with open(path, "rb") as f:
            t = kf3ds.load(f.read())
        with t:
            assert t.num_nodes == s.num_nodes
            assert [str(d) for d in t.diagnostics] == [str(d) for d in s.diagnostics]
            for a, b in zip(s.meshes, t.meshes):
                assert np.array_equal(a.points, b.points, equal_nan=True)
                assert np.array_equal(a.faces, b.faces)


@pytest.mark.parametrize("path", data_params())
def test_data_loads(path):
    _check_file(path)


@pytest.mark.parametrize("path", corpus_params())
def test_corpus_loads(path):
    _check_file(path)


def test_arm_contents():
    s = kf3ds.load(os.path.join(ROOT, "data", "arm.3ds"))
    assert s.ok and s.error is None and not s.truncated
    assert s.segment == (0, 60)
    names = [n.name for n in s.nodes]
    assert names[:3] == ["Base", "UpperArm", "Forearm"]
    upper = s.nodes[1]
    assert upper.parent == 0 and upper.type == "object" and upper.pivot == (0.0, 0.0, -15.0)
    assert upper.key_counts["rot"] == 5 and upper.tracks["rot"].frames.dtype == np.int32
    assert s.find_node("Cam01") == 8 and s.find_node("nothing") is None
    assert s.find_mesh("Base") == 0
    assert [c.name for c in s.cameras] == ["Cam01"]
    assert s.lights[0].spot


def test_views_are_zero_copy_and_outlive_close():
    s = kf3ds.load(os.path.join(ROOT, "data", "arm.3ds"))
    pts = s.meshes[0].points
    faces = s.meshes[0].faces
    base = pts
    while base.base is not None and isinstance(base.base, np.ndarray):
        base = base.base
    assert not pts.flags.owndata  # a view of the scene's memory
    copy = pts.copy()
    s.close()
    with pytest.raises(kf3ds.Error):
        s.meshes
    gc.collect()
    assert np.array_equal(pts, copy)  # still valid: the view keeps the C scene
    assert faces.shape[1] == 3
    del pts, faces, base
    gc.collect()


def test_name_and_labels():
    with open(os.path.join(ROOT, "data", "arm.3ds"), "rb") as f:
        data = f.read()
    assert kf3ds.load(data).name == "<bytes>"
    assert kf3ds.load(data, name="x.3ds").name == "x.3ds"
    assert kf3ds.load(bytearray(data)).num_nodes == 10
    assert kf3ds.load(memoryview(data)).num_nodes == 10
    import pathlib
    assert kf3ds.load(pathlib.Path(ROOT) / "data" / "arm.3ds").num_nodes == 10


def test_version():
    assert kf3ds.library_version.count(".") == 2
    assert os.path.exists(kf3ds.library_path)

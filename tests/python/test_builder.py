"""kf3ds.Builder wraps kf3ds_builder_*: a scene made in code evaluates, saves
and loads back the same; refused calls raise kf3ds.Error at once."""
import math

import numpy as np
import pytest

from conftest import run_tool

import kf3ds


def _build():
    b = kf3ds.Builder()
    b.material("Red", diffuse=(1, 0, 0), texture="brick.bmp")
    pts = [(0, 0, 0), (10, 0, 0), (10, 10, 0), (0, 10, 0)]
    m = b.mesh("Quad", pts, [(0, 1, 2), (0, 2, 3)], uvs=[(0, 0), (1, 0), (1, 1), (0, 1)],
               smoothing=[1, 1], material="Red")
    assert m == 0
    b.camera("Cam", (0, -50, 20), (0, 0, 0), lens=35)
    b.light("Sun", (10, 10, 100), color=(1, 1, 0.9))
    b.keyframer(40, segment=(0, 40), name="demo")
    root = b.node("object", "$$$DUMMY", instance="Pivot")
    q = b.node("object", "Quad", root, pivot=(5, 5, 0))
    b.key(root, "pos", 0, (0, 0, 0))
    b.key(root, "pos", 40, (40, 0, 0), tension=0.5)
    b.key(q, "rot", 0, (0, 0, 0, 1))
    b.key(q, "rot", 20, (math.pi / 2, 0, 0, 1))
    b.key(q, "scl", 0, (1, 1, 1))
    c = b.node("camera", "Cam")
    b.key(c, "pos", 0, (0, -50, 20))
    b.key(c, "fov", 0, 60.0)
    t = b.node("target", "Cam")
    b.key(t, "pos", 0, (0, 0, 0))
    return b.finish(name="built")


def test_built_scene(tmp_path):
    with _build() as s:
        assert s.name == "built" and s.ok
        assert [n.name for n in s.nodes] == ["$$$DUMMY", "Quad", "Cam", "Cam"]
        assert s.nodes[0].instance == "Pivot" and s.nodes[0].is_dummy
        assert s.nodes[1].parent == 0 and s.nodes[1].pivot == (5.0, 5.0, 0.0)
        assert s.segment == (0, 40) and s.anim_length == 40
        mesh = s.meshes[0]
        assert mesh.points.shape == (4, 3) and mesh.faces.tolist() == [[0, 1, 2], [0, 2, 3]]
        assert mesh.uvs.shape == (4, 2) and mesh.smoothing.tolist() == [1, 1]
        assert mesh.face_materials.tolist() == [0, 0]
        assert s.materials[0].maps["texture1"].file == "brick.bmp"
        assert s.cameras[0].lens == 35
        w = s.eval([0, 20, 40])
        assert np.allclose(w[2, 0, :3, 3], (40, 0, 0))
        v = s.vertices(20, 1)
        assert v.shape == (4, 3)
        data = s.save()
        path = tmp_path / "built.3ds"
        s.save(path)
    with kf3ds.load(data) as t:
        assert [n.name for n in t.nodes] == ["$$$DUMMY", "Quad", "Cam", "Cam"]
        assert np.array_equal(t.eval([0, 13.5, 40]), kf3ds.load(data).eval([0, 13.5, 40]))
        assert t.save(repair=False) == data
    assert run_tool("info", str(path)).returncode == 0


def test_builder_errors():
    b = kf3ds.Builder()
    with pytest.raises(kf3ds.Error) as e:
        b.mesh("Bad", [(0, 0, 0)], [(0, 1, 2)])  # faces index points that are not there
    assert e.value.message
    b.close()
    with pytest.raises(kf3ds.Error):
        b.keyframer(10)
    b = kf3ds.Builder()
    with pytest.raises(kf3ds.Error):
        b.node("object", "X", parent=5)  # no such parent
    b = kf3ds.Builder()
    with pytest.raises(ValueError):
        b.node("thing", "X")
    with pytest.raises(ValueError):
        b.key(0, "position", 0, (1, 2, 3))
    with pytest.raises(TypeError):
        b.material(12)
    with pytest.raises(ValueError):
        b.mesh("M", [(0, 0)], [])
    with pytest.raises(kf3ds.Error):
        b.camera("C", (0, 0, float("nan")), (0, 0, 0))
    with kf3ds.Builder() as b2:
        b2.keyframer(10)
    s = kf3ds.Builder().finish()
    assert s.num_nodes == 0 and s.meshes == []
    b3 = kf3ds.Builder()
    b3.finish()
    with pytest.raises(kf3ds.Error):
        b3.finish()

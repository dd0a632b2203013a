"""Scene.export_gltf and Scene.bake give the bytes `kf3ds export` and `kf3ds bake` write,
for the sample files and (when found) the corpus; bad arguments and closed scenes raise."""
import os
import warnings

import pytest

from conftest import DATA, corpus_params, data_params, embeddable_copy, run_tool

import kf3ds

FILES = data_params() + corpus_params()


def _load(path):
    try:
        return kf3ds.load(path)
    except kf3ds.Error:
        return None


def _tool_output(tmp_path, out, *args):
    """Runs kf3ds in tmp_path writing `out` there; its bytes, or None when none was written."""
    target = tmp_path / out
    if target.exists():
        target.unlink()
    old = os.getcwd()
    os.chdir(str(tmp_path))
    try:
        run_tool(*args)
    finally:
        os.chdir(old)
    return target.read_bytes() if target.exists() else None


def _quiet_export(scene, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", kf3ds.GltfWarning)
        return scene.export_gltf(**kw)


@pytest.mark.parametrize("path", FILES)
@pytest.mark.parametrize("static", [None, 12.5], ids=["animated", "static12.5"])
def test_export_matches_the_command(path, static, tmp_path, monkeypatch):
    path = embeddable_copy(path, tmp_path)
    args = ["export", path, "-o", "x.glb", "-q"]
    if static is not None:
        args += ["--static-frame", repr(static)]
    want = _tool_output(tmp_path, "x.glb", *args)
    scene = _load(path)
    monkeypatch.chdir(str(tmp_path))  # image URIs are relative to the current folder
    if want is None:
        if scene is not None:
            with pytest.raises(kf3ds.Error):
                _quiet_export(scene, static_frame=static)
        return
    assert scene is not None
    with scene:
        got = _quiet_export(scene, static_frame=static)
    assert got == want


@pytest.mark.parametrize("path", DATA, ids=os.path.basename)
def test_export_gltf_files_match_the_command(path, tmp_path):
    path = embeddable_copy(path, tmp_path)
    want_json = _tool_output(tmp_path, "x.gltf", "export", path, "-o", "x.gltf", "-q")
    want_bin = (tmp_path / "x.bin").read_bytes() if (tmp_path / "x.bin").exists() else b""
    with kf3ds.load(path) as scene:
        out = tmp_path / "py"
        out.mkdir()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", kf3ds.GltfWarning)
            assert scene.export_gltf(str(out / "x.gltf")) is None
            assert scene.export_gltf(str(out / "x.glb")) is None
    assert (out / "x.gltf").read_bytes() == want_json
    assert ((out / "x.bin").read_bytes() if (out / "x.bin").exists() else b"") == want_bin
    assert (out / "x.glb").read_bytes() == _tool_output(tmp_path, "x.glb", "export", path,
                                                         "-o", "x.glb", "-q")


@pytest.mark.parametrize("path", FILES)
@pytest.mark.parametrize("fixed", [False, True], ids=["float", "fixed"])
def test_bake_matches_the_command(path, fixed, tmp_path):
    args = ["bake", path, "-o", "x.kfb", "-q"] + (["--fixed"] if fixed else [])
    want = _tool_output(tmp_path, "x.kfb", *args)
    scene = _load(path)
    if want is None:
        if scene is None:
            return
        with scene:
            if scene.num_nodes == 0:
                with pytest.raises(kf3ds.Error):
                    scene.bake(fixed=fixed)
            else:  # the command refuses unsound files; the binding bakes what it loaded
                try:
                    assert isinstance(scene.bake(fixed=fixed), bytes)
                except kf3ds.Error:
                    pass
        return
    assert scene is not None
    with scene:
        assert scene.bake(fixed=fixed) == want


def test_bake_options_match_the_command(tmp_path):
    path = next(p for p in DATA if p.endswith("arm.3ds"))
    with kf3ds.load(path) as scene:
        name = scene.nodes[0].name
        cases = [
            (dict(frames=(0, 10), step=0.5), ["--frames", "0:10", "--step", "0.5"]),
            (dict(frac_bits=12), ["--frac-bits", "12"]),
            (dict(frac_bits="auto"), ["--frac-bits", "auto"]),
            (dict(frac_bits=0), ["--frac-bits", "0"]),
            (dict(meshes=False), ["--no-meshes"]),
            (dict(nodes=[name]), ["--nodes", name]),
            (dict(frames=("1.25", 3)), ["--frames", "1.25:3"]),
        ]
        for kw, args in cases:
            want = _tool_output(tmp_path, "x.kfb", "bake", path, "-o", "x.kfb", "-q", *args)
            assert scene.bake(**kw) == want, kw
        out = tmp_path / "y.kfb"
        assert scene.bake(str(out)) is None
        assert out.read_bytes() == scene.bake()


def test_export_options_match_the_command(tmp_path, monkeypatch):
    path = next(p for p in DATA if p.endswith("arm.3ds"))
    cases = [
        (dict(frames=(0, 20), fps=24, rate=2), ["--frames", "0:20", "--fps", "24", "--rate", "2"]),
        (dict(cubic=True, visibility_ext=True), ["--cubic", "--visibility-ext"]),
        (dict(no_ease=True), ["--no-ease"]),
        (dict(no_animation=True), ["--no-animation"]),
        (dict(embed_images=True), ["--embed-images"]),
        (dict(linear=True), ["--linear"]),
    ]
    with kf3ds.load(path) as scene:
        for kw, args in cases:
            want = _tool_output(tmp_path, "x.glb", "export", path, "-o", "x.glb", "-q", *args)
            monkeypatch.chdir(str(tmp_path))
            assert _quiet_export(scene, **kw) == want, kw


def test_images_from_a_callable_and_warnings():
    path = next(p for p in DATA if p.endswith("textured.3ds"))
    asked = []

    def images(name):
        asked.append(name)
        return None

    with kf3ds.load(path) as scene:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            scene.export_gltf(images=images)
        assert asked
        got = [w.message for w in caught if issubclass(w.category, kf3ds.GltfWarning)]
        assert {w.map for w in got} == set(asked)
        assert all(w.kind == "map_missing" for w in got)
        # a PNG given by a dict goes in
        png = (b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\1\0\0\0\1\x08\x02\0\0\0\x90wS\xde"
               b"\0\0\0\x0cIDATx\x9cc\xf8\xcf\xc0\0\0\x03\x01\x01\0\xc9\xfe\x92\xef"
               b"\0\0\0\0IEND\xaeB`\x82")
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            glb = scene.export_gltf(images={asked[0]: png}, embed_images=True)
        assert png in glb
        assert asked[0] not in [w.message.map for w in caught
                                if issubclass(w.category, kf3ds.GltfWarning)]

        def broken(name):
            raise KeyError(name)

        with pytest.raises(KeyError):
            scene.export_gltf(images=broken)


@pytest.mark.parametrize("kw, exc", [
    (dict(fps=0), ValueError), (dict(fps=-1), ValueError), (dict(fps=float("nan")), ValueError),
    (dict(fps=1e9), ValueError), (dict(rate=0), ValueError), (dict(rate=1001), ValueError),
    (dict(rate=1.5), TypeError), (dict(frames=(5, 1)), ValueError), (dict(frames=5), TypeError),
    (dict(frames=(0.5, 2)), TypeError), (dict(static_frame=float("inf")), ValueError),
    (dict(static_frame="x"), TypeError), (dict(static_frame=1, cubic=True), ValueError),
    (dict(static_frame=1, frames=(0, 2)), ValueError), (dict(images=3), TypeError),
    (dict(binary=2), TypeError), (dict(linear=True, cubic=True), ValueError),
    (dict(linear=2), TypeError),
])
def test_export_bad_arguments_raise(kw, exc):
    with kf3ds.load(DATA[0]) as scene:
        with pytest.raises(exc):
            scene.export_gltf(**kw)


def test_export_bad_path_raises(tmp_path):
    with kf3ds.load(DATA[0]) as scene:
        with pytest.raises(ValueError):
            scene.export_gltf(str(tmp_path / "x.obj"))
        with pytest.raises(ValueError):
            scene.export_gltf(str(tmp_path / "x.glb"), binary=False)
        with pytest.raises(TypeError):
            scene.export_gltf(3)


@pytest.mark.parametrize("kw, exc", [
    (dict(step=0), ValueError), (dict(step=-1), ValueError), (dict(step="x"), ValueError),
    (dict(step=0.0000001), ValueError), (dict(frames=(10, 0)), ValueError),
    (dict(frames=(0, 2**40)), ValueError), (dict(frames=3), TypeError),
    (dict(frac_bits=29), ValueError), (dict(frac_bits=-1), ValueError),
    (dict(frac_bits="x"), TypeError), (dict(nodes=[]), ValueError), (dict(nodes="a"), TypeError),
    (dict(nodes=[3]), TypeError), (dict(fixed=5), TypeError),
])
def test_bake_bad_arguments_raise(kw, exc):
    with kf3ds.load(DATA[0]) as scene:
        with pytest.raises(exc):
            scene.bake(**kw)


def test_bake_errors_raise():
    with kf3ds.load(DATA[0]) as scene:
        with pytest.raises(kf3ds.Error, match="no node is called"):
            scene.bake(nodes=["no such node"])
    static = kf3ds.Builder()
    static.mesh("box", [(0, 0, 0), (1, 0, 0), (0, 1, 0)], [(0, 1, 2)])
    with static.finish() as scene:
        with pytest.raises(kf3ds.Error, match="static"):
            scene.bake()


def test_closed_scene_raises():
    scene = kf3ds.load(DATA[0])
    scene.close()
    with pytest.raises(kf3ds.Error):
        scene.export_gltf()
    with pytest.raises(kf3ds.Error):
        scene.bake()


def test_bake_tolerance_matches_the_command(tmp_path):
    """tolerance= is kf3ds bake --tolerance: the same step chosen (data/arm.3ds: 1e-4 takes
    step 0.125, docs/kfb.md), the same bytes; bake_between is --between's measure."""
    path = next(p for p in DATA if p.endswith("arm.3ds"))
    with kf3ds.load(path) as scene:
        for tol in ("1e-4", "1e-3"):
            want = _tool_output(tmp_path, "x.kfb", "bake", path, "-o", "x.kfb", "-q",
                                "--tolerance", tol)
            assert scene.bake(tolerance=float(tol)) == want, tol
        m = scene._bake_info["between"]
        assert 0 < m["worst"] <= 1e-3
        assert scene._bake_info["frame_step"] / scene._bake_info["frame_scale"] == 0.5
        assert scene.bake_between(step=0.5) == m
        assert scene.bake_between(step=0.25)["worst"] > 1e-4 > scene.bake_between(
            step=0.125)["worst"]
        with pytest.raises(kf3ds.Error, match="more than 6 decimals"):
            scene.bake(tolerance=1e-9)
        for bad in (0, 1, -1e-4, float("nan")):
            with pytest.raises(ValueError):
                scene.bake(tolerance=bad)
        for bad in ("1e-4", True, [1e-4]):
            with pytest.raises(TypeError):
                scene.bake(tolerance=bad)

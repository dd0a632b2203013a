"""scene.save() gives the bytes `kf3ds rewrite FILE -o OUT` writes, for every
sample and corpus file, and the options give those of rewrite's options."""
import os

import pytest

from conftest import corpus_params, data_params, run_tool, ROOT

import kf3ds


def _rewrite(path, tmp_path, *opts):
    out = tmp_path / "out.3ds"
    r = run_tool("rewrite", path, "-o", str(out), "-q", *opts)
    return out.read_bytes() if r.returncode == 0 and out.exists() else None


def _check(path, tmp_path, options=True):
    theirs = _rewrite(path, tmp_path)
    try:
        s = kf3ds.load(path)
    except kf3ds.Error:
        assert theirs is None
        return
    with s:
        ours = s.save()
        assert theirs is not None
        assert ours == theirs
        dest = tmp_path / "ours.3ds"
        assert s.save(dest) is None
        assert dest.read_bytes() == theirs
        if options:
            assert s.save(canonical=True) == _rewrite(path, tmp_path, "--canonical")
            assert s.save(drop_unknown=True) == _rewrite(path, tmp_path, "--drop-unknown")
            assert s.save(keyframer=False) == _rewrite(path, tmp_path, "--no-keyframer")
            assert s.save(segment=(2, 9)) == _rewrite(path, tmp_path, "--frames", "2:9")
    with kf3ds.load(ours) as again:
        assert again.num_nodes == kf3ds.load(theirs).num_nodes


@pytest.mark.parametrize("path", data_params())
def test_save_equals_rewrite_data(path, tmp_path):
    _check(path, tmp_path)


@pytest.mark.parametrize("path", corpus_params())
def test_save_equals_rewrite_corpus(path, tmp_path):
    _check(path, tmp_path, options=False)


def test_lossless_save_of_samples():
    for name in ("arm.3ds", "orrery.3ds", "edge.3ds", "textured.3ds"):
        with open(os.path.join(ROOT, "data", name), "rb") as f:
            data = f.read()
        with kf3ds.load(data) as s:
            assert s.save(repair=False) == data


def test_save_argument_errors(tmp_path):
    with kf3ds.load(os.path.join(ROOT, "data", "arm.3ds")) as s:
        with pytest.raises(TypeError):
            s.save(12)
        with pytest.raises(TypeError):
            s.save(segment=5)
        with pytest.raises(ValueError):
            s.save(segment=(9, 2))
        with pytest.raises(OSError):
            s.save(tmp_path / "no-such-dir" / "x.3ds")
        assert not (tmp_path / "no-such-dir").exists()

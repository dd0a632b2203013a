"""Bad inputs raise kf3ds.Error or TypeError, never crash: not 3DS, cut files
at every length, damaged bytes, wrong argument types, closed scenes."""
import os
import random

import pytest

from conftest import ROOT

import kf3ds

ARM = os.path.join(ROOT, "data", "arm.3ds")


def _data():
    with open(ARM, "rb") as f:
        return f.read()


def test_not_3ds():
    for data in (b"", b"\x00", b"hello", b"hello world, this is text\n" * 20, b"\xff" * 100):
        with pytest.raises(kf3ds.Error) as e:
            kf3ds.load(data)
        assert e.value.code is not None and e.value.message
        assert isinstance(e.value.offset, int) and isinstance(e.value.chunk, int)
        assert e.value.diagnostic.severity == "error"


def test_missing_file(tmp_path):
    with pytest.raises(kf3ds.Error) as e:
        kf3ds.load(tmp_path / "nothing.3ds")
    assert "cannot open" in str(e.value)
    assert isinstance(e.value.__cause__, OSError)


def test_wrong_types():
    for bad in (None, 12, 1.5, ["a"], object()):
        with pytest.raises(TypeError):
            kf3ds.load(bad)
    with pytest.raises(TypeError):
        kf3ds.load(_data(), max_nodes="many")
    with pytest.raises(ValueError):
        kf3ds.load(_data(), max_nodes=-1)


def test_cut_at_every_length():
    data = _data()
    for n in range(len(data)):
        try:
            s = kf3ds.load(data[:n])
        except kf3ds.Error:
            assert n < 6
            continue
        with s:
            assert not s.ok and s.truncated
            s.eval([0, 12.5])
            for i in range(s.num_nodes):
                s.vertices(3, i)
            s.meshes
            s.save()
        with pytest.raises(kf3ds.Error):
            kf3ds.load(data[:n], strict=True)


def test_damaged_bytes_never_crash():
    data = bytearray(_data())
    rnd = random.Random(27)
    for _ in range(300):
        d = bytearray(data)
        for _k in range(rnd.randint(1, 8)):
            d[rnd.randrange(len(d))] = rnd.randrange(256)
        try:
            s = kf3ds.load(bytes(d))
        except kf3ds.Error:
            continue
        with s:
            s.eval([0, 7.5, 60])
            for m in s.meshes:
                m.points.sum()
            for i in range(s.num_nodes):
                s.vertices(2.5, i)
            try:
                s.save()
            except kf3ds.Error:
                pass
            s.diagnostics


def test_limits_raise_or_report():
    try:
        s = kf3ds.load(_data(), max_nodes=2)
    except kf3ds.Error as e:
        assert e.code is not None
    else:
        assert not s.ok and s.error is not None


def test_closed_scene():
    s = kf3ds.load(ARM)
    s.close()
    s.close()  # twice is fine
    assert s.closed
    for use in (lambda: s.nodes, lambda: s.meshes, lambda: s.eval(0), lambda: s.save(),
                lambda: s.vertices(0, 0), lambda: s.segment, lambda: s.diagnostics,
                lambda: s.find_node("Base"), lambda: s.materials, lambda: s.ok):
        with pytest.raises(kf3ds.Error):
            use()
    assert "closed" in repr(s)
    with kf3ds.load(ARM) as t:
        assert t.num_nodes == 10
    with pytest.raises(kf3ds.Error):
        t.eval(0)
    with pytest.raises(kf3ds.Error):
        with t:
            pass

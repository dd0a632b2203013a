"""The ctypes mirrors of include/kf3ds.h have the C layout: a small C program,
compiled here against the header, prints sizeof and the offset of every field
of every mirrored struct, which must equal ctypes' numbers."""
import ctypes
import os
import shutil
import subprocess

import pytest

from conftest import ROOT

from kf3ds import _structs as S


def _c_program():
    lines = ["#include <stddef.h>", "#include <stdio.h>", '#include "kf3ds.h"',
             '#include "kf3ds_gltf.h"', '#include "kf3ds_bake.h"',
             "int main(void) {"]
    for cls, cname in S.C_NAMES.items():
        lines.append('printf("%s %%zu\\n", sizeof(%s));' % (cname, cname))
        for field, _t in cls._fields_:
            lines.append('printf("%s.%s %%zu\\n", offsetof(%s, %s));'
                         % (cname, field, cname, field))
    lines.append("return 0; }")
    return "\n".join(lines) + "\n"


def _expected():
    out = {}
    for cls, cname in S.C_NAMES.items():
        out[cname] = ctypes.sizeof(cls)
        for field, _t in cls._fields_:
            out["%s.%s" % (cname, field)] = getattr(cls, field).offset
    return out


def test_every_struct_matches_the_header(tmp_path):
    cc = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if not cc or not shutil.which(cc.split()[0]):
        pytest.skip("no C compiler to check the struct layouts with")
    src = tmp_path / "layout.c"
    exe = tmp_path / "layout"
    src.write_text(_c_program())
    subprocess.run(cc.split() + ["-std=c99", "-I", os.path.join(ROOT, "include"), "-o",
                                 str(exe), str(src)], check=True)
    got = {}
    for line in subprocess.run([str(exe)], check=True, stdout=subprocess.PIPE,
                               text=True).stdout.splitlines():
        key, value = line.split()
        got[key] = int(value)
    expected = _expected()
    assert got.keys() == expected.keys()
    wrong = {k: (expected[k], got[k]) for k in got if got[k] != expected[k]}
    assert not wrong, "ctypes (python) vs C offsets/sizes: %r" % wrong


def test_all_public_structs_are_mirrored():
    """Every struct typedef of kf3ds.h, kf3ds_gltf.h and kf3ds_bake.h but the opaque
    builder and the chunk walker (not used by the binding) has a mirror, so a new one
    is not forgotten."""
    import re
    declared = set()
    for h in ("kf3ds.h", "kf3ds_gltf.h", "kf3ds_bake.h"):
        header = open(os.path.join(ROOT, "include", h)).read()
        declared |= set(re.findall(r"typedef struct (kf3ds_\w+) \{", header))
    mirrored = set(S.C_NAMES.values())
    unmirrored = declared - mirrored - {"kf3ds_reader", "kf3ds_chunk"}
    assert not unmirrored, "structs of kf3ds.h without a ctypes mirror: %s" % unmirrored

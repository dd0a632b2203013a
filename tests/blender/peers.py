"""Two other readers of a written .3ds, for check_export.py: lib3ds 1.3 (through
tests/blender/lib3ds_eval.c, built as build/blender/lib3ds-eval) and assimp
(its `assimp export -fassjson` dump, Debian's assimp-utils). Plain Python and
numpy, no bpy, so that each reader's numbers come from that reader alone.

assimp's dump holds each node's raw keys as assimp made them. Its 3DS importer
multiplies each relative rotation key on the other side, Q_k = Q_(k-1) . q_k,
where 3DS (and lib3ds 1.3, and kf3ds) accumulate Q_k = q_k . Q_(k-1)
(docs/evaluation.md, "Accumulation"). assimp_nodes() therefore gives both:
the orientation assimp reports, and the one its keys mean once accumulated in
3DS's order (the increments recovered from assimp's own consecutive keys).
The dump prints 6 significant digits, so re-accumulating costs about 1e-6 per
key."""
import json
import os
import shutil
import subprocess

import numpy as np


def lib3ds_eval(tool, path, frames):
    """{frame: {name: node dict}} from lib3ds-eval, or None (with the reason)
    when the tool is missing or lib3ds cannot load the file."""
    if not tool or not os.path.exists(tool):
        return None, "no lib3ds-eval (lib3ds-dev missing)"
    r = subprocess.run([tool, path] + ["%d" % f for f in frames],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if r.returncode:
        return None, "lib3ds-eval failed: " + r.stderr.decode(errors="replace").strip()
    data = json.loads(r.stdout.decode())
    return {int(round(fr["frame"])): {n["name"]: n for n in fr["nodes"]}
            for fr in data["frames"]}, None


def _qmul(a, b):
    """Hamilton product of (w, x, y, z) quaternions."""
    aw, ax, ay, az = a
    bw, bx, by, bz = b
    return np.array([aw * bw - ax * bx - ay * by - az * bz,
                     aw * bx + ax * bw + ay * bz - az * by,
                     aw * by - ax * bz + ay * bw + az * bx,
                     aw * bz + ax * by - ay * bx + az * bw])


def _qconj(a):
    return np.array([a[0], -a[1], -a[2], -a[3]])


def _qmat(q):
    w, x, y, z = np.asarray(q, dtype=np.float64) / np.linalg.norm(q)
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def _at(keys, f):
    """The key on frame f (the exporter keys every whole frame), else the last
    key before it (a constant track keeps one key)."""
    best = keys[0][1]
    for t, v in keys:
        if t <= f + 1e-6:
            best = v
    return best


def _rot_keys(raw, fixed):
    """assimp's rotation keys as (w, x, y, z); with fixed, re-accumulated in
    3DS's order from the increments assimp's order implies."""
    qs = [np.array(v, dtype=np.float64) for _, v in raw]
    if not fixed or len(qs) < 2:
        return [(t, q) for (t, _), q in zip(raw, qs)]
    out = [qs[0]]
    for k in range(1, len(qs)):
        inc = _qmul(_qconj(qs[k - 1]), qs[k])   # assimp: Q_k = Q_(k-1) . q_k
        out.append(_qmul(inc, out[-1]))         # 3DS:    Q_k = q_k . Q_(k-1)
    return [(t, q) for (t, _), q in zip(raw, out)]


def assimp_dump(path, workdir):
    """assimp's JSON dump of the file, or None (with the reason)."""
    exe = shutil.which("assimp")
    if not exe:
        return None, "no assimp command (assimp-utils)"
    out = os.path.join(workdir, os.path.basename(path) + ".assimp.json")
    r = subprocess.run([exe, "export", path, out, "-fassjson"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if r.returncode or not os.path.exists(out):
        return None, "assimp cannot read it: " + r.stdout.decode(errors="replace")[-200:]
    with open(out) as f:
        return json.load(f), None


def assimp_world_vertices(dump, frame, fixed):
    """{node name: world vertices} at a whole frame from assimp's node tree,
    its meshes (pivot and mesh matrix already applied by assimp) and its
    channels; the root's Z-up to Y-up turn is left out so that the numbers are
    in the file's space."""
    chans = {}
    for anim in dump.get("animations", []):
        for c in anim["channels"]:
            chans[c["name"]] = c
    meshes = dump.get("meshes", [])
    out = {}

    def local(node):
        c = chans.get(node["name"])
        if c is None:
            return np.array(node["transformation"], dtype=np.float64).reshape(4, 4)
        m = np.eye(4)
        if c.get("rotationkeys"):
            m[:3, :3] = _qmat(_at(_rot_keys(c["rotationkeys"], fixed), frame))
        if c.get("scalingkeys"):
            m[:3, :3] = m[:3, :3] @ np.diag(_at(c["scalingkeys"], frame))
        if c.get("positionkeys"):
            m[:3, 3] = _at(c["positionkeys"], frame)
        return m

    def walk(node, parent):
        w = parent @ local(node)
        pts = [np.array(meshes[i]["vertices"], dtype=np.float64).reshape(-1, 3)
               for i in node.get("meshes", [])]
        if pts:
            p = np.concatenate(pts)
            out[node["name"]] = p @ w[:3, :3].T + w[:3, 3]
        for ch in node.get("children", []):
            walk(ch, w)

    for ch in dump["rootnode"].get("children", []):
        walk(ch, np.eye(4))
    return out


def hausdorff(a, b):
    """Largest distance from a point of either set to the other set: assimp
    gives every face corner its own vertex, so points are matched as sets."""
    d = np.linalg.norm(a[:, None, :] - b[None, :, :], axis=2)
    return max(float(d.min(axis=1).max()), float(d.min(axis=0).max()))

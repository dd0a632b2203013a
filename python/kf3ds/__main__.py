"""python -m kf3ds info FILE | eval FILE --frame F [--frame F ...] [--json] [--verts] [--no-ease]
   | export FILE -o OUT.glb|OUT.gltf [...] | bake FILE -o OUT.kfb [...] (_main_write.py)

The same output as the `kf3ds info` and `kf3ds eval` commands (docs/output.md),
made through this binding: `eval --json` byte for byte. Exit status 0 success,
1 the file could not be read or has an error (what could be read is still
printed), 2 wrong usage.
"""
import math
import os
import re
import sys

import kf3ds
from kf3ds import _structs as S
from kf3ds._lib import lib as clib

EXIT_OK, EXIT_INPUT, EXIT_USAGE = 0, 1, 2


def _b(s):
    return s.encode("utf-8", "surrogateescape") if isinstance(s, str) else (s or b"")


def _utf8_len(p, i):
    """Length of the valid UTF-8 sequence at p[i] and its code point, or (0, 0)."""
    c0 = p[i]
    if 0xC2 <= c0 <= 0xDF:
        n, c = 2, c0 & 0x1F
    elif 0xE0 <= c0 <= 0xEF:
        n, c = 3, c0 & 0x0F
    elif 0xF0 <= c0 <= 0xF4:
        n, c = 4, c0 & 0x07
    else:
        return 0, 0
    if len(p) - i < n:
        return 0, 0
    for k in range(1, n):
        if p[i + k] & 0xC0 != 0x80:
            return 0, 0
        c = (c << 6) | (p[i + k] & 0x3F)
    if (n == 3 and c < 0x800) or (n == 4 and c < 0x10000) or c > 0x10FFFF or \
            0xD800 <= c <= 0xDFFF:
        return 0, 0
    return n, c


def json_string(p):
    """cli_json_string: bytes in, the JSON string's bytes out."""
    p = _b(p)
    out = bytearray(b'"')
    i = 0
    while i < len(p):
        c = p[i]
        if c in (0x22, 0x5C):
            out += b"\\" + bytes([c])
        elif c == 0x0A:
            out += b"\\n"
        elif c == 0x09:
            out += b"\\t"
        elif c == 0x0D:
            out += b"\\r"
        elif c < 0x20 or c == 0x7F:
            out += b"\\u%04x" % c
        elif c < 0x80:
            out.append(c)
        else:
            n, _ = _utf8_len(p, i)
            if n:
                out += p[i:i + n]
                i += n
                continue
            out += b"\\u%04x" % c
        i += 1
    out += b'"'
    return bytes(out)


def json_number(v):
    """cli_json_number: %.9g, null for NaN and infinities."""
    v = float(v)
    if math.isnan(v) or math.isinf(v):
        return b"null"
    return b"%.9g" % v


def json_number_exact(v):
    """cli_json_number_exact: the shortest %.Ng (N >= 9) that reads back as v."""
    v = float(v)
    if math.isnan(v) or math.isinf(v):
        return b"null"
    for prec in range(9, 17):
        s = b"%.*g" % (prec, v)
        if float(s) == v:
            return s
    return b"%.17g" % v


def text_string(p):
    """cli_text_string: printable ASCII and valid UTF-8 as is, other bytes \\xHH."""
    p = _b(p)
    out = bytearray()
    i = 0
    while i < len(p):
        c = p[i]
        if c == 0x5C:
            out += b"\\\\"
        elif 0x20 <= c < 0x7F:
            out.append(c)
        else:
            n, cp = (_utf8_len(p, i) if c >= 0x80 else (0, 0))
            if n and not (0x80 <= cp <= 0x9F) and cp not in (0x2028, 0x2029) and \
                    not (0x202A <= cp <= 0x202E) and not (0x2066 <= cp <= 0x2069):
                out += p[i:i + n]
                i += n
                continue
            out += b"\\x%02X" % c
        i += 1
    return bytes(out)


def text_name(s):
    """cli_text_name: quoted when empty or holding spaces, quotes, parentheses..."""
    p = _b(s)
    quote = not p or any(c <= 0x20 or c in b'"()\\' or c == 0x7F for c in p)
    if not quote:
        return text_string(p)
    return b'"' + b'\\"'.join(text_string(part) for part in p.split(b'"')) + b'"'


def text_float(v):
    """cli_text_float then %g."""
    v = float(v)
    if math.isnan(v):
        return b"nan"
    return b"%g" % (0.0 if v == 0 else v)


def g(v):
    return b"%g" % float(v)


def plural(n, one, many):
    return one if n == 1 else many


# ---------------------------------------------------------------------------
# Messages on standard error


class _Ctx:
    quiet = False


def _file_label(file):
    return text_string(_b(file))


def print_error(file, msg):
    sys.stdout.flush()
    sys.stderr.buffer.write(b"kf3ds: " + _file_label(file) + b": " + text_string(_b(msg)) + b"\n")
    sys.stderr.flush()


def usage_error(verb, msg):
    sys.stdout.flush()
    w = sys.stderr.buffer
    w.write(b"kf3ds: " + (verb.encode() + b": " if verb else b"") + text_string(_b(msg)))
    w.write((b" (see 'kf3ds help %s')\n" % verb.encode()) if verb else b" (see 'kf3ds --help')\n")
    sys.stderr.flush()
    return EXIT_USAGE


def diag_where(d):
    if d.chunk or d.chunk_name:
        return b"offset %d, chunk 0x%04X " % (d.offset, d.chunk) + text_string(
            _b(d.chunk_name or "?")) + b": "
    if d.offset:
        return b"offset %d: " % d.offset
    return b""


def print_diag(file, d, as_error=False):
    err = as_error or d.is_error
    if not err and _Ctx.quiet:
        return
    sys.stdout.flush()
    msg = _b(d.message)
    sys.stderr.buffer.write((b"kf3ds: " if err else b"kf3ds: warning: ") + _file_label(file) +
                            b": " + diag_where(d) + (text_string(msg) if msg else
                                                     _b(d.status)) + b"\n")
    sys.stderr.flush()


def is_truncation(scene, d):
    return scene.truncated and d.offset == 0 and d.code == S.WARN_OVERRUN and \
        clib.kf3ds_chunk_is_root(d.chunk)


def report_load(file, scene):
    """cli_report_load: the diagnostics on standard error; the exit status."""
    printed_error = False
    for d in scene.diagnostics:
        if is_truncation(scene, d):
            print_error(file, "truncated: the file ends before its root chunk does")
            continue
        print_diag(file, d)
        printed_error |= d.is_error
    if scene.dropped_diagnostics and not _Ctx.quiet:
        n = scene.dropped_diagnostics
        sys.stderr.buffer.write(b"kf3ds: warning: " + _file_label(file) + b": %d more %s not shown\n"
                                % (n, plural(n, b"diagnostic", b"diagnostics")))
    if scene.error is not None and not printed_error:
        print_diag(file, scene.error, True)
    return EXIT_OK if scene.ok else EXIT_INPUT


def load(file):
    """Reads FILE ("-": standard input) and loads it; (scene, None) or (None, status)."""
    try:
        if file == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(file, "rb") as f:
                data = f.read()
    except OSError as e:
        print_error(file, "cannot open: %s" % (e.strerror or e))
        return None, EXIT_INPUT
    if len(data) < 6 or not clib.kf3ds_chunk_is_root(data[0] | data[1] << 8):
        print_error(file, "not a 3DS file")
        return None, EXIT_INPUT
    try:
        return kf3ds.load(data, name=file, keep_source=False), data
    except kf3ds.Error as e:
        print_diag(file, e.diagnostic, True) if e.diagnostic else print_error(file, e.message)
        return None, EXIT_INPUT


# ---------------------------------------------------------------------------
# eval

_FLOAT = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\Z")
_HEX = re.compile(r"[+-]?0[xX]([0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)([pP][+-]?\d+)?\Z")


def parse_frame(s):
    """cli_parse_frame (strtod): a finite decimal or hexadecimal number, or None."""
    t = s.lstrip(" \t\n\v\f\r")
    try:
        if _FLOAT.match(t):
            v = float(t)
        elif _HEX.match(t):
            v = float.fromhex(t if "p" in t.lower() else t + "p0")
        else:
            return None
    except (ValueError, OverflowError):
        return None
    return v if math.isfinite(v) else None


class _Args:
    def __init__(self, verb, argv):
        self.verb, self.argv, self.i, self.file, self.no_more = verb, argv, -1, None, False

    def next_option(self):
        while True:
            self.i += 1
            if self.i >= len(self.argv):
                break
            s = self.argv[self.i]
            if not self.no_more and s.startswith("-") and s != "-":
                if s != "--":
                    return 1
                self.no_more = True
            elif self.file is not None:
                usage_error(self.verb, "more than one FILE ('%s' and '%s')" % (self.file, s))
                return -1
            else:
                self.file = s
        if self.file is None:
            usage_error(self.verb, "no FILE given")
            return -1
        return 0

    def option(self):
        return self.argv[self.i]

    def value(self, name):
        s = self.argv[self.i]
        if not s.startswith(name):
            return 0, None
        rest = s[len(name):]
        if rest.startswith("="):
            return 1, rest[1:]
        if rest:
            return 0, None
        if self.i + 1 >= len(self.argv):
            return -1, None
        self.i += 1
        return 1, self.argv[self.i]


def eval_json(out, file, scene, frames, verts, no_ease):
    nodes = scene.nodes
    worlds = scene.eval(frames, no_ease=no_ease) if frames else None
    w = out.write
    w(b'{"file": ' + json_string(_b(file)) + b',\n "frames": [')
    for f, frame in enumerate(frames):
        w((b",\n  {\"frame\": " if f else b"\n  {\"frame\": ") + json_number_exact(frame) +
          b', "nodes": [')
        for i, n in enumerate(nodes):
            w(b",\n    " if i else b"\n    ")
            w(b'{"index": %d, "id": %d, "name": ' % (i, n.id) + json_string(_b(n.name)))
            if n.instance is not None:
                w(b', "instance": ' + json_string(_b(n.instance)))
            parent = n.parent if 0 <= n.parent < len(nodes) else -1
            w(b', "type": ' + json_string(_b(n.type)) + b', "parent": %d, "world": [' % parent)
            w(b", ".join(json_number(x) for x in worlds[f, i].reshape(16).tolist()))
            w(b"]")
            if verts:
                v = scene.vertices(frame, i, no_ease=no_ease)
                if v is not None:
                    w(b',\n     "verts": [')
                    w(b", ".join(b"[" + b", ".join(json_number(x) for x in p) + b"]"
                                 for p in v.tolist()))
                    w(b"]")
            w(b"}")
        w(b"]}")
    w(b"]}\n")


def eval_text(out, scene, frames, verts, no_ease):
    nodes = scene.nodes
    w = out.write
    for f, frame in enumerate(frames):
        worlds = scene.eval(frame, no_ease=no_ease)
        poses = scene.poses(frame, no_ease=no_ease)
        w((b"\n" if f else b"") + b"frame %.9g\n" % frame)
        if not nodes:
            w(b"  (no keyframer nodes)\n")
        for i, n in enumerate(nodes):
            parent = n.parent if 0 <= n.parent < len(nodes) else -1
            w(b"  " + node_label(n) + b" parent %d%s\n" % (
                parent, b" hidden" if poses[i]["hidden"] else b""))
            for r in range(4):
                w(b"      %s %s\n" % (b"     " if r else b"world", b" ".join(
                    b"%12.6g" % _tf(x) for x in worlds[i, r].tolist())))
            if verts:
                v = scene.vertices(frame, i, no_ease=no_ease)
                if v is not None:
                    w(b"      verts %d\n" % len(v))
                    for k, p in enumerate(v.tolist()):
                        w(b"      %6d %12.6g %12.6g %12.6g\n" % (k, _tf(p[0]), _tf(p[1]),
                                                               _tf(p[2])))


def _tf(v):
    return abs(v) if math.isnan(v) else (0.0 if v == 0 else v)


def node_label(n):
    s = b"[%d] %s " % (n.index, _b(n.type)) + text_name(n.name)
    if n.instance is not None:
        s += b" (" + text_name(n.instance) + b")"
    if n.has_node_id:
        s += b" id %d" % n.id
    return s


def cmd_eval(argv):
    a = _Args("eval", argv)
    frames, js, verts, no_ease = [], False, False, False
    while True:
        r = a.next_option()
        if r <= 0:
            break
        opt = a.option()
        if opt == "--json":
            js = True
        elif opt == "--verts":
            verts = True
        elif opt == "--no-ease":
            no_ease = True
        elif opt in ("-q", "--quiet"):
            _Ctx.quiet = True
        else:
            got, value = a.value("--frame")
            if got < 0:
                return usage_error("eval", "--frame needs a number")
            if got == 0:
                return usage_error("eval", "unknown option '%s'" % opt)
            v = parse_frame(value)
            if v is None:
                return usage_error("eval", "--frame '%s' is not a finite number" % value)
            frames.append(v)
    if r < 0:
        return EXIT_USAGE
    if not frames:
        return usage_error("eval", "at least one --frame F is needed")
    scene, status = load(a.file)
    if scene is None:
        return status
    with scene:
        out = sys.stdout.buffer
        if js:
            eval_json(out, a.file, scene, frames, verts, no_ease)
        else:
            eval_text(out, scene, frames, verts, no_ease)
        out.flush()
        return report_load(a.file, scene)


# ---------------------------------------------------------------------------
# info


def _vec3(v):
    return b"(" + b", ".join(text_float(x) for x in v) + b")"


def print_node(w, scene, n, depth):
    d = min(depth, 40)
    line = b"  " + b" " * (2 * d)
    if depth > 40:
        line += b"(depth %d) " % depth
    line += node_label(n)
    if n.flags1 & 0x800:
        line += b" hidden"
    if n.type == "object" and not n.is_dummy and n.mesh == -1:
        line += b" no-mesh"
    if n.type == "object":
        line += b" pivot " + _vec3(n.pivot)
    line += b":"
    loops = (None, b"wrap", b"repeat", b"loop")
    anyk = False
    for kind in S.TRACK_NAMES:
        t = n.tracks.get(kind)
        if t is None:
            continue
        anyk = True
        line += b" %s %d" % (kind.encode(), len(t))
        multi = kind == "rot" and any(
            abs(float(t.values[k, 0])) >= math.pi and any(float(x) != 0 for x in t.values[k, 1:])
            for k in range(1, len(t)))
        lp = loops[t.flags & 3]
        if multi or lp:
            line += b" (" + (b"multi-turn" if multi else b"") + (
                b", " if multi and lp else b"") + (lp or b"") + b")"
    if not anyk:
        line += b" no keys"
    w(line + b"\n")


def print_tree(w, scene, nodes):
    n = len(nodes)
    parent = [nd.parent if 0 <= nd.parent < n and nd.parent != i else -1
              for i, nd in enumerate(nodes)]
    children = [[] for _ in range(n)]
    for i in range(n):
        if parent[i] >= 0:
            children[parent[i]].append(i)
    seen = [False] * n
    for i in range(n):
        if parent[i] >= 0:
            continue
        stack = [(i, 0)]
        while stack:
            cur, depth = stack.pop()
            print_node(w, scene, nodes[cur], depth)
            seen[cur] = True
            stack.extend((c, depth + 1) for c in reversed(children[cur]))
    if not all(seen):
        w(b"  nodes in a parent cycle:\n")
        for i in range(n):
            if not seen[i]:
                print_node(w, scene, nodes[i], 1)


def print_diag_list(w, scene):
    diags = scene.diagnostics
    nerr = sum(1 for d in diags if d.is_error or is_truncation(scene, d))
    nwarn = len(diags) - nerr
    if scene.error is not None and nerr == 0:
        nerr = 1
    line = b"diagnostics: %d %s, %d %s" % (nerr, plural(nerr, b"error", b"errors"), nwarn,
                                            plural(nwarn, b"warning", b"warnings"))
    if scene.dropped_diagnostics:
        line += b" (+%d not stored)" % scene.dropped_diagnostics
    w(line + b"\n")
    err_listed = False
    for d in diags + ([scene.error] if scene.error is not None else []):
        is_err = d is scene.error and d not in diags
        if is_err and err_listed:
            break
        if not is_err:
            err_listed |= d.is_error
            if is_truncation(scene, d):
                w(b"  error: offset 0, chunk 0x%04X " % d.chunk + text_string(_b(d.chunk_name)) +
                  b": truncated: the file ends before its root chunk does\n")
                continue
        w(b"  %s: " % (b"error" if d.is_error or is_err else b"warning") + diag_where(d) +
          text_string(_b(d.message)) + b"\n")


def map_find(dirs, stored):
    base = re.split(r"[/\\:]", stored)[-1]
    if not base:
        return None
    for d in dirs:
        p = d + "/" + base  # the stored spelling first, as the command does
        try:
            with open(p, "rb"):
                return p
        except OSError:
            pass
        try:
            names = os.listdir(d)
        except OSError:
            continue
        for name in names:
            if name.lower() == base.lower():
                return d + "/" + name
    return None


def print_maps(w, scene, dirs):
    listed = False
    for m in scene.materials:
        parts = []
        for kind in S.MAP_NAMES:
            t = m.maps.get(kind)
            if t is None:
                continue
            parts.append(print_map(dirs, kind, t.file))
        if parts:
            w(b"  [%d] " % m.index + text_name(m.name) + b":" + b";".join(parts) + b"\n")
            listed = True
    env = scene._s().environment
    bitmap = kf3ds._scene._str(env.bitmap) or ""
    if listed or (env.background == 1 and bitmap):
        w(b"  maps looked for in " + b", ".join(text_string(_b(d)) for d in dirs) + b"\n")
    if env.background == 0 and env.atmosphere == 0:
        return
    line = b"environment: background " + (b"none", b"bitmap", b"solid", b"gradient")[
        env.background & 3]
    if env.background == 2:
        line += b" " + _vec3(env.solid)
    elif env.background == 1 and bitmap:
        line += b"," + print_map(dirs, "bitmap", bitmap)
    w(line + b", atmosphere " + (b"none", b"fog", b"layer fog", b"distance cue")[
        env.atmosphere & 3] + b"\n")


def print_map(dirs, kind, name):
    path = map_find(dirs, name)
    return b" " + kind.encode() + b" " + text_name(name) + (
        b" found " + text_string(_b(path)) if path else b" missing")


def cmd_info(argv):
    a = _Args("info", argv)
    given = []
    while True:
        r = a.next_option()
        if r <= 0:
            break
        opt = a.option()
        if opt in ("-q", "--quiet"):
            _Ctx.quiet = True
            continue
        got, value = a.value("--maps")
        if got == 0:
            return usage_error("info", "unknown option '%s'" % opt)
        if got < 0 or not value:
            return usage_error("info", "--maps needs a folder")
        given.append(value)
    if r < 0:
        return EXIT_USAGE
    file = a.file
    scene, data = load(file)
    if scene is None:
        return data
    with scene:
        out = sys.stdout.buffer
        w = out.write
        w(b"file: " + text_string(_b(file)) + b" (%d %s)\n" % (len(data), plural(
            len(data), b"byte", b"bytes")))
        w(b"version: %d, mesh version %d, master scale %s\n" % (
            scene.version, scene.mesh_version, g(scene.master_scale)))
        meshes = scene.meshes
        verts = sum(len(m.points) for m in meshes)
        faces = sum(len(m.faces) for m in meshes)
        w(b"meshes: %d (%d %s, %d %s)\n" % (len(meshes), verts, plural(
            verts, b"vertex", b"vertices"), faces, plural(faces, b"face", b"faces")))
        w(b"materials: %d\n" % len(scene.materials))
        slash = file.rfind("/")
        dirs = ["." if file == "-" or slash < 0 else (file[:slash] or "/")] + given
        dirs += [d for d in os.environ.get("KF3DS_MAPS", "").split(":") if d]
        print_maps(w, scene, dirs)
        lights = scene.lights
        w(b"cameras: %d\n" % len(scene.cameras))
        w(b"lights: %d (%d spot)\n" % (len(lights), sum(1 for l in lights if l.spot)))
        w(b"ambient: " + _vec3(scene.ambient) + b"\n")
        if scene.has_keyframer:
            line = b"keyframer: revision %d" % scene.keyframer_revision
            if scene.keyframer_filename:
                line += b", file " + text_name(scene.keyframer_filename)
            w(line + b"\n")
            w(b"frames: segment %d..%d, animation length %d, current frame %d\n" % (
                scene.segment + (scene.anim_length, scene.current_frame)))
        else:
            w(b"keyframer: none\n")
        nodes = scene.nodes
        dummies = sum(1 for n in nodes if n.is_dummy)
        w(b"nodes: %d" % len(nodes) + (b" (%d %s)" % (dummies, plural(
            dummies, b"dummy", b"dummies")) if dummies else b"") + b"\n")
        print_tree(w, scene, nodes)
        print_diag_list(w, scene)
        out.flush()
        return report_load(file, scene)


USAGE = """usage: python -m kf3ds info FILE [--maps DIR]... [-q]
       python -m kf3ds eval FILE --frame F [--frame F ...] [--json] [--verts] [--no-ease] [-q]
       python -m kf3ds export FILE -o OUT.glb|OUT.gltf [--fps N] [--rate N] [--frames A:B]
                       [--static-frame F] [--no-animation] [--cubic] [--visibility-ext]
                       [--embed-images] [--no-ease] [-q]
       python -m kf3ds bake FILE -o OUT.kfb [--frames A:B] [--step S] [--fixed]
                       [--frac-bits N|auto] [--nodes NAME,...] [--no-meshes]
                       [--tolerance T] [--between] [-q]

The output of `kf3ds info`, `eval`, `export` and `bake` (docs/output.md), through the Python
binding (docs/python.md); library %s.
"""


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] in ("-h", "--help", "help"):
        sys.stdout.write(USAGE % kf3ds.library_path)
        return EXIT_OK if argv else EXIT_USAGE
    if argv[0] == "--version":
        print("kf3ds %s (python, library %s)" % (kf3ds.__version__, kf3ds.library_version))
        return EXIT_OK
    from kf3ds import _main_write
    verbs = {"info": cmd_info, "eval": cmd_eval, "export": _main_write.cmd_export,
             "bake": _main_write.cmd_bake}
    if argv[0] not in verbs:
        return usage_error(None, "unknown verb '%s' (python -m kf3ds knows info, eval, export "
                           "and bake)" % argv[0])
    return verbs[argv[0]](argv[1:])


if __name__ == "__main__":
    sys.exit(main())

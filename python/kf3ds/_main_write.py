"""`python -m kf3ds export` and `bake`: the command's verbs of the same names
(tools/cmd/cmd_export.c, tools/cmd/cmd_bake.c) through the binding, writing the same
bytes. The options are the command's (docs/gltf.md, docs/kfb.md) except
bake's --c-source, which the binding does not make."""
import sys
import warnings

import kf3ds
from kf3ds import __main__ as M

_EXPORT_FLAGS = {"--no-animation": "no_animation", "--cubic": "cubic",
                 "--visibility-ext": "visibility_ext", "--embed-images": "embed_images",
                 "--no-ease": "no_ease"}


def _parse_int(s, lo, hi):
    try:
        v = int(s, 10)
    except (TypeError, ValueError):
        return None
    return v if lo <= v <= hi and s.strip() == s else None


def _load_sound(file):
    """cli_load_sound: the scene, or (None, status) after saying why. A path is
    loaded as a path so that export finds texture maps beside it."""
    scene, data = M.load(file)
    if scene is None:
        return None, data
    if file != "-":
        scene.close()
        try:
            scene = kf3ds.load(file, name=file, keep_source=False)
        except kf3ds.Error as e:
            M.print_diag(file, e.diagnostic, True) if e.diagnostic else M.print_error(
                file, e.message)
            return None, M.EXIT_INPUT
    status = M.report_load(file, scene)
    if status != M.EXIT_OK:
        scene.close()
        return None, status
    return scene, M.EXIT_OK


def cmd_export(argv):
    verb = "export"
    a = M._Args(verb, argv)
    out, kw, quiet = None, {}, False
    has = set()
    while True:
        r = a.next_option()
        if r <= 0:
            break
        opt = a.option()
        if opt in _EXPORT_FLAGS:
            kw[_EXPORT_FLAGS[opt]] = True
            continue
        if opt in ("-q", "--quiet"):
            quiet = M._Ctx.quiet = True
            continue
        for name in ("-o", "--output", "--fps", "--rate", "--frames", "--static-frame"):
            got, value = a.value(name)
            if got:
                break
        if not got:
            return M.usage_error(verb, "unknown option '%s'" % opt)
        if name in ("-o", "--output"):
            if got < 0:
                return M.usage_error(verb, "-o needs a file name (OUT.glb or OUT.gltf)")
            out = value
        elif name == "--fps":
            v = M.parse_frame(value) if got > 0 else None
            if v is None or not v > 0 or v > 100000:
                return M.usage_error(verb, "--fps needs a number above 0 (at most 100000)")
            kw["fps"] = v
        elif name == "--rate":
            v = _parse_int(value, 1, 64) if got > 0 else None
            if v is None:
                return M.usage_error(verb, "--rate needs a whole number of samples per frame "
                                           "from 1 to 64")
            kw["rate"] = v
            has.add("rate")
        elif name == "--frames":
            parts = value.split(":", 1) if got > 0 else []
            ab = [_parse_int(p, -2000000000, 2000000000) for p in parts] if len(parts) == 2 \
                else [None]
            if None in ab or ab[0] > ab[1]:
                return M.usage_error(verb, "--frames needs A:B, whole frames with A <= B")
            kw["frames"] = tuple(ab)
        else:
            v = M.parse_frame(value) if got > 0 else None
            if v is None:
                return M.usage_error(verb, "--static-frame needs a finite number")
            kw["static_frame"] = v
    if r < 0:
        return M.EXIT_USAGE
    file = a.file
    if out is None:
        return M.usage_error(verb, "no output given: -o OUT.glb (or OUT.gltf)")
    low = out.lower()
    if out == "-" or (low.endswith(".glb") and len(out) > 4):
        kw["binary"] = True
    elif low.endswith(".gltf") and len(out) > 5:
        kw["binary"] = False
    else:
        return M.usage_error(verb, "-o '%s': the name must end in .glb or .gltf" % out)
    if "static_frame" in kw and ("frames" in kw or kw.get("cubic") or "rate" in has):
        return M.usage_error(verb, "--static-frame exports one pose: it takes no --frames, "
                                   "--rate or --cubic")
    scene, status = _load_sound(file)
    if scene is None:
        return status
    with scene, warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            data = scene.export_gltf(None if out == "-" else out, **kw)
        except (kf3ds.Error, ValueError, OSError) as e:
            M.print_error(file, getattr(e, "message", None) or str(e))
            return M.EXIT_INPUT
        for w in caught:
            if not quiet and isinstance(w.message, kf3ds.GltfWarning):
                m = w.message
                text = ("texture map '%s' not found beside the file; left out" % m.map
                        if m.kind == "map_missing" else str(m))
                sys.stderr.buffer.write(b"kf3ds: warning: " + M.text_string(M._b(file)) +
                                        b": " + M._b(text) + b"\n")
        if out == "-":
            sys.stdout.buffer.write(data)
        elif not quiet:
            n, me, ch, animated, first, last = scene._gltf_summary
            line = "wrote %s (%d %s, %d %s, %d %s" % (
                out, n, "node" if n == 1 else "nodes", me, "mesh" if me == 1 else "meshes",
                ch, "animation channel" if ch == 1 else "animation channels")
            if animated:
                line += ", frames %.0f..%.0f at %s fps" % (first, last,
                                                            M.g(kw.get("fps", 30)).decode())
            else:
                line += ", the pose at frame %s" % M.g(first).decode()
            sys.stdout.write(line + ")\n")
        sys.stdout.flush()
        return M.EXIT_OK


def _decimal_text(num, scale):
    """cli_print_decimal: num / scale without trailing zeros."""
    sign = "-" if num < 0 else ""
    num = abs(num)
    whole, frac = divmod(num, scale)
    s = sign + str(whole)
    if scale > 1 and frac:
        digits = len(str(scale)) - 1
        s += "." + ("%0*d" % (digits, frac)).rstrip("0")
    return s


def cmd_bake(argv):
    verb = "bake"
    a = M._Args(verb, argv)
    out, kw, quiet, between = None, {}, False, False
    while True:
        r = a.next_option()
        if r <= 0:
            break
        opt = a.option()
        if opt == "--fixed":
            kw["fixed"] = True
            continue
        if opt == "--no-meshes":
            kw["meshes"] = False
            continue
        if opt in ("-q", "--quiet"):
            quiet = M._Ctx.quiet = True
            continue
        if opt == "--between":
            between = True
            continue
        for name in ("-o", "--output", "--frames", "--step", "--frac-bits", "--nodes",
                     "--tolerance"):
            got, value = a.value(name)
            if got:
                break
        if not got:
            if opt.startswith("--c-source"):
                return M.usage_error(verb, "--c-source is the command's alone: use kf3ds bake")
            return M.usage_error(verb, "unknown option '%s'" % opt)
        if got < 0:
            return M.usage_error(verb, {"-o": "-o needs a file name",
                                        "--output": "-o needs a file name",
                                        "--frames": "--frames needs A:B",
                                        "--step": "--step needs a number",
                                        "--frac-bits": "--frac-bits needs a number of bits or "
                                                       "auto",
                                        "--nodes": "--nodes needs NAME,NAME,...",
                                        "--tolerance": "--tolerance needs a fraction of the "
                                                       "extent"}[name])
        if name in ("-o", "--output"):
            out = value
        elif name == "--frames":
            parts = value.split(":")
            if len(parts) != 2:
                return M.usage_error(verb, "--frames '%s': expected A:B, e.g. 0:100" % value)
            kw["frames"] = tuple(parts)
        elif name == "--step":
            kw["step"] = value
        elif name == "--tolerance":
            try:
                kw["tolerance"] = float(value)
            except ValueError:
                kw["tolerance"] = -1.0  # refused below, as the command does
            if not 1e-9 <= kw["tolerance"] <= 0.1:
                return M.usage_error(verb, "--tolerance '%s': a fraction of the scene's extent "
                                     "from 1e-9 to 0.1 (e.g. 1e-4)" % value)
        elif name == "--frac-bits":
            n = "auto" if value == "auto" else _parse_int(value, 0, 31)
            if n is None:
                return M.usage_error(verb, "--frac-bits '%s': 0 to 31, or auto" % value)
            kw["frac_bits"] = n
        else:
            if not value:
                return M.usage_error(verb, "--nodes needs NAME,NAME,...")
            kw["nodes"] = value.split(",")
    if r < 0:
        return M.EXIT_USAGE
    file = a.file
    if out is None:
        return M.usage_error(verb, "say where to write: -o OUT.kfb")
    scene, status = _load_sound(file)
    if scene is None:
        return status
    with scene:
        if not scene.nodes:
            M.print_error(file, "no keyframer nodes: a static model, nothing to bake (a .kfb "
                          "holds keyframer animation; 'kf3ds export' writes a static model)")
            return M.EXIT_INPUT
        try:
            data = scene.bake(**kw)
        except ValueError as e:
            return M.usage_error(verb, str(e))
        except kf3ds.Error as e:
            msg = e.message[len("bake: "):] if e.message.startswith("bake: ") else e.message
            M.print_error(file, msg)
            return M.EXIT_INPUT
        try:
            if out == "-":
                sys.stdout.buffer.write(data)
            else:
                with open(out, "wb") as f:
                    f.write(data)
        except OSError as e:
            M.print_error(out, "cannot write: %s" % (e.strerror or e))
            return M.EXIT_INPUT
        if not quiet and out != "-":
            i = scene._bake_info
            pl = lambda n, one, many: "%d %s" % (n, one if n == 1 else many)
            first, step, scale = i["frame_first"], i["frame_step"], i["frame_scale"]
            sys.stdout.write(
                "wrote %s (%d bytes): %s %s..%s step %s, %s, %s, %s, %s, %s\n" % (
                    out, len(data), pl(i["num_frames"], "frame", "frames"),
                    _decimal_text(first, scale),
                    _decimal_text(first + step * (i["num_frames"] - 1), scale),
                    _decimal_text(step, scale), pl(i["num_nodes"], "node", "nodes"),
                    pl(i["num_channels"], "channel", "channels"),
                    pl(i["num_meshes"], "mesh", "meshes"),
                    pl(i["num_materials"], "material", "materials"),
                    "%d.%d fixed point" % (32 - i["frac_bits"], i["frac_bits"]) if i["fixed"]
                    else "float"))
        if between:
            m = scene._bake_info["between"]
            if m is None:
                m = scene.bake_between(**{k: kw[k] for k in ("step", "frames") if k in kw})
            to = sys.stderr if out == "-" else sys.stdout
            if scene._bake_info["num_frames"] < 2:
                to.write("between frames: one frame baked, nothing between\n")
            else:
                to.write("between frames: linear interpolation of the baked matrices strays up "
                         "to %.3g of the scene's extent (node %d, frame %.6g)\n" % (
                             m["worst"], m["node"], m["frame"]))
        sys.stdout.flush()
        return M.EXIT_OK

"""Rewrites a PNG screenshot as an 8-bit palette PNG, so that docs/ images of
Blender's window stay small (a 1280x800 window is about 600 KB as RGB). Blender
writes no palette PNGs and Debian's Blender has no PIL, hence numpy and zlib.

The palette is the 256 most frequent colours after rounding each channel to
5 bits (a UI is mostly flat colour; the rounding merges anti-aliasing shades);
every pixel takes its nearest palette colour."""
import struct
import zlib

import bpy
import numpy as np


def _chunk(kind, data):
    return (struct.pack(">I", len(data)) + kind + data +
            struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))


def reduce(path):
    img = bpy.data.images.load(path)
    w, h = img.size
    rgba = np.array(img.pixels[:], dtype=np.float32).reshape(h, w, 4)[::-1]
    bpy.data.images.remove(img)
    rgb = np.clip(np.rint(rgba[..., :3] * 255), 0, 255).astype(np.int32).reshape(-1, 3)
    coarse = (rgb >> 3) << 3 | 4
    keys, counts = np.unique(coarse[:, 0] << 16 | coarse[:, 1] << 8 | coarse[:, 2],
                             return_counts=True)
    top = keys[np.argsort(-counts)[:256]]
    pal = np.stack([top >> 16, (top >> 8) & 255, top & 255], axis=1)
    index = np.empty(len(rgb), dtype=np.uint8)
    for a in range(0, len(rgb), 65536):  # nearest colour, in slices to bound memory
        d = ((rgb[a:a + 65536, None, :] - pal[None, :, :]) ** 2).sum(axis=2)
        index[a:a + 65536] = d.argmin(axis=1)
    rows = index.reshape(h, w)
    raw = b"".join(b"\x00" + rows[y].tobytes() for y in range(h))
    data = (b"\x89PNG\r\n\x1a\n" +
            _chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 3, 0, 0, 0)) +
            _chunk(b"PLTE", pal.astype(np.uint8).tobytes()) +
            _chunk(b"IDAT", zlib.compress(raw, 9)) + _chunk(b"IEND", b""))
    with open(path, "wb") as f:
        f.write(data)

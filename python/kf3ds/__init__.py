"""kf3ds: read 3D Studio .3ds files and evaluate their keyframer animation exactly.

A thin ctypes binding over the C library libkf3ds.so (see docs/python.md):

>>> import kf3ds
>>> with kf3ds.load("data/arm.3ds") as scene:
...     worlds = scene.eval([0, 12.5, 30])      # (3, nodes, 4, 4) float32
...     pts = scene.meshes[0].points            # (n, 3) float32, no copy
...     data = scene.save()                     # the .3ds file's bytes
"""
from ._lib import lib as _clib, path as library_path
from ._scene import (Camera, Diagnostic, Error, Light, Material, Mesh, Node, Scene,
                     TextureMap, Track, load)
from ._builder import Builder
from ._export import GltfWarning
from ._structs import NODE_TYPES, TRACK_NAMES, MAP_NAMES

__version__ = "0.1.0"

#: The C library's version string ("0.1.0").
library_version = _clib.kf3ds_version_string().decode()

__all__ = ["load", "Scene", "Builder", "Error", "Diagnostic", "Node", "Mesh", "Material",
           "Camera", "Light", "TextureMap", "Track", "GltfWarning", "NODE_TYPES", "TRACK_NAMES",
           "MAP_NAMES", "library_path", "library_version"]

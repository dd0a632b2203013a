"""The build hook of the kf3ds Python package (the metadata is in pyproject.toml).

Building copies the C library into the package, so that a wheel or an
installed package finds it without KF3DS_LIBRARY: the first of
$KF3DS_LIBRARY, ../build/libkf3ds.so (the source tree's `make`) that exists
is copied to kf3ds/libkf3ds.so. Without either the package is built without
it and finds the library at run time (kf3ds/_lib.py). A wheel that carries the
library is tagged for this platform (py3-none-linux_x86_64): the library is
plain C, not tied to a Python version.
"""
import os
import shutil

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

try:
    from wheel.bdist_wheel import bdist_wheel
except ImportError:  # pragma: no cover - wheel is in python3-wheel
    bdist_wheel = None

HERE = os.path.dirname(os.path.abspath(__file__))


def library():
    env = os.environ.get("KF3DS_LIBRARY")
    for path in ([env] if env else []) + [os.path.join(HERE, "..", "build", "libkf3ds.so")]:
        if path and os.path.exists(path):
            return os.path.realpath(path)
    return None


class BuildPy(build_py):
    def run(self):
        super().run()
        lib = library()
        if lib:
            dest = os.path.join(self.build_lib, "kf3ds", "libkf3ds.so")
            self.mkpath(os.path.dirname(dest))
            shutil.copyfile(lib, dest)
            print("kf3ds: shipping %s as kf3ds/libkf3ds.so" % lib)
        else:
            print("kf3ds: no libkf3ds.so found (run make first, or set KF3DS_LIBRARY); "
                  "the package will look for it at run time")


cmdclass = {"build_py": BuildPy}

if bdist_wheel is not None:
    class BdistWheel(bdist_wheel):
        def get_tag(self):
            python, abi, plat = super().get_tag()
            if not self.root_is_pure:
                python, abi = "py3", "none"
            return python, abi, plat

    cmdclass["bdist_wheel"] = BdistWheel



class BinaryDistribution(Distribution):
    """Carries a native library when one was found: the wheel is then a
    platform wheel with the package in platlib."""

    def has_ext_modules(self):
        return library() is not None


setup(cmdclass=cmdclass, distclass=BinaryDistribution)

"""Compile the linker's resolution modules to C with mypyc, in place.

Linking a revision is pure-Python name resolution; compiled, the same code runs
about twice as fast and gives the same graph. The compiled modules are an
option, never a requirement: impactbot imports them only while the manifest
written here says they were built from the sources now on disk (see
``impactbot/native.py``, which lists the modules), and falls back to the
sources otherwise. So a
machine without a C compiler, or a source edited since the build, runs the
plain modules.

    python build_native.py          build (or rebuild) the compiled modules
    python build_native.py --clean  remove them
"""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import subprocess
import sys
from pathlib import Path

from impactbot.native import COMPILED, MANIFEST, module_name, source_hash

ROOT = Path(__file__).resolve().parent
PACKAGE = ROOT / "impactbot"
BUILD = ROOT / "build" / "native"
GROUP = "impactbot.compiled"  # the shared library holding every compiled module's code (outside the packages compiled)
MODULES = [f"impactbot/{source}" for source in COMPILED]  # as mypyc names them: from ROOT


def clean(package: Path = PACKAGE, build: Path = BUILD) -> None:
    """Remove the compiled modules and the manifest; the plain sources are what run.

    Every extension module in the package goes, not only those ``COMPILED`` lists
    now: one a later version no longer compiles would still be imported before its
    source (the guard watches only the modules listed), with the code of the build
    that made it. The package has no extension module of its own.
    """
    (package / MANIFEST).unlink(missing_ok=True)
    for pattern in ("*.so", "*.pyd"):
        for lib in package.rglob(pattern):
            lib.unlink()
    shutil.rmtree(build, ignore_errors=True)


def build() -> None:
    # imported here: a clean needs neither
    from mypyc.build import mypycify
    from setuptools import Distribution

    clean()
    os.chdir(ROOT)  # mypyc names modules by their paths from here
    said = io.StringIO()
    try:
        with contextlib.redirect_stdout(said):
            extensions = mypycify(MODULES, opt_level="3", group_name=GROUP, target_dir=str(BUILD / "c"))
    finally:
        # mypyc notes each generator it hands on as a list: nothing to act on
        print("".join(line for line in said.getvalue().splitlines(True) if "as list" not in line), end="")
    dist = Distribution({"name": "impactbot-native", "ext_modules": extensions, "script_args": ["-q"]})
    command = dist.get_command_obj("build_ext")
    command.inplace = True
    command.build_temp = str(BUILD / "obj")
    command.parallel = os.cpu_count() or 1
    dist.run_command("build_ext")
    lines = [f"{module_name(s)} {source_hash(str(PACKAGE / s))}\n" for s in COMPILED]
    (PACKAGE / MANIFEST).write_text("".join(lines))
    check()


# links two functions with the compiled modules, in a process of its own (a module
# that cannot be loaded may take its importer down)
CHECK = """
import impactbot.link.python as resolver
from impactbot.extract import extract
from impactbot.link import link

assert resolver.__spec__.origin.endswith(".so"), resolver.__spec__.origin
graph = link({"m.py": extract(b"def f():\\n    pass\\n\\n\\ndef g():\\n    f()\\n", "python")})
assert ("m.py::g", "m.py::f") in {(e.source, e.target) for e in graph.edges}, graph.edges
"""


def check() -> None:
    """Whether the compiled modules load and link: when not, they are removed."""
    env = {**os.environ, "IMPACTBOT_NATIVE": "1"}
    done = subprocess.run([sys.executable, "-c", CHECK], cwd=ROOT, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        lines = (done.stderr or done.stdout).strip().splitlines()
        raise RuntimeError(f"the compiled modules do not work: {lines[-1] if lines else done.returncode}")


def main(argv: list[str]) -> int:
    if argv[1:] == ["--clean"]:
        clean()
        return 0
    try:
        build()
    except (Exception, SystemExit) as exc:  # no compiler, no headers, no mypyc: run the sources
        clean()
        print(f"build_native: not compiled, the plain modules will run ({exc})", file=sys.stderr)
        return 0
    print(f"build_native: compiled {', '.join(module_name(s) for s in COMPILED)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

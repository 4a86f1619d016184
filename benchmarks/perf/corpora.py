"""The source trees the benchmark analyses: a large and a small PyPI project, and the stdlib.

PyPI corpora are fetched once with the running interpreter's pip into
``<work>/downloads`` and read straight from the archive on later runs.
``django`` is Django's source distribution, its tests included: the 2,788
files of a Django checkout, the size the performance targets are set for.
``django-lib`` is its wheel, the library alone (879 files), the headline of
earlier releases. Only the ``.py`` files are kept: they are what impactbot and
the floor both parse.
"""

from __future__ import annotations

import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

NAMES = ("django", "django-lib", "small", "stdlib")
PIP_TIMEOUT_SECONDS = 600


class CorpusError(Exception):
    """A corpus could not be fetched or read."""


@dataclass(frozen=True, slots=True)
class PypiProject:
    project: str
    version: str
    source: bool = False  # the sdist (with tests) instead of the wheel

    @property
    def requirement(self) -> str:
        return f"{self.project}=={self.version}"


PYPI_CORPORA = {
    "django": PypiProject("django", "5.1.4", source=True),
    "django-lib": PypiProject("django", "5.1.4"),
    "small": PypiProject("attrs", "24.2.0"),
}


@dataclass(frozen=True, slots=True)
class Corpus:
    """Every ``.py`` file of a corpus, keyed by repository-relative posix path."""

    name: str
    label: str  # what was fetched, e.g. "django==5.1.4" or "stdlib 3.11.7"
    files: Mapping[str, bytes]


def load(name: str, work: Path) -> Corpus:
    """Fetch (or reuse) the corpus ``name`` and return its Python files."""
    if name == "stdlib":
        return _stdlib()
    project = PYPI_CORPORA[name]
    archive = _download(project, work / "downloads" / project.project)
    if project.source:
        return Corpus(name, f"{project.requirement} (sdist, with tests)", _python_files_in_sdist(archive))
    return Corpus(name, project.requirement, _python_files_in_wheel(archive))


def _download(project: PypiProject, directory: Path) -> Path:
    found = _find_archive(project, directory)
    if found is not None:
        return found
    directory.mkdir(parents=True, exist_ok=True)
    command = [
        sys.executable,
        "-m",
        "pip",
        "download",
        "--no-deps",
        "--no-binary=:all:" if project.source else "--only-binary=:all:",
        "--disable-pip-version-check",
        "--quiet",
        "-d",
        str(directory),
        project.requirement,
    ]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=PIP_TIMEOUT_SECONDS, check=False)
    except subprocess.TimeoutExpired as exc:
        raise CorpusError(f"pip download {project.requirement} timed out") from exc
    found = _find_archive(project, directory)
    if done.returncode != 0 or found is None:
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise CorpusError(f"pip download {project.requirement} failed: {tail}")
    return found


def _find_archive(project: PypiProject, directory: Path) -> Path | None:
    if not directory.is_dir():
        return None
    # Archive names normalise the project's case ("Django-5.1.4-py3-none-any.whl").
    if project.source:
        name = f"{project.project}-{project.version}.tar.gz".lower()
        found = sorted(p for p in directory.glob("*.tar.gz") if p.name.lower() == name)
    else:
        prefix = f"{project.project}-{project.version}-".lower()
        found = sorted(p for p in directory.glob("*.whl") if p.name.lower().startswith(prefix))
    return found[0] if found else None


def _python_files_in_wheel(wheel: Path) -> dict[str, bytes]:
    try:
        with zipfile.ZipFile(wheel) as archive:
            return {
                info.filename: archive.read(info)
                for info in sorted(archive.infolist(), key=lambda i: i.filename)
                if info.filename.endswith(".py") and ".dist-info/" not in info.filename
            }
    except (OSError, zipfile.BadZipFile) as exc:
        raise CorpusError(f"cannot read {wheel}: {exc}; delete it to fetch it again") from exc


def _python_files_in_sdist(archive: Path) -> dict[str, bytes]:
    files: dict[str, bytes] = {}
    try:
        with tarfile.open(archive) as tar:
            for member in tar:
                # Paths drop the sdist's top directory ("Django-5.1.4/").
                _, _, path = member.name.partition("/")
                if not (member.isfile() and path.endswith(".py")):
                    continue
                handle = tar.extractfile(member)
                if handle is not None:
                    files[path] = handle.read()
    except (OSError, tarfile.TarError) as exc:
        raise CorpusError(f"cannot read {archive}: {exc}; delete it to fetch it again") from exc
    return dict(sorted(files.items()))


def _stdlib() -> Corpus:
    root = Path(sysconfig.get_paths()["stdlib"])
    skip = {"site-packages", "dist-packages", "__pycache__"}
    files: dict[str, bytes] = {}
    for path in sorted(root.rglob("*.py")):
        relative = path.relative_to(root)
        if skip.intersection(relative.parts) or path.is_symlink() or not path.is_file():
            continue
        files[relative.as_posix()] = path.read_bytes()
    if not files:
        raise CorpusError(f"no .py files under the standard library at {root}")
    version = ".".join(map(str, sys.version_info[:3]))
    return Corpus("stdlib", f"stdlib {version}", files)

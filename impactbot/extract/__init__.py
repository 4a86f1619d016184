"""Stage ``extract``: the bytes of one blob -> FileFacts. Pure, no I/O.

FileFacts depend only on the bytes, the language and ``EXTRACTOR_VERSION``, so
the cache keys them by (blob id, language, EXTRACTOR_VERSION).
"""

from __future__ import annotations

from collections.abc import Collection

from impactbot.model import FileFacts
from impactbot.versions import EXTRACTOR_VERSION

__all__ = [
    "EXTRACTOR_VERSION", "class_names", "extract", "language_for", "module_assignments", "module_names", "name_reads",
    "unread", "writes_init",
]


_LANGUAGES = {".py": "python", ".pyi": "python"}


def language_for(path: str) -> str | None:
    """``"python"`` for ``*.py`` and ``*.pyi``; None for anything else."""
    dot = path.rfind(".")
    if dot <= path.rfind("/"):
        return None
    return _LANGUAGES.get(path[dot:])


def extract(data: bytes, language: str) -> FileFacts:
    """FileFacts of one blob in ``language``. Pure; never raises on bad source.

    An unknown language yields a module with no facts and an error message,
    since the caller decides per file and must not abort the run.
    """
    if language == "python":
        # imported on first use: a run served from the cache never loads the parser
        from impactbot.extract.python import extract_python

        return extract_python(data)
    return FileFacts(
        language=language, definitions=(), calls=(), imports=(), error=f"unsupported language {language!r}"
    )


def unread(data: bytes, error: str) -> FileFacts:
    """FileFacts of a Python blob not read (too large, binary): its module, and ``unread``."""
    from impactbot.extract.python import unread as python_unread

    return python_unread(data, error)


def module_names(data: bytes) -> dict[str, str]:
    """name -> fingerprint of the module-level statements binding it (Python). Pure."""
    from impactbot.extract._pyreads import module_names as python_module_names

    return python_module_names(data)


def name_reads(data: bytes, names: Collection[str]) -> list[tuple[str, int]]:
    """Where ``names`` are read: (``name`` or ``object.name``, line) (Python). Pure."""
    from impactbot.extract._pyreads import name_reads as python_name_reads

    return python_name_reads(data, names)


def module_assignments(data: bytes) -> list[tuple[int, int, tuple[str, ...]]]:
    """(first line, last line, names bound) of each module-level assignment (Python). Pure."""
    from impactbot.extract._pyreads import module_assignments as python_module_assignments

    return python_module_assignments(data)


def class_names(data: bytes) -> dict[str, dict[str, str]]:
    """class qualname -> name -> fingerprint of the class-body statements binding it (Python). Pure."""
    from impactbot.extract._pyreads import class_names as python_class_names

    return python_class_names(data)


def writes_init(decorator: str) -> bool:
    """Whether a class decorator (its expr) writes the class's ``__init__`` (dataclass, attrs)."""
    from impactbot.extract._pyinit import writes_init as python_writes_init

    return python_writes_init(decorator)

"""Stage ``extract``: the bytes of one blob -> FileFacts. Pure, no I/O.

FileFacts depend only on the bytes, the language and ``EXTRACTOR_VERSION``, so
the cache keys them by (blob id, language, EXTRACTOR_VERSION).
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

from impactbot.model import FileFacts

__all__ = ["EXTRACTOR_VERSION", "extract", "language_for"]


def _grammar_version() -> str:
    # A new grammar release can parse the same bytes differently.
    try:
        return version("tree-sitter-python")
    except PackageNotFoundError:
        return "unknown"


EXTRACTOR_VERSION = f"python-4+tree-sitter-python-{_grammar_version()}"

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

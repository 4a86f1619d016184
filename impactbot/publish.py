"""Publish rendered output: stdout or a file, the Actions job summary, step outputs.

Files are written atomically (a reader never sees half a report); the job summary
and ``GITHUB_OUTPUT`` are appended to, as the runner expects, and only when the
runner provides them.
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
import uuid
from collections.abc import Mapping
from pathlib import Path

from impactbot.errors import UsageError

# GitHub drops a step's summary larger than 1 MiB and shows an error instead.
SUMMARY_LIMIT = 1_048_576
SUMMARY_TRUNCATION_NOTE = (
    "\n\n> [!NOTE]\n> The impactbot summary was truncated to fit GitHub's 1 MiB limit for a "
    "job summary; the JSON report has everything.\n"
)
_OUTPUT_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")


def printable(text: str) -> str:
    """``text`` as valid UTF-8 can hold it: a path git stored in bytes that are not UTF-8
    (``caf\\xe9.py``, read back as a lone surrogate) shows its escape instead."""
    if text.isascii():
        return text
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def write_output(text: str, path: Path | None) -> None:
    """Write ``text`` to stdout, or atomically to ``path`` as UTF-8; ends it with a newline."""
    if not text.endswith("\n"):
        text += "\n"
    text = printable(text)
    if path is None:
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    try:
        if path.exists() and not path.is_file():
            # /dev/stdout, /dev/null, a named pipe: replacing it would destroy it
            with path.open("wb") as handle:
                handle.write(text.encode("utf-8"))
        else:
            _atomic_write(path, text.encode("utf-8"))
    except OSError as exc:
        raise UsageError(f"Cannot write {path}: {exc.strerror or exc}.") from exc


def _atomic_write(path: Path, data: bytes) -> None:
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        # mkstemp creates 0600; give the file the mode a plain open() would have
        os.chmod(temporary, 0o666 & ~_umask())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_step_summary(markdown: str, environ: Mapping[str, str]) -> bool:
    """Append ``markdown`` to ``$GITHUB_STEP_SUMMARY``; False when it is not set.

    The step's summary stays under 1 MiB (counting what this step already
    wrote): a longer text is cut at a line boundary, open ``<details>`` and code
    fences are closed, and a note says so.
    """
    target = environ.get("GITHUB_STEP_SUMMARY", "").strip()
    if not target:
        return False
    path = Path(target)
    try:
        used = path.stat().st_size if path.exists() else 0
        room = SUMMARY_LIMIT - used - 1
        text = _fit_summary(markdown, room)
        if text is None:
            import logging  # rare: not worth its import on every run

            logging.getLogger(__name__).warning("the job summary already holds %d bytes; not adding impactbot's", used)
            return False
        with path.open("a", encoding="utf-8", newline="") as handle:
            handle.write(text)
    except OSError as exc:
        raise UsageError(f"Cannot write the job summary {path} (GITHUB_STEP_SUMMARY): {exc.strerror or exc}.") from exc
    return True


def _fit_summary(markdown: str, room: int) -> str | None:
    """``markdown`` (newline-terminated) in at most ``room`` UTF-8 bytes, or None if no room."""
    text = markdown if markdown.endswith("\n") else markdown + "\n"
    if len(text.encode("utf-8")) <= room:
        return text
    note = SUMMARY_TRUNCATION_NOTE.encode("utf-8")
    # leave space for the note and for closing what the cut leaves open
    budget = room - len(note) - 256
    if budget <= 0:
        return None
    head = text.encode("utf-8")[:budget].decode("utf-8", errors="ignore")
    head = head[: head.rfind("\n") + 1] if "\n" in head else ""
    return head + _closers(head) + SUMMARY_TRUNCATION_NOTE


def _closers(markdown: str) -> str:
    """Close an open code fence and open ``<details>`` so the note renders as text."""
    closing = ""
    if sum(1 for line in markdown.splitlines() if line.lstrip().startswith("```")) % 2:
        closing += "```\n"
    open_details = markdown.count("<details") - markdown.count("</details>")
    closing += "</details>\n" * max(0, min(open_details, 20))
    return closing


def write_github_outputs(values: Mapping[str, str | int], environ: Mapping[str, str]) -> bool:
    """Append ``name=value`` lines to ``$GITHUB_OUTPUT``; False when it is not set.

    Values with line breaks use the runner's heredoc form
    (``name<<DELIMITER``, value, ``DELIMITER``) with a delimiter that does not
    occur in the value.
    """
    target = environ.get("GITHUB_OUTPUT", "").strip()
    if not target:
        return False
    lines = "".join(_output_entry(name, value) for name, value in values.items())
    try:
        with Path(target).open("a", encoding="utf-8", newline="") as handle:
            handle.write(lines)
    except OSError as exc:
        raise UsageError(f"Cannot write step outputs to {target} (GITHUB_OUTPUT): {exc.strerror or exc}.") from exc
    return True


def _output_entry(name: str, value: str | int) -> str:
    if not _OUTPUT_NAME.fullmatch(name):
        raise ValueError(f"invalid GitHub output name: {name!r}")
    text = _output_text(value)
    if "\n" not in text and "\r" not in text:
        return f"{name}={text}\n"
    delimiter = f"ghadelimiter_{uuid.uuid4().hex}"
    while delimiter in text:
        delimiter = f"ghadelimiter_{uuid.uuid4().hex}"
    return f"{name}<<{delimiter}\n{text}\n{delimiter}\n"


def _output_text(value: str | int) -> str:
    # Actions expressions compare booleans as the strings "true"/"false"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)

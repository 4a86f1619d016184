"""Corpora read from archives already downloaded: a wheel's zip and an sdist's tarball."""

from __future__ import annotations

import io
import tarfile
import zipfile
from pathlib import Path

import pytest

from perf import corpora


def _sdist(path: Path, members: dict[str, bytes]) -> None:
    with tarfile.open(path, "w:gz") as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))


def test_the_source_corpus_keeps_every_python_file_without_the_top_directory(tmp_path: Path) -> None:
    downloads = tmp_path / "downloads" / "django"
    downloads.mkdir(parents=True)
    _sdist(downloads / "Django-5.1.4.tar.gz", {
        "Django-5.1.4/django/__init__.py": b"VERSION = 1\n",
        "Django-5.1.4/tests/runtests.py": b"import django\n",
        "Django-5.1.4/docs/conf.txt": b"not python\n",
    })
    corpus = corpora.load("django", tmp_path)
    assert corpus.files == {"django/__init__.py": b"VERSION = 1\n", "tests/runtests.py": b"import django\n"}
    assert "sdist" in corpus.label


def test_the_library_corpus_reads_the_wheel_and_leaves_out_its_metadata(tmp_path: Path) -> None:
    downloads = tmp_path / "downloads" / "django"
    downloads.mkdir(parents=True)
    with zipfile.ZipFile(downloads / "Django-5.1.4-py3-none-any.whl", "w") as wheel:
        wheel.writestr("django/apps.py", b"class AppConfig: pass\n")
        wheel.writestr("Django-5.1.4.dist-info/setup.py", b"x = 1\n")
    corpus = corpora.load("django-lib", tmp_path)
    assert corpus.files == {"django/apps.py": b"class AppConfig: pass\n"}
    assert corpus.label == "django==5.1.4"


def test_a_broken_archive_says_to_delete_it(tmp_path: Path) -> None:
    downloads = tmp_path / "downloads" / "django"
    downloads.mkdir(parents=True)
    (downloads / "django-5.1.4.tar.gz").write_bytes(b"not a tarball")
    with pytest.raises(corpora.CorpusError, match="delete it"):
        corpora.load("django", tmp_path)

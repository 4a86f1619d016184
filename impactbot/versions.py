"""The versions that key cached facts, graphs and reports.

Kept apart from the stages themselves: a run answered from the cache needs
these strings, not the parser or the resolver (start-up is measured).
"""

from __future__ import annotations

import os
from importlib.util import find_spec

# Bump when the extractor's output for the same bytes changes.
EXTRACTOR_REVISION = "118"
# Bump when link() gives a different graph for the same facts.
LINK_VERSION = "159"
# Bump when the report of the same two graphs changes (the impact walk, breaking calls).
IMPACT_VERSION = "37"


def grammar_version(package: str = "tree_sitter_python") -> str:
    """The installed version of a grammar wheel; a new release can parse the same bytes differently.

    Read from the wheel's ``.dist-info`` next to the package: the same answer as
    ``importlib.metadata.version`` without importing it (about 10 ms).
    """
    spec = find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        return "unknown"
    site = os.path.dirname(next(iter(spec.submodule_search_locations)))
    prefix = package + "-"
    try:
        names = os.listdir(site)
    except OSError:
        return "unknown"
    found = [n for n in names if n.startswith(prefix) and n.endswith(".dist-info")]
    if len(found) == 1:
        return found[0][len(prefix) : -len(".dist-info")]
    return _installed_version(package)


def _installed_version(package: str) -> str:
    # several .dist-info (or an egg-link install): let importlib.metadata decide
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(package.replace("_", "-"))
    except PackageNotFoundError:
        return "unknown"


EXTRACTOR_VERSION = f"python-{EXTRACTOR_REVISION}+tree-sitter-python-{grammar_version()}"

"""Stage `link`: the facts of a whole revision -> its symbol graph.

Name resolution lives in :mod:`impactbot.link.python`, the graph is made in
:mod:`impactbot.link.linker`; deriving a revision's graph from a nearby one's,
in :mod:`impactbot.link.incremental`.
"""

from impactbot.link.linker import (
    PASSES_ON,
    Flow,
    Outcome,
    SiteWatch,
    _Linker,
    is_unittest_class,
    keeps_signature,
    link,
    receives_call_arguments,
    site_flows,
    symbols_of,
)

__all__ = [
    "PASSES_ON",
    "Flow",
    "Outcome",
    "SiteWatch",
    "_Linker",
    "is_unittest_class",
    "keeps_signature",
    "link",
    "receives_call_arguments",
    "site_flows",
    "symbols_of",
]

"""``python -m impactbot``: the same as the ``impactbot`` command."""

import os
import sys

# `python -m` puts the current directory first on sys.path. Run inside the
# repository being analysed, that would import the repository's own code (a
# `json.py`, a `logging/` package, a standard-library checkout) in place of
# the libraries impactbot uses: slower at best, the analysed code running at
# worst. impactbot's own modules are found through its package, not sys.path.
if sys.path and sys.path[0] in ("", os.getcwd()):
    del sys.path[0]

from impactbot.cli import run

run()

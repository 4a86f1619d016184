"""impactbot: pre-merge change-impact analysis for git repositories."""

from __future__ import annotations

import os

from impactbot.native import install_guard

__version__ = "0.2.0"

# compiled modules (build_native.py) are used only when built from the sources on disk
install_guard(os.path.dirname(os.path.abspath(__file__)))

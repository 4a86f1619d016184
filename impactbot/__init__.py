"""impactbot: pre-merge change-impact analysis for git repositories."""

from __future__ import annotations

__version__ = "0.2.0"

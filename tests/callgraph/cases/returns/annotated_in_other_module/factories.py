from __future__ import annotations

from widgets import Button


def make_button(label: str) -> Button:
    return Button(label)

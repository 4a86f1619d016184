"""Why a call no longer fits a changed signature, worded as Python words its TypeError."""

from __future__ import annotations

import pytest

from impactbot.breaking import misfit
from impactbot.model import CallSite, Param, Signature

ONE = Signature((Param("self", "positional", False), Param("a", "positional", False)))
NONE = Signature((Param("cls", "positional", False),))


@pytest.mark.parametrize(("sig", "given", "reason"), [
    (ONE, 2, "takes 1 positional argument but 2 were given"),
    (NONE, 1, "takes 0 positional arguments but 1 was given"),
    (NONE, 3, "takes 0 positional arguments but 3 were given"),
])
def test_too_many_positional_arguments_are_counted_in_pythons_words(sig: Signature, given: int, reason: str) -> None:
    assert misfit(sig, CallSite("caller", "f", 1, positional=given), bound=True) == reason


def test_a_call_that_fits_has_no_reason() -> None:
    assert misfit(ONE, CallSite("caller", "f", 1, positional=1), bound=True) is None

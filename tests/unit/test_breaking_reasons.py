"""Why a call no longer fits a changed signature, worded as Python words its TypeError;
when a positional argument now lands on another parameter."""

from __future__ import annotations

import pytest

from impactbot.breaking import misfit, shifted
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


def _sig(*params: str) -> Signature:
    """``"self"``, ``"a"``, ``"b="``: positional parameters, those ending in ``=`` with a default."""
    return Signature(tuple(Param(p.rstrip("="), "positional", p.endswith("=")) for p in params))


@pytest.mark.parametrize(("old", "new", "given", "reason"), [
    # a swap, an insertion before, a removal before: the argument meant for one parameter reaches another
    (_sig("self", "a", "b"), _sig("self", "b", "a"), 1, "argument 1 by position now goes to 'b', not 'a'"),
    (_sig("self", "value", "factor"), _sig("self", "value", "offset=", "factor="), 2,
     "argument 2 by position now goes to 'offset', not 'factor'"),
    (_sig("self", "a", "b", "c="), _sig("self", "b", "c="), 1, "argument 1 by position now goes to 'b', not 'a'"),
    # renamed where they stand: `offset` took the required slot, its default stayed with the second
    (_sig("self", "pos", "offset="), _sig("self", "offset", "whence="), 1, None),
    (_sig("self", "pos", "offset="), _sig("self", "offset", "whence="), 2, None),
    (_sig("self", "a", "b"), _sig("self", "x", "b"), 1, None),
])
def test_a_positional_argument_is_shifted_only_when_a_parameter_moved(
    old: Signature, new: Signature, given: int, reason: str | None,
) -> None:
    assert shifted(old, new, CallSite("caller", "f", 1, positional=given), bound=True) == reason

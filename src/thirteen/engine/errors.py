"""One error family for everything the engine refuses.

Every refusal carries a stable ``code`` (what a server sends to a client as is) and a sentence a
player understands. A rejected input never changes any state. A foul is an outcome, not an error.
"""

from __future__ import annotations


class RuleError(ValueError):
    """Something the rules do not allow, or input the engine cannot understand.

    >>> try:
    ...     raise RuleError("unknown_card", 'There is no card "Zz".')
    ... except RuleError as e:
    ...     (e.code, str(e))
    ('unknown_card', 'There is no card "Zz".')
    """

    code: str

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code

    @property
    def message(self) -> str:
        return str(self.args[0])


class CardError(RuleError):
    """Cards that cannot be read, or that break the deck (duplicates, wrong counts)."""


class RulesConfigError(RuleError):
    """A table setting that is unknown, mistyped or impossible in combination with the others."""


class IllegalActionError(RuleError):
    """An action the table does not allow right now (wrong seat, wrong phase, bad placement)."""

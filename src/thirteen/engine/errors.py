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


def quote(text: str, limit: int = 40, mark: str = '"') -> str:
    """User input as a message may show it: between ``mark``s, at most ``limit`` characters
    (then ``…``), anything unprintable escaped — so a huge or binary input keeps the message one
    short line.

    >>> quote("Zz")
    '"Zz"'
    >>> quote("x" * 50, limit=8)
    '"xxxxxxxx…"'
    >>> quote("a\\tb\\udcff\\ufeff")
    '"a\\\\tb\\\\xff\\\\ufeff"'
    """
    shown: list[str] = []
    for ch in text[:limit]:
        if ch.isprintable() and ch != "\\":
            shown.append(ch)
        elif "\udc80" <= ch <= "\udcff":  # a byte that was not UTF-8 (surrogate escape)
            shown.append(f"\\x{ord(ch) - 0xDC00:02x}")
        else:
            shown.append(repr(ch)[1:-1])
    more = "…" if len(text) > limit else ""
    return f"{mark}{''.join(shown)}{more}{mark}"

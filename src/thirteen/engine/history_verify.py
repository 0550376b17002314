"""Verifying a hand history: everything it states, checked.

:func:`verify_history` (JSON) and :func:`verify_text` (text) check the header (hand number and
the table before the deal) and the deck against the commitment (see
:mod:`thirteen.engine.snapshot`), and for a full history the replay — every action in time
order, each decision within its deadline, to the recorded result. A player's copy cannot be
replayed: only its opened cards (and header) are proven, and :class:`Verification` says so.

The engine does no cryptography: ``thirteen verify --key`` checks a history's signature and then
calls :meth:`Verification.signature_checked`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import pairwise
from typing import Any, Literal

from thirteen.engine.actions import Action, action_name
from thirteen.engine.deck import leaf_digest, root_digest
from thirteen.engine.errors import RuleError
from thirteen.engine.history import (
    ReadHistory,
    read_history,
    result_summary,
    signature_problem,
    signed_bytes,
)
from thirteen.engine.history_text import (
    history_from_text,
    history_to_text,
    readable_text,
    result_points,
)
from thirteen.engine.snapshot import header_commitment
from thirteen.engine.state import Phase, deciders
from thirteen.engine.table import apply

Status = Literal["verified", "partial", "failed", "unreadable"]


@dataclass(frozen=True)
class Verification:
    """What :func:`verify_history` found.

    ``status``: ``verified`` (everything the history states was checked), ``partial`` (what
    was checked holds, but some of it cannot be: ``unchecked`` says what), ``failed`` (something
    it states is false: ``problems``), ``unreadable`` (not a well-formed history).

    ``signature`` is the room's signature the file carries (well-formed, not yet checked: the
    engine does no cryptography), over ``signed``; once a caller has checked it with the room's
    public key, :meth:`signature_checked` gives the report with what the signature proves.
    """

    status: Status
    checks: tuple[str, ...] = ()
    problems: tuple[str, ...] = ()
    unchecked: tuple[str, ...] = ()
    commitment: str | None = None
    signature: dict[str, str] | None = None
    signed: bytes = b""
    """:func:`signed_bytes` of the history, when it carries a signature."""
    signed_only: str = ""
    """What only the room's signature can prove (a player's copy: its actions and result)."""
    signature_ok: bool = False
    """The caller checked the signature against the room's key (:meth:`signature_checked`)."""

    @property
    def ok(self) -> bool:
        return self.status == "verified"

    def signature_checked(self) -> Verification:
        """This report once the caller has checked the file's signature with the room's key:
        the signature proves every field as the room wrote it, so what could not be replayed
        (a player's copy's actions and result) is proven too."""
        assert self.signature is not None
        assert self.status in ("verified", "partial")
        checks = [
            *self.checks,
            f"the room's {self.signature['algorithm']} signature (key "
            f"{self.signature['key_id']}) holds over every field of the file",
        ]
        unchecked = list(self.unchecked)
        if self.signed_only:
            checks.append(
                f"{self.signed_only}: proven by the room's signature (a player's copy cannot be "
                "replayed, since the cards it does not open stay hidden)"
            )
            unchecked = [u for u in unchecked if not u.startswith(self.signed_only)]
        return replace(
            self,
            status="partial" if unchecked else "verified",
            checks=tuple(checks),
            unchecked=tuple(unchecked),
            signature_ok=True,
        )


def _describe(action: Action) -> str:
    seat = getattr(action, "seat", None)
    who = "" if seat is None else f"seat {seat} "
    return f"{who}{action_name(action)} at {action.at!r}"


def _result_difference(stated: dict[str, Any], replayed: dict[str, Any]) -> str:
    if stated["seats"] != replayed["seats"]:
        return f"the file lists seats {stated['seats']}, the replay {replayed['seats']}"
    for i, seat in enumerate(stated["seats"]):
        if result_points(stated, i) != result_points(replayed, i):
            said, replayed_text = result_points(stated, i), result_points(replayed, i)
            return f"seat {seat}: the file says {said}, the replay {replayed_text}"
    return "they differ"  # pragma: no cover - equal lines mean equal results


def _first_difference(stated: Any, written: Any, path: str = "") -> str:
    """Where ``stated`` first differs from ``written`` (a JSON path)."""
    if isinstance(stated, dict) and isinstance(written, dict):
        for key in sorted(set(stated) | set(written), key=str):
            if stated.get(key, ...) != written.get(key, ...):
                return _first_difference(stated.get(key), written.get(key), f"{path}.{key}")
    if isinstance(stated, list) and isinstance(written, list) and len(stated) == len(written):
        for i, (a, b) in enumerate(zip(stated, written, strict=True)):
            if a != b:
                return _first_difference(a, b, f"{path}[{i}]")
    return path.lstrip(".") or "the whole file"


def _check(read: ReadHistory, data: Any) -> Verification:
    checks: list[str] = []
    problems: list[str] = []
    unchecked: list[str] = []
    start = read.start
    players = sum(s is not None for s in start.seats)
    root = root_digest(read.leaves)
    what = "deck with its salts" if read.full else "52 leaves of the deck"
    if header_commitment(read.hand, start, read.start_at, root) == read.commitment:
        checks.append(
            f"the header (hand {read.hand}, {start.rules.name} rules, {players} seated players "
            f"with their stacks, the button, the deal at {read.start_at!r}) and the {what} make "
            "the commitment"
        )
    else:
        problems.append(
            f"the header (hand number, rules, seats, stacks, button, time of the deal) and the "
            f"{what} do not make the published commitment"
        )
    if read.hand != start.hands_played + 1:
        problems.append(
            f"the file calls this hand {read.hand}, but the table had played "
            f"{start.hands_played} hands before it"
        )
    if read.full:
        if read.viewer != "all":
            problems.append(
                f"a history with the full deck is everyone's (viewer all), not {read.viewer!r}"
            )
        _check_replay(read, checks, problems)
    signed_only = _check_copy(read, checks, problems, unchecked) if not read.full else ""
    if read.signature is not None:
        problem = signature_problem(read.signature)
        if problem is not None:
            problems.append(problem)
    if not problems and read.written() != data:
        place = _first_difference(data, read.written())
        problems.append(f"the file writes {place} differently from the history it holds")
    status: Status = "failed" if problems else "partial" if unchecked else "verified"
    return Verification(
        status,
        tuple(checks),
        tuple(problems),
        tuple(unchecked),
        read.commitment,
        signature=read.signature,
        signed=signed_bytes(data) if read.signature is not None else b"",
        signed_only=signed_only,
    )


def _check_replay(read: ReadHistory, checks: list[str], problems: list[str]) -> None:
    state = read.start
    actions = read.actions
    for i, action in enumerate(actions, 1):
        try:
            state, _ = apply(state, action)
        except RuleError as e:
            problems.append(f"action {i} ({_describe(action)}) is refused: {e}")
            return
    if state.phase != Phase.SHOWDOWN:
        waiting = ", ".join(str(s) for s in sorted(deciders(state))) or "nobody"
        problems.append(
            f"the {len(actions)} actions stop before the showdown (seats still to act: "
            f"{waiting}): an action is missing"
        )
        return
    checks.append(
        f"all {len(actions)} actions replay in time order, each decision within its deadline"
    )
    replayed = result_summary(state)
    assert replayed is not None
    if read.result is None:
        problems.append("the history records no result")
    elif read.result != replayed:
        problems.append(
            "the recorded result differs from the replay: "
            + _result_difference(read.result, replayed)
        )
    else:
        checks.append("the replayed result equals the recorded result")


def _check_copy(
    read: ReadHistory, checks: list[str], problems: list[str], unchecked: list[str]
) -> str:
    """Check what a player's copy can prove; returns what only a signature can (its actions
    and result)."""
    if read.viewer == "all":
        problems.append("a player's copy names its viewer (a seat or spectator), not all")
    elif read.viewer != "spectator" and read.start.seats[int(read.viewer)] is None:
        problems.append(f"the copy is for seat {read.viewer}, but nobody sat there")
    bad = [
        o
        for o in read.openings
        if leaf_digest(o.position, o.card, o.salt) != read.leaves[o.position]
    ]
    if bad:
        problems.append(
            f"{len(bad)} opened card(s) do not match the commitment (the first at deck "
            f"position {bad[0].position})"
        )
    else:
        checks.append(
            f"the {len(read.openings)} opened cards match their places in the committed deck"
        )
    times = [read.start.clock, read.start_at, *(m.at for m in read.moves)]
    if any(later < earlier for earlier, later in pairwise(times)):
        problems.append("the actions are not in time order")
    else:
        checks.append("the actions are in time order")
    signed_only = f"the {1 + len(read.moves)} actions and the result"
    unchecked.append(
        f"{signed_only}: a player's copy cannot be replayed (the cards it does not open stay "
        "hidden), so only the room's signature can prove them"
    )
    return signed_only


def verify_history(data: Any) -> Verification:
    """Check everything a history's JSON states (see :class:`Verification`)."""
    try:
        read = read_history(data)
    except RuleError as e:
        return Verification("unreadable", problems=(str(e),))
    return _check(read, data)


def verify_text(text: str) -> Verification:
    """Check a text history: read what it states (:func:`history_from_text`), check that every
    other line is what the history gives (modulo trailing spaces), and verify it like JSON."""
    try:
        data = history_from_text(text)
        read = read_history(data)
    except RuleError as e:
        return Verification("unreadable", problems=(str(e),))
    given = [line.rstrip() for line in text.removeprefix("\ufeff").split("\n")]
    wanted = history_to_text(data, readable=readable_text(text)).split("\n")
    while given and not given[-1]:
        given.pop()
    while wanted and not wanted[-1]:
        wanted.pop()
    for n, (line, want) in enumerate(zip(given, wanted, strict=False), 1):
        if line != want:
            return Verification(
                "failed",
                problems=(
                    f"line {n} says {_short(line)!r}, but its history gives {_short(want)!r}",
                ),
                commitment=read.commitment,
            )
    if len(given) != len(wanted):
        return Verification(
            "failed",
            problems=(f"the text has {len(given)} lines; its history gives {len(wanted)}",),
            commitment=read.commitment,
        )
    return _check(read, data)


def _short(line: str) -> str:
    return line if len(line) <= 100 else line[:99] + "…"


__all__ = ["Status", "Verification", "verify_history", "verify_text"]

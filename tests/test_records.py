"""``quick_init``: a frozen record built without a call per field is the record its dataclass
``__init__`` builds, and stays as frozen; ``renew`` copies one as ``dataclasses.replace`` does."""

from __future__ import annotations

import dataclasses
import inspect
from dataclasses import FrozenInstanceError, dataclass, field

import pytest

from thirteen.engine import actions, deck, events, history, legal, scoring, state, views
from thirteen.engine.records import quick_init, renew


@dataclass(frozen=True)
class Plain:
    a: int
    b: tuple[int, ...]
    c: str = "c"
    d: float | None = None


@quick_init
@dataclass(frozen=True)
class Quick:
    a: int
    b: tuple[int, ...]
    c: str = "c"
    d: float | None = None


@quick_init
@dataclass(frozen=True, kw_only=True)
class QuickKeywords:
    a: int
    b: int = 2


def test_the_record_is_the_dataclass_record() -> None:
    for args, kwargs in [((1, (2,)), {}), ((1, (2,), "x"), {"d": 0.5}), ((), {"b": (), "a": 3})]:
        plain, quick = Plain(*args, **kwargs), Quick(*args, **kwargs)  # type: ignore[arg-type]
        assert dataclasses.astuple(plain) == dataclasses.astuple(quick)
        assert repr(quick) == repr(plain).replace("Plain", "Quick")
        assert quick == Quick(*args, **kwargs)  # type: ignore[arg-type]
        assert hash(quick) == hash(Quick(*args, **kwargs))  # type: ignore[arg-type]
        assert dataclasses.replace(quick, c="y").c == "y"
    assert list(vars(Quick(1, ())).keys()) == ["a", "b", "c", "d"]
    assert inspect.signature(Quick) == inspect.signature(Plain)


def test_it_stays_frozen_and_checks_its_arguments() -> None:
    quick = Quick(1, ())
    with pytest.raises(FrozenInstanceError):
        quick.a = 2  # type: ignore[misc]
    with pytest.raises(TypeError):
        Quick(1)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Quick(1, (), "c", None, "extra")  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Quick(1, (), e=5)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        QuickKeywords(1)  # type: ignore[misc]
    assert QuickKeywords(a=1) == QuickKeywords(a=1, b=2)


def test_it_refuses_a_record_whose_init_does_more() -> None:
    @dataclass(frozen=True)
    class Checked:
        a: int

        def __post_init__(self) -> None:
            assert self.a > 0

    @dataclass(frozen=True)
    class Factory:
        a: list[int] = field(default_factory=list)

    @dataclass
    class Mutable:
        a: int

    for cls in (Checked, Factory, Mutable):
        with pytest.raises(TypeError):
            quick_init(cls)


@pytest.mark.parametrize("module", [actions, deck, events, history, legal, scoring, state, views])
def test_the_engine_records_keep_their_signatures(module: object) -> None:
    """Every quick record in the engine takes what its dataclass declares, in the same order."""
    quick = [
        cls
        for cls in vars(module).values()
        if isinstance(cls, type)
        and dataclasses.is_dataclass(cls)
        and cls.__init__.__code__.co_filename.startswith("<quick_init")  # type: ignore[misc]
    ]
    assert quick
    for cls in quick:
        declared = [f.name for f in dataclasses.fields(cls)]
        parameters = list(inspect.signature(cls.__init__).parameters)[1:]
        code = cls.__init__.__code__  # type: ignore[misc]
        assert sorted(parameters) == sorted(declared), cls
        assert list(code.co_varnames[1 : 1 + len(parameters)]) == parameters, cls


def test_renew_is_replace() -> None:
    quick = Quick(1, (2, 3), d=0.5)
    for changes in [{}, {"a": 7}, {"b": (), "c": "z", "d": None}]:
        copy = renew(quick, **changes)  # type: ignore[arg-type]
        replaced = dataclasses.replace(quick, **changes)  # type: ignore[arg-type]
        assert copy == replaced
        assert hash(copy) == hash(replaced)
        assert repr(copy) == repr(replaced)
        assert type(copy) is Quick
        assert copy is not quick
        assert list(vars(copy)) == ["a", "b", "c", "d"]
        with pytest.raises(FrozenInstanceError):
            copy.a = 2  # type: ignore[misc]
    assert quick == Quick(1, (2, 3), d=0.5)  # the original as it was
    dealt = events.CardsDealt(seat=1, street=0, cards=(4, 5), private_to=1)
    assert events.redact(dealt, 0) == events.CardsDealt(1, 0, (-1, -1), 1)
    assert events.redact(dealt, 1) is dealt


def test_renew_refuses_an_unknown_field_and_any_other_record() -> None:
    with pytest.raises(TypeError, match="no field 'e'"):
        renew(Quick(1, ()), a=2, e=5)
    with pytest.raises(TypeError, match="Plain is not one"):
        renew(Plain(1, ()), a=2)

    class Sub(Quick):  # a subclass is not the record quick_init made
        pass

    with pytest.raises(TypeError, match="Sub is not one"):
        renew(Sub(1, ()))

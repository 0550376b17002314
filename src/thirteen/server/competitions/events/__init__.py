"""Duplicate team events (seed 004): registering teams, running the rounds, the standings.

A director (an admin) creates an event: the game (any preset that seats three; by default
``open-face-cards``), rounds, hands per round, seconds to confirm a result. Teams of three register:
a captain names the team (player 1), two teammates join it (players 2 and 3); the director may fill
the field with bot teams. At the start the room draws the rounds' groups of three teams
(:func:`thirteen.server.competitions.duplicate.schedule`) and opens the first round's tables: for a
group ``A, B, C`` three tables seated ``A1 B1 C1 / B2 C2 A2 / C3 A3 B3``
(:func:`thirteen.server.competitions.duplicate.seating`).

Each table is run by the room like any other (one owner task, the journal, a restart rebuilds
it) with :class:`DuplicateHook` as both its hook and its dealer:

- **The same cards.** Hand ``n`` of a group is dealt at its three tables from one deck order
  with the same salts (a :class:`~thirteen.server.db.models.DuplicateDeal` row, written by whichever
  table needs it first), so the same seat gets the same cards at every table and the three hands'
  histories carry the same deck root. (Their commitments differ: each binds its own table's header —
  who sits where with what — to that root.)
- **Together, hand by hand.** A table deals hand ``n + 1`` only when the three tables have all
  settled hand ``n`` and its nine players confirmed the result, or ``confirm_seconds`` passed
  since the last of the three settled (a result confirms itself; bots confirm at once). So no
  table is ever a hand ahead, and nothing about one table's play of a deal — its result, its
  timing — can reach another before all three played it: event tables are not in the lobby,
  only their own players and the director may open them, and the standings count a hand only
  once all three tables settled it.
- **Nobody leaves.** Stacks are points (:data:`EVENT_STACK` each; nobody runs out), the room
  seats the players, a player who timed out is dealt in again (the table plays for an absent
  player at every deadline), and leave, sit-out and top-up are refused.
- **Rounds.** When a table has played the round's hands it closes; when every table of the
  round has, and its players confirmed the team totals (or ``confirm_seconds`` passed), the
  next round's tables open — exactly once, whichever process sees it first (the event's row
  moves from round ``r`` to ``r + 1`` in the transaction that writes them). After the last
  round the event is finished.

**Scores** are the table's own (seed 004: ±1 per row, a foul −12 and +6 to each other player,
fans): a hand's points are what its settlement wrote for each seat (the unit is one point), and
a team's score is the sum of its members' at the three tables. **Rulings**: the director can
rule that a player's hand was not set according to the rules (the hand is scored again with
that player fouled — −12 basis points, +6 to each other player — and the difference is added
to the teams' scores, seed 004 §V.2), warn, or disqualify (the team is listed apart and ranked
after the others; its seats are played by the room's bot from the next hand on, so the other
teams' comparisons stay whole). Every ruling is kept with its reason and shown in the standings.
Only the event's director (``director_id``, the admin who created it) rules; a ruling after the
finish is marked so, and the standings and results say they were changed then, by whom and why.

The package's modules, one concern each (this module re-exports their public names, so callers
import ``events`` and use ``events.create_event``, ``events.advance``, ``events.DuplicateHook``
as ever):

- :mod:`.common`: what the others share — :class:`EventError`, :data:`EVENT_STACK`, the
  statuses, the logger, the event's row locked for a change, the check that it still takes
  registrations, the table a member played at in a round.
- :mod:`.registration`: creating an event (:class:`EventSpec`, its limits), teams registering
  (captain, teammates, leaving), bot teams, cancelling before the start.
- :mod:`.rounds`: starting an event (the draw), opening a round's tables, :func:`advance`, the
  players' confirmations and the gate that waits for them, the events due a look, where a
  player sits now.
- :mod:`.hook`: :class:`DuplicateHook`, each event table's dealer and director.
- :mod:`.rulings`: the director's rulings (foul, warning, disqualification).
- :mod:`.scoreboard`: an event loaded for its pages, its summary, the listing, the
  standings.
- :mod:`.results`: a deal side by side at the three tables, the results as CSV.
- :mod:`.clock`: :class:`EventClock`, when each process of the room looks at an event again.

They import one another downwards only: ``registration``, ``rounds``, ``rulings`` and ``scoreboard``
import ``common``; ``hook`` and ``clock`` import ``rounds``; ``results`` imports ``scoreboard``;
none imports this package, which imports them all.
"""

from __future__ import annotations

from thirteen.server.competitions.events.clock import EventClock
from thirteen.server.competitions.events.common import EVENT_STACK, STATUSES, EventError
from thirteen.server.competitions.events.hook import HOLD_SECONDS, DuplicateHook
from thirteen.server.competitions.events.registration import (
    MAX_HANDS,
    MAX_ROUNDS,
    TEAM_NAME,
    EventSpec,
    add_bot_teams,
    cancel_event,
    create_event,
    create_team,
    join_team,
    leave_team,
)
from thirteen.server.competitions.events.results import CSV_COLUMNS, results_csv, side_by_side
from thirteen.server.competitions.events.rounds import (
    advance,
    confirm,
    due_events,
    seat_of,
    start_event,
)
from thirteen.server.competitions.events.rulings import RULING_KINDS, rule
from thirteen.server.competitions.events.scoreboard import listing, standings, summary

__all__ = [
    "CSV_COLUMNS",
    "EVENT_STACK",
    "HOLD_SECONDS",
    "MAX_HANDS",
    "MAX_ROUNDS",
    "RULING_KINDS",
    "STATUSES",
    "TEAM_NAME",
    "DuplicateHook",
    "EventClock",
    "EventError",
    "EventSpec",
    "add_bot_teams",
    "advance",
    "cancel_event",
    "confirm",
    "create_event",
    "create_team",
    "due_events",
    "join_team",
    "leave_team",
    "listing",
    "results_csv",
    "rule",
    "seat_of",
    "side_by_side",
    "standings",
    "start_event",
    "summary",
]

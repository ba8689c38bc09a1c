"""One game being played: seats, the deal, a coach, an event log, takeback and records.

A :class:`Session` is what a page or a terminal shows and changes. It plays any
game of the registry (:func:`~stratagem.core.registry.load_game`): each seat is a
person or an agent built from a registry spec, chance is drawn from the session's
seed (below), an optional coach (an agent that is also an
:class:`~stratagem.core.agent.Advisor`) prices the options, and every change is
logged.

**The deal.** A chance event is drawn from a generator determined by the seed and
the chance node alone, never by how many draws came before:

* a game that names its chance slots (``state.chance_key()``: Yahtzee's
  (player, boxes filled, throw), Pig's (player, turns ended, rolls this turn),
  Scrabble's (drawer, turn)) draws from ``default_rng([seed, 2, *slot])``, exactly
  the generator :class:`~stratagem.core.play.Deal` gives the arena's paired games;
* a game without slots draws from ``default_rng([seed, 3, *digest])``, where the
  digest (SHA-256) covers the text of every action and chance outcome so far.

So the outcome of a chance node is a function of (seed, the node): taking a
decision back and taking it again meets the same dice or tiles, and a takeback
cannot be used to fish for better ones. An agent seat draws from
``default_rng([seed, 1, player, decision number])``, so it too answers the same
situation the same way.

**Text.** Decisions are recorded as ``str(action)``, the game's own text form
(``keep 1 1 4``, ``hold``, ``8H QUIZ 48``); a text is read back by matching it
against the ``str`` of the legal actions, which also checks that it is legal.

>>> s = Session.new("pig", "coin-3", ["human", "hold:2"], seed=7)
>>> s.legal_texts()
['roll']
>>> _ = s.submit("roll")
>>> s.decisions()
['roll']
>>> record = s.to_json()
>>> Session.from_json(record).decisions() == s.decisions()
True
"""

from __future__ import annotations

import hashlib
import json
import math
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from stratagem.core.agent import Advice, Advisor, Agent
from stratagem.core.errors import (
    ArenaError,
    IllegalActionError,
    InvalidAgentError,
    RecordError,
    StratagemError,
)
from stratagem.core.game import CHANCE, Action, State, chance_key, sample_chance
from stratagem.core.play import Deal
from stratagem.core.registry import GameSpec, load_game

__all__ = [
    "HUMAN",
    "MAX_DECISIONS",
    "MAX_RECORD_BYTES",
    "RECORD_FORMAT",
    "RECORD_VERSION",
    "Event",
    "Seat",
    "Session",
    "Step",
]

RECORD_FORMAT = "stratagem-game"
RECORD_VERSION = 1
MAX_RECORD_BYTES = 1_000_000
"""A record's largest size as JSON text (a long Pig game of single rolls is ~100 kB)."""
MAX_DECISIONS = 100_000
"""The most decisions, and the most chance outcomes, of one game: what a record holds.
A game need not end (a position may come back, with the same chance), so a session
refuses to go past what it could save and read back."""
MAX_TEXT = 200
"""The longest text of one decision, rules name or agent spec."""
MAX_SEED = 2**63 - 1
HUMAN = "human"
LEGAL_MEMO_ACTIONS = 250_000
"""Legal decisions the process keeps listed, over all games (a Scrabble move takes about
260 bytes with its text: some 65 MB at most; a rack with two blanks lists ~50,000)."""


class _LegalMemo:
    """The legal decisions of the positions last asked, by text, in every session.

    Listing them can be costly (a Scrabble rack with blanks has tens of thousands of
    moves, most of a second), and a page asks for a position's view again and then
    decides there. States are immutable, so a state object is its own key (kept in the
    entry, so its ``id`` is not reused while listed). Least recently used first out,
    bounded by :data:`LEGAL_MEMO_ACTIONS` decisions in all.
    """

    def __init__(self, max_actions: int) -> None:
        self.max_actions = max_actions
        self._entries: OrderedDict[int, tuple[State, dict[str, Action]]] = OrderedDict()
        self._actions = 0
        self._lock = threading.Lock()

    def get(self, state: State) -> dict[str, Action] | None:
        with self._lock:
            entry = self._entries.get(id(state))
            if entry is None or entry[0] is not state:
                return None
            self._entries.move_to_end(id(state))
            return entry[1]

    def put(self, state: State, table: dict[str, Action]) -> None:
        if len(table) > self.max_actions:
            return
        with self._lock:
            old = self._entries.pop(id(state), None)
            if old is not None:
                self._actions -= len(old[1])
            self._entries[id(state)] = (state, table)
            self._actions += len(table)
            while self._actions > self.max_actions:
                _, (_, gone) = self._entries.popitem(last=False)
                self._actions -= len(gone)


_LEGAL = _LegalMemo(LEGAL_MEMO_ACTIONS)

_RECORD_KEYS = {
    "format",
    "version",
    "game",
    "rules",
    "seats",
    "seed",
    "coach",
    "decisions",
    "chance",
    "takebacks",
    "result",
    "dealt",
}


@dataclass(frozen=True)
class Seat:
    """Who plays a seat: a person (``agent is None``) or an agent built from a spec."""

    agent: str | None = None

    @property
    def human(self) -> bool:
        return self.agent is None

    def __str__(self) -> str:
        return HUMAN if self.agent is None else self.agent

    def to_json(self) -> dict[str, str]:
        if self.agent is None:
            return {"kind": HUMAN}
        return {"kind": "agent", "spec": self.agent}


def _seat(value: Seat | str) -> Seat:
    if isinstance(value, Seat):
        return value
    return Seat() if value == HUMAN else Seat(value)


@dataclass(frozen=True)
class Step:
    """One action of the game's line: a decision (``player >= 0``) or a chance outcome."""

    player: int
    action: Action
    text: str
    by: Literal["human", "agent", "chance"]


@dataclass(frozen=True)
class Event:
    """One entry of the log: what happened, at which decision number, by whom."""

    kind: Literal["start", "decision", "chance", "takeback", "advice", "import"]
    decision: int
    """Decisions made before the event (the decision an advice was for, the point a
    takeback returned to)."""
    player: int | None = None
    text: str = ""


@dataclass(frozen=True)
class Takeback:
    to: int
    """The decision number play returned to (that decision was undone)."""
    undone: int
    """Decisions undone (the person's and any agent's after it)."""


class Session:
    """One game of any registered game, with its seats, deal, coach and log.

    Build with :meth:`new` or read a record with :meth:`from_record` /
    :meth:`from_json`. Chance is resolved at once: between calls the game waits for
    a decision or is over.
    """

    def __init__(
        self,
        game: GameSpec,
        rules: str,
        seats: Sequence[Seat],
        seed: int,
        coach: str | None = None,
        dealt: Sequence[str] | None = None,
    ) -> None:
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
            raise ArenaError(f"a game's seed must be a whole number 0..{MAX_SEED}, got {seed!r}")
        self.game = game
        self.rules = game.check_rules(rules)
        self.seats = tuple(seats)
        for seat in self.seats:
            if seat.agent is not None:
                game.check_agent(seat.agent, self.rules)
        if coach is not None:
            game.check_agent(coach, self.rules)
        self.seed = seed
        self.coach_spec = coach
        self._deal = Deal(seed)
        self._states: list[State] = [game.new_state(self.rules, len(self.seats))]
        self.dealt = None if dealt is None else tuple(dealt)
        if self.dealt is not None and not hasattr(self._states[0], "chance_from_text"):
            raise RecordError(f"a {game.name} game cannot be replayed with a recorded deal")
        self._line: list[Step] = []
        self._decision_index: list[int] = []  # line index of each decision
        self._agents: dict[int, Agent] = {}
        self._coach: Advisor | None = None
        self.takebacks: list[Takeback] = []
        self.events: list[Event] = [Event("start", 0, None, self.describe())]
        self._resolve_chance()

    @classmethod
    def new(
        cls,
        game: str | GameSpec,
        rules: str | None = None,
        seats: Sequence[Seat | str] = (HUMAN,),
        seed: int = 0,
        coach: str | None = None,
    ) -> Session:
        """A new game; ``seats`` holds ``"human"`` or an agent spec per player."""
        spec = load_game(game) if isinstance(game, str) else game
        return cls(
            spec,
            spec.default_rules if rules is None else rules,
            [_seat(s) for s in seats],
            seed,
            coach,
        )

    # --- views ----------------------------------------------------------------------------

    @property
    def state(self) -> State:
        """The position now: a decision to make, or the end."""
        return self._states[-1]

    @property
    def to_move(self) -> int:
        """The player to decide, or :data:`~stratagem.core.game.TERMINAL`."""
        return self.state.current_player

    @property
    def over(self) -> bool:
        return self.state.is_terminal()

    @property
    def waiting_for_human(self) -> bool:
        return not self.over and self.seats[self.to_move].human

    @property
    def line(self) -> tuple[Step, ...]:
        """Every action so far, decisions and chance outcomes, in order."""
        return tuple(self._line)

    def decisions(self) -> list[str]:
        """The text of every decision so far (the record's ``decisions``)."""
        return [self._line[i].text for i in self._decision_index]

    def decision_steps(self) -> list[Step]:
        return [self._line[i] for i in self._decision_index]

    def chance_texts(self) -> list[str]:
        return [step.text for step in self._line if step.player == CHANCE]

    def state_at(self, decision: int) -> State:
        """The position when decision number ``decision`` (from 0) was to be made;
        ``decision == len(decisions())`` is the position now (replay)."""
        n = len(self._decision_index)
        if isinstance(decision, bool) or not isinstance(decision, int) or not 0 <= decision <= n:
            raise IllegalActionError(
                f"a point of this game is a decision number 0..{n}, got {decision!r}"
            )
        if decision == n:
            return self.state
        return self._states[self._decision_index[decision]]

    def human_decisions(self) -> list[int]:
        """The decision numbers made by people (the points a takeback may return to)."""
        return [j for j, i in enumerate(self._decision_index) if self._line[i].by == "human"]

    def legal_texts(self) -> list[str]:
        """The text of every legal decision now (empty once the game is over)."""
        return list(self._legal_by_text(self.state))

    def describe(self) -> str:
        seats = ", ".join(str(s) for s in self.seats)
        return f"{self.game.name} ({self.rules}), seats {seats}, seed {self.seed}"

    # --- playing ---------------------------------------------------------------------------

    def submit(self, decision: str | Action) -> Step:
        """A person's decision, as its text (or as an action object of the game)."""
        if self.over:
            raise IllegalActionError("the game is over")
        player = self.to_move
        if not self.seats[player].human:
            raise IllegalActionError(
                f"player {player} is played by the agent {self.seats[player]}: let it move"
            )
        action = self._legal(self.state, decision)
        return self._decide(player, action, "human")

    def ai_move(self) -> Step:
        """Let the agent whose turn it is decide."""
        if self.over:
            raise IllegalActionError("the game is over")
        player = self.to_move
        if self.seats[player].human:
            raise IllegalActionError(f"player {player} is a person: submit their decision")
        rng = np.random.default_rng([self.seed, 1, player, len(self._decision_index)])
        chosen = self._agent(player).act(self.state, rng)
        action = self._legal(self.state, chosen)
        return self._decide(player, action, "agent")

    def play_agents(self) -> list[Step]:
        """Let agents move until a person is to move or the game is over."""
        steps = []
        while not self.over and not self.seats[self.to_move].human:
            steps.append(self.ai_move())
        return steps

    def takeback(self, decision: int | None = None) -> Takeback:
        """Return to decision number ``decision`` of a person (default: their last one),
        undoing it and everything after; that person is then to move again.

        The position is the one they met; deciding the same again meets the same chance
        as before (the deal depends on the position, not on the path)."""
        humans = self.human_decisions()
        if not humans:
            raise IllegalActionError("there is no decision of a person to take back")
        if decision is None:
            decision = humans[-1]
        elif isinstance(decision, bool) or not isinstance(decision, int) or decision not in humans:
            raise IllegalActionError(
                f"decision {decision!r} cannot be taken back: a takeback returns to a "
                f"decision of a person, here numbers {_spans(humans)}"
            )
        cut = self._decision_index[decision]
        undone = len(self._decision_index) - decision
        del self._line[cut:]
        del self._states[cut + 1 :]
        del self._decision_index[decision:]
        # Agents may learn during a game; after a takeback they start again from their
        # specs rather than carry what they saw of the undone moves.
        self._agents.clear()
        taken = Takeback(decision, undone)
        self.takebacks.append(taken)
        self.events.append(Event("takeback", decision, self.to_move, f"{undone} undone"))
        return taken

    # --- the coach -------------------------------------------------------------------------

    def advice(self) -> Sequence[Advice]:
        """The coach's price of every option now, best first (logged)."""
        if self.coach_spec is None:
            raise InvalidAgentError("this game has no coach")
        if self.over:
            raise IllegalActionError("the game is over: there is nothing to advise")
        if self._coach is None:
            coach = self.game.make_agent(self.rules, self.coach_spec)
            if not isinstance(coach, Advisor):
                raise InvalidAgentError(
                    f"agent {self.coach_spec} cannot coach: it plays but does not price options"
                )
            self._coach = coach
        rows = self._coach.advise(self.state)
        self.events.append(
            Event(
                "advice",
                len(self._decision_index),
                self.to_move,
                str(rows[0].action) if rows else "",
            )
        )
        return rows

    # --- records ---------------------------------------------------------------------------

    def result(self) -> dict[str, Any]:
        """``{"finished", "returns"}`` (returns only once the game is over)."""
        if not self.over:
            return {"finished": False, "returns": None}
        return {"finished": True, "returns": [float(r) for r in self.state.returns()]}

    def to_record(self) -> dict[str, Any]:
        """The game as plain data (docs/sessions.md): enough to replay it exactly."""
        return {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "game": self.game.name,
            "rules": self.rules,
            "seats": [s.to_json() for s in self.seats],
            "seed": self.seed,
            "coach": self.coach_spec,
            "decisions": self.decisions(),
            "chance": self.chance_texts(),
            "takebacks": [{"to": t.to, "undone": t.undone} for t in self.takebacks],
            "result": self.result(),
            **({} if self.dealt is None else {"dealt": list(self.dealt)}),
        }

    def to_json(self) -> str:
        return json.dumps(self.to_record(), ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str | bytes, game: str | None = None) -> Session:
        """Read a record (at most :data:`MAX_RECORD_BYTES`); ``game`` refuses records of
        other games. Every problem raises :class:`RecordError` naming it."""
        size = len(text.encode("utf-8") if isinstance(text, str) else text)
        if size > MAX_RECORD_BYTES:
            raise RecordError(
                f"the record is {size:,} bytes; a game record is at most {MAX_RECORD_BYTES:,}"
            )
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"the record is not complete JSON (truncated?): {exc}") from None
        except UnicodeDecodeError:
            raise RecordError("the record is not UTF-8 text") from None
        except RecursionError:
            raise RecordError("the record's JSON is nested too deeply") from None
        return cls.from_record(data, game)

    @classmethod
    def from_record(cls, data: object, game: str | None = None) -> Session:
        """Replay a record, checking every field and every decision."""
        if not isinstance(data, dict):
            raise RecordError("a game record is a JSON object")
        if data.get("format") != RECORD_FORMAT:
            raise RecordError(f"not a Stratagem game record (format {RECORD_FORMAT!r} expected)")
        unknown = sorted(set(data) - _RECORD_KEYS)
        if unknown:
            raise RecordError(f"the record has unknown fields: {', '.join(map(str, unknown))}")
        if data.get("version") != RECORD_VERSION:
            raise RecordError(
                f"record version {data.get('version')!r}; this Stratagem reads version "
                f"{RECORD_VERSION}"
            )
        name = _text(data, "game")
        if game is not None and name != game:
            raise RecordError(f"this is a record of a {name} game, not of {game}")
        try:
            spec = load_game(name)
        except StratagemError as exc:
            raise RecordError(f"record: {exc}") from None
        rules = _text(data, "rules")
        seats_data = data.get("seats")
        if not isinstance(seats_data, list) or not seats_data:
            raise RecordError("the record's seats must be a non-empty list")
        if len(seats_data) > spec.max_players:
            raise RecordError(
                f"the record has {len(seats_data)} seats; {name} takes at most {spec.max_players}"
            )
        seats = [_read_seat(s, i) for i, s in enumerate(seats_data)]
        seed = data.get("seed")
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
            raise RecordError(f"the record's seed must be a whole number 0..{MAX_SEED}")
        coach = data.get("coach")
        if coach is not None and not (isinstance(coach, str) and 0 < len(coach) <= MAX_TEXT):
            raise RecordError(
                f"the record's coach must be null or an agent spec of at most {MAX_TEXT} characters"
            )
        decisions = _texts(data, "decisions", required=True) or []
        chance = _texts(data, "chance", required=False)
        dealt = _texts(data, "dealt", required=False)
        try:
            session = cls(spec, rules, seats, seed, coach, dealt)
        except StratagemError as exc:
            raise RecordError(f"record: {exc}") from None
        session._replay(decisions)
        if chance is not None and chance != session.chance_texts():
            got = session.chance_texts()
            k = next((i for i, (a, b) in enumerate(zip(chance, got)) if a != b), None)
            if k is None:
                raise RecordError(
                    f"the record lists {len(chance)} chance outcomes, the game has {len(got)}"
                )
            by = f"seed {seed}" if dealt is None else "the recorded deal"
            raise RecordError(
                f"chance outcome {k + 1} of the record is {chance[k]!r} but {by} deals "
                f"{got[k]!r}: the record was changed, or written with another deal"
            )
        session.takebacks = _read_takebacks(data.get("takebacks"), len(decisions))
        result = data.get("result")
        if result is not None:
            _check_result(result, session.result())
        session.events.append(Event("import", len(decisions), None, f"{len(decisions)} decisions"))
        return session

    # --- inside ----------------------------------------------------------------------------

    def chance_generator(self, state: State) -> np.random.Generator:
        """The generator that draws the outcome of ``state``'s chance event (see the
        module's doc: a function of the seed and the chance node only)."""
        if chance_key(state) is not None:
            return self._deal.chance(state)
        digest = hashlib.sha256("\n".join(step.text for step in self._line).encode()).digest()
        words = np.frombuffer(digest, dtype=np.uint32)
        return np.random.default_rng([self.seed, 3, *(int(w) for w in words)])

    def _recorded_chance(self, state: State) -> Action | None:
        """The recorded deal's outcome of this chance node (the k-th of the line), when the
        session has one and it can happen here; else None (the seed deals)."""
        if self.dealt is None:
            return None
        k = sum(1 for step in self._line if step.player == CHANCE)
        if k >= len(self.dealt):
            return None
        try:
            outcome: Action = state.chance_from_text(self.dealt[k])  # type: ignore[attr-defined]
            state.apply(outcome)
        except StratagemError:
            return None
        return outcome

    def _resolve_chance(self) -> None:
        state = self.state
        while state.current_player == CHANCE:
            if len(self._line) - len(self._decision_index) >= MAX_DECISIONS:
                raise IllegalActionError(
                    f"the game did not end after {MAX_DECISIONS:,} chance outcomes, the most "
                    "a record holds: its positions may come back forever"
                )
            outcome = self._recorded_chance(state)
            if outcome is None:
                outcome = sample_chance(state, self.chance_generator(state))
            self._line.append(Step(CHANCE, outcome, str(outcome), "chance"))
            state = state.apply(outcome)
            self._states.append(state)
            self.events.append(Event("chance", len(self._decision_index), None, str(outcome)))

    def _decide(self, player: int, action: Action, by: Literal["human", "agent"]) -> Step:
        if len(self._decision_index) >= MAX_DECISIONS:
            raise IllegalActionError(
                f"the game did not end after {MAX_DECISIONS:,} decisions, the most a record "
                "holds: its positions may come back forever"
            )
        step = Step(player, action, str(action), by)
        state = self.state.apply(action)
        cut, logged = len(self._line), len(self.events)
        self._decision_index.append(cut)
        self._line.append(step)
        self._states.append(state)
        self.events.append(Event("decision", len(self._decision_index) - 1, player, step.text))
        try:
            self._resolve_chance()
        except IllegalActionError:
            # the decision is undone with the chance it led to: the game waits as before
            del self._line[cut:], self._states[cut + 1 :], self._decision_index[-1]
            del self.events[logged:]
            raise
        return step

    def _agent(self, player: int) -> Agent:
        agent = self._agents.get(player)
        if agent is None:
            spec = self.seats[player].agent
            assert spec is not None
            agent = self._agents[player] = self.game.make_agent(self.rules, spec)
        return agent

    @staticmethod
    def _legal_by_text(state: State) -> dict[str, Action]:
        """The legal decisions by text (listed once per position: :class:`_LegalMemo`)."""
        table = _LEGAL.get(state)
        if table is None:
            table = Session._list_legal(state)
            _LEGAL.put(state, table)
        return table

    @staticmethod
    def _list_legal(state: State) -> dict[str, Action]:
        if state.current_player < 0:
            return {}
        table: dict[str, Action] = {}
        for action in state.legal_actions():
            text = str(action)
            if text in table and table[text] != action:
                raise IllegalActionError(
                    f"two legal actions share the text {text!r}; the game cannot record them"
                )
            table[text] = action
        return table

    def _legal(self, state: State, decision: str | Action) -> Action:
        table = self._legal_by_text(state)
        if isinstance(decision, str):
            if len(decision) > MAX_TEXT:
                raise IllegalActionError(f"a decision is at most {MAX_TEXT} characters of text")
            text = " ".join(decision.split())
            if text in table:
                return table[text]
            read = getattr(state, "action_from_text", None)
            if read is not None and table:
                # a decision the legal list cannot enumerate (a phony under a challenge
                # rule): the game reads it, says why it is not legal, or returns None
                action: Action | None = read(text)
                if action is not None:
                    return action
            shown = list(table)[:12]
            more = f" (and {len(table) - len(shown)} more)" if len(table) > len(shown) else ""
            raise IllegalActionError(
                f"{text!r} is not a legal decision here; the legal ones are: "
                f"{', '.join(shown)}{more}"
            )
        text = str(decision)
        if table.get(text) != decision:
            raise IllegalActionError(f"{text!r} is not a legal decision here")
        return table[text]

    def _replay(self, decisions: Sequence[str]) -> None:
        for j, text in enumerate(decisions):
            if self.over:
                raise RecordError(
                    f"the game ended after decision {j} but the record has {len(decisions)}"
                )
            player = self.to_move
            try:
                action = self._legal(self.state, text)
            except StratagemError as exc:
                raise RecordError(
                    f"decision {j + 1} ({text!r}, player {player}) is impossible: {exc}"
                ) from None
            self._decide(player, action, "human" if self.seats[player].human else "agent")


def _spans(numbers: Sequence[int]) -> str:
    shown = ", ".join(map(str, numbers[-10:]))
    return ("..., " if len(numbers) > 10 else "") + shown


def _text(data: Mapping[str, Any], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not 0 < len(value) <= MAX_TEXT:
        raise RecordError(f"the record's {key} must be a text of 1..{MAX_TEXT} characters")
    return value


def _texts(data: Mapping[str, Any], key: str, required: bool) -> list[str] | None:
    value = data.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, list):
        raise RecordError(f"the record's {key} must be a list of texts")
    if len(value) > MAX_DECISIONS:
        raise RecordError(f"the record has {len(value):,} {key}; at most {MAX_DECISIONS:,}")
    for i, item in enumerate(value):
        if not isinstance(item, str) or len(item) > MAX_TEXT:
            raise RecordError(
                f"{key} {i + 1} of the record must be a text of at most {MAX_TEXT} characters"
            )
    return value


def _read_seat(value: object, index: int) -> Seat:
    if isinstance(value, dict) and value.get("kind") == HUMAN and set(value) == {"kind"}:
        return Seat()
    if (
        isinstance(value, dict)
        and value.get("kind") == "agent"
        and set(value) == {"kind", "spec"}
        and isinstance(value["spec"], str)
        and 0 < len(value["spec"]) <= MAX_TEXT
    ):
        return Seat(value["spec"])
    raise RecordError(
        f'seat {index} of the record must be {{"kind": "human"}} or '
        f'{{"kind": "agent", "spec": "<agent spec>"}}'
    )


def _read_takebacks(value: object, decisions: int) -> list[Takeback]:
    if value is None:
        return []
    if not isinstance(value, list) or len(value) > MAX_DECISIONS:
        raise RecordError(f"the record's takebacks must be a list of at most {MAX_DECISIONS:,}")
    out = []
    for i, item in enumerate(value):
        ok = (
            isinstance(item, dict)
            and set(item) == {"to", "undone"}
            and all(isinstance(item[k], int) and not isinstance(item[k], bool) for k in item)
            and 0 <= item["to"] <= MAX_DECISIONS
            and 1 <= item["undone"] <= MAX_DECISIONS
        )
        if not ok:
            raise RecordError(
                f'takeback {i + 1} of the record must be {{"to": <decision>, '
                f'"undone": <count>}} with whole numbers'
            )
        assert isinstance(item, dict)
        out.append(Takeback(item["to"], item["undone"]))
    return out


def _check_result(value: object, actual: dict[str, Any]) -> None:
    if (
        not isinstance(value, dict)
        or set(value) != {"finished", "returns"}
        or not isinstance(value["finished"], bool)
    ):
        raise RecordError('the record\'s result must be {"finished": true/false, "returns": ...}')
    if value["finished"] is not actual["finished"]:
        said = "finished" if value["finished"] else "in progress"
        really = "over" if actual["finished"] else "not over"
        raise RecordError(
            f"the record says the game is {said}, but its decisions leave it {really}"
        )
    claimed = value["returns"]
    if actual["returns"] is None:
        if claimed is not None:
            raise RecordError("the record gives returns for a game that is not over")
        return
    if (
        not isinstance(claimed, list)
        or len(claimed) != len(actual["returns"])
        or not all(
            isinstance(c, int | float)
            and not isinstance(c, bool)
            and math.isfinite(c)
            and math.isclose(c, a, abs_tol=1e-9)
            for c, a in zip(claimed, actual["returns"])
        )
    ):
        raise RecordError(
            f"the record's returns {claimed!r} are not the game's, {actual['returns']!r}"
        )

"""The numpy one-turn evaluation (advice without numba) equals the kernels' values.

The kernels solve the tables; advice evaluates one turn in numpy
(:mod:`stratagem.games.yahtzee.one_turn`). Both must give the same numbers: the
box outcomes and the expected-score keep values bit for bit, the high-score and
the target-chance turn tables to 1e-12 (float64), on cards with one to three open
boxes and on the empty card. A command that only advises must not import numba.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from stratagem.core.tables import TableCache
from stratagem.games.yahtzee import _high_score_kernels as HK
from stratagem.games.yahtzee import _kernels as K
from stratagem.games.yahtzee import _match_kernels as MK
from stratagem.games.yahtzee import dice as D
from stratagem.games.yahtzee import high_score as H
from stratagem.games.yahtzee import match as M
from stratagem.games.yahtzee import one_turn as O
from stratagem.games.yahtzee import policy_ids as P
from stratagem.games.yahtzee.distribution import RemainingDistributions, remaining_distributions
from stratagem.games.yahtzee.rules import PRESETS, preset
from stratagem.games.yahtzee.solver import Solution, reachable_states
from stratagem.games.yahtzee.state import Score, Situation
from stratagem.games.yahtzee.strategies import OptimalStrategy
from tests.games.yahtzee.test_reference_solver import card_with_open, table_index

ROOT = Path(__file__).resolve().parents[3]

# (preset, open boxes, true upper total, Yahtzee box): one to three open boxes, bonuses
# and jokers in play.
CARDS = [
    ("yahtzee", ("sixes", "full_house"), 40, 50),
    ("yahtzee", ("yahtzee", "chance", "sixes"), 45, None),
    ("yahtzee", ("chance",), 30, 0),
    ("yahtzee-free-joker", ("twos", "small_straight", "chance"), 50, 50),
    ("yatzy", ("yatzy", "two_pairs", "sixes"), 45, None),
]


def sample_states(solution: Solution, per_layer: int, seed: int) -> list[tuple[int, int, int]]:
    layers = reachable_states(solution.rules, solution.arrays)
    rng = np.random.default_rng(seed)
    out = []
    for layer in layers[: solution.rules.num_categories]:
        for i in rng.choice(len(layer), min(per_layer, len(layer)), replace=False):
            out.append((int(layer[i, 0]), int(layer[i, 1]), int(layer[i, 2])))
    return out


@pytest.mark.parametrize("name", list(PRESETS))
def test_box_outcomes_and_keep_values_equal_the_kernels(
    solved: Callable[[str], Solution], name: str
) -> None:
    solution = solved(name)
    a = solution.arrays
    states = sample_states(solution, 12, seed=3)
    flagged = [s for s in states if s[2] == 1]  # Yahtzee box holding 50: bonus and jokers
    assert name == "yatzy" or name == "yahtzee-no-bonus" or len(flagged) > 5
    sid = H.state_index(reachable_states(solution.rules, a), solution.values.shape)
    ncat = solution.rules.num_categories
    pts = np.empty((D.NUM_KEEPS - D.ROLL_START, ncat), dtype=np.int64)
    succ = np.empty_like(pts)
    for mask, u, y in states:
        # The kernel's points and next state (its id stands for (mask, upper, flag)).
        HK.successors(mask, u, y, sid, a.kernel, pts, succ)
        b = O.box_outcomes(a, mask, u, y)
        np.testing.assert_array_equal(b.pts, pts)
        np.testing.assert_array_equal(O.successor_ids(sid, mask, b), succ)
        e0, e1, w = np.empty(D.NUM_KEEPS), np.empty(D.NUM_KEEPS), np.empty(D.NUM_KEEPS)
        K.turn_tables(solution.values, mask, u, y, a.kernel, e0, e1, w)
        x0, x1 = solution.turn_tables(mask, u, y)
        np.testing.assert_array_equal(x0, e0)
        np.testing.assert_array_equal(x1, e1)


def kernel_widget(
    solution: Solution, mask: int, u: int, y: int, targets: np.ndarray, nxt: np.ndarray,
    sid: np.ndarray, lo: np.ndarray, ln: np.ndarray, off: np.ndarray,
) -> tuple[np.ndarray, ...]:  # fmt: skip
    """The numba widget's A, B, C and V for the consecutive targets ``targets``."""
    R = solution.arrays.kernel
    ncat = solution.rules.num_categories
    pts = np.empty((D.NUM_KEEPS - D.ROLL_START, ncat), dtype=np.int64)
    succ = np.empty_like(pts)
    HK.successors(mask, u, y, sid, R, pts, succ)
    nt = len(targets)
    rows = HK.Stages(*(np.empty((D.NUM_KEEPS, nt)) for _ in range(3)))
    out = np.empty(nt)
    HK.widget(int(targets[0]), nt, pts, succ, nxt, HK.BandIndex(sid, lo, ln, off), R, rows, out)
    return (*rows, out)


def assert_turns_equal(numpy_turn: O.HighScoreTurn, kernel: tuple[np.ndarray, ...]) -> None:
    A, B, C, out = kernel
    for mine, theirs in ((numpy_turn.A, A), (numpy_turn.B, B), (numpy_turn.C, C)):
        assert np.abs(mine - theirs).max() <= 1e-12
    assert np.abs(numpy_turn.start - out).max() <= 1e-12


@pytest.mark.parametrize(("name", "open_boxes", "upper", "ybox"), CARDS)
def test_high_score_turn_equals_the_kernel(
    solved: Callable[[str], Solution], name: str, open_boxes: tuple[str, ...], upper: int,
    ybox: int | None,
) -> None:  # fmt: skip
    rules = preset(name)
    solution = solved(name)
    index = table_index(rules, card_with_open(rules, open_boxes, upper, ybox))
    table = H.build_table(solution, dtype=np.float64, start=index)
    mask, u, y = index
    nxt = table.layer(bin(mask).count("1") + 1)
    targets = np.arange(-3, 130)  # below, through and above the band
    mine = table.turn(mask, u, y, targets, solution.box_outcomes(mask, u, y))
    theirs = kernel_widget(solution, mask, u, y, targets, nxt, table.sid, table.lo, table.ln,
                           table.off)  # fmt: skip
    assert_turns_equal(mine, theirs)
    assert 0.0 < mine.start.min() < 1.0 or mine.start.min() == 0.0
    assert mine.start[0] == 1.0  # certain below the band, exactly
    # V at the turn start is the table's own value.
    for j, t in enumerate(targets[::7]):
        assert mine.start[7 * j] == pytest.approx(table.value(mask, u, y, int(t)), abs=1e-12)


def synthetic_bands(
    n: int, ids: np.ndarray, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Random falling bands for the states ``ids`` (as a layer of the table stores them)."""
    lo = np.ones(n, dtype=np.int64)
    ln = np.zeros(n, dtype=np.int64)
    off = np.zeros(n, dtype=np.int64)
    lo[ids] = rng.integers(1, 60, len(ids))
    ln[ids] = rng.integers(0, 250, len(ids))
    off[ids] = np.concatenate(([0], np.cumsum(ln[ids])[:-1]))
    parts = [np.sort(rng.uniform(1e-9, 1.0 - 1e-9, int(k)))[::-1] for k in ln[ids]]
    return lo, ln, off, np.concatenate(parts)


@pytest.mark.parametrize("name", ["yahtzee", "yatzy"])
def test_high_score_turn_of_the_empty_card_equals_the_kernel(
    solved: Callable[[str], Solution], name: str
) -> None:
    """The empty card's turn (13 or 15 open boxes) over bands of its successors: the turn
    is a function of the next layer's bands, so random ones test the two evaluations
    without the whole table (17 minutes to build)."""
    solution = solved(name)
    layers = reachable_states(solution.rules, solution.arrays)
    sid = H.state_index(layers, solution.values.shape)
    ids = sid[layers[1][:, 0], layers[1][:, 1], layers[1][:, 2]]
    lo, ln, off, data = synthetic_bands(int(sid.max()) + 1, ids, np.random.default_rng(5))
    boxes = solution.box_outcomes(0, 0, 0)
    succ = O.successor_ids(sid, 0, boxes)
    targets = np.arange(0, 320)
    mine = O.high_score_turn(targets, boxes.pts, succ, data, lo, ln, off)
    theirs = kernel_widget(solution, 0, 0, 0, targets, data, sid, lo, ln, off)
    assert_turns_equal(mine, theirs)
    assert 0.0 < mine.start[150] < 1.0


def synthetic_remaining(
    solution: Solution, rng: np.random.Generator
) -> RemainingDistributions:
    """Random remaining-score distributions for the states one box into the game."""
    layers = reachable_states(solution.rules, solution.arrays)
    sid = H.state_index(layers, solution.values.shape)
    n = int(sid.max()) + 1
    ids = sid[layers[1][:, 0], layers[1][:, 1], layers[1][:, 2]]
    offsets = np.full(n, -1, dtype=np.int64)
    lows = np.zeros(n, dtype=np.int64)
    lengths = np.zeros(n, dtype=np.int64)
    lows[ids] = rng.integers(0, 80, len(ids))
    lengths[ids] = rng.integers(1, 400, len(ids))
    offsets[ids] = np.concatenate(([0], np.cumsum(lengths[ids])[:-1]))
    parts = [rng.dirichlet(np.ones(int(k))) for k in lengths[ids]]
    data = np.concatenate(parts).astype(np.float32)
    return RemainingDistributions(solution.rules, "optimal", sid, offsets, lows, lengths, data,
                                  0.0)  # fmt: skip


def kernel_win_turn(
    solution: Solution, tables: RemainingDistributions, card: tuple[int, int, int, int],
    fw: np.ndarray,
) -> tuple[np.ndarray, ...]:  # fmt: skip
    n = D.NUM_KEEPS
    W, E0, E1, ceil, Mx = (np.zeros(n) for _ in range(5))
    cat = np.full(n, -1, dtype=np.int64)
    memo = np.empty((solution.rules.num_categories, MK.MAX_POINTS))
    T = (tables.sid, tables.offsets, tables.lows, tables.lengths, tables.data)
    MK.win_turn_tables(*card, fw, T, solution.arrays.kernel, (W, E0, E1, ceil, cat), Mx, memo)
    return W, E0, E1, cat


@pytest.mark.parametrize(("name", "open_boxes", "upper", "ybox"), CARDS[:3] + CARDS[4:])
def test_target_chance_turn_equals_the_kernel(
    solved: Callable[[str], Solution], name: str, open_boxes: tuple[str, ...], upper: int,
    ybox: int | None,
) -> None:  # fmt: skip
    """``--target-play expected``: the turn of :func:`.match.win_turn` (numpy) against the
    compiled player's :func:`._match_kernels.win_turn_tables`, for targets and for an
    opponent's win table."""
    rules = preset(name)
    solution = solved(name)
    mask, u, y = table_index(rules, card_with_open(rules, open_boxes, upper, ybox))
    tables = remaining_distributions(solution, start=(mask, u, y))
    s_opp = int(tables.sid[mask, u, y])
    fw_opp = np.empty(P.FW_LEN)
    MK.opponent_table(180, s_opp, tables.offsets, tables.lows, tables.lengths, tables.data,
                      fw_opp)  # fmt: skip
    np.testing.assert_array_equal(M.opponent_win_table(tables, (mask, u, y, 180)), fw_opp)
    uncertain = 0
    for total, fw in ((200, M.target_win_table(215)), (200, M.target_win_table(260)),
                      (150, fw_opp)):  # fmt: skip
        mine = M.win_turn(solution, tables, (mask, u, y, total), fw)
        W, E0, E1, cat = kernel_win_turn(solution, tables, (mask, u, y, total), fw)
        assert np.abs(mine.W - W).max() <= 1e-12
        assert np.abs(mine.E0 - E0).max() <= 1e-12
        assert np.abs(mine.E1 - E1).max() <= 1e-12
        np.testing.assert_array_equal(mine.cat[D.ROLL_START :], cat[D.ROLL_START :])
        uncertain += 0.0 < mine.start < 1.0
    assert uncertain >= 1


@pytest.mark.parametrize("name", ["yahtzee", "yatzy"])
def test_target_chance_turn_of_the_empty_card_equals_the_kernel(
    solved: Callable[[str], Solution], name: str
) -> None:
    solution = solved(name)
    tables = synthetic_remaining(solution, np.random.default_rng(11))
    for target in (60, 120, 200):
        fw = M.target_win_table(target)
        mine = M.win_turn(solution, tables, (0, 0, 0, 0), fw)
        W, E0, E1, cat = kernel_win_turn(solution, tables, (0, 0, 0, 0), fw)
        assert np.abs(mine.W - W).max() <= 1e-12
        assert np.abs(mine.E1 - E1).max() <= 1e-12
        assert np.abs(mine.E0 - E0).max() <= 1e-12
        np.testing.assert_array_equal(mine.cat[D.ROLL_START :], cat[D.ROLL_START :])


# -- the tie rule -------------------------------------------------------------------------


def test_rank_breaks_ties_by_expected_score() -> None:
    values = np.array([0.5, 0.5 + 1e-13, 0.4, 0.5 - 1e-9])
    expected = np.array([10.0, 5.0, 99.0, 50.0])
    # 0 and 1 tie (within 1e-12), 0 has the larger expected score; then 1, then 3, then 2.
    assert O.rank(values, expected).tolist() == [0, 1, 3, 2]
    assert O.rank(np.zeros(3), np.array([1.0, 3.0, 3.0])).tolist() == [1, 2, 0]


def test_where_the_target_is_certain_the_choice_is_the_expected_score_optimum(
    solved: Callable[[str], Solution],
) -> None:
    """Every option keeps a low target certain (chance and one more box open, 5 points
    needed): the high-score strategy's choice is then the expected-score optimum's,
    at every roll and rolls-left; before the tie rule it was simply the first box."""
    rules = preset("yahtzee")
    solution = solved("yahtzee")
    c = card_with_open(rules, ("chance", "full_house", "sixes"), 40, 50)
    index = table_index(rules, c)
    table = H.build_table(solution, dtype=np.float64, start=index)
    opt = OptimalStrategy(solution)
    rng = np.random.default_rng(2)
    differ = 0
    for _ in range(40):
        dice = tuple(sorted(int(v) for v in rng.integers(1, 7, 5)))
        for rolls_left in (0, 1, 2):
            sit = Situation(rules, dice, rolls_left, c.filled, c.upper, c.yahtzee_box)
            strategy = H.HighScoreStrategy(solution, sit.points + 5, table)
            advice = strategy.advise_situation(sit)
            assert all(a.value == 1.0 for a in advice)
            best = opt.advise_situation(sit)
            assert advice[0].action == best[0].action
            # The old rule (the first box of the card) often chose otherwise.
            first_box = min((a.action for a in advice if isinstance(a.action, Score)),
                            key=lambda s: rules.categories.index(s.category))  # fmt: skip
            differ += advice[0].action != first_box
    assert differ > 0


@pytest.mark.parametrize(("name", "open_boxes", "upper", "ybox", "need"), [
    ("yatzy", ("ones", "chance", "one_pair"), 61, None, 5),  # chance is open: every play is sure
    ("yahtzee", ("sixes", "chance", "yahtzee"), 45, None, 100),
])  # fmt: skip
def test_tie_rule_keeps_the_chance_and_recovers_expected_score(
    solved: Callable[[str], Solution], name: str, open_boxes: tuple[str, ...], upper: int,
    ybox: int | None, need: int,
) -> None:  # fmt: skip
    """The compiled policy (tie rule inside) reaches the target with chance V, and where
    V is 1 its mean is the expected-score optimum's."""
    rules = preset(name)
    solution = solved(name)
    c = card_with_open(rules, open_boxes, upper, ybox)
    mask, u, y = table_index(rules, c)
    points = Situation(rules, (1, 2, 3, 4, 6), 2, c.filled, c.upper, c.yahtzee_box).points
    table = H.build_table(solution, dtype=np.float64, start=(mask, u, y))
    target = points + need
    low, pmf = H.high_score_distribution(solution, table, target, (mask, u, y, points))
    scores = np.arange(low, low + len(pmf))
    v = table.value(mask, u, y, need)
    assert pmf[scores >= target].sum() == pytest.approx(v, abs=1e-12)
    mean = float(scores @ pmf)
    optimum = points + solution.state_value(mask, u, y)
    if need == 5:
        assert v == 1.0
        assert mean == pytest.approx(optimum, abs=1e-9)  # the old rule gave points up here
    else:
        assert 0.0 < v < 1.0
        assert mean <= optimum + 1e-9


# -- no numba on the advice path ----------------------------------------------------------

LATE = ("yahtzee", ("sixes", "chance", "four_of_a_kind"), 35, 50)


@pytest.fixture(scope="module")
def late_cache(
    tmp_path_factory: pytest.TempPathFactory, solved: Callable[[str], Solution]
) -> Path:
    """A private cache holding the solution and, for the states a late card can reach
    only, the high-score and remaining-score tables, as the commands read them."""
    name, open_boxes, upper, ybox = LATE
    rules = preset(name)
    solution = solved(name)
    index = table_index(rules, card_with_open(rules, open_boxes, upper, ybox))
    directory = tmp_path_factory.mktemp("late-cache")
    cache = TableCache(directory)
    from stratagem.games.yahtzee import solver

    cache.save(solver.TABLE_KIND, rules.fingerprint, solver.FORMAT_VERSION,
               {"values": solution.values}, meta={"rules": name})  # fmt: skip
    ncat = rules.num_categories

    def high(writer: object) -> None:
        H.build_table(solution, writer, start=index)  # type: ignore[arg-type]
        for f in range(bin(index[0]).count("1")):  # the layers this card never reaches
            writer.put(f"layer{f:02d}", np.zeros(0, dtype=np.float32))  # type: ignore[attr-defined]

    def remaining(writer: object) -> None:
        t = remaining_distributions(solution, "optimal", dtype=np.float32, start=index)
        for key in ("sid", "offsets", "lows", "lengths", "data"):
            writer.put(key, getattr(t, key))  # type: ignore[attr-defined]

    cache.load_or_build_mapped(H.TABLE_KIND, rules.fingerprint, H.FORMAT_VERSION, high)
    cache.load_or_build_mapped(M.REMAINING_KIND, rules.fingerprint, M.REMAINING_VERSION,
                               remaining)  # fmt: skip
    assert ncat == 13
    return directory


def run_advise(cache: Path, args: list[str]) -> tuple[dict[str, object], bool]:
    """``stratagem yahtzee advise ARGS --json`` in a new process: its options and whether
    it imported numba."""
    script = (
        "import json, runpy, sys\n"
        "sys.argv = ['stratagem', *json.loads(sys.argv[1])]\n"
        "try:\n"
        "    runpy.run_module('stratagem', run_name='__main__')\n"
        "except SystemExit as exc:\n"
        "    assert not exc.code, exc.code\n"
        "print('NUMBA', 'numba' in sys.modules, file=sys.stderr)\n"
    )
    env = {**os.environ, "STRATAGEM_CACHE_DIR": str(cache),
           "PYTHONPATH": str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", "")}
    done = subprocess.run([sys.executable, "-c", script, json.dumps([*args, "--json"])],
                          capture_output=True, text=True, env=env, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    flag = [line for line in done.stderr.splitlines() if line.startswith("NUMBA ")]
    return json.loads(done.stdout)["result"], flag == ["NUMBA True"]


@pytest.mark.parametrize("play", ["high-score", "expected"])
def test_advise_with_a_target_does_not_import_numba(
    late_cache: Path, solved: Callable[[str], Solution], play: str
) -> None:
    from stratagem.games.yahtzee.winning import ChanceAdvisor

    name, open_boxes, upper, ybox = LATE
    rules = preset(name)
    solution = solved(name)
    c = card_with_open(rules, open_boxes, upper, ybox)
    sit = Situation(rules, (6, 6, 6, 2, 3), 2, c.filled, c.upper, c.yahtzee_box)
    target = sit.points + 60
    filled = ",".join(b for b in rules.categories if b in c.filled)
    args = ["yahtzee", "advise", "--dice", "66623", "--rolls-left", "2", "--filled", filled,
            "--upper", str(upper), "--yahtzee-box", str(ybox), "--score", str(sit.points),
            "--target", str(target), "--target-play", play]  # fmt: skip
    result, numba = run_advise(late_cache, args)
    assert not numba
    index = table_index(rules, c)
    if play == "high-score":
        table = H.build_table(solution, dtype=np.float64, start=index)
        want = H.HighScoreStrategy(solution, target, table).advise_situation(sit)
    else:
        tables = remaining_distributions(solution, start=index)
        want = ChanceAdvisor(solution, tables).advise_target(sit, target)
    got = result["options"]
    assert isinstance(got, list)
    values = {str(g["action"]): float(g["value"]) for g in got}
    assert set(values) == {str(w.action) for w in want}
    for w in want:  # the command reads the table stored in single precision
        assert values[str(w.action)] == pytest.approx(w.value, abs=1e-6), w.action
    assert float(got[0]["value"]) == pytest.approx(want[0].value, abs=1e-6)


def test_distinct_is_numpy_unique() -> None:
    keys = np.random.default_rng(0).integers(-5, 40, 300)
    uniq, inverse = O.distinct(keys)
    want, want_inverse = np.unique(keys, return_inverse=True)
    np.testing.assert_array_equal(uniq, want)
    np.testing.assert_array_equal(inverse, want_inverse)
    np.testing.assert_array_equal(uniq[inverse], keys)


def flip_byte(cache: TableCache, kind: str, key: str, version: int, array: str,
              element: int) -> None:  # fmt: skip
    """Change one byte of element ``element`` of a stored array (the file stays whole)."""
    mapped = cache.open_mapped(kind, key, version)
    assert mapped is not None
    entry = next(e for e in mapped.header["arrays"] if e["name"] == array)
    at = int(entry["offset"]) + element * np.dtype(str(entry["dtype"])).itemsize
    path = cache.mapped_path(kind, key, version)
    del mapped
    blob = bytearray(path.read_bytes())
    blob[at] ^= 0xFF
    path.write_bytes(bytes(blob))


@pytest.mark.parametrize("play", ["high-score", "expected"])
def test_advice_from_a_changed_table_is_a_named_error(
    late_cache: Path, tmp_path: Path, solved: Callable[[str], Solution],
    monkeypatch: pytest.MonkeyPatch, play: str,
) -> None:  # fmt: skip
    """A changed byte in what the numpy turn reads is a CacheError naming the checksum."""
    import shutil

    from stratagem.core.errors import CacheError
    from stratagem.games.yahtzee.winning import ChanceAdvisor

    name, open_boxes, upper, ybox = LATE
    rules = preset(name)
    solution = solved(name)
    c = card_with_open(rules, open_boxes, upper, ybox)
    mask, u, y = table_index(rules, c)
    copy = tmp_path / "cache"
    shutil.copytree(late_cache, copy)
    cache = TableCache(copy)
    monkeypatch.setattr(M, "_TABLES", {})  # opened tables are remembered: forget them here
    monkeypatch.setattr(H, "_OPEN", {})
    sit = Situation(rules, (6, 6, 6, 2, 3), 2, c.filled, c.upper, c.yahtzee_box)
    after = (mask | (1 << rules.categories.index("chance")), u, y)  # a state the turn reaches
    fp = rules.fingerprint
    if play == "high-score":
        table = H.high_score_table(solution, cache=cache)
        s = int(table.sid[after])
        element = int(table.off[s])
        filled = bin(after[0]).count("1")
        del table
        H._OPEN.clear()
        flip_byte(cache, H.TABLE_KIND, fp, H.FORMAT_VERSION, f"layer{filled:02d}", element)
        strategy = H.HighScoreStrategy(solution, sit.points + 60,
                                       H.high_score_table(solution, cache=cache))  # fmt: skip
        with pytest.raises(CacheError, match="checksum"):
            strategy.advise_situation(sit)
    else:
        tables = M.optimal_remaining(solution, cache=cache)
        element = int(tables.offsets[int(tables.sid[after])])
        del tables
        M._TABLES.clear()
        flip_byte(cache, M.REMAINING_KIND, fp, M.REMAINING_VERSION, "data", element)
        advisor = ChanceAdvisor(solution, M.optimal_remaining(solution, cache=cache))
        with pytest.raises(CacheError, match="checksum"):
            advisor.advise_target(sit, sit.points + 60)

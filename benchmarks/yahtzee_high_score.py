"""The high-score table and the memory-mapped Yahtzee tables: build, size, load, latency, memory.

Every figure is measured in a child process (wall time with ``time.perf_counter``,
CPU time and peak resident memory from ``os.wait4``), so imports and numba's
cache loading count where a user would pay them:

* the high-score table of one preset: build time (wall and CPU; skipped when
  the cache holds it, then the figures recorded in the file's header at build
  time are shown), size on disk, peak RSS while building, time to open it;
* the remaining-score tables: time to open them (built first if missing);
* ``stratagem yahtzee advise --target 300`` (and ``--target-play expected``): the
  whole process, warm cache, best of 5, whether it imported numba, and where its
  start-up goes (``python -X importtime``, the largest top-level imports);
* ``stratagem yahtzee distribution`` from the empty card: peak RSS and time of
  the first call (computed, on a fresh cache holding only the solved table) and
  the wall time of asking again (cached; best of five);
* P(final >= T) from the empty card for T = 150 .. 500: the best possible
  (the high-score table) beside the expected-score optimum's.

Goals (issue 13): build <= 20 min on 2 cores, <= 1.5 GB on disk, open < 1 s,
build peak RSS <= 1.5 x table size; remaining tables open < 1 s; advise
--target < 1 s warm; distribution peak RSS < 600 MB, second call < 1 s.

Run: ``nice -n 10 python benchmarks/yahtzee_high_score.py --rules yahtzee``
(``--skip-build`` to report only what is cached, ``--only-advise`` for the advise
rows alone). The last line is JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PY = sys.executable
TARGETS = list(range(150, 501, 50))


def child(
    code: str, timeout: float = 7200, env: dict[str, str] | None = None
) -> tuple[str, float, float, float]:
    """Run ``python -c code``; returns (stdout, wall s, CPU s, peak RSS MiB)."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        [PY, "-c", code], stdout=subprocess.PIPE, text=True,
        env=None if env is None else {**os.environ, **env},
    )  # fmt: skip
    assert proc.stdout is not None
    out = proc.stdout.read()
    _pid, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"child failed ({proc.returncode}): {code[:200]}")
    return out, wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def cli(*args: str, env: dict[str, str] | None = None) -> tuple[str, float, float, float]:
    return child(f"import sys; sys.argv = ['stratagem', *{list(args)!r}]; "
                 "from stratagem.cli import main; main()", env=env)  # fmt: skip


def distribution_rows(
    rules: str, setup: str, rows: list[tuple[str, str, str, str]], result: dict[str, object]
) -> None:
    """The rows of ``stratagem yahtzee distribution`` from the empty card (see the module doc)."""
    # The first call computes: it runs on a fresh cache holding only the solved
    # table (copied), so a result cached earlier is not what is measured.
    dist = ["yahtzee", "distribution", "--rules", rules, "--json"]
    solved = child(setup + "; from stratagem.core.tables import TableCache; "
                   "from stratagem.games.yahtzee import solver as S; print(TableCache().path("
                   "S.TABLE_KIND, s.rules.fingerprint, S.FORMAT_VERSION))")[0]  # fmt: skip
    code = (setup + "; import json; from stratagem.games.yahtzee.distribution import "
            f"score_distribution as d; x = d(s); print(json.dumps({{T: x.p_at_least(T) "
            f"for T in {TARGETS}}}))")  # fmt: skip
    with tempfile.TemporaryDirectory() as fresh:
        shutil.copy(solved.strip(), fresh)
        env = {"STRATAGEM_CACHE_DIR": fresh}
        out, wall1, cpu1, rss1 = cli(*dist, env=env)
        again = sorted(cli(*dist, env=env)[1] for _ in range(5))
        result["p_expected_score"] = json.loads(child(code, env=env)[0])
    wall2 = again[0]
    first = json.loads(out)["result"]  # the --json envelope's result
    result.update(distribution_first_seconds=wall1, distribution_first_cpu_seconds=cpu1,
                  distribution_first_rss_mib=rss1, distribution_second_seconds=wall2,
                  distribution_second_seconds_all=again,
                  distribution_mean=first["mean"])  # fmt: skip
    rows.append(("distribution, empty card: peak RSS", f"{rss1:,.0f} MiB",
                 "< 600 MB (572 MiB)", "met" if rss1 * 2**20 < 600e6 else "not met"))  # fmt: skip
    rows.append(("distribution, empty card: time", f"{wall1:.0f} s (CPU {cpu1:.0f} s)",
                 "-", "-"))  # fmt: skip
    rows.append(("distribution, empty card: mean", f"{first['mean']:.6f}", "-", "-"))
    rows.append(("distribution, asked again (best of 5)", f"{wall2:.2f} s", "< 1 s",
                 "met" if wall2 < 1 else "not met"))  # fmt: skip


ADVISE = ["yahtzee", "advise", "--dice", "11234", "--rolls-left", "2", "--target", "300",
          "--json"]  # fmt: skip


def advise_rows(rules: str, rows: list[tuple[str, str, str, str]],
                result: dict[str, object]) -> None:  # fmt: skip
    """Both ``advise --target`` commands: whole process from a warm cache (best of 5, after
    one warm-up run), numba imported or not, and the start-up's largest imports."""
    probe = ("import runpy, sys; sys.argv = ['stratagem', *{args!r}]\n"
             "try:\n    runpy.run_module('stratagem', run_name='__main__')\n"
             "finally:\n    print('numba' in sys.modules, file=sys.stderr)")  # fmt: skip
    for play, key in (("high-score", "advise_target"), ("expected", "advise_target_expected")):
        args = [*ADVISE, "--rules", rules, "--target-play", play]
        cli(*args)
        runs = [cli(*args) for _ in range(5)]
        wall = min(r[1] for r in runs)
        cpu = min(r[2] for r in runs)
        done = subprocess.run([PY, "-c", probe.format(args=args)], capture_output=True,
                              text=True, check=True)  # fmt: skip
        numba = done.stderr.strip().splitlines()[-1] == "True"
        imports = import_times(args)
        result[f"{key}_seconds"] = wall
        result[f"{key}_cpu_seconds"] = cpu
        result[f"{key}_imports_numba"] = numba
        result[f"{key}_imports"] = imports
        label = "advise --target 300" + ("" if play == "high-score" else " --target-play expected")
        rows.append((f"{label} (whole process, warm, best of 5)",
                     f"{wall:.2f} s (CPU {cpu:.2f} s)", "< 1 s",
                     "met" if wall < 1 else "not met"))  # fmt: skip
        rows.append(("  ... imports numba", str(numba), "False",
                     "met" if not numba else "not met"))  # fmt: skip


def import_times(args: list[str]) -> dict[str, float]:
    """Seconds of ``python -X importtime`` per top-level package (cumulative), largest first,
    and the total of every import."""
    code = (f"import sys; sys.argv = ['stratagem', *{args!r}]; "
            "from stratagem.cli import main; main()")  # fmt: skip
    done = subprocess.run([PY, "-X", "importtime", "-c", code], capture_output=True, text=True,
                          check=True)  # fmt: skip
    top: dict[str, float] = {}
    total = 0.0
    for line in done.stderr.splitlines():  # "import time: SELF | CUMULATIVE | <2*level>NAME"
        if not line.startswith("import time:") or "self [us]" in line:
            continue
        self_us, cumulative, raw = line.removeprefix("import time:").split("|")
        total += int(self_us) / 1e6
        name = raw[1:]
        if not name.startswith(" "):  # level 0: imported by the program itself
            root = name.split(".")[0]
            top[root] = top.get(root, 0.0) + int(cumulative) / 1e6
    ranked = dict(sorted(top.items(), key=lambda kv: -kv[1])[:8])
    ranked["all imports"] = total
    return ranked


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="yahtzee")
    parser.add_argument("--skip-build", action="store_true",
                        help="do not build a missing high-score table")  # fmt: skip
    parser.add_argument("--skip-distribution", action="store_true")
    parser.add_argument("--only-advise", action="store_true",
                        help="only the advise rows (the tables must be cached)")  # fmt: skip
    parser.add_argument("--distribution-only", action="store_true",
                        help="only the rows of `distribution` from the empty card")  # fmt: skip
    args = parser.parse_args()
    rules = args.rules
    rows: list[tuple[str, str, str, str]] = []
    result: dict[str, object] = {"rules": rules}
    if args.only_advise:
        advise_rows(rules, rows, result)
        report(rules, rows, result)
        return
    setup = (f"from stratagem.games.yahtzee.rules import preset; "
             "from stratagem.games.yahtzee.solver import solve; "
             f"s = solve(preset({rules!r}))")  # fmt: skip
    if args.distribution_only:
        distribution_rows(rules, setup, rows, result)
        report(rules, rows, result)
        return
    probe = (setup + "; from stratagem.core.tables import TableCache; "
             "from stratagem.games.yahtzee import high_score as H; "
             "m = TableCache().open_mapped(H.TABLE_KIND, s.rules.fingerprint, H.FORMAT_VERSION); "
             "import json; print(json.dumps(None if m is None else "
             "{'bytes': m.nbytes, 'build': m.header.get('build'), "
             "'path': str(m.path)}))")  # fmt: skip
    info = json.loads(child(probe)[0])
    if info is None and not args.skip_build:
        code = (setup + "; import time, json; from stratagem.games.yahtzee import high_score as H;"
                " t = time.perf_counter(); tab = H.high_score_table(s); "
                "print(json.dumps({'seconds': time.perf_counter() - t}))")  # fmt: skip
        _out, wall, cpu, rss = child(code, timeout=6 * 3600)
        info = json.loads(child(probe)[0])
        info["build"] = {"wall_seconds": wall, "cpu_seconds": cpu, "peak_rss_mib": rss,
                         "measured": "this run"}  # fmt: skip
    if info is not None:
        build = info.get("build") or {}
        size_mib = info["bytes"] / 2**20
        result["table_mib"] = size_mib
        result["build"] = build
        rows.append(("high-score table on disk", f"{size_mib:,.0f} MiB", "<= 1,536 MiB",
                     "met" if size_mib <= 1536 else "not met"))  # fmt: skip
        if build:
            minutes = build.get("wall_seconds", float("nan")) / 60
            rows.append(("build wall time", f"{minutes:.1f} min "
                         f"(CPU {build.get('cpu_seconds', float('nan')) / 60:.1f} min)",
                         "<= 20 min", "met" if minutes <= 20 else "not met"))  # fmt: skip
            rss = build.get("peak_rss_mib", float("nan"))
            rows.append(("build peak RSS", f"{rss:,.0f} MiB", f"<= {1.5 * size_mib:,.0f} MiB",
                         "met" if rss <= 1.5 * size_mib else "not met"))  # fmt: skip
        code = (setup + "; import time, json; from stratagem.games.yahtzee import high_score as H;"
                " t = time.perf_counter(); tab = H.high_score_table(s);"
                " o = time.perf_counter() - t; print(json.dumps({'open': o, 'p': "
                f"{{T: tab.value(0, 0, 0, T) for T in {TARGETS}}}}}))")  # fmt: skip
        out, wall, _cpu, rss = child(code)
        opened = json.loads(out)
        result["open_seconds"] = opened["open"]
        result["p_high_score"] = opened["p"]
        rows.append(("open the high-score table", f"{opened['open']:.3f} s", "< 1 s",
                     "met" if opened["open"] < 1 else "not met"))  # fmt: skip
    code = (setup + "; import time, json; from stratagem.games.yahtzee.match import "
            "optimal_remaining; optimal_remaining(s); from stratagem.games.yahtzee import match;"
            " match._TABLES.clear(); t = time.perf_counter(); optimal_remaining(s); "
            "print(json.dumps(time.perf_counter() - t))")  # fmt: skip
    out, _wall, _cpu, _rss = child(code)
    result["remaining_open_seconds"] = json.loads(out)
    opened_in = float(result["remaining_open_seconds"])  # type: ignore[arg-type]
    rows.append(("open the remaining-score tables", f"{opened_in:.3f} s", "< 1 s",
                 "met" if opened_in < 1 else "not met"))  # fmt: skip
    if info is not None:
        advise_rows(rules, rows, result)
    if not args.skip_distribution:
        distribution_rows(rules, setup, rows, result)
    report(rules, rows, result)


def report(rules: str, rows: list[tuple[str, str, str, str]], result: dict[str, object]) -> None:
    print(f"{rules}: the high-score table and memory-mapped tables")
    width = max(len(r[0]) for r in rows)
    for name, value, goal, verdict in rows:
        print(f"  {name:<{width}}  {value:>24}  goal {goal:<14} {verdict}")
    if "p_high_score" in result and "p_expected_score" in result:
        print("\n  T     best P(final >= T)   expected-score optimum   gain")
        hs = result["p_high_score"]
        ev = result["p_expected_score"]
        assert isinstance(hs, dict) and isinstance(ev, dict)
        for T in TARGETS:
            a, b = hs[str(T)], ev[str(T)]
            print(f"  {T:<5} {a:>18.6f}   {b:>22.6f}   {a - b:+.6f}")
    for key in ("advise_target_imports", "advise_target_expected_imports"):
        if key in result:
            imports = result[key]
            assert isinstance(imports, dict)
            print(f"\n  {key.removesuffix('_imports')}: start-up imports (-X importtime, s)")
            for name, seconds in imports.items():
                print(f"    {name:<28} {seconds:6.3f}")
    print(json.dumps(result))


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
    main()

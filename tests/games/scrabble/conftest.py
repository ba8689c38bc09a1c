"""Shared fixtures: a small lexicon built in-test, ENABLE when present, a private cache."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest

from stratagem.core.tables import TableCache
from stratagem.games.scrabble.board import empty_board, new_tiles
from stratagem.games.scrabble.lexicon import Lexicon, load_lexicon
from stratagem.games.scrabble.movegen import MoveGenerator
from stratagem.games.scrabble.tiles import tile_set
from tests.locking import exclusive

ENABLE = Path(__file__).resolve().parents[3] / ".." / "shared" / "lexicons" / "enable1.txt"
ENABLE = ENABLE.resolve()

# Common short English words (all in ENABLE); enough to make crowded boards.
SMALL_WORDS = """
at as an am ad ax ah ai aa ab ae ag al ar aw ay ba be bi bo by de do ed ef eh el em en er es et
ex fa go ha he hi hm ho id if in is it jo ka la li lo ma me mi mo mu my na ne no nu od oe of oh
om on op or os ow ox oy pa pe pi re sh si so ta ti to uh um un up us ut we wo xi xu ya ye yo za
act ant ape arc are art ate bad bag bar bat bed bee bet bid big bin bit boa bog bot box boy bud
bug bus but buy cab can cap car cat cod cog cot cow cry cub cue cup cut dab dad day den dew did
die dig dim din dip doe dog don dot dry due dug ear eat ebb egg ego elf elk end era eve ewe eye
fan far fat fax fed fee few fib fig fin fir fit fix fly foe fog for fox fry fun fur gag gap gas
gel gem get gin god got gum gun gut guy had hag ham has hat hay hen her hex hid him hip his hit
hog hop hot how hub hue hug hum hut ice icy ill imp ink inn ion ire irk its ivy jab jam jar jaw
jet jig job jog jot joy jug jut keg key kid kin kit lab lad lag lap law lax lay led leg let lid
lie lip lit log lot low mad man map mat may men met mid mix mob mop mud mug nab nag nap net new
nib nil nip nit nod nor not now nut oak oar oat odd ode off oft oil old one opt orb ore our out
owe owl own pad pal pan par pat paw pay pea peg pen pep per pet pew pie pig pin pit ply pod pop
pot pry pub pun pup put quiz rag ram ran rap rat raw ray red rib rid rig rim rip rob rod rot
row rub rug rum run rut rye sad sag sap sat saw say sea see set sew she shy sin sip sir sit six
ski sky sly sob sod son sow soy spa spy sty sub sue sum sun sup tab tad tag tan tap tar tax tea
tee ten the tie tin tip toe ton too top tot tow toy try tub tug two urn use van vat vet vex via
vie vow wag war was wax way web wed wet who why wig win wit woe wok won woo wow yak yam yap yaw
yea yes yet yew you zap zed zen zip zoo able acre aged also area army aunt away axes back bake
bald ball band bank bare barn base bath bead beam bean bear beat bent best bird bite blot blue
boat body bold bone book boot bore born both bowl brag bran bred brew brim bull burn bust cafe
cake calm came camp cane care cart case cash cast cave cell chat chin chip chop cite city clad
clam clan clap claw clay clip clog clot club clue coal coat code coil coin cold come cone cook
cool cope copy cord core corn cost cozy crab crew crib crop crow cube cure curl cute dare dark
dart data date dawn days dead deal dear debt deck deed deep deer dent desk dial dice diet dine
dirt dish dive dock does done door dose dote dove down drag draw drew drip drop drum dual duck
dude duel dune dusk dust duty each earn ease east easy eats edge edit else even ever evil exam
exit face fact fade fail fair fake fall fame fare farm fast fate fear feat feed feel fern file
fill film find fine fire firm fish fist five flag flat flaw flea fled flew flip quit quite
quote zero zone zoom jazz jinx jolt joke just kite knot lace lake lamb lame lamp land lane last
late lead leaf lean left lend lens less liar lice lick life lift like line
""".split()  # noqa: SIM905


@pytest.fixture(scope="session")
def english():  # type: ignore[no-untyped-def]
    return tile_set("english")


@pytest.fixture(scope="session")
def small_lexicon(english):  # type: ignore[no-untyped-def]
    return Lexicon.from_words(SMALL_WORDS, english, "small test list")


@pytest.fixture()
def small_words_file(tmp_path, monkeypatch):  # type: ignore[no-untyped-def]
    """The small list as a word-list file, with a cache of the test's own (a command line
    builds its lexicon there)."""
    monkeypatch.setenv("STRATAGEM_CACHE_DIR", str(tmp_path / "cache"))
    path = tmp_path / "words.txt"
    path.write_text("\n".join(SMALL_WORDS) + "\n")
    return path


@pytest.fixture(scope="session")
def enable_lexicon(english, run_tmp):  # type: ignore[no-untyped-def]
    if not ENABLE.exists():
        pytest.skip(f"ENABLE word list not found at {ENABLE}")
    cache = run_tmp / "lexcache"  # built by one xdist worker, loaded by the others
    with warnings.catch_warnings(), exclusive(cache, "enable"):
        warnings.simplefilter("ignore")  # the skipped-words report
        return load_lexicon(ENABLE, english, TableCache(cache))


@pytest.fixture(scope="session")
def enable_words():  # type: ignore[no-untyped-def]
    if not ENABLE.exists():
        pytest.skip(f"ENABLE word list not found at {ENABLE}")
    return {w.strip().upper() for w in ENABLE.read_text().split()}


def random_positions(lexicon, seed, games, pick_best=False):  # type: ignore[no-untyped-def]
    """(board, rack) pairs met in self-play with random (or best) placements."""
    tiles = lexicon.tiles
    gen = MoveGenerator(lexicon)
    rng = np.random.default_rng(seed)
    for _ in range(games):
        bag = [i for i, n in enumerate(tiles.bag_counts) for _ in range(int(n))]
        rng.shuffle(bag)
        board = empty_board()
        racks = [np.zeros(tiles.size + 1, np.int32) for _ in range(2)]
        for rack in racks:
            for _ in range(7):
                rack[bag.pop()] += 1
        player, stuck = 0, 0
        while stuck < 2 and racks[player].sum() > 0:
            rack = racks[player]
            yield board.copy(), rack.copy()
            moves = gen.moves(board, rack)
            if not moves:
                stuck += 1
                # swap the whole rack back so that the game moves on
                for i, n in enumerate(rack):
                    bag.extend([i] * int(n))
                rack[:] = 0
                rng.shuffle(bag)
                for _ in range(min(7, len(bag))):
                    rack[bag.pop()] += 1
                player = 1 - player
                continue
            stuck = 0
            move = moves[0] if pick_best else moves[int(rng.integers(len(moves)))]
            for r, c, code in new_tiles(board, move, tiles):
                board[r, c] = code
                rack[tiles.size if code >= 64 else code] -= 1
            while rack.sum() < 7 and bag:
                rack[bag.pop()] += 1
            player = 1 - player

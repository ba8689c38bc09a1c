"""Build the shipped ENABLE word list: src/stratagem/games/scrabble/data/enable1.fc.gz.

ENABLE (the Enhanced North American Benchmark Lexicon, 172,823 words) was released by
its authors into the public domain. The package ships it as the default English word
list so that a user who installs Stratagem plays on a real Scrabble list, not on the
informal wordfreq list; the uncompressed file is never committed.

The shipped form is *front coded* and then gzipped: the words stay in the file's
order, and each line is one character giving how many leading letters it shares with
the word before (``chr(48 + n)``) followed by the rest of the word. Sorted word lists
share long prefixes, so this is 1.4 times smaller than gzipping the list itself (and
gzip, unlike bz2 and xz, is in every Python build). :func:`decode` rebuilds the
original file byte for byte, so the package checks it against the published
SHA-256 (``stratagem.games.scrabble.lexicon.ENABLE_SHA256``) every time it reads it.

Usage (from the repository's root; the default input is the shared copy):

    python scripts/build_enable.py [--source ../shared/lexicons/enable1.txt]
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "src" / "stratagem" / "games" / "scrabble" / "data" / "enable1.fc.gz"
SOURCE = ROOT.parent / "shared" / "lexicons" / "enable1.txt"
ENABLE_SHA256 = "3f16130220645692ed49c7134e24a18504c2ca55b3c012f7290e3e77c63b1a89"
"""SHA-256 of enable1.txt as published (172,823 lowercase words, LF line ends)."""
MAX_SHARED = 74
"""Longest shared prefix a line records (chr(48 + 74) is 'z'); ENABLE's words are at most 28."""


def encode(text: str) -> bytes:
    """Front-code the lines of ``text`` (which must end with a newline)."""
    if not text.endswith("\n"):
        raise ValueError("the word list must end with a newline")
    lines = []
    previous = ""
    for word in text[:-1].split("\n"):
        shared = 0
        limit = min(len(word), len(previous), MAX_SHARED)
        while shared < limit and word[shared] == previous[shared]:
            shared += 1
        lines.append(chr(48 + shared) + word[shared:])
        previous = word
    return "\n".join(lines).encode("utf-8")


def decode(coded: bytes) -> bytes:
    """The original file from :func:`encode`'s output (the same code is in lexicon.py)."""
    words = []
    previous = ""
    for line in coded.decode("utf-8").split("\n"):
        word = previous[: ord(line[0]) - 48] + line[1:]
        words.append(word)
        previous = word
    return ("\n".join(words) + "\n").encode("utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--source", type=Path, default=SOURCE, help="enable1.txt")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    blob = args.source.read_bytes()
    digest = hashlib.sha256(blob).hexdigest()
    if digest != ENABLE_SHA256:
        print(f"error: {args.source} has SHA-256 {digest}, not ENABLE's", file=sys.stderr)
        return 2
    coded = encode(blob.decode("utf-8"))
    if decode(coded) != blob:
        print("error: the front coding does not give the file back", file=sys.stderr)
        return 2
    # mtime=0 and no file name: the same input always gives the same bytes.
    packed = gzip.compress(coded, compresslevel=9, mtime=0)
    fd, tmp = tempfile.mkstemp(dir=args.out.parent, prefix=".enable-")
    with os.fdopen(fd, "wb") as fh:
        fh.write(packed)
    os.replace(tmp, args.out)
    words = blob.count(b"\n")
    print(f"{args.out}: {len(packed):,} bytes ({len(blob):,} uncompressed, {words:,} words)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

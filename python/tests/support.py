"""What the Python tests share: the test size (DECKSPEC_TEST_SIZE=ci for CI's), the variants
to test, a player count each plays with, and the `deckspec` program for the scenario tests."""

import os
import shutil
import subprocess

import deckspec

CI = os.environ.get("DECKSPEC_TEST_SIZE") == "ci"


def variants():
    """Every bundled variant: the tests discover them, as the Rust suite does."""
    return deckspec.variants()


def player_counts(name):
    """Two counts a variant allows: its fewest and, where allowed, 4."""
    low, high = deckspec.load(name).players
    return sorted({low, min(max(4, low), high)})


def deckspec_program():
    """The `deckspec` program: $DECKSPEC_BIN, else the repository's debug or release build,
    else one on PATH. None when there is none (a test that needs it then fails when
    DECKSPEC_REQUIRE_BIN is set, as in CI, and is skipped otherwise)."""
    given = os.environ.get("DECKSPEC_BIN")
    if given:
        return given
    here = os.path.dirname(os.path.abspath(__file__))
    for profile in ("debug", "release"):
        path = os.path.join(here, "..", "..", "target", profile, "deckspec")
        if os.path.isfile(path):
            return os.path.abspath(path)
    return shutil.which("deckspec")


def run_program(*args, cwd=None):
    program = deckspec_program()
    return subprocess.run(
        [program, *args], cwd=cwd, capture_output=True, text=True, timeout=600
    )

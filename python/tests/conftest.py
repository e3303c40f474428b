"""Shared fixtures: the repository's own fixtures and the shared corpora (skipped with a notice
when absent, like the Rust tests: $WALKMESH_CORPORA, else ../shared/corpora above the repo)."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "corpora"


def shared_corpora():
    env = os.environ.get("WALKMESH_CORPORA")
    if env is not None:
        path = Path(env)
        return path if path.is_dir() else None
    for parent in REPO.parents:
        candidate = parent / "shared" / "corpora"
        if candidate.is_dir():
            return candidate
    candidate = REPO / "shared" / "corpora"
    return candidate if candidate.is_dir() else None


def corpus_files(*extensions):
    root = shared_corpora()
    if root is None:
        return []
    wanted = {e.lower() for e in extensions}
    return sorted(p for p in root.rglob("*") if p.is_file() and p.suffix.lower().lstrip(".") in wanted)


def need_corpora():
    if shared_corpora() is None:
        pytest.skip("shared corpora not found ($WALKMESH_CORPORA or ../shared/corpora): skipped")


def walkmesh_binary():
    """The `walkmesh` command line: $WALKMESH_BIN, target/release/walkmesh, or PATH."""
    env = os.environ.get("WALKMESH_BIN")
    if env:
        return env
    built = REPO / "target" / "release" / "walkmesh"
    if built.is_file():
        return str(built)
    return shutil.which("walkmesh")


@pytest.fixture(scope="session")
def cli():
    binary = walkmesh_binary()
    if binary is None:
        pytest.skip("the walkmesh binary is not built (cargo build --release -p walkmesh-cli)")

    def run(*args, check=True):
        result = subprocess.run([binary, *map(str, args)], capture_output=True, text=True)
        if check and result.returncode != 0:
            raise AssertionError(f"walkmesh {' '.join(map(str, args))}: {result.stderr}")
        return result

    return run


def obj_fixtures():
    return sorted((FIXTURES / "obj").glob("*.obj"))

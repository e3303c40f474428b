#!/usr/bin/env python3
"""How long a `walkmesh view` page takes to become ready in Chromium (issue 36).

Writes the page of each file with each binary, then loads the pages in one headless Chromium
(scripts/headless_chromium.py, the set-up .ci/peers/view_check.py uses too: Debian's chromium
and chromedriver, software WebGL), round by round so that every page sees the same machine
load, and prints per page its size and the median time from navigation to `walkmeshView.ready` (and the page script's own `loadMs`).
One load of each page comes first and is not counted (the browser's first start-up).

    cargo build --release -p walkmesh-cli
    python3 scripts/bench_view_ready.py --runs 9 [--baseline OLD_BINARY] [FILE ...]

Without FILE it times the corpus TRX with the most faces (dm_dungeon.trx) and the largest
(oldskull_descent.trx). Needs selenium (`pip install selenium`).
"""

import argparse
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_processes import ROOT, corpora_dir  # noqa: E402
from headless_chromium import browser, load_until_ready  # noqa: E402


def load(driver, page):
    """Seconds from navigation to the ready flag, and the script's own milliseconds."""
    driver.get("about:blank")
    seconds = load_until_ready(driver, page, poll_s=0.005)
    if seconds is None:
        sys.exit(f"{page} was not ready within 60 s")
    return seconds, driver.execute_script("return walkmeshView.loadMs")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default=str(ROOT / "target/release/walkmesh"))
    parser.add_argument("--baseline", help="another walkmesh binary to compare with")
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("files", nargs="*", type=Path)
    args = parser.parse_args()
    files = args.files
    if not files:
        corpora = corpora_dir()
        if corpora is None:
            sys.exit("no FILE given and the shared corpora were not found")
        files = [corpora / "nwn2/Kaedrin-nwn2cc" / n for n in ["dm_dungeon.trx", "oldskull_descent.trx"]]
    binaries = [("this", args.binary)] + ([("baseline", args.baseline)] if args.baseline else [])
    work = Path(tempfile.mkdtemp(prefix="walkmesh-view-bench-"))
    pages = []
    for name, binary in binaries:
        for file in files:
            page = work / f"{name}-{file.stem}.html"
            subprocess.run([binary, "view", str(file), "-o", str(page)], check=True, capture_output=True)
            pages.append((name, file.name, page))
    driver = browser()
    try:
        for _, _, page in pages:
            load(driver, page)
        ready = {page: [] for _, _, page in pages}
        script = {page: [] for _, _, page in pages}
        for _ in range(args.runs):
            for _, _, page in pages:
                seconds, ms = load(driver, page)
                ready[page].append(seconds)
                script[page].append(ms)
    finally:
        driver.quit()
    print(f"{args.runs} loads per page, medians (Chromium, headless, software WebGL)")
    print("| binary | file | page bytes | ready s | script ms |")
    print("|---|---|---|---|---|")
    for name, file, page in pages:
        print(f"| {name} | {file} | {page.stat().st_size:,} | {statistics.median(ready[page]):.3f} |"
              f" {statistics.median(script[page]):.0f} |")


if __name__ == "__main__":
    main()

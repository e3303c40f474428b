#!/usr/bin/env bash
# Short fuzz run of every cargo-fuzz target (fuzz/README.md): ~30 s each, failing on any crash,
# timeout (> 2 s for one input) or memory use over 512 MB. Installs cargo-fuzz when missing;
# builds on the stable toolchain with RUSTC_BOOTSTRAP=1 (cargo-fuzz passes nightly-only
# flags). Seeds: the project's fixtures written in every format, plus the shared corpora
# when present (tests/src/seeds.rs, written by a test of the main build). FUZZ_SECONDS overrides
# the time per target.
set -euo pipefail
cd "$(dirname "$0")/../.."
TARGETS=(bwm trx path obj gltf erf lyt vis kit indoor mdl)
rm -rf fuzz/corpus/ci
# --exact: the seed writer alone; a run that matched no test would pass with "0 passed", so
# every target's seed folder is checked below as well.
WALKMESH_FUZZ_SEEDS="$PWD/fuzz/corpus/ci" cargo test --release -q -p walkmesh-tests \
  --test fuzz_regressions -- write_fuzz_seeds --exact --nocapture
for target in "${TARGETS[@]}"; do
  seeds="$(find "fuzz/corpus/ci/$target" -type f 2>/dev/null | wc -l)"
  if [ "$seeds" -eq 0 ]; then
    echo "fuzz: no seeds were written for $target (fuzz/corpus/ci/$target)" >&2
    exit 1
  fi
  echo "fuzz: $target has $seeds seeds"
done
cd fuzz
export RUSTC_BOOTSTRAP=1
SECONDS_PER_TARGET="${FUZZ_SECONDS:-30}"
if ! cargo fuzz --version >/dev/null 2>&1; then
  cargo install cargo-fuzz --locked
fi
# No sanitizer: the workspace forbids unsafe code, and instrumenting for ASan would double
# the build time for nothing it could find.
cargo fuzz build --release --sanitizer none
failed=0
for target in "${TARGETS[@]}"; do
  echo "-- fuzz $target (${SECONDS_PER_TARGET}s)"
  mkdir -p "corpus/ci/$target" "artifacts/$target"
  if ! cargo fuzz run --release --sanitizer none "$target" "corpus/ci/$target" -- \
      -max_total_time="$SECONDS_PER_TARGET" -timeout=2 -rss_limit_mb=512 -max_len=262144 \
      -print_final_stats=1 \
      -artifact_prefix="artifacts/$target/" 2>&1 | tail -n 25; then
    echo "fuzz $target FAILED: see fuzz/artifacts/$target/ (copy the input to corpora/fuzz/$target/ as a regression test)"
    failed=1
  fi
done
exit "$failed"

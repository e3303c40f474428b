# Sourced by the peer checks (named .bash so that .ci/run's loop over *.sh does not run it):
# where the shared corpora are, and the rule for when they are not.
# A peer check must never pass having checked nothing: a missing or empty input folder fails,
# and so does a real-file part that found no files while the corpora exist. Only when there are
# no shared corpora at all (a newcomer's clone) may a real-file part be skipped, with a notice;
# WALKMESH_REQUIRE_CORPORA=1 (set by .ci/run) makes that a failure too.

# CORPORA: $WALKMESH_CORPORA (which alone decides when set, as in the Rust tests), else the first
# shared/corpora beside an ancestor of the checkout; empty when there is none.
find_corpora() {
  local root="$1" dir
  CORPORA=""
  if [ -n "${WALKMESH_CORPORA+x}" ]; then
    [ -d "$WALKMESH_CORPORA" ] && CORPORA="$WALKMESH_CORPORA"
    return 0
  fi
  dir="$root"
  while :; do
    if [ -d "$dir/shared/corpora" ]; then
      CORPORA="$dir/shared/corpora"
      return 0
    fi
    [ "$dir" = "/" ] && return 0
    dir="$(dirname "$dir")"
  done
}

# no_corpora NAME WHAT: called when CORPORA is empty. Prints that WHAT is skipped and returns 0,
# or fails (exit 1) when WALKMESH_REQUIRE_CORPORA asks for the corpora.
no_corpora() {
  local required="${WALKMESH_REQUIRE_CORPORA:-}"
  if [ -n "$required" ] && [ "$required" != "0" ]; then
    echo "$1 peer check: WALKMESH_REQUIRE_CORPORA is set but no shared corpora were found" \
      "(WALKMESH_CORPORA or shared/corpora beside an ancestor of the checkout)" >&2
    echo "0 passed, 1 failed"
    exit 1
  fi
  echo "$1 peer check: notice: no shared corpora; $2 is skipped"
}

# need_files NAME WHAT COUNT: fails (exit 1) when COUNT is 0, naming what was expected.
need_files() {
  if [ "$3" -eq 0 ]; then
    echo "$1 peer check: found no $2 to check" >&2
    echo "0 passed, 1 failed"
    exit 1
  fi
}

#!/usr/bin/env bash
# Runs every fuzz target of fuzz/ for SECONDS seconds each (default 20) and fails on any crash.
# cargo-fuzz needs nightly features: with the one stable toolchain here, RUSTC_BOOTSTRAP=1 lets it
# build. Installs cargo-fuzz when missing, seeds the corpora from fixtures/ (fuzz/seed-corpora.py),
# builds all targets once (release, with debug assertions), then runs them in turn and prints each
# target's executions. A crash leaves its input under fuzz/artifacts/<target>/ and ends the script
# with a non-zero status. Settings: TARGETS (all by default), CARGO_TARGET_DIR (fuzz/target),
# CODEGEN_UNITS (16: cargo-fuzz's default of 1 made the build take ten minutes on two cores),
# PROFILE (`release`, the default, for runs that find things; `dev` builds unoptimised, with
# overflow checks, in a fraction of the time, for CI's short smoke runs).
set -euo pipefail
cd "$(dirname "$0")/.."

SECONDS_EACH=${1:-20}
TARGETS=${TARGETS:-fen moves legality legality_rococo verify requests}
export RUSTC_BOOTSTRAP=1

if ! cargo fuzz --version >/dev/null 2>&1; then
  # A wrapper around cargo: unoptimised is as good, and builds in half the time.
  cargo install cargo-fuzz --locked --debug
fi
python3 fuzz/seed-corpora.py >/dev/null

TARGET_DIR=${CARGO_TARGET_DIR:-fuzz/target}
CODEGEN_UNITS=${CODEGEN_UNITS:-16}
case ${PROFILE:-release} in
  release) BUILD=(-O --debug-assertions --codegen-units "$CODEGEN_UNITS" --target-dir "$TARGET_DIR") ;;
  dev) BUILD=(--dev --target-dir "$TARGET_DIR") ;;
  *) echo "PROFILE is release or dev, not ${PROFILE}" >&2; exit 2 ;;
esac
cargo fuzz build "${BUILD[@]}"

LOG=$(mktemp)
trap 'rm -f "$LOG"' EXIT
status=0
for t in $TARGETS; do
  mkdir -p "fuzz/corpus/$t" "fuzz/artifacts/$t"
  if cargo fuzz run "${BUILD[@]}" "$t" "fuzz/corpus/$t" -- \
    -max_total_time="$SECONDS_EACH" -print_final_stats=1 -artifact_prefix="fuzz/artifacts/$t/" \
    >"$LOG" 2>&1; then
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$LOG" | grep -o '[0-9]*$' || echo '?')
    printf '%-9s ok     %12s executions in %s s\n' "$t" "$runs" "$SECONDS_EACH"
  else
    printf '%-9s CRASH\n' "$t"
    grep -E 'panicked|ERROR|SUMMARY|Test unit written|artifact' "$LOG" | head -20
    status=1
  fi
done
exit "$status"

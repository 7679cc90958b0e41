#!/usr/bin/env bash
# The generation rates of issue 59's table: for each stipulation (and game), sound puzzles a minute
# of `baroque generate --stipulation X --count C --seed 1 --threads 2 --json --max-seconds 60`, at
# most 10 pieces, default variety, each into a new SQLite store; the rate from the summary's
# `stored` and `seconds`. The release build. Prints a Markdown table.
#
#   bash scripts/generation-rates.sh [MAX_SECONDS]
#
# BIN=path/to/baroque measures that build instead of building the release one (to compare two
# builds, run both one after the other); ROWS="h#2 s#1" limits the table to those rows (a row is
# named by its stipulation, with `rococo:` before a Rococo one).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
if [ -n "${BIN:-}" ]; then
  bin=$(realpath "$BIN")
else
  cargo build --release --quiet
  bin=$PWD/target/release/baroque
fi
work=$(mktemp -d /tmp/baroque-rates.XXXXXX)
trap 'rm -rf "$work"' EXIT

# Each row: [rococo:]STIPULATION COUNT (the issue's counts: 100 `#3`, 40 Rococo `#3` and `h#2`,
# 100 `=2`, 50 `ser-#3`, 20 `r#2`, 5 to 10 of the others).
rows=(
  "#3 100"
  "rococo:#3 40"
  "h#2 40"
  "h#3 5"
  "s#1 10"
  "s#2 5"
  "r#2 20"
  "=2 100"
  "h=2 10"
  "ser-h#3 10"
  "ser-#3 50"
  "rococo:s#1 5"
  "rococo:h=2 5"
  "rococo:ser-h#3 5"
)

echo "| row | count | stored | seconds | a minute | candidates |"
echo "|---|---|---|---|---|---|"
n=0
for row in "${rows[@]}"; do
  read -r name count <<<"$row"
  if [ -n "${ROWS:-}" ] && ! [[ " $ROWS " == *" $name "* ]]; then
    continue
  fi
  game=baroque
  stipulation=$name
  if [[ $name == rococo:* ]]; then
    game=rococo
    stipulation=${name#rococo:}
  fi
  n=$((n + 1))
  summary=$("$bin" generate --game "$game" --stipulation "$stipulation" --count "$count" --seed 1 \
    --threads 2 --max-pieces 10 --max-seconds "$seconds" --json --collection "r$n" \
    --db "$work/r$n.db" 2>/dev/null || true)
  python3 - "$name" "$count" "$summary" <<'PY'
import json, sys
name, count, text = sys.argv[1], sys.argv[2], sys.argv[3]
try:
    s = json.loads(text.strip().splitlines()[-1])
except (ValueError, IndexError):
    print(f"| `{name}` | {count} | the run gave no summary | | | |")
    sys.exit(0)
stored, took = s.get("stored", 0), s.get("seconds") or 0
rate = stored * 60 / took if took else 0
tried = s.get("progress", {}).get("tried", "")
print(f"| `{name}` | {count} | {stored} | {took:.1f} | {rate:,.0f} | {tried} |")
PY
done

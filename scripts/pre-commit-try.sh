#!/usr/bin/env bash
# Exercises the `baroque-check` hook of .pre-commit-hooks.yaml with `pre-commit try-repo` against a
# small sample repository made here: a good Markdown document passes; once a misprinted diagram is
# added, the hook fails and names the document's line and column.
# Needs git and python3 (pre-commit is installed with pip when missing). pre-commit builds baroque
# with `cargo install` (a release build; the profile is lightened here, as only the hook is tested).
set -euo pipefail
cd "$(dirname "$0")/.."
hooks=$PWD

if ! command -v pre-commit >/dev/null; then
  python3 -m pip install --quiet pre-commit
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export PRE_COMMIT_HOME="$work/pre-commit-cache"
export CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 CARGO_PROFILE_RELEASE_DEBUG=0

sample="$work/sample"
mkdir -p "$sample/docs"
cd "$sample"
git init -q .
git config user.email ci@example.invalid
git config user.name "baroque CI"
cat > docs/rules.md <<'MD'
# Sample rules

```fen rules=vchess
7k/8/8/3Qr3/8/8/8/K7 w 0
```

1.Qa5, 1.Qb5 or 1.Qc5 captures the black rook.
MD
git add docs
git commit -qm "a sample document"

echo "== a good document passes"
pre-commit try-repo "$hooks" baroque-check --all-files

echo "== a misprinted diagram fails on its line"
cat >> docs/rules.md <<'MD'

```fen
7k/8/8/p4r/4K3/8/8/8 w 0
```
MD
git add docs
if pre-commit try-repo "$hooks" baroque-check --all-files >"$work/out" 2>&1; then
  cat "$work/out"
  echo "the hook passed a misprinted diagram" >&2
  exit 1
fi
cat "$work/out"
grep -q "docs/rules.md:10:10 diagram 2: unreadable" "$work/out"
echo "pre-commit hook: ok"

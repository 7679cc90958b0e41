#!/usr/bin/env bash
# Exercises the `baroque-check` hook of .pre-commit-hooks.yaml with `pre-commit try-repo` against a
# small sample repository made here: a good Markdown document passes; once a misprinted diagram is
# added, the hook fails and names the diagram's line, and the misprint's line and column.
# Needs git and python3 (pre-commit is installed with pip when missing). pre-commit builds baroque
# with `cargo install` (a release build; the profile is lightened here, as only the hook is tested).
set -euo pipefail
cd "$(dirname "$0")/.."
hooks=$PWD

# pre-commit (PyPI, pinned) in a virtualenv under target/ when it is not on the PATH.
if ! command -v pre-commit >/dev/null; then
  venv=target/pre-commit-venv
  if [ ! -x "$venv/bin/pre-commit" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet "pre-commit==4.7.0"
  fi
  export PATH="$PWD/$venv/bin:$PATH"
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export PRE_COMMIT_HOME="$work/pre-commit-cache"
export CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=256 CARGO_PROFILE_RELEASE_DEBUG=0 \
  CARGO_PROFILE_RELEASE_OPT_LEVEL=0
# Both runs (and later ones) build in one place instead of a fresh temporary one each.
export CARGO_TARGET_DIR="$hooks/target/pre-commit"

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
# Only the line that matters is shown: the hook's own summary line ("1 passed, 1 failed") would read
# as a test runner's verdict in CI's log.
# A diagram is reported on its first line (the fence, 9); the misprint's own place is in the message.
if ! grep "docs/rules.md:9:1 diagram 2: unreadable: .*(at line 10, column 10)" "$work/out"; then
  cat "$work/out"
  echo "the hook did not name the misprinted diagram's line and column" >&2
  exit 1
fi
echo "pre-commit hook: ok"

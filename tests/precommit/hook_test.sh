#!/usr/bin/env bash
# The pre-commit hook of .pre-commit-hooks.yaml, run by Debian's pre-commit as a
# user's repository runs it: the hooks file (as it is in the source tree, committed
# into a scratch hooks repository) is named by a scratch user repository's
# .pre-commit-config.yaml, with posverify on PATH.
#   - a correct kernel: the commit check passes (exit 0, "Passed");
#   - a wrong kernel: it fails (exit 1) and shows posverify's finding and replay;
#   - no file under `files:` changed: the hook is skipped, posverify never runs.
# usage: hook_test.sh SOURCE_DIR POSVERIFY_BIN CORRECT.so WRONG.so WORK_DIR
set -euo pipefail
src=$1 bin=$2 good=$3 bad=$4 work=$5
rm -rf "$work" && mkdir -p "$work/hooks" "$work/user/src"
export PRE_COMMIT_HOME="$work/cache" PATH="$(dirname "$bin"):$PATH"
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.org GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.org
git() { command git -c init.defaultBranch=main -c commit.gpgsign=false "$@"; }
[[ -x "$(dirname "$bin")/posverify" ]] || { echo "FAIL: $(dirname "$bin")/posverify is not the binary" >&2; exit 1; }

cp "$src/.pre-commit-hooks.yaml" "$work/hooks/"
(cd "$work/hooks" && git init -q && git add . && git commit -qm hooks)
rev=$(command git -C "$work/hooks" rev-parse HEAD)

config() {  # the user's .pre-commit-config.yaml checking kernel $1
  cat > "$work/user/.pre-commit-config.yaml" <<YAML
repos:
  - repo: $work/hooks
    rev: $rev
    hooks:
      - id: posverify-check
        files: ^src/
        args: [--impl, "$1"]
YAML
}
cd "$work/user"
git init -q
echo "// the kernel's source" > src/kernel.c
echo "readme" > README
config "$good"
git add . && git commit -qm kernel

fail() { echo "FAIL: $1"; echo "--- pre-commit output:"; cat "$work/out"; exit 1; }

set +e
pre-commit run --files src/kernel.c > "$work/out" 2>&1; rc=$?
set -e
[[ $rc -eq 0 ]] || fail "the correct kernel $good: exit $rc, expected 0"
grep -q "posverify check.*Passed" "$work/out" || fail "no 'Passed' line for the correct kernel"
compgen -G "$work/user/.posverify/*.json" > /dev/null || fail "no report in .posverify/ (the hook's --out)"

config "$bad"
set +e
pre-commit run --files src/kernel.c > "$work/out" 2>&1; rc=$?
set -e
[[ $rc -eq 1 ]] || fail "the wrong kernel $bad: exit $rc, expected 1"
grep -q "posverify check.*Failed" "$work/out" || fail "no 'Failed' line for the wrong kernel"
grep -q "FAIL " "$work/out" || fail "posverify's FAIL line is not shown"
grep -q "replay: posverify check --impl $bad" "$work/out" || fail "the replay command is not shown"

set +e
pre-commit run --files README > "$work/out" 2>&1; rc=$?
set -e
[[ $rc -eq 0 ]] || fail "no kernel file changed: exit $rc, expected 0"
grep -q "posverify check.*Skipped" "$work/out" || fail "the hook was not skipped for a file outside files:"
echo "pre-commit hook: passed on $good, failed on $bad with finding and replay, skipped outside files:"

#!/usr/bin/env bash
# scripts/slowest-tests on a cost file of 5000 tests (a pipe's worth many times
# over, so an early-closing reader would SIGPIPE its writer every time): exit 0,
# exactly the ten largest, in order. Then: no cost file prints nothing, exit 0.
set -euo pipefail
script="$1" work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/b/Testing/Temporary"
for i in $(seq 1 5000); do echo "Suite.Test$i 2 $i.25"; done > "$work/b/Testing/Temporary/CTestCostData.txt"
echo "---" >> "$work/b/Testing/Temporary/CTestCostData.txt"
out="$("$script" "$work/b")" || { echo "slowest-tests exited $?" >&2; exit 1; }
want="the ten slowest tests in $work/b (seconds):"
for i in $(seq 5000 -1 4991); do want+=$'\n'"$(printf '%8.1f  %s' "$i.25" "Suite.Test$i")"; done
[[ "$out" == "$want" ]] || { printf 'got:\n%s\nwant:\n%s\n' "$out" "$want" >&2; exit 1; }
mkdir -p "$work/empty"
out="$("$script" "$work/empty")"
[[ -z "$out" ]] || { echo "expected nothing without a cost file, got: $out" >&2; exit 1; }
echo ok

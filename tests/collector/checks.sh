# shellcheck shell=bash
# Assertions shared by the collector's shell suites (sourced by run.sh and secrets.sh, under
# bash): `check DESCRIPTION COMMAND...` runs one assertion and prints `ok` or `FAILED` with the
# description; `passed` and `failed` count them for the suite's summary line.

passed=0
failed=0
ok() {
    passed=$((passed + 1))
    printf 'ok      %s\n' "$*"
}
not_ok() {
    failed=$((failed + 1))
    printf 'FAILED  %s\n' "$*"
}
# check DESCRIPTION COMMAND...: one assertion.
check() {
    local desc=$1
    shift
    if "$@"; then ok "$desc"; else not_ok "$desc"; fi
}

# shellcheck shell=bash
# Assertions shared by the shell suites (sourced under bash by tests/collector/run.sh and
# secrets.sh, tests/zk-watches/run.sh and s3-sample.sh): `check DESCRIPTION COMMAND...` runs one
# assertion and prints `ok` or `FAILED` with the description; `passed` and `failed` count them
# for the suite's summary line. Detail lines, printed only for failures, are indented by four
# spaces.

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
# check DESCRIPTION COMMAND...: one assertion. A failure also prints the command as it was
# run, with its values expanded (indented, at most 400 characters), so that the log says why.
check() {
    local desc=$1 cmd
    shift
    if "$@"; then
        ok "$desc"
    else
        not_ok "$desc"
        cmd="$*"
        printf '    checked: %s\n' "${cmd:0:400}"
    fi
}

# Helpers shared by the end-to-end scripts. Source it after setting `work` (a scratch folder);
# it keeps the counts that `e2e_summary NAME` prints as the closing line "NAME: N passed, M failed".
passed=0
failed=0

check() { # check NAME COMMAND...: passes when COMMAND exits 0 (E2E_VERBOSE=1 shows every output;
    # E2E_ONLY=REGEX runs only the checks whose name or command matches)
    local name=$1
    shift
    if [ -n "${E2E_ONLY:-}" ] && ! grep -Eq -- "$E2E_ONLY" <<<"$name $1"; then return 0; fi
    if "$@" >"$work/out" 2>&1; then
        passed=$((passed + 1))
        echo "ok   $name"
        [ -z "${E2E_VERBOSE:-}" ] || sed 's/^/     /' "$work/out"
    else
        failed=$((failed + 1))
        echo "FAIL $name"
        sed 's/^/     /' "$work/out"
    fi
}

# fails CODE PATTERN COMMAND...: the command exits with CODE (not a signal) and says PATTERN on stderr.
fails() {
    local code=$1 pattern=$2
    shift 2
    "$@" >"$work/stdout" 2>"$work/stderr"
    local status=$?
    [ "$status" -eq "$code" ] || { echo "exit $status, wanted $code"; cat "$work/stderr"; return 1; }
    grep -q -- "$pattern" "$work/stderr" || { echo "stderr lacks '$pattern':"; cat "$work/stderr"; return 1; }
}

# peak FILE [START [LENGTH]]: the largest absolute sample of a sound file (or a stretch of it), per sox.
peak() {
    sox "$1" -n trim "${2:-0}" ${3:+"$3"} stat 2>&1 |
        awk '/Maximum amplitude/ {max=$3} /Minimum amplitude/ {min=-$3} END {print (max > min ? max : min)}'
}

# rms FILE [START [LENGTH]]: the RMS amplitude of a sound file (or a stretch of it), per sox.
rms() { sox "$1" -n trim "${2:-0}" ${3:+"$3"} stat 2>&1 | awk '/RMS +amplitude/ {print $3}'; }

# grows_to FILE BYTES [SECONDS]: waits until FILE holds at least BYTES (a recorder has delivered that
# much sound); on a deadline (default 10 s) says what it waited for and what it saw.
grows_to() {
    local file=$1 want=$2 size=0 _
    for _ in $(seq $((${3:-10} * 20))); do
        size=$(stat -c %s "$file" 2>/dev/null || echo 0)
        [ "$size" -ge "$want" ] && return 0
        sleep 0.05
    done
    echo "$file never held $want bytes in ${3:-10} s: it holds $size"
    return 1
}

above() { awk -v a="$1" -v b="$2" 'BEGIN {exit !(a > b)}'; }

e2e_summary() { # e2e_summary NAME: the closing line, and the exit status
    echo "$1: $passed passed, $failed failed"
    [ "$failed" -eq 0 ]
}

#!/usr/bin/env bash
# Runs a command with a private PulseAudio server whose default sink is a null sink ("test") and
# whose default source is that sink's monitor, so OpenAL plays to a real device path and tests can
# record back what came out. The server is stopped when the command ends, whatever its status.
# Usage: Scripts/with-pulse.sh COMMAND [ARG...]
set -uo pipefail
. "$(dirname "$0")/pulse-lib.sh"

runtime=$(mktemp -d /tmp/soundstation-pulse.XXXXXX)
trap 'pulse_stop "$runtime"; rm -rf "$runtime"' EXIT
pulse_start "$runtime" test || exit 1
export $(pulse_env "$runtime")
export ALSOFT_DRIVERS=pulse
unset PULSE_COOKIE
echo "with-pulse: private PulseAudio server at $PULSE_SERVER (sink: test, source: test.monitor)"
"$@"

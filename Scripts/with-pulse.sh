#!/usr/bin/env bash
# Runs a command with a private PulseAudio server whose default sink is a null sink ("test") and
# whose default source is that sink's monitor, so OpenAL plays to a real device path and tests can
# record back what came out. The server is stopped when the command ends, whatever its status.
# Usage: Scripts/with-pulse.sh COMMAND [ARG...]
set -uo pipefail

runtime=$(mktemp -d /tmp/soundstation-pulse.XXXXXX)
chmod 700 "$runtime"
export XDG_RUNTIME_DIR="$runtime"
export PULSE_RUNTIME_PATH="$runtime/pulse"
export PULSE_SERVER="unix:$runtime/pulse/native"
export ALSOFT_DRIVERS=pulse
unset PULSE_COOKIE

stop() {
    pactl exit >/dev/null 2>&1 || true
    pid=$(cat "$runtime/pulse/pid" 2>/dev/null) && kill "$pid" 2>/dev/null || true
    rm -rf "$runtime"
}
trap stop EXIT

pulseaudio --daemonize=yes --exit-idle-time=-1 -n --disallow-exit=no \
    --load="module-null-sink sink_name=test sink_properties=device.description=Null_Output" \
    --load="module-native-protocol-unix" \
    --log-target=file:"$runtime/pulse.log" 2>/dev/null
for _ in $(seq 50); do pactl info >/dev/null 2>&1 && break; sleep 0.1; done
if ! pactl info >/dev/null 2>&1; then
    echo "with-pulse: the private PulseAudio server did not start; its log:" >&2
    cat "$runtime/pulse.log" >&2
    exit 1
fi
pactl set-default-source test.monitor >/dev/null
echo "with-pulse: private PulseAudio server at $PULSE_SERVER (sink: test, source: test.monitor)"
"$@"

# Private PulseAudio servers for tests: source this file, then
#   pulse_start DIR SINK   starts a server whose runtime folder is DIR, with a null sink SINK as the
#                          default device and its monitor as the default source, and its main thread
#                          real-time (pulse_realtime)
#   pulse_env DIR          prints the variables that point clients (OpenAL, pactl) at that server
#   pulse_stop DIR         stops it
pulse_env() {
    echo "XDG_RUNTIME_DIR=$1 PULSE_RUNTIME_PATH=$1/pulse PULSE_SERVER=unix:$1/pulse/native"
}

pulse_start() {
    local dir=$1 sink=$2
    mkdir -p "$dir" && chmod 700 "$dir"
    env -u PULSE_COOKIE $(pulse_env "$dir") pulseaudio --daemonize=yes --exit-idle-time=-1 -n \
        --disallow-exit=no \
        --load="module-null-sink sink_name=$sink sink_properties=device.description=Null_Output" \
        --load="module-native-protocol-unix" --log-target=file:"$dir/pulse.log" 2>/dev/null
    local _
    for _ in $(seq 50); do
        env $(pulse_env "$dir") pactl info >/dev/null 2>&1 && break
        sleep 0.1
    done
    if ! env $(pulse_env "$dir") pactl info >/dev/null 2>&1; then
        echo "pulse_start: the PulseAudio server in $dir did not start; its log:" >&2
        cat "$dir/pulse.log" >&2
        return 1
    fi
    env $(pulse_env "$dir") pactl set-default-source "$sink.monitor" >/dev/null
    pulse_realtime "$dir"
}

# PulseAudio runs its sinks' threads at SCHED_RR 5 and its main thread at nice -11, as on a desktop
# (there rtkit grants both). The main thread carries every request for data between the sink's
# thread and a client, and on this kernel's fair scheduler a nice -11 thread beside two busy loops
# waited 50-928 ms for a core: OpenAL Soft then mixed a stream's whole queue at once, an underrun
# (Docs/Testing.md, "A fed tone under two busy loops"). So the main thread gets SCHED_RR 5 as well,
# the sinks' priority. That takes CAP_SYS_NICE (root, as CI runs) or `ulimit -r` of 5 or more;
# without it the server runs as started and this says so.
pulse_realtime() {
    local dir=$1 pid
    pid=$(cat "$dir/pulse/pid" 2>/dev/null) || pid=
    if [ -z "$pid" ] || ! chrt -r -p 5 "$pid" 2>/dev/null; then
        echo "pulse_start: the server's main thread (process ${pid:-unknown}) is not real-time:" \
            "chrt -r -p 5 was refused (uid $(id -u), ulimit -r $(ulimit -r)); on a busy machine its" \
            "requests for data can wait for a core, and a fed stream underrun" >&2
    fi
    return 0
}

pulse_stop() { # returns once the server's process is gone, so a server started next in DIR is a new one
    local dir=$1 pid _
    pid=$(cat "$dir/pulse/pid" 2>/dev/null) || pid=
    env $(pulse_env "$dir") pactl exit >/dev/null 2>&1 || true
    [ -n "$pid" ] && kill "$pid" 2>/dev/null
    for _ in $(seq 50); do
        if [ -n "$pid" ]; then kill -0 "$pid" 2>/dev/null || return 0
        else env $(pulse_env "$dir") pactl info >/dev/null 2>&1 || return 0
        fi
        sleep 0.1
    done
    [ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null
    return 0
}

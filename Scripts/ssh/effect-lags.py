#!/usr/bin/env python3
"""Checks that every sound a player played started where an offline render of the same session starts
it: each effect's lag against the game's music, not only each second's (xcorr.py), in which the music
hides an effect heard tens of milliseconds off.

The session's music and its effects are rendered apart (`soundstation render --session` of the
recorded messages without the plays, then without the music's switches). The music render is lined
up with the recording to the sample and taken away from it; what is left is the effects as heard,
and each play's lag is where its part of the effects render matches that rest best (0.5 ms
envelopes, +-60 ms). Prints each play's lag and correlation; exits 1 when one is off by more than
MAX_MS or matches below MIN_CORR (a play whose sound the render does not sound, refused by its
instance limit, is left out). With `--stats` (the player's `--stats` file), a play the player placed
late, because its message came later than the jitter buffer absorbs (`latePlays`), is judged where
the player placed it: that many milliseconds after its time.
Usage: effect-lags.py [--stats STATS.json] RECORDED.wav SESSION.rec SOUNDSTATION CACHE [MAX_MS [MIN_CORR]]"""
import json, os, struct, subprocess, sys, tempfile

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import xcorr  # noqa: E402  (its WAV reader, envelopes and correlation)
from xcorr import dot  # noqa: E402

RATE = 48000
BLOCK = 24  # 0.5 ms envelopes
PLAY, PLAY_MUSIC, COMMAND = 1, 19, 101
# Lags searched, in envelope blocks: +-60 ms, less than the game's sounds of one kind are apart, so
# a sound is never taken for the one before it; a play further off matches badly and fails.
SEARCH = 120


def read_wav(path):
    """Mono samples (floats, -1..1) of a WAV at 48 kHz."""
    samples, rate = xcorr.read_wav(path)
    assert rate == RATE, f"{path}: {rate} Hz"
    return samples


def messages(path):
    """The recorded session's messages (4-byte little-endian lengths and bytes)."""
    data, index, found = open(path, "rb").read(), 0, []
    while index + 4 <= len(data):
        (count,) = struct.unpack("<I", data[index:index + 4])
        found.append(data[index + 4:index + 4 + count])
        index += 4 + count
    return found


def command_kind(message):
    """A command message's command kind (its encoding: version, 101, frame, length, version, kind)."""
    return message[15] if len(message) > 15 and message[1] == COMMAND else None


def render(cli, cache, kept, seconds, folder, name):
    """Renders the session's messages `kept` to a WAV; returns its mono samples."""
    session, out = os.path.join(folder, name + ".rec"), os.path.join(folder, name + ".wav")
    with open(session, "wb") as f:
        for message in kept:
            f.write(struct.pack("<I", len(message)) + message)
    subprocess.run([cli, "render", "--session", session, "--cache", cache, "--seconds", f"{seconds:.3f}",
                    "--out", out], check=True, stdout=subprocess.DEVNULL)
    return read_wav(out)


def envelope(samples, block=BLOCK):
    return xcorr.envelope(samples, block)


def best_lag(signal, part, start, lags):
    """The lag (in `signal`'s units from `start`) where `part` matches `signal` best, and the
    normalized correlation there (xcorr.best_lag, whose lags are from the signal's start)."""
    found, score = xcorr.best_lag(signal, part, [start + lag for lag in lags])
    return (None if found is None else found - start), score


def late_plays(arguments):
    """Takes `--stats FILE` out of `arguments`; returns the plays that file says the player placed
    late, as (server frame, how late in ms) pairs, in order."""
    if "--stats" not in arguments:
        return []
    index = arguments.index("--stats")
    path = arguments[index + 1]
    del arguments[index:index + 2]
    with open(path) as f:
        return [(int(frame), by * 1000) for frame, by in json.load(f)["latePlays"]]


def main():
    arguments = sys.argv[1:]
    late = late_plays(arguments)
    recorded_path, session_path, cli, cache = arguments[0:4]
    max_ms = float(arguments[4]) if len(arguments) > 4 else 5.0
    min_corr = float(arguments[5]) if len(arguments) > 5 else 0.8
    recorded = read_wav(recorded_path)
    session = messages(session_path)
    plays = [struct.unpack("<q", m[2:10])[0] for m in session if command_kind(m) == PLAY]
    assert plays, "the session has no plays"
    # The render places a frame F at F less the first command's frame (rounded to 256-frame quanta,
    # RemotePlayer.wholeQuanta): only to find each play's part of the render, which is searched for.
    first = next(struct.unpack("<q", m[2:10])[0] for m in session if command_kind(m) is not None)
    shift = first // 256 * 256
    seconds = (max(plays) - shift) / RATE + 1.5
    with tempfile.TemporaryDirectory() as folder:
        music = render(cli, cache, [m for m in session if command_kind(m) != PLAY], seconds, folder, "music")
        effects = render(cli, cache, [m for m in session if command_kind(m) != PLAY_MUSIC], seconds, folder,
                         "effects")
    both = [a + b for a, b in zip(music, effects)]
    # The whole render's place in the recording to 10 ms (envelopes over the render up to a little
    # after the last play: the recording may end sooner than the render's tail), then to the sample on
    # the music (what the effects are heard against): its loudest tenth of a second, +-25 ms around.
    until = (max(plays) - shift) // 480 + 30
    coarse_rec, coarse_ref = envelope(recorded, 480), envelope(both, 480)[:until]
    coarse, _ = best_lag(coarse_rec, coarse_ref, 0, range(0, len(coarse_rec) - len(coarse_ref) + 1))
    assert coarse is not None, "the recording is shorter than the render"
    tenth = RATE // 10
    loud = max(range(0, len(music) - tenth, tenth), key=lambda s: dot(music[s:s + tenth], music[s:s + tenth]))
    centre = coarse * 480
    lag, _ = best_lag(recorded, music[loud:loud + tenth], loud, range(centre - 1200, centre + 1201))
    assert lag is not None, "the recording is shorter than the render"
    heard = recorded[lag:lag + len(music)]
    # The sink's level against the render's, on the music (the effects heard off their place match
    # nothing of it).
    gain = dot(heard, music[:len(heard)]) / (dot(music, music) or 1e-12)
    rest = [h / (gain or 1) - m for h, m in zip(heard, music)]
    print(f"music at {lag / RATE * 1000:.2f} ms of the recording, gain {gain:.4f}")
    rest_env, effects_env = envelope(rest), envelope(effects)
    loudest = max(effects_env) or 1e-12
    failures = []
    for index, frame in enumerate(plays):
        at = (frame - shift) // BLOCK
        part = effects_env[max(0, at - 20):at + 180]
        if max(part, default=0) < loudest * 0.05:
            print(f"play {index} (frame {frame}): not sounded by the render, left out")
            continue
        # Where the player put it: at its time, or as late as it says it placed it.
        placed = next((by for late_frame, by in late if late_frame == frame), 0.0)
        if placed:
            late.remove((frame, placed))
        expected = round(placed * RATE / 1000 / BLOCK)
        found, score = best_lag(rest_env, part, max(0, at - 20), range(expected - SEARCH, expected + SEARCH + 1))
        if found is None:
            failures.append(index)
            print(f"play {index} (frame {frame}): past the recording's end")
            continue
        ms = found * BLOCK / RATE * 1000
        note = f" (placed {placed:.1f} ms late: its message came after the jitter buffer)" if placed else ""
        print(f"play {index} at {(frame - shift) / RATE:7.3f} s: {ms:+6.1f} ms, correlation {score:.3f}{note}")
        if abs(ms - placed) > max_ms or score < min_corr:
            failures.append(index)
    if late:
        failures.append("late")
        print("placed late but not in the session:", late)
    if failures:
        print("FAILED: plays", failures)
        sys.exit(1)


main()

#!/usr/bin/env python3
"""Compares what a player heard with an offline render of the same commands: finds the lag of the
render inside the recording by cross-correlating their envelopes (2 kHz), then, for every second of
the render with sound in it, the lag of that second alone. Prints the global lag, each window's
deviation from it and its correlation (a second whose sound is under a tenth of the loudest second's
is left out); exits 1 when a window deviates by more than MAX_MS or
correlates below MIN_CORR, or when too few windows have sound.
Usage: xcorr.py RECORDED.wav REFERENCE.wav [MAX_MS [MIN_CORR]]"""
import array, math, operator, struct, sys


def read_wav(path):
    """Mono samples (floats, -1..1) and the rate of a 16-bit PCM or 32-bit float WAV."""
    data = open(path, "rb").read()
    assert data[:4] == b"RIFF" and data[8:12] == b"WAVE", f"{path}: not a WAV file"
    pos, fmt, samples = 12, None, None
    while pos + 8 <= len(data):
        kind, size = data[pos:pos + 4], struct.unpack("<I", data[pos + 4:pos + 8])[0]
        body = data[pos + 8:pos + 8 + size]
        if kind == b"fmt ":
            fmt = struct.unpack("<HHIIHH", body[:16])
        elif kind == b"data":
            samples = body
            if size == 0xFFFFFFFF or size == 0:  # a recording stopped before its header was fixed
                samples = data[pos + 8:]
            break
        pos += 8 + size + (size & 1)
    tag, channels, rate, _, _, bits = fmt
    if tag == 3 or (tag == 0xFFFE and bits == 32):
        values = array.array("f", samples[: len(samples) // 4 * 4])
    else:
        assert bits == 16, f"{path}: {bits}-bit PCM"
        values = array.array("h", samples[: len(samples) // 2 * 2])
        values = [v / 32768 for v in values]
    mono = [sum(values[i:i + channels]) / channels for i in range(0, len(values) - channels + 1, channels)]
    return mono, rate


def envelope(mono, block):
    return [sum(map(abs, mono[i:i + block])) / block for i in range(0, len(mono) - block + 1, block)]


def dot(a, b):
    return sum(map(operator.mul, a, b))


def best_lag(rec, ref, lags):
    """The lag (in `rec`'s samples) where ref best matches rec, and the normalized correlation there."""
    ref_energy = math.sqrt(dot(ref, ref)) or 1e-12
    best, best_score = None, -2.0
    for lag in lags:
        if lag < 0 or lag + len(ref) > len(rec):
            continue
        part = rec[lag:lag + len(ref)]
        energy = math.sqrt(dot(part, part)) or 1e-12
        score = dot(part, ref) / (energy * ref_energy)
        if score > best_score:
            best, best_score = lag, score
    return best, best_score


def main():
    recorded, rate = read_wav(sys.argv[1])
    reference, ref_rate = read_wav(sys.argv[2])
    max_ms = float(sys.argv[3]) if len(sys.argv) > 3 else 5.0
    min_corr = float(sys.argv[4]) if len(sys.argv) > 4 else 0.6
    assert rate == ref_rate == 48000, (rate, ref_rate)
    # Coarse: 100 Hz envelopes over every lag that fits; fine: 2 kHz around it.
    coarse_rec, coarse_ref = envelope(recorded, 480), envelope(reference, 480)
    coarse, score = best_lag(coarse_rec, coarse_ref, range(0, len(coarse_rec) - len(coarse_ref) + 1))
    assert coarse is not None, "the recording is shorter than the render"
    fine_rec, fine_ref = envelope(recorded, 24), envelope(reference, 24)
    lag, score = best_lag(fine_rec, fine_ref, range(coarse * 20 - 40, coarse * 20 + 41))
    print(f"global lag {lag / 2:.1f} ms, correlation {score:.3f}")
    window = 2000  # one second of the 2 kHz envelope
    starts = range(0, len(fine_ref) - window + 1, window)
    loudest = max((sum(fine_ref[s:s + window]) for s in starts), default=0)
    worst, windows, failures = 0.0, 0, []
    for start in starts:
        part = fine_ref[start:start + window]
        if sum(part) < loudest * 0.1:
            # A quiet second (or one with a few milliseconds of sound, where the game stopped all its
            # sounds) says little about timing.
            print(f"second {start // window}: quiet, left out")
            continue
        local, local_score = best_lag(fine_rec, part, range(lag + start - 60, lag + start + 61))
        deviation = (local - lag - start) / 2
        windows += 1
        worst = max(worst, abs(deviation))
        print(f"second {start // window}: deviation {deviation:+.1f} ms, correlation {local_score:.3f}")
        if abs(deviation) > max_ms or local_score < min_corr:
            failures.append(start // window)
    print(f"windows {windows}, worst deviation {worst:.1f} ms")
    if windows < 3 or failures:
        print("FAILED:", "too few windows with sound" if windows < 3 else f"seconds {failures}")
        sys.exit(1)


if __name__ == "__main__":
    main()

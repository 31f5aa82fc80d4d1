#!/usr/bin/env python3
"""Onsets in a recording: the first frame above THRESHOLD (a fraction of the peak) after at least
QUIET seconds below it. Prints each onset in seconds and the gaps between them.

With --starts-of SOUND.wav, only onsets where SOUND's first 20 ms are heard count (normalized
correlation at least 0.9 within 5 ms of the crossing): the rest of a sound cut off by a stopped
player and heard when it resumes is not the start of a sound. The others are printed as "not a start".
Usage: onsets.py [--starts-of SOUND.wav] FILE.wav [THRESHOLD] [QUIET]"""
import os, sys, wave, array

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import xcorr  # noqa: E402  (its WAV reader and correlation search)

arguments = sys.argv[1:]
reference = None
if arguments[:1] == ["--starts-of"]:
    reference, arguments = arguments[1], arguments[2:]
path = arguments[0]
threshold = float(arguments[1]) if len(arguments) > 1 else 0.2
quiet = float(arguments[2]) if len(arguments) > 2 else 0.25
with wave.open(path) as w:
    rate, channels, width = w.getframerate(), w.getnchannels(), w.getsampwidth()
    assert width == 2, "16-bit WAV expected"
    signed = array.array("h", w.readframes(w.getnframes()))[::channels]
mono = [abs(s) for s in signed]
peak = max(mono) if mono else 0
if peak < 300:
    print("silence: peak", peak)
    sys.exit(1)
level = peak * threshold
onsets, last = [], -10**9
for i, v in enumerate(mono):
    if v >= level:
        if i - last > quiet * rate:
            onsets.append(i / rate)
        last = i
if reference:
    sound, sound_rate = xcorr.read_wav(reference)
    assert sound_rate == rate, f"{reference}: {sound_rate} Hz, the recording {rate} Hz"
    start, near = sound[:rate // 50], rate // 200
    starts = []
    for onset in onsets:
        at = int(onset * rate)
        _, best = xcorr.best_lag(signed, start, range(at - near, at + near + 1, 4))
        if best >= 0.9:
            starts.append(onset)
        else:
            print(f"not a start {onset:.4f} (correlation {best:.3f} with the start of {reference})")
    onsets = starts
print("onsets", " ".join(f"{t:.4f}" for t in onsets))
print("gaps", " ".join(f"{(b - a) * 1000:.2f}" for a, b in zip(onsets, onsets[1:])))

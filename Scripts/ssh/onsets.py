#!/usr/bin/env python3
"""Onsets in a recording: the first frame above THRESHOLD (a fraction of the peak) after at least
QUIET seconds below it. Prints each onset in seconds and the gaps between them.
Usage: onsets.py FILE.wav [THRESHOLD] [QUIET]"""
import sys, wave, array

path = sys.argv[1]
threshold = float(sys.argv[2]) if len(sys.argv) > 2 else 0.2
quiet = float(sys.argv[3]) if len(sys.argv) > 3 else 0.25
with wave.open(path) as w:
    rate, channels, width = w.getframerate(), w.getnchannels(), w.getsampwidth()
    assert width == 2, "16-bit WAV expected"
    samples = array.array("h", w.readframes(w.getnframes()))
mono = [abs(s) for s in samples[::channels]]
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
print("onsets", " ".join(f"{t:.4f}" for t in onsets))
print("gaps", " ".join(f"{(b - a) * 1000:.2f}" for a, b in zip(onsets, onsets[1:])))

#!/usr/bin/env python3
"""A hostile server for soundstation ssh: writes crafted sound frames into the terminal (garbage,
oversized, unterminated, paths, bad hashes, huge sizes, a flood), between two lines of text. The
player's side must stay up, drop and count every one, and show only the two lines.
Usage (as a forced command): hostile.py"""
import base64, hashlib, os, struct, sys

out = sys.stdout.buffer
INTRO, END = b"\x1b_SS1;", b"\x1b\\"

def frame(payload):
    return INTRO + base64.b64encode(payload) + END

def msg(kind, body=b""):
    return bytes([1, kind]) + body

def blob(data):
    return struct.pack("<I", len(data)) + data

def write(data):
    out.write(data)
    out.flush()

write(b"HOSTILE-START\r\n")
# Frames that are not messages, not base64, too long, cut short, or with a bad terminator.
write(frame(b"\x00garbage that is no message"))
write(INTRO + b"!!!not base64!!!" + END)
write(INTRO + b"A" * 200_000 + END)
write(INTRO + b"QUJD" + b"\x1bx")
write(INTRO + b"QUJD\x07\x00\xff binary in a frame" + END)
write(frame(bytes([9, 101]) + b"\x00" * 20))  # an unknown version
write(frame(msg(101, struct.pack("<q", -5) + blob(b"\x01\x03\x00" + b"\x00" * 8))))  # a negative frame
# A catalogue that names paths outside the cache, and one whose file does not match its hash.
victim = f"/tmp/soundstation-pwned-{os.getpid()}"
manifest = ('{"sounds": [{"name": "a", "path": "../../..%s", "kind": "effect"},'
            ' {"name": "b", "path": "/etc/passwd", "kind": "effect"}]}' % victim).encode()
fake = hashlib.sha256(b"claimed").digest()
write(frame(msg(103, blob(manifest) + struct.pack("<i", 1) + fake + struct.pack("<q", 7))))
good_name = fake.hex() + ".wav"
manifest2 = ('{"sounds": [{"name": "c", "path": "%s", "kind": "effect"}]}' % good_name).encode()
write(frame(msg(103, blob(manifest2) + struct.pack("<i", 1) + fake + struct.pack("<q", 7))))
write(frame(msg(105, fake + struct.pack("<qq", 7, 0) + blob(b"not it"))))   # short piece
write(frame(msg(105, fake + struct.pack("<qq", 7, 6) + blob(b"X"))))        # completes with wrong bytes
write(frame(msg(105, fake + struct.pack("<qq", 1 << 39, 0) + blob(b"Y" * 1000))))  # a huge file
write(frame(msg(104, struct.pack("<i", 3) + struct.pack("<H", 5) + b"../..")))
# A flood of valid commands (stop everything), far over the rate cap, in big writes.
stop_all = frame(msg(101, struct.pack("<q", 1000) + blob(b"\x01\x03\x00" + b"\x00" * 8)))
for _ in range(40):
    write(stop_all * 1000)
write(b"HOSTILE-END\r\n")

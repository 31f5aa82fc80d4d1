#!/usr/bin/env python3
"""A hostile server against the player's budget and terminal, through `soundstation listen`'s socket:
one catalogue frame of 120 entries on one 10 s Ogg of silence (each entry once decoded on its own),
a catalogue whose duplicate names hold escape sequences (the refusal's reason reaches the summary),
and a flood of 4 KB sound names holding OSC, CSI and C1 controls. It measures the player's resident
memory (VmHWM, VmRSS) and checks that it stays under its budget and that its stderr holds no control
byte and no invalid UTF-8.
Usage: hostile-budget.py SOUNDSTATION [--measure] [--names N]
  --measure: print the figures only (for a build without the budget), check nothing."""
import base64, hashlib, json, os, shutil, socket, struct, subprocess, sys, tempfile, time, wave

cli = sys.argv[1]
measure = "--measure" in sys.argv
names = int(sys.argv[sys.argv.index("--names") + 1]) if "--names" in sys.argv else 6000
work = tempfile.mkdtemp(prefix="ss-hostile-")
INTRO, END = b"\x1b_SS1;", b"\x1b\\"


def frame(payload):
    return INTRO + base64.b64encode(payload) + END


def blob(data):
    return struct.pack("<I", len(data)) + data


def string(text):
    data = text.encode()
    return struct.pack("<H", len(data)) + data


def catalogue(entries, files):
    """entries: [(name, path)], files: {sha256 bytes: size}"""
    manifest = json.dumps({"sounds": [{"name": n, "path": p, "kind": "effect"} for n, p in entries]})
    body = blob(manifest.encode()) + struct.pack("<i", len(files))
    for digest, size in files.items():
        body += digest + struct.pack("<q", size)
    return bytes([1, 103]) + body


def silence_file():
    """10 s of stereo silence at 48 kHz: Ogg Vorbis when oggenc is here, else a WAV."""
    path = os.path.join(work, "silence.wav")
    with wave.open(path, "wb") as w:
        w.setnchannels(2)
        w.setsampwidth(2)
        w.setframerate(48000)
        w.writeframes(b"\x00" * 48000 * 4 * 10)
    if shutil.which("oggenc"):
        subprocess.run(["oggenc", "-Q", "-q", "0", "-o", path[:-3] + "ogg", path], check=True)
        return open(path[:-3] + "ogg", "rb").read(), "ogg"
    return open(path, "rb").read(), "wav"


def memory(pid):
    fields = {}
    try:
        for line in open(f"/proc/{pid}/status"):
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                fields[key] = int(value.split()[0]) // 1024
    except OSError:
        pass
    return fields


data, ext = silence_file()
digest = hashlib.sha256(data).digest()
sock_path = os.path.join(work, "sound.sock")
env = dict(os.environ, XDG_CACHE_HOME=os.path.join(work, "xdg"), SOUNDSTATION_PCM_CACHE="")
stats = os.path.join(work, "stats.json")
player = subprocess.Popen(
    [cli, "listen", "--socket", sock_path, "--sessions", "1", "--output", "silent", "--cache",
     os.path.join(work, "cache"), "--stats", stats, "--record", os.path.join(work, "session.rec")],
    env=env, stderr=subprocess.PIPE)
for _ in range(200):
    if os.path.exists(sock_path):
        break
    time.sleep(0.05)
start = memory(player.pid)
peak = dict(start)
game = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
game.connect(sock_path)
game.settimeout(5)
announcement = b""
while not announcement.endswith(b"\n"):
    announcement += game.recv(1)


def send(payload):
    game.sendall(frame(payload))


def sample():
    for key, value in memory(player.pid).items():
        peak[key] = max(peak.get(key, 0), value)


send(bytes([1, 100]) + struct.pack("<iqQ", 48000, 0, 7))
hashed = digest.hex() + "." + ext
one = catalogue([(f"s{i}", hashed) for i in range(120)], {digest: len(data)})
send(one)
for offset in range(0, len(data), 12288):
    piece = data[offset:offset + 12288]
    send(bytes([1, 105]) + digest + struct.pack("<qq", len(data), offset) + blob(piece))
# The 120 loads: until resident memory has not grown for 2 s (at most 60 s).
steady, last, waited = 0, 0, 0
while steady < 20 and waited < 600:
    time.sleep(0.1)
    waited += 1
    sample()
    rss = memory(player.pid).get("VmRSS", 0)
    steady = steady + 1 if rss <= last else 0
    last = max(last, rss)
after_catalogue = memory(player.pid)
# Duplicate names whose text a terminal would act on: the refusal's reason names them.
evil = "\x1b]2;PWNED-TITLE\x07\x1b[2J\x1b[HINJECTED-BY-SERVER\u009b31m"
send(catalogue([(evil, hashed), (evil, hashed)], {digest: len(data)}))
# A flood of long names, at the extractor's rate (2000 a second, 4000 at once).
sent = 0
begin = time.monotonic()
while sent < names:
    batch = min(500, names - sent)
    game.sendall(b"".join(
        frame(bytes([1, 104]) + struct.pack("<i", sent + i)
              + string(evil + "\u0085" + "n" * (4000 - len(evil)) + str(sent + i)))
        for i in range(batch)))
    sent += batch
    while sent > 2000 * (time.monotonic() - begin) + 3500:
        time.sleep(0.01)
    sample()
time.sleep(1)
sample()
after_flood = memory(player.pid)
game.close()
while player.poll() is None:
    sample()
    time.sleep(0.05)
stderr = player.stderr.read()
# The recorded session listed: every name the server sent, one a line.
listing = subprocess.run([cli, "render", "--session", os.path.join(work, "session.rec"), "--list"],
                         capture_output=True).stdout
report = json.load(open(stats)) if os.path.exists(stats) else {}
figures = {
    "rss_start_mb": start.get("VmRSS"), "rss_after_catalogue_mb": after_catalogue.get("VmRSS"),
    "rss_after_flood_mb": after_flood.get("VmRSS"), "peak_rss_mb": peak.get("VmHWM"),
    "names_sent": names, "held": report.get("held"), "overBudget": report.get("overBudget"),
    "file": f"{len(data)} bytes {ext}",
}
print("hostile-budget:", json.dumps(figures))
print("summary:", repr(stderr.decode("utf-8", "backslashreplace")))
xdg_pcm = os.path.join(work, "xdg", "soundstation", "pcm")
outside = os.listdir(xdg_pcm) if os.path.isdir(xdg_pcm) else []
shutil.rmtree(work)
if measure:
    sys.exit(0)
problems = []
try:
    text = stderr.decode("utf-8")
except UnicodeDecodeError:
    problems.append("stderr is not UTF-8")
    text = ""
try:
    listed = listing.decode("utf-8")
except UnicodeDecodeError:
    problems.append("render --list is not UTF-8")
    listed = ""
for name, output in (("stderr", text), ("render --list", listed)):
    bad = [c for c in output if (ord(c) < 0x20 and c != "\n") or 0x7F <= ord(c) <= 0x9F]
    if bad:
        problems.append(f"control characters in {name}: {bad[:5]!r}")
if listing.count(b"PWNED-TITLE") < 100:
    problems.append("render --list does not list the names")
if "PWNED-TITLE" not in text:
    problems.append("the summary does not show the refused name (escaped)")
held = report.get("held", {})
if held.get("peakDecodedBytes", 1 << 62) > 256 << 20:
    problems.append(f"decoded bytes above the budget: {held}")
if report.get("overBudget", {}).get("sound names", 0) == 0:
    problems.append("the name flood was not refused")
if "beyond its budget" not in text:
    problems.append("the summary does not say the budget was reached")
# Well under the 938 MB one such frame took: the debug build's own footprint and one decode.
if peak.get("VmHWM", 0) > 200:
    problems.append(f"peak resident memory {peak.get('VmHWM')} MB")
if outside:
    problems.append(f"decoded sounds written outside the player's cache: {outside}")
for problem in problems:
    print("hostile-budget:", problem)
sys.exit(1 if problems else 0)

#!/usr/bin/env python3
"""Many remote sessions at once on one server: starts N copies of a game, each under a pseudo-terminal
of its own (as sshd gives each session) with the remote output announced (every asset announced as
cached, so only commands travel) and a seed of its own, reads every terminal at once, and reports the
total CPU, the memory of each session (peak RSS and PSS) and whether every session's sound stream is
its own: each holds exactly one hello, decodes whole, and the streams of a few seeds played again
alone, afterwards, are the same command for command.
Usage: bench-sessions.py SOUNDSTATION_CLI ASSETS_DIR SESSIONS COMMAND... (COMMAND's "{seed}" is each
session's seed)"""
from collections import Counter
import base64, fcntl, hashlib, os, re, resource, select, subprocess, sys, tempfile, termios, time

cli, assets, count, command = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
have = []
for folder, _, files in os.walk(assets):
    for name in files:
        if name != "catalogue.json":
            have.append(hashlib.sha256(open(os.path.join(folder, name), "rb").read()).hexdigest()[:16])
environment = {k: v for k, v in os.environ.items() if k not in ("TMUX", "STY", "SSH_CONNECTION", "SOUNDSTATION_SOCKET")}
environment["LC_SOUNDSTATION"] = "ss1 have=" + ",".join(have)
environment["SOUNDSTATION_ASSETS"] = assets
FRAME = re.compile(rb"\x1b_SS1;([A-Za-z0-9+/=]*)\x1b\\")


def memory(pid):
    """(RSS, PSS) in KiB of a running process, or None."""
    try:
        rss = int(re.search(r"VmRSS:\s+(\d+)", open(f"/proc/{pid}/status").read()).group(1))
        pss = int(re.search(r"^Pss:\s+(\d+)", open(f"/proc/{pid}/smaps_rollup").read(), re.M).group(1))
        return rss, pss
    except (OSError, AttributeError):
        return None


def run(seeds):
    """Runs one session per seed at once; returns wall seconds, CPU seconds, each session's output
    and peak (RSS, PSS)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    sessions = {}
    for seed in seeds:
        # The terminal's other end stays open here too, so nothing the game wrote is lost when it
        # exits before everything was read (the kernel drops a pseudo-terminal's unread output when
        # its last slave closes); the game's session is its own, with this terminal controlling it
        # (the remote engine writes to /dev/tty).
        master, slave = os.openpty()
        os.set_blocking(master, False)
        words = [word.replace("{seed}", str(seed)) for word in command]
        child = subprocess.Popen(words, stdin=slave, stdout=slave, stderr=slave, env=environment,
                                 start_new_session=True,
                                 preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0))
        sessions[master] = {"process": child, "pid": child.pid, "slave": slave, "seed": seed,
                            "out": bytearray(), "rss": 0, "pss": 0}
    open_fds = set(sessions)
    last_sample = 0.0
    while open_fds:
        ready, _, _ = select.select(list(open_fds), [], [], 0.2)
        for fd in ready:
            while True:
                try:
                    chunk = os.read(fd, 65536)
                except BlockingIOError:
                    break
                sessions[fd]["out"] += chunk
                if not chunk:
                    break
        for fd in list(open_fds):
            session = sessions[fd]
            if session["process"].poll() is not None:
                # Exited: what it wrote is all in the terminal now; read it to the end.
                while True:
                    try:
                        chunk = os.read(fd, 65536)
                    except (BlockingIOError, OSError):
                        break
                    if not chunk:
                        break
                    session["out"] += chunk
                open_fds.discard(fd)
                os.close(fd)
                os.close(session["slave"])
        if time.monotonic() - last_sample > 1.0:
            last_sample = time.monotonic()
            for session in sessions.values():
                sample = memory(session["pid"])
                if sample:
                    session["rss"] = max(session["rss"], sample[0])
                    session["pss"] = max(session["pss"], sample[1])
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, list(sessions.values())


def commands(output, folder, name):
    """The session's sound messages as `soundstation render --session --list` decodes them, with the
    clock's numbers and the commands' times left out (they differ between runs; the commands must not)."""
    path = os.path.join(folder, name + ".rec")
    with open(path, "wb") as file:
        for payload in FRAME.findall(bytes(output)):
            message = base64.b64decode(payload)
            file.write(len(message).to_bytes(4, "little") + message)
    lines = subprocess.run([cli, "render", "--session", path, "--list", "--seconds", "1", "--out", "/dev/null"],
                           capture_output=True, text=True, check=True).stdout.splitlines()
    kept = []
    names = {}
    for line in lines:
        if line.startswith(("clock(", "file ")):
            continue
        named = re.match(r'soundName\((sound#\d+), name: "(.*)"\)', line)
        if named:
            names[named.group(1)] = named.group(2)
            continue
        # When, not what: a switch the game put on the next beat, or at once (nil) when the track had
        # not started yet, depends on the load; so do the engine's sound and voice numbers (sounds
        # are numbered as they load).
        line = re.sub(r"frame: (nil|(Optional\()?\d+\)?)", "frame: _", line)
        line = re.sub(r"session: \d+", "session: _", line)
        line = re.sub(r"voice#\d+", "voice#_", line)
        line = re.sub(r"sound#\d+", lambda m: names.get(m.group(0), m.group(0)), line)
        kept.append(line)
    return kept


seeds = [1000 + i for i in range(count)]
wall, cpu, sessions = run(seeds)
folder = tempfile.mkdtemp(prefix="bench-sessions.")
streams = {s["seed"]: commands(s["out"], folder, str(s["seed"])) for s in sessions}
problems = []
for seed, stream in streams.items():
    hellos = sum(line.startswith("hello(") for line in stream)
    if hellos != 1:
        problems.append(f"seed {seed}: {hellos} hellos")
    if any(line.startswith("undecodable") for line in stream):
        problems.append(f"seed {seed}: undecodable messages")
    if sum(line.startswith("command(") for line in stream) < 5:
        problems.append(f"seed {seed}: fewer than 5 commands")
distinct = len({tuple(s) for s in streams.values()})
# A few seeds again, alone (five at once): each stream must be the same, command for command.
again_seeds = seeds[:: max(1, count // 5)][:5]
_, _, again = run(again_seeds)
# The same commands: a command of another session's (another seed: other positions, pitches, times)
# would be in one and not the other. Their order may differ where a command the game scheduled (on
# the music's beat) lands among those of the same moment, and a stream may lose its last commands
# (a scheduled one not due before the game exited, or frames still queued behind a slow reader when
# the engine's 2 s wait for its link at exit ended): at most 3 commands may be in one and not the
# other.
differing = []
crashed = [s for s in sessions + again if s["process"].returncode != 0]
for session in again:
    seed = session["seed"]
    if any(c["seed"] == seed for c in crashed):
        continue  # a game that crashed has only part of its stream (counted below)
    alone = Counter(commands(session["out"], folder, f"alone-{seed}"))
    together = Counter(streams[seed])
    extra = (alone - together) + (together - alone)
    differing.append(sum(extra.values()))
    if sum(extra.values()) > 3:
        problems.append(f"seed {seed}: {sum(extra.values())} commands in one stream only, e.g. {list(extra)[:2]}")
complete = sum(1 for stream in streams.values() if stream and stream[-1] == "bye")
# Whether a session's terminal got the game's last bytes (its screen restored after the engine shut
# down): a stream without its goodbye but with those lost its frames in the game, not on the way.
restored = sum(1 for s in sessions if b"\x1b[?1049l" in bytes(s["out"][-4096:]))
for s in crashed:
    code = s["process"].returncode
    problems.append(f"seed {s['seed']}: the game " + (f"died of signal {-code}" if code < 0 else f"exited {code}"))
subprocess.run(["rm", "-rf", folder])
rss = [s["rss"] / 1024 for s in sessions]
pss = [s["pss"] / 1024 for s in sessions]
frames = sum(len(FRAME.findall(bytes(s["out"]))) for s in sessions)
print(f"sessions {count}: wall {wall:.1f} s, CPU {cpu:.1f} s = {100 * cpu / wall:.0f}% of a core "
      f"({100 * cpu / wall / count:.1f}% per session), load {os.getloadavg()[0]:.1f}")
print(f"memory per session: RSS {sum(rss) / count:.1f} MiB (max {max(rss):.1f}), "
      f"PSS {sum(pss) / count:.1f} MiB (max {max(pss):.1f}), PSS of all {sum(pss):.0f} MiB")
print(f"streams: {frames} frames, {distinct} distinct of {count}, {complete} ending with the goodbye, "
      f"{restored} with the screen restored, {len(crashed)} games crashed; "
      f"{len(again_seeds)} seeds played again alone: {'the same commands' if not problems else 'PROBLEMS'} "
      f"(commands in one stream only: {differing} for the ones that did not crash, of about "
      f"{sum(len(s) for s in streams.values()) // count} each)")
for problem in problems:
    print("problem:", problem)
sys.exit(1 if problems else 0)

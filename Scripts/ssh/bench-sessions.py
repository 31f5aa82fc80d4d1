#!/usr/bin/env python3
"""Many remote sessions at once on one server: starts N copies of a game, each under a pseudo-terminal
of its own (as sshd gives each session) with the remote output announced (every asset announced as
cached, so only commands travel) and a seed of its own, reads every terminal at once, and reports the
total CPU, the memory of each session (peak RSS and PSS) and whether every session's sound stream is
its own: each holds exactly one hello, decodes whole, and the streams of a few seeds played again
alone, afterwards, are the same command for command.
Usage: bench-sessions.py SOUNDSTATION_CLI ASSETS_DIR SESSIONS COMMAND... (COMMAND's "{seed}" is each
session's seed)"""
import base64, hashlib, os, pty, re, resource, select, signal, subprocess, sys, tempfile, time

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
        pid, fd = pty.fork()
        if pid == 0:
            os.execvpe(command[0], [word.replace("{seed}", str(seed)) for word in command], environment)
        sessions[fd] = {"pid": pid, "seed": seed, "out": bytearray(), "rss": 0, "pss": 0}
    open_fds = set(sessions)
    last_sample = 0.0
    while open_fds:
        ready, _, _ = select.select(list(open_fds), [], [], 0.2)
        for fd in ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                chunk = b""
            if chunk:
                sessions[fd]["out"] += chunk
            else:
                open_fds.discard(fd)
                os.close(fd)
        if time.monotonic() - last_sample > 1.0:
            last_sample = time.monotonic()
            for session in sessions.values():
                sample = memory(session["pid"])
                if sample:
                    session["rss"] = max(session["rss"], sample[0])
                    session["pss"] = max(session["pss"], sample[1])
    for session in sessions.values():
        os.waitpid(session["pid"], 0)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, list(sessions.values())


def commands(output, folder, name):
    """The session's sound messages as `soundstation render --session --list` decodes them, with the
    clock's numbers left out (they differ between runs; the commands must not)."""
    path = os.path.join(folder, name + ".rec")
    with open(path, "wb") as file:
        for payload in FRAME.findall(bytes(output)):
            message = base64.b64decode(payload)
            file.write(len(message).to_bytes(4, "little") + message)
    lines = subprocess.run([cli, "render", "--session", path, "--list", "--seconds", "1", "--out", "/dev/null"],
                           capture_output=True, text=True, check=True).stdout.splitlines()
    kept = []
    for line in lines:
        if line.startswith(("clock(", "file ")):
            continue
        line = re.sub(r"frame: (Optional\()?\d+\)?", "frame: _", line)
        line = re.sub(r"session: \d+", "session: _", line)
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
# The same commands, in the same order; a stream may end short of the other when its game exited with
# frames still queued behind a slow reader (the engine waits 2 s at most for its link at exit), so one
# must be the start of the other and hold at least 90% of it: a single foreign command breaks that.
shortened = 0
for session in again:
    seed = session["seed"]
    alone = commands(session["out"], folder, f"alone-{seed}")
    together = streams[seed]
    shorter, longer = sorted((alone, together), key=len)
    if longer[: len(shorter)] != shorter or len(shorter) < 0.9 * len(longer):
        diff = next((i for i, (a, b) in enumerate(zip(alone, together)) if a != b), len(shorter))
        problems.append(f"seed {seed}: the stream differs from the one played alone at message {diff}: "
                        f"{together[diff:diff + 2]} against {alone[diff:diff + 2]}")
    elif len(shorter) < len(longer):
        shortened += 1
complete = sum(1 for stream in streams.values() if stream and stream[-1] == "bye")
subprocess.run(["rm", "-rf", folder])
rss = [s["rss"] / 1024 for s in sessions]
pss = [s["pss"] / 1024 for s in sessions]
frames = sum(len(FRAME.findall(bytes(s["out"]))) for s in sessions)
print(f"sessions {count}: wall {wall:.1f} s, CPU {cpu:.1f} s = {100 * cpu / wall:.0f}% of a core "
      f"({100 * cpu / wall / count:.1f}% per session), load {os.getloadavg()[0]:.1f}")
print(f"memory per session: RSS {sum(rss) / count:.1f} MiB (max {max(rss):.1f}), "
      f"PSS {sum(pss) / count:.1f} MiB (max {max(pss):.1f}), PSS of all {sum(pss):.0f} MiB")
print(f"streams: {frames} frames, {distinct} distinct of {count}, {complete} ending with the goodbye; "
      f"{len(again_seeds)} seeds played again alone: {'the same commands' if not problems else 'PROBLEMS'}"
      f"{f' ({shortened} ending earlier on one side)' if shortened else ''}")
for problem in problems:
    print("problem:", problem)
sys.exit(1 if problems else 0)

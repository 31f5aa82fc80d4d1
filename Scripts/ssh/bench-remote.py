#!/usr/bin/env python3
"""Server-side cost of a remote session: runs a game under a pseudo-terminal (as sshd would) once
with the remote output announced (every asset announced as cached, so only commands travel) and once
on the local default device, and reports the game's CPU time (user + system) and the bytes of sound
frames it wrote per minute.
Usage: bench-remote.py ASSETS_DIR COMMAND...   (inside Scripts/with-pulse.sh for the device run)"""
import hashlib, os, pty, re, resource, sys, time

assets, command = sys.argv[1], sys.argv[2:]
have = []
for folder, _, files in os.walk(assets):
    for name in files:
        if name != "catalogue.json":
            have.append(hashlib.sha256(open(os.path.join(folder, name), "rb").read()).hexdigest()[:16])

def run(env_extra):
    env = dict(os.environ, **env_extra)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    pid, fd = pty.fork()
    if pid == 0:
        os.execvpe(command[0], command, env)
    out = bytearray()
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    os.waitpid(pid, 0)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    frames = re.findall(rb"\x1b_SS1;[A-Za-z0-9+/=]*\x1b\\", bytes(out))
    return wall, cpu, len(frames), sum(len(f) for f in frames)

local = run({"SOUNDSTATION_OUTPUT": "device", "LC_SOUNDSTATION": ""})
remote = run({"LC_SOUNDSTATION": "ss1 have=" + ",".join(have)})
for name, (wall, cpu, count, size) in (("local device", local), ("remote", remote)):
    print(f"{name:13s} wall {wall:6.2f} s  CPU {cpu:6.2f} s ({100 * cpu / wall:5.1f}% of a core)  "
          f"frames {count:5d}  {size / wall * 60 / 1024:7.1f} KiB/min")
# Per second of play: a game's own run can last longer in one mode (Starfall's bot waits on its
# menus by the clock), so the rates compare, not the totals.
print(f"remote CPU / local CPU, per second of play: {100 * (remote[1] / remote[0]) / (local[1] / local[0]):.0f}%")

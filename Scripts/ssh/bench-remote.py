#!/usr/bin/env python3
"""Server-side cost of a remote session: runs a game under a pseudo-terminal (as sshd would) once
with the remote output announced (every asset announced as cached, so only commands travel) and once
on the local default device, and reports the game's CPU time (user + system), the sound server's
CPU time during the run (what a local session also costs the server; the PulseAudio daemon of
Scripts/with-pulse.sh, found from PULSE_SERVER) and the bytes of sound frames it wrote per minute.
Usage: bench-remote.py ASSETS_DIR COMMAND...   (inside Scripts/with-pulse.sh for the device run)"""
import hashlib, os, pty, re, resource, sys, time

assets, command = sys.argv[1], sys.argv[2:]
have = []
for folder, _, files in os.walk(assets):
    for name in files:
        if name != "catalogue.json":
            have.append(hashlib.sha256(open(os.path.join(folder, name), "rb").read()).hexdigest()[:16])

def sound_server_cpu():
    """CPU seconds the private PulseAudio daemon has used so far (0 without one)."""
    server = os.environ.get("PULSE_SERVER", "")
    if not server.startswith("unix:"):
        return 0.0
    try:
        pid = open(os.path.join(os.path.dirname(server[5:]), "pid")).read().split()[0]
        fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

def run(env_extra):
    env = dict(os.environ, **env_extra)
    server_before = sound_server_cpu()
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
    server = sound_server_cpu() - server_before
    frames = re.findall(rb"\x1b_SS1;[A-Za-z0-9+/=]*\x1b\\", bytes(out))
    # A command that measures its own play (soundstation-bench session) says so on its last line.
    play = re.search(rb"session: play CPU ([0-9.]+) s over ([0-9.]+) s", bytes(out))
    played = (float(play.group(1)), float(play.group(2))) if play else None
    return wall, cpu, server, len(frames), sum(len(f) for f in frames), played

local = run({"SOUNDSTATION_OUTPUT": "device", "LC_SOUNDSTATION": ""})
remote = run({"LC_SOUNDSTATION": "ss1 have=" + ",".join(have)})
for name, (wall, cpu, server, count, size, _) in (("local device", local), ("remote", remote)):
    print(f"{name:13s} wall {wall:6.2f} s  CPU {cpu:6.2f} s ({100 * cpu / wall:5.1f}% of a core)  "
          f"sound server {server:5.2f} s  frames {count:5d}  {size / wall * 60 / 1024:7.1f} KiB/min")
# Per second of play: a game's own run can last longer in one mode (Starfall's bot waits on its
# menus by the clock), so the rates compare, not the totals.
print(f"remote CPU / local CPU, per second of play: {100 * (remote[1] / remote[0]) / (local[1] / local[0]):.0f}%")
print(f"with the sound server's CPU: {100 * ((remote[1] + remote[2]) / remote[0]) / ((local[1] + local[2]) / local[0]):.0f}%")
if local[5] and remote[5]:
    rates = [(cpu + server) / played for (cpu, played), server in ((local[5], local[2]), (remote[5], remote[2]))]
    print(f"while playing (after the preload), with the sound server: local {100 * rates[0]:.2f}% of a core, "
          f"remote {100 * rates[1]:.2f}%: remote / local {100 * rates[1] / rates[0]:.0f}%")

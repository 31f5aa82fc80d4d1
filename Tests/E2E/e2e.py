"""Helpers the end-to-end tests share: waiting on a condition with a deadline, running programs,
measuring sound files with sox, and driving tmux panes."""

import json
import os
import re
import shlex
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
BIN = Path(os.environ.get("SOUNDSTATION_BIN", REPO / ".build" / "debug")).resolve()
CLI = BIN / "soundstation"
POLL = 0.05  # how often a condition is looked at again


class WaitTimeout(AssertionError):
    """A condition not met by its deadline; the message says what was awaited and what was seen."""


def wait_until(predicate, timeout, what, seen=None):
    """Returns the first true value of `predicate()`, looked at every 50 ms for up to `timeout`
    seconds; otherwise fails naming `what` it waited for and what `seen()` shows then."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() >= deadline:
            shown = seen() if seen else repr(value)
            raise WaitTimeout(f"waited {timeout} s for {what}; saw:\n{shown}")
        time.sleep(POLL)


def run(args, check=False, timeout=120, **kwargs):
    """Runs a program to its end, capturing its output as text."""
    result = subprocess.run(args, capture_output=True, text=True, timeout=timeout, **kwargs)
    print("$", " ".join(shlex.quote(str(a)) for a in args), f"-> exit {result.returncode}")
    if result.stdout.strip():
        print(result.stdout[-4000:])
    if result.stderr.strip():
        print("stderr:", result.stderr[-4000:])
    if check:
        assert result.returncode == 0, f"{args[0]} exited {result.returncode}"
    return result


def fails(args, code, pattern, **kwargs):
    """The command exits with `code` (not a signal) and says `pattern` on standard error."""
    result = run(args, **kwargs)
    assert result.returncode == code, f"exit {result.returncode}, wanted {code}: {result.stderr}"
    assert pattern in result.stderr, f"stderr lacks {pattern!r}: {result.stderr}"
    return result


def sox_stat(path, start=0, length=None, effects=()):
    """sox's `stat` of a sound file (or a stretch of it) as a dict of its figures."""
    trim = ["trim", str(start)] + ([str(length)] if length is not None else [])
    result = subprocess.run(
        ["sox", str(path), "-n", *trim, *effects, "stat"], capture_output=True, text=True, timeout=60
    )
    figures = {}
    for line in result.stderr.splitlines():
        name, _, value = line.partition(":")
        try:
            figures[" ".join(name.split())] = float(value.split()[0])
        except (ValueError, IndexError):
            pass
    return figures


def peak(path, start=0, length=None):
    """The largest absolute sample of a sound file (or a stretch of it)."""
    stat = sox_stat(path, start, length)
    return max(stat.get("Maximum amplitude", 0), -stat.get("Minimum amplitude", 0))


def rms(path, start=0, length=None, effects=()):
    """The RMS amplitude of a sound file (or a stretch of it)."""
    return sox_stat(path, start, length, effects).get("RMS amplitude", 0)


def soxi(path, flag):
    return subprocess.run(["soxi", flag, str(path)], capture_output=True, text=True).stdout.strip()


def load_json(path):
    return json.loads(Path(path).read_text())


def data_bytes(path):
    """Bytes of sound data a WAV file being recorded holds so far (its size past the header)."""
    try:
        return max(0, os.path.getsize(path) - 44)
    except OSError:
        return 0


class Recorder:
    """parecord on a sink's monitor into a WAV file, started and stopped on conditions: recording has
    begun once the file holds sound data, and it is stopped once it holds what came after a moment."""

    def __init__(self, path, device="test.monitor", rate=48000, latency_ms=None, env=None):
        self.path, self.rate = Path(path), rate
        args = ["parecord", f"--device={device}", f"--rate={rate}", "--channels=1", "--file-format=wav"]
        if latency_ms:
            args.insert(1, f"--latency-msec={latency_ms}")
        self.process = subprocess.Popen(args + [str(path)], env=env)
        # 0.1 s of data shows the stream runs (a loaded machine can take a second or two).
        wait_until(
            lambda: data_bytes(self.path) >= self.rate * 2 // 10 or self.process.poll() is not None,
            20, f"parecord to write sound data into {self.path}", lambda: f"{data_bytes(self.path)} bytes")
        assert self.process.poll() is None, f"parecord exited {self.process.returncode}"

    def samples(self):
        """The 16-bit samples recorded so far (mono)."""
        import array
        data = array.array("h")
        try:
            raw = self.path.read_bytes()[44:]
        except OSError:
            return data
        data.frombytes(raw[: len(raw) // 2 * 2])
        return data

    def heard_above(self, level):
        """Whether the recording holds a sample above `level` (0..1) yet."""
        limit = level * 32768
        return any(abs(v) > limit for v in self.samples())

    def seconds(self):
        return data_bytes(self.path) / (2 * self.rate)

    def stop(self, after=0.0):
        """Stops once the file holds `after` seconds more than it does now (what the sink played up
        to this moment, and `after` seconds past it, has reached the file)."""
        target = self.seconds() + after
        if after > 0:
            wait_until(lambda: self.seconds() >= target, after + 20,
                       f"{after} s more of recording in {self.path}", lambda: f"{self.seconds():.2f} s")
        self.close()

    def close(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


class Tmux:
    """A private tmux server (its own socket) kept alive by a keeper session, so a pane started while
    the server would otherwise exit with its last session never fails."""

    def __init__(self, socket_path, alternate_screen=True):
        self.socket = str(socket_path)
        self.cmd("new-session", "-d", "-s", "keeper", "sleep 86400")
        # A pane whose program ended stays with its last screen and nothing added to it.
        self.cmd("set-option", "-g", "remain-on-exit", "on")
        self.cmd("set-option", "-g", "remain-on-exit-format", "")
        if not alternate_screen:
            # A full-screen program's last frame stays on the pane after it exits.
            self.cmd("set-option", "-wg", "alternate-screen", "off")

    def cmd(self, *args, check=True):
        result = subprocess.run(["tmux", "-S", self.socket, "-f", "/dev/null", *args],
                                capture_output=True, text=True, timeout=30)
        if check:
            assert result.returncode == 0, f"tmux {' '.join(args)}: {result.stderr}"
        return result

    def new(self, name, command, width=100, height=30):
        self.cmd("kill-session", "-t", name, check=False)
        self.cmd("new-session", "-d", "-s", name, "-x", str(width), "-y", str(height), command)

    def pane(self, name, escapes=False):
        args = ["capture-pane", "-t", name, "-p"] + (["-e"] if escapes else [])
        return self.cmd(*args, check=False).stdout

    def keys(self, name, *keys):
        self.cmd("send-keys", "-t", name, *keys)

    def wait_for(self, name, pattern, timeout=10):
        """Until the pane shows `pattern` (a regular expression)."""
        return wait_until(lambda: re.search(pattern, self.pane(name)), timeout,
                          f"the pane {name} to show {pattern!r}", lambda: self.pane(name))

    def processes(self, name):
        """The pane's process tree (pid, state, kernel wait, command), to tell what a pane waits on."""
        pid = self.cmd("display-message", "-p", "-t", name, "#{pane_pid}", check=False).stdout.strip()
        if not pid:
            return "no pane"
        # -ww: whole command lines; ps otherwise cuts them at the width of a terminal it finds on any
        # of its standard streams (stdin, where pytest was started from one), and callers match them.
        tree = subprocess.run(["ps", "-ww", "-eo", "pid,ppid,stat,wchan:24,args"],
                              capture_output=True, text=True).stdout
        rows = [line.split(None, 4) for line in tree.splitlines()[1:]]
        keep, found = {pid}, True
        while found:
            found = False
            for row in rows:
                if row[1] in keep and row[0] not in keep:
                    keep.add(row[0])
                    found = True
        shown = [" ".join(row) for row in rows if row[0] in keep]
        # Whoever else holds the pane's terminal .
        tty = self.cmd("display-message", "-p", "-t", name, "#{pane_tty}", check=False).stdout.strip()
        for row in rows:
            try:
                fds = os.listdir(f"/proc/{row[0]}/fd")
                holds = tty and any(os.readlink(f"/proc/{row[0]}/fd/{fd}") == tty for fd in fds)
            except OSError:
                holds = False
            if holds and row[0] not in keep:
                shown.append("holds " + tty + ": " + " ".join(row))
        return "\n".join(shown)

    def status(self, name):
        """The exit status a pane started by ``run`` reported, else None. The wrapper reports it in
        the pane's title (an escape tmux reads in order after all the command wrote, showing nothing),
        so once it is there the pane holds the command's whole output."""
        title = self.cmd("display-message", "-p", "-t", name, "#{pane_title}", check=False).stdout.strip()
        return int(title[5:]) if title.startswith("exit=") and title[5:].lstrip("-").isdigit() else None

    def start(self, name, command, width=100, height=30):
        """Starts `command` (a shell command line) in a pane that reports its exit status."""
        self.new(name, f"{command}; printf '\\033]2;exit=%s\\033\\\\' $?; exec sleep 86400", width, height)

    def finished(self, name, timeout=90):
        """Waits for a pane started by ``start`` to report its status; returns it."""
        wait_until(lambda: self.status(name) is not None, timeout, f"{name} to finish",
                   lambda: self.pane(name) + "\nits processes:\n" + self.processes(name))
        return self.status(name)

    def run(self, name, command, timeout=90, width=100, height=30):
        """Runs `command` in a pane until it ends; returns (exit status, the pane's text)."""
        self.start(name, command, width, height)
        status = self.finished(name, timeout)
        text = self.pane(name)
        self.cmd("kill-session", "-t", name, check=False)
        return status, text

    def kill(self):
        self.cmd("kill-server", check=False)


def pulse_env(folder):
    folder = str(folder)
    return {"XDG_RUNTIME_DIR": folder, "PULSE_RUNTIME_PATH": folder + "/pulse",
            "PULSE_SERVER": f"unix:{folder}/pulse/native"}


def pactl_ok(folder):
    env = dict(os.environ, **pulse_env(folder))
    env.pop("PULSE_COOKIE", None)
    return subprocess.run(["pactl", "info"], env=env, capture_output=True, timeout=10).returncode == 0


class PulseServer:
    """A private PulseAudio server whose default sink is a null sink and default source its monitor."""

    def __init__(self, folder, sink="test"):
        self.folder, self.sink = Path(folder), sink
        self.start()

    @property
    def env(self):
        return pulse_env(self.folder)

    def start(self):
        self.folder.mkdir(parents=True, exist_ok=True)
        os.chmod(self.folder, 0o700)
        env = dict(os.environ, **self.env)
        env.pop("PULSE_COOKIE", None)
        subprocess.run(
            ["pulseaudio", "--daemonize=yes", "--exit-idle-time=-1", "-n", "--disallow-exit=no",
             f"--load=module-null-sink sink_name={self.sink} sink_properties=device.description=Null_Output",
             "--load=module-native-protocol-unix", f"--log-target=file:{self.folder}/pulse.log"],
            env=env, capture_output=True, timeout=30)
        wait_until(lambda: pactl_ok(self.folder), 10, f"the PulseAudio server in {self.folder} to answer",
                   lambda: (self.folder / "pulse.log").read_text() if (self.folder / "pulse.log").exists() else "no log")
        subprocess.run(["pactl", "set-default-source", f"{self.sink}.monitor"], env=env, check=True,
                       capture_output=True)
        # Its main thread real-time too, the sinks' SCHED_RR 5: Scripts/pulse-lib.sh's pulse_realtime
        # says why and what it takes.
        pid = self.pid()
        if pid is None or subprocess.run(["chrt", "-r", "-p", "5", str(pid)], capture_output=True).returncode:
            print(f"PulseServer: the server's main thread (process {pid}) is not real-time: chrt -r -p 5 was "
                  "refused; on a busy machine its requests for data can wait for a core", file=sys.stderr)

    def pid(self):
        try:
            return int((self.folder / "pulse" / "pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None

    def stop(self):
        """Returns once the server's process is gone, so a server started next here is a new one."""
        pid = self.pid()
        env = dict(os.environ, **self.env)
        subprocess.run(["pactl", "exit"], env=env, capture_output=True, timeout=10)
        if pid is None:
            wait_until(lambda: not pactl_ok(self.folder), 10, "the server to stop answering")
            return
        try:
            os.kill(pid, 15)
        except ProcessLookupError:
            return

        def gone():
            try:
                os.kill(pid, 0)
                return False
            except ProcessLookupError:
                return True
        try:
            wait_until(gone, 5, f"PulseAudio (process {pid}) to exit")
        except WaitTimeout:
            os.kill(pid, 9)
            wait_until(gone, 5, f"PulseAudio (process {pid}) to die")

    def log_tail(self, lines=20):
        path = self.folder / "pulse.log"
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:]) if path.exists() else ""


def listen_until_heard(pulse, path, process, takes=6):
    """Records the server's monitor in 1 s takes until one holds sound (peak above 0.02), for a player
    that reopens its device once a second after a restart. Returns (peak, takes, still running)."""
    heard, alive = 0.0, False
    for take in range(1, takes + 1):
        env = dict(os.environ, **pulse.env)
        subprocess.run(["timeout", "1", "parecord", f"--device={pulse.sink}.monitor", "--rate=16000",
                        "--channels=1", "--file-format=wav", str(path)], env=env)
        alive = process.poll() is None
        heard = peak(path)
        if heard > 0.02:
            break
    return heard, take, alive

"""Ctrl-C during a long offline render: a child process renders 10 minutes of music, the test sends
it SIGINT, and the KeyboardInterrupt must cut the render rather than wait for it (render() mixes in
10 ms pieces and Python raises the interrupt between them). The delay measured is printed (pytest -s
shows it)."""

import os
import signal
import subprocess
import sys
import textwrap
import time

from conftest import ASSETS

CHILD = textwrap.dedent("""
    import sys, time
    import soundstation

    with soundstation.Engine("offline:48000", assets=sys.argv[1]) as engine:
        engine.preload(["main"])
        engine.music("main")
        engine.render(4800)
        print("rendering", flush=True)
        started = time.monotonic()
        try:
            engine.render(48000 * 600)
            print("finished", time.monotonic() - started, flush=True)
        except KeyboardInterrupt:
            print("interrupted", time.monotonic(), time.monotonic() - started, flush=True)
        block = engine.render(4800)  # the engine renders on after the interrupt
        print("after", float(abs(block).max()) if hasattr(block, "max") else max(map(abs, block)), flush=True)
        began = time.monotonic()
        engine.render(48000 * 10)  # the render's speed on this machine now, uninterrupted
        print("ten", time.monotonic() - began, flush=True)
""")


def test_ctrl_c_interrupts_a_long_render_quickly():
    child = subprocess.Popen([sys.executable, "-c", CHILD, ASSETS], stdout=subprocess.PIPE, text=True,
                             env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)))
    try:
        assert child.stdout.readline().strip() == "rendering"
        time.sleep(0.5)  # well inside the render
        sent = time.monotonic()  # CLOCK_MONOTONIC: one clock for both processes
        child.send_signal(signal.SIGINT)
        interrupted = child.stdout.readline().split()
        after = child.stdout.readline().split()
        ten = child.stdout.readline().split()
        assert child.wait(timeout=60) == 0
    finally:
        child.kill()
    assert interrupted[0] == "interrupted", f"the render was not interrupted: {interrupted}"
    delay = float(interrupted[1]) - sent
    into = float(interrupted[2])
    assert after[0] == "after" and float(after[1]) > 0.01
    assert ten[0] == "ten"
    # Ctrl-C cut the render rather than waiting for it: the whole 600 s, at the speed the child renders
    # 10 s uninterrupted just after, would have ended `whole` after its start, and the interrupt arrived
    # in under half of what was left. (A fixed bound of 250 ms would read a speed, as the preload's
    # 100 ms did: test_engine.py's test_ctrl_c_stops_a_preload_quickly.)
    whole = float(ten[1]) * 60
    print(f"KeyboardInterrupt {delay * 1000:.1f} ms after SIGINT, {into:.2f} s into a render of {whole:.1f} s")
    assert delay < (whole - into) / 2, (
        f"KeyboardInterrupt arrived {delay * 1000:.0f} ms after SIGINT; the rest of the render takes "
        f"{(whole - into) * 1000:.0f} ms")

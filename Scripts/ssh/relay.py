#!/usr/bin/env python3
"""A slow, uneven link for ssh's ProxyCommand: relays stdin/stdout to HOST:PORT, holding every chunk
of bytes DELAY +- JITTER milliseconds (uniformly), in order, in both directions.
Usage: relay.py HOST PORT DELAY_MS JITTER_MS"""
import os, random, selectors, socket, sys, time, heapq

host, port, delay, jitter = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
sock = socket.create_connection((host, port))
sock.setblocking(False)
stdin, stdout = sys.stdin.fileno(), sys.stdout.fileno()
os.set_blocking(stdin, False)
pending = {"up": [], "down": []}  # (due, seq, bytes), kept in order: a chunk never overtakes
last_due = {"up": 0.0, "down": 0.0}
seq = 0
sel = selectors.DefaultSelector()
sel.register(stdin, selectors.EVENT_READ, "up")
sel.register(sock, selectors.EVENT_READ, "down")
open_ends = 2
while open_ends > 0 or pending["up"] or pending["down"]:
    now = time.monotonic()
    dues = [q[0][0] for q in pending.values() if q]
    timeout = max(0.0, min(dues) - now) if dues else (None if open_ends else 0)
    for key, _ in sel.select(timeout):
        direction = key.data
        try:
            data = os.read(stdin, 65536) if direction == "up" else sock.recv(65536)
        except BlockingIOError:
            continue
        if not data:
            sel.unregister(key.fileobj)
            open_ends -= 1
            data = b""
        hold = (delay + random.uniform(-jitter, jitter)) / 1000.0
        due = max(time.monotonic() + hold, last_due[direction])
        last_due[direction] = due
        seq += 1
        pending[direction].append((due, seq, data))
    now = time.monotonic()
    for direction, queue in pending.items():
        while queue and queue[0][0] <= now:
            _, _, data = queue.pop(0)
            if direction == "up":
                if data:
                    sock.setblocking(True); sock.sendall(data); sock.setblocking(False)
                else:
                    sock.shutdown(socket.SHUT_WR)
            else:
                if data:
                    os.set_blocking(stdout, True); os.write(stdout, data)
                else:
                    sys.exit(0)

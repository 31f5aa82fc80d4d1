#!/usr/bin/env python3
"""Helpers for Scripts/bench.sh: time whole commands, and turn the JSON lines the benchmark binaries
print into .build/bench/results.json and a table.

    bench.py time --runs N SPEC.json        time each command of SPEC (a JSON list of
                                            {case, side, peer, unit, label, cmd}) once as a warm-up
                                            and then N times, interleaved, printing one JSON line each
    bench.py report LINES.jsonl --json OUT.json --markdown OUT.md [--doc DOC.md --machine MACHINE.txt]
                                            --doc: the one table Docs/Performance.md shows (each row's
                                            result, target and met/MISSED, with the run's date and load),
                                            which Scripts/generated-docs.py copies into the page
"""
import argparse
import datetime
import json
import statistics
import subprocess
import sys
import time

# Every row of the table: case, peer (as the peers name themselves), and the target issue 10 (or
# issue 23: the filter rows and startup) sets
# (ratio engine/peer, or a bound on the engine's median, or with "worst<=" on its worst run), if any.
# trigger-under-load-* are the statistics of each run's trigger call times (p50, p99, p99.9, max; the
# longest call not preempted; calls that slept), each row's figure the median over runs.
ROWS = [
    ("preload", "raw-openal", ("ratio<=", 0.55)),
    ("preload", "sdl-mixer", None),
    ("preload-1thread", "raw-openal", ("ratio<=", 1.0)),
    ("preload-cached", "raw-openal", ("ratio<=", 0.2)),
    ("preload-music-streamed", "raw-openal", None),
    ("preload-music-streamed", "sdl-mixer", None),
    ("trigger", "raw-openal", ("ratio<=", 1.0)),
    ("trigger", "sdl-mixer", None),
    ("trigger-drained", "raw-openal", None),
    ("trigger-under-load-p50", "raw-openal", None),
    ("trigger-under-load-p99", "raw-openal", None),
    ("trigger-under-load-p999", "raw-openal", ("engine<=", 20.0)),
    ("trigger-under-load-max", "raw-openal", ("worst<=", 1000.0)),
    ("trigger-under-load-max-unpreempted", "raw-openal", None),
    ("trigger-under-load-blocked", "raw-openal", None),
    ("control-under-load-voices-p999", "soundstation-trigger", ("engine<=", 20.0)),
    ("control-under-load-voices-max", "soundstation-trigger", ("worst<=", 200.0)),
    ("control-under-load-isactive-p999", "soundstation-trigger", ("engine<=", 20.0)),
    ("control-under-load-isactive-max", "soundstation-trigger", ("worst<=", 200.0)),
    ("control-under-load-busvolume-p999", "soundstation-trigger", ("engine<=", 20.0)),
    ("control-under-load-busvolume-max", "soundstation-trigger", ("worst<=", 200.0)),
    ("control-under-load-music-p999", "soundstation-trigger", ("engine<=", 20.0)),
    ("control-under-load-music-max", "soundstation-trigger", ("worst<=", 200.0)),
    ("idle-music", "raw-openal", ("ratio<=", 1.2)),
    ("idle-device", "raw-openal", ("ratio<=", 1.2)),
    ("idle-device-active", "raw-openal", None),
    ("mix-1", "raw-openal", ("ratio<=", 1.5)),
    ("mix-16", "raw-openal", ("ratio<=", 1.05)),
    ("mix-64", "raw-openal", ("ratio<=", 1.05)),
    ("mix-255", "raw-openal", ("ratio<=", 1.05)),
    ("mix-1", "raw-openal-256", None),
    ("mix-16", "raw-openal-256", None),
    ("mix-64", "raw-openal-256", None),
    ("mix-255", "raw-openal-256", None),
    # Each filter row against the engine without the colour (issue 23's target) and against the
    # floor for the same job (raw-openal-bench's filter.c): no target of its own; the row compares
    # the two renders' RMS, which must agree (the same voices through the same colour).
    ("filter-lowpass-16", "soundstation-unfiltered", ("ratio<=", 1.5)),
    ("filter-lowpass-16", "raw-openal", None),
    ("filter-lowpass-64", "soundstation-unfiltered", ("ratio<=", 1.5)),
    ("filter-lowpass-64", "raw-openal", None),
    ("filter-reverb-16", "soundstation-unfiltered", ("ratio<=", 1.5)),
    ("filter-reverb-16", "raw-openal", None),
    ("filter-reverb-64", "soundstation-unfiltered", ("ratio<=", 1.5)),
    ("filter-reverb-64", "raw-openal", None),
    ("filter-reverb-idle-16", "soundstation-unfiltered", ("ratio<=", 1.05)),
    ("filter-latency-device", "soundstation-unfiltered", None),
    # Music speed without pitch against the same layered track unstretched (issue 33).
    ("music-speed-1.25", "soundstation-unstretched", None),
    ("stream-memory", "soundstation-preloaded", None),
    ("stream-memory-pcm", "soundstation-preloaded", ("engine<", 2.0)),
    ("voice-encode", "raw-openal", ("ratio<=", 1.1)),
    ("voice-encode", "oggenc", None),
    ("voice-encode-speed", "raw-openal", ("engine>=", 100.0)),
    ("voice-encode-speed", "oggenc", None),
    ("latency-loopback", "raw-openal", None),
    ("latency-device", "raw-openal", None),
    ("latency-device", "sdl-mixer", None),
    ("latency-device-low", "soundstation-normal", ("engine<=", 12.0)),
    ("latency-device-low-period", "soundstation-normal", None),
    ("latency-device-low-underruns", "pacat-10ms", ("worst<=", 0.0)),
    ("startup", "raw-openal", ("ratio<=", 1.2)),
    ("startup", "sdl-mixer", None),
    ("startup", "soundstation-no-pcm-cache", None),
]


def time_commands(spec_path, runs):
    specs = json.load(open(spec_path))
    samples = [[] for _ in specs]
    for run in range(-1, runs):
        for index, spec in enumerate(specs):
            start = time.perf_counter()
            done = subprocess.run(spec["cmd"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            elapsed = time.perf_counter() - start
            if done.returncode != 0:
                sys.exit("bench.py: %s failed (%d): %s" % (" ".join(spec["cmd"]), done.returncode,
                                                           done.stderr.decode(errors="replace").strip()))
            if run >= 0:
                samples[index].append(elapsed * 1e3)
    for spec, figures in zip(specs, samples):
        line = {key: spec[key] for key in ("case", "side", "unit", "label") if key in spec}
        if "peer" in spec:
            line["peer"] = spec["peer"]
        line["samples"] = figures
        print(json.dumps(line), flush=True)


def read_lines(path):
    lines = []
    for text in open(path):
        text = text.strip()
        if text.startswith("{"):
            lines.append(json.loads(text))
    return lines


def summary(figures):
    return {
        "n": len(figures),
        "median": statistics.median(figures),
        "min": min(figures),
        "max": max(figures),
        "samples": figures,
    }


def gather(lines, case, side, peer=None):
    """Every sample of one case and side, over all rounds, with the first line's label and note."""
    chosen = [line for line in lines if line["case"] == case and line["side"] == side
              and (peer is None or line.get("peer") == peer)]
    figures = [value for line in chosen for value in line["samples"]]
    label = chosen[0].get("label", "") if chosen else ""
    notes = sorted({line["note"] for line in chosen if line.get("note")})
    unit = chosen[0]["unit"] if chosen else ""
    return figures, label, notes, unit


def rms_check(lines, case, peer_side, peer):
    """For rows whose sides both report their render's RMS (`extra.rms`): their ratio, and whether
    they agree within 2 % (the same voices through the same colour: a side that skipped work shows)."""
    def rms(side, name=None):
        values = [line["extra"]["rms"] for line in lines if line["case"] == case and line["side"] == side
                  and (name is None or line.get("peer") == name) and "rms" in line.get("extra", {})]
        return values[0] if values else None
    # Only against a peer doing the same job (the engine without its colour renders differently).
    if peer_side != "peer":
        return ""
    engine, other = rms("engine"), rms(peer_side, peer)
    if not engine or not other:
        return ""
    ratio = engine / other
    return "render RMS %.4g / %.4g = %.3f%s" % (engine, other, ratio, "" if abs(ratio - 1) <= 0.02 else " DIFFER")


def derive_speed(lines, seconds):
    """voice-encode-speed: audio seconds per encoding second, from each voice-encode run."""
    derived = []
    for line in lines:
        if line["case"] == "voice-encode":
            speed = dict(line)
            speed["case"] = "voice-encode-speed"
            speed["unit"] = "x realtime"
            speed["samples"] = [seconds / (ms / 1e3) for ms in line["samples"]]
            derived.append(speed)
    return derived


def number(value):
    if value is None:
        return "-"
    if value == 0:
        return "0"
    if abs(value) >= 100:
        return "%.0f" % value
    if abs(value) >= 10:
        return "%.1f" % value
    if abs(value) >= 1:
        return "%.2f" % value
    return "%.3g" % value


def cell(stats):
    return "%s [%s-%s]" % (number(stats["median"]), number(stats["min"]), number(stats["max"]))


def judge(target, engine, ratio, worst):
    """(met, what the target asks) for a row's target, or None when it has none."""
    if target is None:
        return None
    kind, bound = target
    if kind == "ratio<=":
        return ratio is not None and ratio <= bound, "ratio <= %g" % bound
    if kind == "engine<":
        return engine < bound, "engine < %g" % bound
    if kind == "engine<=":
        return engine <= bound, "engine <= %g" % bound
    if kind == "worst<=":
        return worst <= bound, "every run <= %g" % bound
    return engine >= bound, "engine >= %g" % bound


def verdict(target, engine, ratio, worst):
    judged = judge(target, engine, ratio, worst)
    if judged is None:
        return ""
    met, asked = judged
    return "%s (%s)" % ("met" if met else "MISSED", asked)


def write_doc(path, rows, missing, machine):
    """The table Docs/Performance.md includes: one line per row with its result, its target and
    whether this run met it, under the run's date, commit and load (from bench.sh's machine.txt)."""
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                                check=True).stdout.strip()
        # The pages this table rewrites do not count as changes to the code measured.
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", "--", ".",
                                ":!Docs/generated", ":!Docs/Performance.md"], capture_output=True,
                               text=True, check=True).stdout.strip()
        commit += " with changes" if dirty else ""
    except (OSError, subprocess.CalledProcessError):
        commit = "unknown"
    met = sum(1 for row in rows if row["met"] is True)
    judged = sum(1 for row in rows if row["met"] is not None)
    with open(path, "w") as out:
        out.write("<!-- Written by Benchmarks/Scripts/bench.py report --doc (make bench); do not edit. -->\n")
        out.write("The last `make bench`: %s, commit %s; %d of %d targets met.\n\n" % (when, commit, met, judged))
        for line in machine:
            out.write("- %s\n" % line)
        if machine:
            out.write("\n")
        out.write("| row | against | engine | peer | ratio | runs | target | |\n")
        out.write("| --- | --- | --- | --- | --- | --- | --- | --- |\n")
        for row in rows:
            status = "" if row["met"] is None else ("met" if row["met"] else "**MISSED**")
            out.write("| `%s` | %s | %s | %s | %s | %s | %s | %s |\n" % (
                row["name"], row["peer"], row["engine"], row["other"], row["ratio"], row["runs"],
                row["target"], status))
        out.write("\nengine and peer: median [min-max] of the runs, in the row's unit; ratio = engine / peer "
                  "(lower is better, except `voice-encode-speed`); runs: engine/peer run count.\n")
        if missing:
            out.write("\nNot measured in this run: %s.\n" % ", ".join("`%s` against %s" % pair for pair in missing))


def report(arguments):
    lines = read_lines(arguments.lines)
    # The speech's length as the engine decoded it for its voice-encode runs.
    seconds = [line["extra"]["audioSeconds"] for line in lines
               if line["case"] == "voice-encode" and "audioSeconds" in line.get("extra", {})]
    if seconds:
        lines += derive_speed(lines, seconds[0])
    results, table, doc_rows, missing = [], [], [], []
    for case, peer, target in ROWS:
        engine_figures, engine_label, engine_notes, unit = gather(lines, case, "engine")
        peer_side = "engine-variant" if peer.startswith("soundstation-") else "peer"
        # The single-threaded engine preload is compared with the same raw run as the parallel one.
        peer_case = "preload" if case in ("preload-1thread", "preload-cached") else case
        peer_figures, peer_label, peer_notes, _ = gather(lines, peer_case, peer_side, peer)
        if not engine_figures or not peer_figures:
            print("bench: no figures for %s vs %s; left out" % (case, peer), file=sys.stderr)
            missing.append((case, peer))
            continue
        engine, other = summary(engine_figures), summary(peer_figures)
        if other["median"] == 0:
            ratio = 1.0 if engine["median"] == 0 else None
        else:
            ratio = engine["median"] / other["median"]
        results.append({
            "name": case,
            "unit": unit,
            "engine": engine["median"],
            "peer": other["median"],
            "peerName": peer,
            "ratio": ratio,
            "runs": {"engine": engine, "peer": other},
        })
        table.append((case, unit, cell(engine), cell(other), peer, number(ratio), "%d/%d" % (engine["n"], other["n"]),
                      "; ".join(filter(None, (verdict(target, engine["median"], ratio, engine["max"]),
                                              rms_check(lines, case, peer_side, peer)))),
                      engine_label, peer_label,
                      "; ".join(engine_notes), "; ".join(peer_notes)))
        judged = judge(target, engine["median"], ratio, engine["max"])
        doc_rows.append({
            "name": case, "peer": peer,
            "engine": "%s %s" % (cell(engine), unit), "other": cell(other),
            "ratio": "%sx" % number(ratio) if ratio is not None else "-",
            "runs": "%d/%d" % (engine["n"], other["n"]),
            "target": "" if judged is None else judged[1],
            "met": None if judged is None else judged[0],
        })
    if arguments.doc:
        machine = []
        if arguments.machine:
            machine = [line.strip() for line in open(arguments.machine) if line.strip()]
        write_doc(arguments.doc, doc_rows, missing, machine)
    with open(arguments.json, "w") as out:
        json.dump(results, out, indent=2)
        out.write("\n")

    headers = ("name", "unit", "engine", "peer", "peerName", "ratio", "runs", "target")
    widths = [max(len(headers[i]), *(len(row[i]) for row in table)) for i in range(len(headers))]
    print("  ".join(h.ljust(w) for h, w in zip(headers, widths)))
    print("  ".join("-" * w for w in widths))
    for row in table:
        print("  ".join(row[i].ljust(widths[i]) for i in range(len(headers))))
    print("\nengine and peer: median [min-max] of the runs; ratio = engine / peer (lower is better,")
    print("except voice-encode-speed, x realtime, where higher is better); runs: engine/peer run count.")

    with open(arguments.markdown, "w") as out:
        out.write("| name | unit | engine | peer | peerName | ratio | runs | target |\n")
        out.write("| --- | --- | --- | --- | --- | --- | --- | --- |\n")
        for row in table:
            out.write("| " + " | ".join(row[:8]) + " |\n")
        out.write("\nWhat each side measured:\n\n")
        seen = set()
        for row in table:
            case, peer, engine_label, peer_label, engine_notes, peer_notes = row[0], row[4], *row[8:12]
            if case not in seen:
                seen.add(case)
                out.write("- `%s`, engine: %s%s\n" % (case, engine_label, " (%s)" % engine_notes if engine_notes else ""))
            out.write("- `%s`, %s: %s%s\n" % (case, peer, peer_label, " (%s)" % peer_notes if peer_notes else ""))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    timing = commands.add_parser("time")
    timing.add_argument("--runs", type=int, default=5)
    timing.add_argument("spec")
    combine = commands.add_parser("report")
    combine.add_argument("lines")
    combine.add_argument("--json", required=True)
    combine.add_argument("--markdown", required=True)
    combine.add_argument("--doc", help="write the table Docs/Performance.md includes here")
    combine.add_argument("--machine", help="bench.sh's machine.txt: the machine, the system and the load")
    arguments = parser.parse_args()
    if arguments.command == "time":
        time_commands(arguments.spec, arguments.runs)
    else:
        report(arguments)


if __name__ == "__main__":
    main()

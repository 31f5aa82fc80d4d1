"""The Python twin of quiet_test.c: a curses program that draws first, then opens "auto" with no sound
server, preloads a cut-short WAV, a damaged MP3 and a bad module, plays them and streams the damaged
MP3. It records the lines it drew and the notice events in RECORD; Scripts/e2e-quiet.sh compares the
tmux pane with the lines drawn.

Usage: python3 quiet_test.py ASSETS_DIR RECORD [SECONDS]
"""

import curses
import sys
import time

import soundstation


def main(screen, assets, record, seconds):
    curses.curs_set(0)
    drawn = {}

    def draw(row, text):
        drawn[row] = text
        screen.addstr(row, 0, text)
        screen.clrtoeol()
        screen.move(8, 0)
        screen.refresh()

    draw(0, "QUIET TEST (Python): this screen is all the terminal may show")
    time.sleep(0.3)
    notices = []
    ok = True
    with soundstation.Engine("auto", assets) as engine:
        draw(1, f"open: ok, output {engine.output}")
        try:
            engine.preload(["cut", "damaged", "module"])
            draw(2, "preload: ok")
            ok = False
        except soundstation.SoundStationError as error:
            draw(2, f"preload: {error.code_name}")
            ok = ok and "bad.mod" in str(error)
        engine.preload(["stream"])
        draw(3, "preload stream: ok")
        engine.music("stream")
        for tick in range(seconds * 10):
            if tick % 5 == 0:
                engine.play("cut")
                engine.play("damaged")
            notices += [event.text for event in engine.events() if event.type == soundstation.EventType.NOTICE]
            draw(4, f"playing: {tick // 10}.{tick % 10} s, notices {len(notices)}")
            time.sleep(0.1)
        engine.stop_music()
    draw(5, "done: ok" if ok else "done: FAILED")
    with open(record, "w") as out:
        for row in sorted(drawn):
            out.write(drawn[row] + "\n")
        out.write("--- notices\n")
        for line in notices:
            out.write(line + "\n")
    time.sleep(60)


if __name__ == "__main__":
    curses.wrapper(main, sys.argv[1], sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 3)

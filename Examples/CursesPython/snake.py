#!/usr/bin/env python3
"""Snake with sound: the Python example of the soundstation package, in curses.

Steer the snake with the arrow keys (or w/a/s/d) to eat the food ($, and a bonus * now and then);
walls and your own tail end the game. The menu plays the "main" music, a game "game", crossfaded;
eating, turning, bonuses, levels and crashes have their effects.

The game ticks from a SIGALRM timer (signal.setitimer): Python runs signal handlers in the main
thread between bytecodes, so the handler may call the engine like any other code. The main loop
reads keys and draws.

    python3 Examples/CursesPython/snake.py [--output auto|device|silent] [--assets DIR]
                                           [--autoplay] [--frames N]

--output defaults to $SOUNDSTATION_OUTPUT, else "auto" (the device, or silence when there is none);
--assets to $SOUNDSTATION_ASSETS, else "Assets". --autoplay starts a game by itself and steers;
--frames N quits after N drawn frames (about 30 a second). Keys: Enter/s starts, arrows or w/a/s/d
steer, p pauses, m goes back to the menu, q quits.
"""

import argparse
import curses
import os
import random
import signal
import sys
from typing import List, Optional, Tuple

import soundstation

WIDTH, HEIGHT = 40, 18
TICK = 0.1  # seconds per step at level 1
MENU, PLAYING, OVER = "menu", "playing", "over"
DIRECTIONS = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}
KEYS = {
    curses.KEY_UP: "up", ord("w"): "up", curses.KEY_DOWN: "down", ord("s"): "down",
    curses.KEY_LEFT: "left", ord("a"): "left", curses.KEY_RIGHT: "right", ord("d"): "right",
}


class Snake:
    """The game's state and rules; `tick` runs from the SIGALRM handler."""

    def __init__(self, engine: soundstation.Engine, autoplay: bool) -> None:
        self.engine = engine
        self.autoplay = autoplay
        self.scene = MENU
        self.ticks = 0
        self.score = 0
        self.level = 1
        self.body: List[Tuple[int, int]] = []
        self.heading = "right"
        self.turn: Optional[str] = None
        self.food = (0, 0)
        self.bonus: Optional[Tuple[int, int]] = None
        self.started = 0
        self.refused = 0
        # The bonus ticks while it lies on the field, from where it lies: one voice, stopped when
        # the bonus is eaten or the game ends.
        self.bonus_tick: Optional[soundstation.Voice] = None

    def sound(self, name: str, x: int = WIDTH // 2, volume: float = 1.0,
              loops: Optional[soundstation.Loops] = None) -> Optional[soundstation.Voice]:
        try:
            return self.engine.play(name, volume=volume, pan=(2 * x - (WIDTH - 1)) / (WIDTH - 1), loops=loops)
        except soundstation.SoundStationError:
            return None  # a sound that did not load: the game goes on without it

    def end_bonus(self) -> None:
        self.bonus = None
        if self.bonus_tick is not None:
            self.bonus_tick.stop(fade=0.1)
            self.bonus_tick = None

    def free_cell(self) -> Tuple[int, int]:
        while True:
            cell = (random.randrange(WIDTH), random.randrange(HEIGHT))
            if cell not in self.body and cell != self.bonus:
                return cell

    def start(self) -> None:
        self.scene = PLAYING
        self.score, self.level, self.ticks = 0, 1, 0
        self.body = [(WIDTH // 2 - i, HEIGHT // 2) for i in range(4)]
        self.heading, self.turn = "right", None
        self.end_bonus()
        self.food = self.free_cell()
        self.sound("jump")

    def steer(self, direction: str) -> None:
        dx, dy = DIRECTIONS[direction]
        hx, hy = DIRECTIONS[self.heading]
        if (dx, dy) != (-hx, -hy) and direction != self.heading:
            self.turn = direction

    def choose(self) -> None:
        """--autoplay: head for the bonus or the food, avoiding walls and the tail."""
        head = self.body[0]
        goal = self.bonus or self.food

        def score(direction: str) -> Tuple[int, int]:
            dx, dy = DIRECTIONS[direction]
            x, y = head[0] + dx, head[1] + dy
            blocked = not (0 <= x < WIDTH and 0 <= y < HEIGHT) or (x, y) in self.body[:-1]
            return (1 if blocked else 0, abs(goal[0] - x) + abs(goal[1] - y))

        hx, hy = DIRECTIONS[self.heading]
        options = [d for d, (dx, dy) in DIRECTIONS.items() if (dx, dy) != (-hx, -hy)]
        best = min(options, key=score)
        if best != self.heading:
            self.turn = best

    def tick(self, _signum: int = 0, _frame: object = None) -> None:
        self.ticks += 1
        if self.scene == MENU and self.autoplay and self.ticks > 15:
            self.start()
        if self.scene != PLAYING or self.ticks % max(1, 4 - self.level) != 0:
            return
        if self.autoplay:
            self.choose()
        if self.turn:
            self.heading, self.turn = self.turn, None
            self.sound("click", self.body[0][0], volume=0.5)
        dx, dy = DIRECTIONS[self.heading]
        head = (self.body[0][0] + dx, self.body[0][1] + dy)
        if not (0 <= head[0] < WIDTH and 0 <= head[1] < HEIGHT) or head in self.body[:-1]:
            self.sound("explosion", head[0])
            self.end_bonus()
            self.scene, self.ticks = OVER, 0
            return
        self.body.insert(0, head)
        if head == self.food:
            self.score += 1
            self.sound("coin", head[0])
            self.food = self.free_cell()
            if self.bonus is None and random.random() < 0.3:
                self.bonus = self.free_cell()
                self.bonus_tick = self.sound("bomb-tick", self.bonus[0], volume=0.4, loops=soundstation.Loops.FOREVER)
            if self.score % 5 == 0 and self.level < 3:
                self.level += 1
                self.sound("level-up")
        elif head == self.bonus:
            self.score += 3
            self.end_bonus()
            self.sound("reward", head[0])
        else:
            self.body.pop()


def draw(window: "curses.window", game: Snake) -> None:
    class Clipped:  # a terminal smaller than the field shows what fits instead of raising
        def addstr(self, y: int, x: int, text: str) -> None:
            try:
                window.addstr(y, x, text)
            except curses.error:
                pass

    screen = Clipped()
    window.erase()
    screen.addstr(0, 0, f"SNAKE  score {game.score}  level {game.level}  length {len(game.body)}")
    screen.addstr(1, 0, "+" + "-" * WIDTH + "+")
    for y in range(HEIGHT):
        screen.addstr(2 + y, 0, "|" + " " * WIDTH + "|")
    if game.scene == MENU:
        screen.addstr(7, 13, "S  N  A  K  E")
        screen.addstr(9, 8, "$ food 1    * bonus 3")
        screen.addstr(11, 8, "Enter: play    q: quit")
    else:
        screen.addstr(2 + game.food[1], 1 + game.food[0], "$")
        if game.bonus:
            screen.addstr(2 + game.bonus[1], 1 + game.bonus[0], "*")
        for i, (x, y) in enumerate(game.body):
            screen.addstr(2 + y, 1 + x, "@" if i == 0 else "o")
        if game.scene == OVER:
            screen.addstr(9, 11, f"GAME OVER: {game.score} points")
    screen.addstr(2 + HEIGHT, 0, "+" + "-" * WIDTH + "+")
    screen.addstr(3 + HEIGHT, 0, f"sounds started {game.started} refused {game.refused}   arrows, p, m, q")
    window.refresh()


def play(screen: "curses.window", engine: soundstation.Engine, args: argparse.Namespace) -> Snake:
    try:
        curses.curs_set(0)
    except curses.error:
        pass  # a terminal that cannot hide the cursor
    screen.keypad(True)
    screen.timeout(33)
    game = Snake(engine, args.autoplay)
    signal.signal(signal.SIGALRM, game.tick)
    signal.setitimer(signal.ITIMER_REAL, TICK / 3, TICK / 3)
    shown, paused, frame = None, False, 0
    try:
        while args.frames is None or frame < args.frames:
            frame += 1
            for event in engine.events():
                game.started += event.type == soundstation.EventType.STARTED
                game.refused += event.type == soundstation.EventType.REFUSED
            if game.scene == OVER and game.ticks > 30:
                game.scene = MENU
            if game.scene != shown:  # music per scene, crossfaded
                try:
                    if game.scene == MENU:
                        engine.music("main", crossfade=1.5)
                    elif game.scene == PLAYING:
                        engine.music("game", crossfade=1.0)
                    else:
                        engine.stop_music(fade=2.0)
                except soundstation.SoundStationError:
                    pass  # a track that did not load: the scene goes on without music
                shown = game.scene
            draw(screen, game)
            key = screen.getch()
            if key == ord("q"):
                break
            if key in (10, 13, curses.KEY_ENTER) and game.scene != PLAYING:
                game.start()
            elif key == ord("m"):
                game.end_bonus()
                game.scene = MENU
            elif key == ord("p"):
                paused = not paused
                if paused:
                    engine.pause_all()
                    signal.setitimer(signal.ITIMER_REAL, 0)
                else:
                    engine.resume_all()
                    signal.setitimer(signal.ITIMER_REAL, TICK / 3, TICK / 3)
            elif key in KEYS and game.scene == PLAYING:
                game.steer(KEYS[key])
            elif key == ord("s") and game.scene != PLAYING:
                game.start()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, signal.SIG_IGN)
    return game


def main() -> int:
    parser = argparse.ArgumentParser(description="Snake, with music and effects from SoundStation.")
    parser.add_argument("--output", default=os.environ.get("SOUNDSTATION_OUTPUT") or "auto",
                        help='"auto" (default), "device", "device:NAME" or "silent"')
    parser.add_argument("--assets", default=os.environ.get("SOUNDSTATION_ASSETS") or "Assets")
    parser.add_argument("--autoplay", action="store_true", help="start a game and steer by itself")
    parser.add_argument("--frames", type=int, help="quit after N drawn frames")
    args = parser.parse_args()
    if args.frames is not None and args.frames <= 0:
        parser.error(f"--frames wants a positive number, not {args.frames}")
    try:
        with soundstation.Engine(args.output, assets=args.assets) as engine:
            try:
                engine.preload()
            except soundstation.SoundStationError as error:
                print(f"snake: {error} (playing without those)", file=sys.stderr)
            game = curses.wrapper(play, engine, args)
    except soundstation.SoundStationError as error:
        print(f"snake: {error}", file=sys.stderr)
        return 1
    print(f"snake: score {game.score}, length {len(game.body)}, sounds started {game.started}, "
          f"refused {game.refused}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

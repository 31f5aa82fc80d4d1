"""A Python game in a clean Debian root (Scripts/dist-test.sh): with only the wheel installed in a
venv (the library inside it), it renders the reward effect offline and checks that it starts at its
exact frame, and that a bad name is refused with a message naming it. Usage: python onset.py ASSETS"""

import sys

import soundstation

RATE = 48000


def first_sound(samples):
    for frame in range(len(samples) // 2):
        if samples[2 * frame] != 0.0 or samples[2 * frame + 1] != 0.0:
            return frame
    return -1


def onset(assets, at):
    with soundstation.Engine(f"offline:{RATE}", assets=assets) as engine:
        engine.preload(["reward"])
        engine.play_at("reward", at)
        samples = engine.render(RATE)
        return first_sound(list(samples.reshape(-1)) if hasattr(samples, "reshape") else samples)


def main():
    assets = sys.argv[1]
    lead = onset(assets, 0.0)
    later = onset(assets, 0.25)
    wanted = round(0.25 * RATE) + lead
    print(f"Python: library from {soundstation._library.load()._name}")
    print(f"Python: reward at 0 s sounds from frame {lead}, at 0.25 s from frame {later} (wanted {wanted})")
    if not (0 <= lead < 480 and later == wanted):
        return 1
    with soundstation.Engine(f"offline:{RATE}", assets=assets) as engine:
        try:
            engine.sound_id("no-such-sound")
        except soundstation.SoundStationError as error:
            print(f"Python: sound_id('no-such-sound'): {error}")
            return 0 if "no-such-sound" in str(error) else 1
    print("Python: sound_id('no-such-sound') did not fail")
    return 1


if __name__ == "__main__":
    sys.exit(main())

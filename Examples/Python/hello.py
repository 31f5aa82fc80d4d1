import time

import soundstation

with soundstation.Engine("auto", assets="Assets") as engine:
    engine.preload()
    engine.music("main")
    engine.play("reward", pan=-0.5)
    time.sleep(1)
    for event in engine.events():
        print(event.type, event.sound)

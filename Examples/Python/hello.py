import sys
import time

import soundstation

assets = sys.argv[1] if len(sys.argv) > 1 else "Assets"  # the folder holding catalogue.json
with soundstation.Engine("auto", assets=assets) as engine:
    engine.preload()
    engine.music("main")
    voice = engine.play("reward", pan=-0.5)
    time.sleep(1)
    voice.stop(fade=0.1)
    for event in engine.events():
        print(event.type, event.sound)

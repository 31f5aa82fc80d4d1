import SoundStation

print("soundstation")

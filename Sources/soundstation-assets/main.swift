import SoundStation

print("soundstation-assets")

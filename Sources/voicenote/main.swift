print("voicenote")

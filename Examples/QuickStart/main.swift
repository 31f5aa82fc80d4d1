import SoundStation

// The game's sounds: enum cases that know their catalogue entry, and so their file.
enum Music: String, SoundResource { case main, game }
enum Effect: String, SoundResource { case reward, coin, explosion }

let engine = try AudioEngine.openWithFallback(.fromEnvironment()) { print("notice:", $0) }
let sound = SoundSystem(engine: engine, catalogue: try Catalogue(assetsRoot: "Assets"))
engine.onEvent { event in
    if case .finished(_, let name, .ended, _) = event { print("finished \(name)") }
}

// Preload before the scene starts, so nothing is decoded while the game runs.
let scene = try await sound.bank.preload()
try sound.music.play(Music.main)  // from its start, looping, the others stopped
try sound.effects.play(Effect.reward)  // returns at once; call it from any thread
try sound.effects.play(Effect.coin, pan: -0.5)
try await Task.sleep(for: .seconds(1))

try sound.music.play(Music.game, transition: .crossfade(.milliseconds(500)))  // the next scene
try sound.effects.play(Effect.explosion)
try await Task.sleep(for: .seconds(1.5))
sound.music.stop(fade: .milliseconds(300))
try await Task.sleep(for: .seconds(0.5))
scene.unload()
engine.shutdown()

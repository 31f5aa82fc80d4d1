import Foundation
import SoundStation

/// `soundstation-bench session --assets DIR --seconds S`: a game's sound and nothing else, on the
/// output the environment chooses (`SOUNDSTATION_OUTPUT`, or remote when the player's side announced
/// itself), so that Scripts/ssh/bench-remote.py can set the engine's own CPU on a remote output
/// against a local device: the game's drawing, which no output changes, is left out.
///
/// The load is Starfall's in play: the "game" track streamed with its three stems, its intensity
/// moved every 4 s, an effect every 150 ms (pitch and pan varied), a switch to "main" and back every
/// 10 s. At the end it writes `session: play CPU C s over W s` to standard error: the process's CPU
/// time from the first sound on (the preload before it costs the same on every output).
enum SessionCase {
    static func run(assets: String, seconds: Double) async throws {
        let engine = try AudioEngine.openWithFallback(.fromEnvironment()) { _ in }
        let sound = SoundSystem(engine: engine, catalogue: try Catalogue(assetsRoot: assets))
        _ = try await sound.bank.preload()
        let effects = ["coin", "jump", "hit", "click", "bomb-tick", "reward", "miss"]
        var random = SystemRandomNumberGenerator()
        let cpuBefore = cpuSeconds()
        try sound.music.play("game")
        let start = ContinuousClock.now
        var tick = 0
        while ContinuousClock.now - start < .seconds(seconds) {
            tick += 1
            try sound.effects.play(
                effects[tick % effects.count], pitch: Float.random(in: 0.9...1.1, using: &random),
                pan: Float.random(in: -1...1, using: &random))
            if tick % 27 == 0 {
                try sound.music.setIntensity(Double(tick % 4) / 3, tween: Tween(.seconds(1)))
            }
            if tick % 67 == 0 {
                try sound.music.play(
                    tick % 134 == 0 ? "game" : "main", transition: .crossfade(.milliseconds(500)))
            }
            try await Task.sleep(for: .milliseconds(150))
        }
        engine.shutdown()
        let played = (ContinuousClock.now - start) / .seconds(1)
        let line = "session: play CPU \(cpuSeconds() - cpuBefore) s over \(played) s\n"
        FileHandle.standardError.write(Data(line.utf8))
    }

    /// User and system CPU time of this process so far.
    private static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
}

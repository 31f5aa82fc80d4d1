/// Everything the engine's lock guards.
struct EngineState {
    var pool: VoicePool
    /// The render clock: frames mixed so far (offline and silent) or elapsed on the wall clock (device).
    var frame: Int64 = 0
    var busVolumes: [Bus: Float] = Dictionary(uniqueKeysWithValues: Bus.allCases.map { ($0, 1) })
    var mutedBuses: Set<Bus> = []
    /// Whether offline rendering has mixed (and dropped) the limiter's lookahead yet.
    var primed = false
    /// True while the game's pause menu holds every sound.
    var isPaused = false

    /// The gain a voice on `bus` gets for its own `volume`: its bus times the master bus.
    func gain(volume: Float, bus: Bus) -> Float {
        func level(_ bus: Bus) -> Float { mutedBuses.contains(bus) ? 0 : busVolumes[bus, default: 1] }
        return bus == .master ? volume * level(.master) : volume * level(bus) * level(.master)
    }
}

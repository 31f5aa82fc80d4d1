/// What the game last asked of the engine's settings, kept on the caller's side so the getters
/// (``AudioEngine/volume(of:)``, ``AudioEngine/isMuted(_:)``, ``AudioEngine/listener``...) return what
/// was set at once, without waiting for the mixing side to carry the command out. The mixing side
/// never takes its lock.
struct ControlSettings: Sendable {
    // Per bus in fields, not a dictionary: a bus volume change hashed its bus twice under the lock.
    var busVolumes = PerBus<Float>(1)
    var mutedBuses = PerBus(false)
    var ducking = Ducking()
    var isPaused = false
    var listener = SoundPosition(x: 0, y: 0)
    var layout = SpatialLayout()
    var busFilters = PerBus<SoundFilter?>(nil)
    var busReverbs = PerBus<Reverb?>(nil)
}

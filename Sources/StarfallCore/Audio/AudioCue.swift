/// One sound the game asked for, as `starfall --autoplay` reports it.
public enum AudioCue: Sendable, Equatable {
    /// A scene began, and with it `music` (nil when the scene stops the music).
    case scene(Scene, music: String?, at: Double)
    /// An effect was fired.
    case effect(name: String, at: Double, volume: Float, pitch: Float, pan: Float)
}

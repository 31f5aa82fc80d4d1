/// A voice's or a bus's parameter moving along a ``Tween`` on the render clock; the engine's
/// housekeeping moves it at every quantum.
struct ParameterTween {
    /// What it moves.
    enum Target: Equatable {
        case volume(VoiceHandle)
        case pitch(VoiceHandle)
        case pan(VoiceHandle)
        case bus(Bus)
    }

    var target: Target
    /// The value it starts from, read when it begins (nil until then).
    var from: Float?
    var to: Float
    var start: Int64
    var end: Int64
    var easing: Easing

    /// The value at `frame`.
    func value(at frame: Int64) -> Float {
        guard let from, end > start, frame < end else { return to }
        let t = Double(max(frame - start, 0)) / Double(end - start)
        return from + (to - from) * Float(easing.progress(t, rising: to >= from))
    }
}

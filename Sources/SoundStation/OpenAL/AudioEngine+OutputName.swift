extension AudioEngine {
    /// Where the sound goes, in the form the C and Python interfaces report it: "device:NAME" with
    /// the name of the device actually opened, "silent" (also when ``openWithFallback(_:environment:notice:)``
    /// found no device), "remote" (the player's `soundstation ssh` plays it), or "offline:RATE". Unlike ``output`` (what was asked for), this says what
    /// was opened, so a game can show that it runs without sound.
    public var outputName: String {
        switch output {
        case .device: "device:\(deviceName)"
        case .silent: "silent"
        case .remote: "remote"
        case .offline(let rate, _): "offline:\(rate)"
        }
    }
}

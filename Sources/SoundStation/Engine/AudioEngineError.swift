/// What can go wrong opening or driving an ``AudioEngine``.
public enum AudioEngineError: Error, CustomStringConvertible, Equatable {
    /// No playback device could be opened.
    case noPlaybackDevice(name: String?)
    /// OpenAL Soft's loopback extension is missing, so offline rendering is impossible.
    case loopbackUnavailable
    /// The loopback device refuses the asked render format.
    case unsupportedRenderFormat(sampleRate: Int, channels: Int)
    /// An OpenAL call failed; `call` names it and `code` is the `alGetError` value.
    case openAL(call: String, code: Int32)
    /// An operation that needs the offline output was called on another output.
    case notOffline(operation: String)
    /// A value passed to the engine is out of its range.
    case invalidArgument(name: String, value: String, expected: String)
    /// Every source of the device is in use and none may be stolen.
    case noFreeVoice(sound: String)

    /// A one-line message that says what failed and what to do about it.
    public var description: String {
        switch self {
        case .noPlaybackDevice(let name):
            let which = name.map { "playback device \"\($0)\"" } ?? "the default playback device"
            return "cannot open \(which): is PulseAudio (or another sound server) running? "
                + "List devices with `soundstation devices`, or set SOUNDSTATION_OUTPUT=silent to run without sound."
        case .loopbackUnavailable:
            return
                "OpenAL Soft's ALC_SOFT_loopback extension is missing: offline rendering needs OpenAL Soft "
                + "(install libopenal1 / libopenal-dev)."
        case .unsupportedRenderFormat(let rate, let channels):
            return "the loopback device cannot render \(channels) channel(s) at \(rate) Hz: "
                + "use 1 or 2 channels and a rate between 8000 and 192000."
        case .openAL(let call, let code):
            return "OpenAL call \(call) failed with \(openALErrorName(code)) (0x\(String(code, radix: 16)))."
        case .notOffline(let operation):
            return
                "\(operation) needs an engine opened with .offline(...): the device clock drives other outputs."
        case .invalidArgument(let name, let value, let expected):
            return "invalid \(name) \(value): expected \(expected)."
        case .noFreeVoice(let sound):
            return
                "no free voice for \"\(sound)\": every OpenAL source is busy with sounds of higher priority."
        }
    }
}

/// Names the OpenAL error codes, so messages carry the constant a reader can look up.
func openALErrorName(_ code: Int32) -> String {
    switch code {
    case 0xA001: "AL_INVALID_NAME"
    case 0xA002: "AL_INVALID_ENUM"
    case 0xA003: "AL_INVALID_VALUE"
    case 0xA004: "AL_INVALID_OPERATION"
    case 0xA005: "AL_OUT_OF_MEMORY"
    default: "error"
    }
}

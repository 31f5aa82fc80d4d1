import COpenAL

/// Whether OpenAL Soft renders through HRTF (head-related transfer functions, for headphones), as
/// ALC_SOFT_HRTF reports it.
public enum HRTFStatus: Sendable, Equatable, CustomStringConvertible {
    /// Off (the engine's default).
    case disabled
    /// On.
    case enabled
    /// Asked for but refused (e.g. by the user's OpenAL configuration).
    case denied
    /// On because the configuration demands it.
    case required
    /// On because headphones were detected.
    case headphonesDetected
    /// Asked for but impossible with the output's format (it needs stereo).
    case unsupportedFormat
    /// The device has no ALC_SOFT_HRTF.
    case unavailable

    init(_ status: ALCint?) {
        switch status {
        case ALC_HRTF_DISABLED_SOFT: self = .disabled
        case ALC_HRTF_ENABLED_SOFT: self = .enabled
        case ALC_HRTF_DENIED_SOFT: self = .denied
        case ALC_HRTF_REQUIRED_SOFT: self = .required
        case ALC_HRTF_HEADPHONES_DETECTED_SOFT: self = .headphonesDetected
        case ALC_HRTF_UNSUPPORTED_FORMAT_SOFT: self = .unsupportedFormat
        default: self = .unavailable
        }
    }

    /// Whether sound goes through HRTF.
    public var isOn: Bool { self == .enabled || self == .required || self == .headphonesDetected }

    /// A short phrase for status lines: "HRTF off", "HRTF on", ...
    public var description: String {
        switch self {
        case .disabled: "HRTF off"
        case .enabled: "HRTF on"
        case .denied: "HRTF denied by the OpenAL configuration"
        case .required: "HRTF on (required by the OpenAL configuration)"
        case .headphonesDetected: "HRTF on (headphones detected)"
        case .unsupportedFormat: "HRTF unavailable for this output format (it needs stereo)"
        case .unavailable: "HRTF unavailable (no ALC_SOFT_HRTF)"
        }
    }
}

extension HRTFStatus {
    /// Every status, in the order of its wire number (``SoundEvent/hrtf(_:time:)``'s encoding).
    static let allCases: [Self] = [
        .disabled, .enabled, .denied, .required, .headphonesDetected, .unsupportedFormat, .unavailable,
    ]
}

extension AudioEngine {
    /// Whether the output renders through HRTF, as the mixer last published it: read when the device
    /// opened, after each ``setHRTF(_:)`` it carried out, and after it reopened a lost device.
    public var hrtfStatus: HRTFStatus { published.withLock { $0.hrtf } }

    /// Asks for HRTF (for headphones) on or off; it is off by default. It returns at once: the mixer
    /// resets the device with the setting on its next round (offline: the next render), and OpenAL
    /// keeps every sound through the reset; then ``hrtfStatus`` reads what OpenAL reports and
    /// ``SoundEvent/hrtf(_:time:)`` brings it (on, denied, unsupported format...). A device reopened
    /// after a loss gets the same setting. The reset stalls that one round of the mixer (a few
    /// milliseconds on a device): a settings-menu call, not one for the frame loop.
    /// - Parameter enabled: True for HRTF.
    public func setHRTF(_ enabled: Bool) { submit(.setHRTF(enabled)) }
}

extension Mixer {
    /// Carries out ``EngineCommand/setHRTF(_:)``: resets the device with the setting and publishes
    /// the status it reports.
    func applyHRTF(_ enabled: Bool, in state: inout EngineState, events: inout [SoundEvent]) {
        state.space.hrtf = enabled
        state.space.hrtfStatus = HRTFStatus(device.resetHRTF(enabled))
        events.append(.hrtf(state.space.hrtfStatus, time: time(ofFrame: currentFrame(&state))))
    }

    /// Gives `device`, just opened in place of a lost one, the HRTF setting asked for (it opens with
    /// HRTF off) and keeps the status it reports; a status unlike the lost device's is an event.
    func restoreHRTF(on device: OpenALDevice, in state: inout EngineState, events: inout [SoundEvent]) {
        let status = HRTFStatus(state.space.hrtf ? device.resetHRTF(true) : device.hrtfStatus)
        guard status != state.space.hrtfStatus else { return }
        state.space.hrtfStatus = status
        events.append(.hrtf(status, time: time(ofFrame: currentFrame(&state))))
    }
}

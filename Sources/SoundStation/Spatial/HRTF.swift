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

extension AudioEngine {
    /// Whether the output renders through HRTF now.
    public var hrtfStatus: HRTFStatus {
        HRTFStatus(device.hrtfStatus)
    }

    /// Turns HRTF (for headphones) on or off; it is off by default. OpenAL resets the device and
    /// keeps every sound; a device reopened after a loss gets the same setting. It waits for the
    /// mixer's round in progress, then holds the mixer through the reset: a settings-menu call, not
    /// one for the frame loop.
    /// - Parameter enabled: True for HRTF.
    /// - Returns: What OpenAL reports afterwards (on, denied, unsupported format...).
    @discardableResult
    public func setHRTF(_ enabled: Bool) -> HRTFStatus {
        mixer.run {
            mixer.update { state in
                state.space.hrtf = enabled
                return HRTFStatus(device.resetHRTF(enabled))
            }
        }
    }
}

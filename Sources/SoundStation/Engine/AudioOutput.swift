import Glibc

/// Where an ``AudioEngine`` sends what it mixes.
public enum AudioOutput: Sendable, Equatable, CustomStringConvertible {
    /// A real OpenAL playback device: the system default (`nil`) or one named by
    /// ``AudioEngine/playbackDevices()``, mixing in periods as short as `latency` asks.
    case device(name: String? = nil, latency: OutputLatency = .normal)
    /// OpenAL Soft's loopback device: nothing plays by itself; the caller pulls samples with
    /// ``AudioEngine/render(frames:)`` and the render clock drives every scheduled change.
    case offline(sampleRate: Int = 48_000, channels: Int = 2)
    /// Keeps a device's books in real time and plays nothing: sounds start, end and send their events
    /// as on a device, on the wall clock, but nothing is heard. It mixes on a small mono loopback
    /// device (8 kHz) only to know where each source is, streams silence of each track's length
    /// instead of decoding it, and wakes only when something is due, so it costs a fraction of a
    /// device (a streamed track damaged midway plays to its declared length, as nothing reads it).
    case silent
    /// For a game on a server reached by `ssh`: keeps the clock and the voices like ``silent`` and
    /// sends every command, with its engine-clock time, and the catalogue's files through the session's
    /// terminal to the player's `soundstation ssh`, which plays them; no sound device is opened.
    /// ``fromEnvironment(default:environment:)`` chooses it when the player has announced itself
    /// (``RemoteAnnouncement``).
    case remote

    /// A short description for notices and logs.
    public var description: String {
        switch self {
        case .device(let name, _): name.map { "device \"\($0)\"" } ?? "default device"
        case .offline(let rate, let channels): "offline \(rate) Hz \(channels) ch"
        case .silent: "silent"
        case .remote: "remote (the player's soundstation ssh)"
        }
    }

    /// The output the person running the program chose through the environment, else `preferred`:
    /// how a program honours `SOUNDSTATION_OUTPUT` and `SOUNDSTATION_DEVICE`, which the engine's
    /// messages advise (``AudioEngineError/noPlaybackDevice(name:)`` suggests
    /// `SOUNDSTATION_OUTPUT=silent`).
    ///
    /// ```swift
    /// // SOUNDSTATION_OUTPUT=silent ./game  runs without sound; SOUNDSTATION_DEVICE=NAME picks a device
    /// let engine = try AudioEngine.openWithFallback(.fromEnvironment(default: .device())) { print("notice:", $0) }
    /// ```
    ///
    /// - `SOUNDSTATION_OUTPUT=silent` gives ``silent``; `device` gives ``device(name:latency:)``;
    ///   `remote` gives ``remote``; unset or empty leaves `preferred`, except that a device output
    ///   becomes ``remote`` when the program runs in an SSH session whose player announced
    ///   `soundstation ssh` (``RemoteAnnouncement``, `LC_SOUNDSTATION`) or forwarded a socket to it
    ///   (``RemoteSocket``: the fallback for servers that pass no `LC_*`, and for `tmux`/`screen`).
    /// - `SOUNDSTATION_DEVICE=NAME` names the device of a device output (`preferred`'s own name when
    ///   unset); a device output keeps `preferred`'s latency.
    /// - An ``offline(sampleRate:channels:)`` `preferred` is returned unchanged: an offline render is
    ///   the program's own business, not a choice of speakers.
    /// - Parameters:
    ///   - preferred: The output when the environment says nothing; the default device by default.
    ///   - environment: The variables to read; the process environment by default.
    /// - Returns: The output to open.
    /// - Throws: ``AudioEngineError/invalidArgument(name:value:expected:)`` naming `SOUNDSTATION_OUTPUT`
    ///   when it holds anything but `device`, `silent` or `remote`.
    public static func fromEnvironment(
        default preferred: AudioOutput = .device(),
        environment: [String: String] = ProcessEnvironment.variables
    ) throws(AudioEngineError) -> AudioOutput {
        if case .offline = preferred { return preferred }
        let device = environment["SOUNDSTATION_DEVICE"].flatMap { $0.isEmpty ? nil : $0 }
        // A device output keeps the program's latency; only the name is the user's to choose.
        let (preferredDevice, latency): (String?, OutputLatency) =
            if case .device(let name, let latency) = preferred { (name, latency) } else { (nil, .normal) }
        switch environment["SOUNDSTATION_OUTPUT"]?.lowercased() {
        case nil, "":
            guard case .device = preferred else { return preferred }
            if RemoteAnnouncement.route(environment: environment) != nil { return .remote }
            return .device(name: device ?? preferredDevice, latency: latency)
        case "device": return .device(name: device ?? preferredDevice, latency: latency)
        case "silent": return .silent
        case "remote": return .remote
        case let other?:
            throw .invalidArgument(
                name: "SOUNDSTATION_OUTPUT", value: "\"\(other)\"",
                expected: "\"device\", \"silent\" or \"remote\"")
        }
    }
}

/// How long a device's mixing periods are: the delay from a trigger to its first sound is about
/// three periods plus the sound server's own buffering.
public enum OutputLatency: Sendable, Equatable {
    /// OpenAL Soft's default: 20 ms periods (50 mixes a second); the least CPU.
    case normal
    /// About 2.5 ms periods in a 10 ms buffer on PulseAudio (4 ms periods elsewhere), for games that
    /// want a hit heard at once; more wake-ups. ``AudioEngine/mixingPeriod`` says what was granted.
    case low

    /// The `ALC_REFRESH` attribute: mixes per second.
    var refresh: Int32 {
        switch self {
        case .normal: 50
        case .low: 250
        }
    }
}

import CSoundStation
import SoundStation

/// What `ss_open`'s output string asks for.
enum OutputSpec: Equatable {
    /// An output the engine opens as it is.
    case exactly(AudioOutput)
    /// The default device (mixing in periods as short as the latency asks), or silent output when
    /// there is none.
    case deviceOrSilent(OutputLatency)

    /// Parses `device`, `device:NAME`, `auto`, `silent`, `offline` or `offline:RATE`.
    /// - Parameter text: The string the game passed.
    /// - Throws: ``CError`` (invalid argument) naming the string.
    init(parsing text: String) throws(CError) {
        let usage = "expected \"device\", \"device:NAME\", \"auto\", \"silent\" or \"offline:RATE\""
        if text == "device" {
            self = .exactly(.device())
        } else if text.hasPrefix("device:") {
            let name = String(text.dropFirst("device:".count))
            guard !name.isEmpty else {
                throw .invalid("invalid output \"\(text)\": the device name is empty")
            }
            self = .exactly(.device(name: name))
        } else if text == "auto" {
            self = .deviceOrSilent(.normal)
        } else if text == "silent" {
            self = .exactly(.silent)
        } else if text == "offline" {
            self = .exactly(.offline(sampleRate: 48_000, channels: 2))
        } else if text.hasPrefix("offline:") {
            let rateText = text.dropFirst("offline:".count)
            guard let rate = Int(rateText), (8000...192_000).contains(rate) else {
                throw .invalid(
                    "invalid output \"\(text)\": the rate \"\(rateText)\" must be a whole number of Hz "
                        + "from 8000 to 192000")
            }
            self = .exactly(.offline(sampleRate: rate, channels: 2))
        } else {
            throw .invalid("invalid output \"\(text)\": \(usage)")
        }
    }

    /// Reads an `ss_open_options`' output kind, device, rate and latency.
    /// - Parameter options: The options, read in full (the defaults where the caller's struct ended).
    /// - Throws: ``CError`` (invalid argument) naming a kind, rate or latency outside its range.
    init(_ options: ss_open_options) throws(CError) {
        let latency: OutputLatency
        switch options.latency {
        case Int32(SS_LATENCY_NORMAL.rawValue): latency = .normal
        case Int32(SS_LATENCY_LOW.rawValue): latency = .low
        default:
            throw .invalid(
                "invalid latency \(options.latency): expected SS_LATENCY_NORMAL (0) or SS_LATENCY_LOW (1)")
        }
        switch options.output {
        case Int32(SS_OUTPUT_AUTO.rawValue): self = .deviceOrSilent(latency)
        case Int32(SS_OUTPUT_DEVICE.rawValue):
            let name = try options.device.map { pointer throws(CError) in try string(pointer, "device") }
            guard name?.isEmpty != true else {
                throw .invalid("the device name is empty: pass NULL for the default device")
            }
            self = .exactly(.device(name: name, latency: latency))
        case Int32(SS_OUTPUT_SILENT.rawValue): self = .exactly(.silent)
        case Int32(SS_OUTPUT_OFFLINE.rawValue):
            guard (8000...192_000).contains(options.sample_rate) else {
                throw .invalid("invalid sample_rate \(options.sample_rate): expected 8000...192000 Hz")
            }
            self = .exactly(.offline(sampleRate: Int(options.sample_rate), channels: 2))
        default:
            throw .invalid(
                "invalid output \(options.output): expected SS_OUTPUT_AUTO (0), SS_OUTPUT_DEVICE (1), "
                    + "SS_OUTPUT_SILENT (2) or SS_OUTPUT_OFFLINE (3)")
        }
    }
}

import SoundStation

/// What `ss_open`'s output string asks for.
enum OutputSpec: Equatable {
    /// An output the engine opens as it is.
    case exactly(AudioOutput)
    /// The default device, or silent output when there is none.
    case deviceOrSilent

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
            self = .deviceOrSilent
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
}

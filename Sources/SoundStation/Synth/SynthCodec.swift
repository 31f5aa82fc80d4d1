/// sfxr's two text forms of a parameter set: jsfxr's base58 share string and sfxr's comma-separated
/// settings.
enum SynthCodec {
    /// Bitcoin's base58 alphabet, which jsfxr uses (no 0, O, I or l).
    static let alphabet = Array("123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz".utf8)

    /// jsfxr's share string: the wave as one byte, then each slider as a 32-bit float, little-endian,
    /// in sfxr's order, the whole read as one big-endian number written in base58 (each leading zero
    /// byte as a "1").
    static func base58(_ parameters: SynthParameters) -> String {
        var bytes: [UInt8] = [UInt8(parameters.wave.rawValue)]
        for field in SynthParameters.fields {
            let bits = truncatedFloatBits(parameters[keyPath: field.path])
            for shift in stride(from: 0, to: 32, by: 8) {
                bytes.append(UInt8(truncatingIfNeeded: bits >> shift))
            }
        }
        return encode(bytes)
    }

    /// The parameters a share string holds (volume and noise seed at their defaults).
    static func parameters(base58 text: String) throws(SynthError) -> SynthParameters {
        guard let bytes = decode(text) else {
            throw .unreadable(text: text, reason: "not base58 (jsfxr's alphabet has no 0, O, I or l)")
        }
        let expected = 1 + 4 * SynthParameters.fields.count
        guard bytes.count == expected else {
            throw .unreadable(
                text: text, reason: "it holds \(bytes.count) bytes; a jsfxr share string holds \(expected)")
        }
        guard let wave = SynthParameters.Wave(rawValue: Int(bytes[0])) else {
            throw .invalidParameter(key: "wave_type", value: "\(bytes[0])", expected: "0, 1, 2 or 3")
        }
        var parameters = SynthParameters()
        parameters.wave = wave
        for (index, field) in SynthParameters.fields.enumerated() {
            let offset = 1 + index * 4
            var bits: UInt32 = 0
            for byte in 0..<4 { bits |= UInt32(bytes[offset + byte]) << (8 * byte) }
            parameters[keyPath: field.path] = Double(Float(bitPattern: bits))
        }
        try parameters.validate()
        return parameters
    }

    /// The parameters of sfxr's settings string: wave, the 22 sliders and, optionally, the volume.
    static func parameters(settings text: String) throws(SynthError) -> SynthParameters {
        let fields = text.split(separator: ",", omittingEmptySubsequences: false)
        let sliders = SynthParameters.fields.count
        guard fields.count == 1 + sliders || fields.count == 2 + sliders else {
            throw .unreadable(
                text: text,
                reason: "it has \(fields.count) values; sfxr's settings have \(1 + sliders) or \(2 + sliders)"
            )
        }
        let values = try fields.enumerated().map { (index, field) throws(SynthError) -> Double in
            if field.isEmpty { return 0 }
            guard let value = Double(field), value.isFinite else {
                throw .unreadable(text: text, reason: "value \(index + 1), \"\(field)\", is not a number")
            }
            return value
        }
        guard let wave = SynthParameters.Wave(rawValue: Int(values[0])), Double(wave.rawValue) == values[0]
        else {
            throw .invalidParameter(key: "wave_type", value: String(fields[0]), expected: "0, 1, 2 or 3")
        }
        var parameters = SynthParameters()
        parameters.wave = wave
        for (index, field) in SynthParameters.fields.enumerated() {
            parameters[keyPath: field.path] = values[1 + index]
        }
        if values.count == 2 + sliders { parameters.volume = values[1 + sliders] }
        try parameters.validate()
        return parameters
    }

    /// `value` as a 32-bit float's bits, rounded toward zero as jsfxr's own encoder does, so a string
    /// made here for a value jsfxr made is the string jsfxr makes.
    static func truncatedFloatBits(_ value: Double) -> UInt32 {
        var single = Float(value)
        if abs(Double(single)) > abs(value) {
            let smaller = single.magnitude.nextDown
            single = single < 0 ? -smaller : smaller
        }
        return single.bitPattern
    }

    static func encode(_ bytes: [UInt8]) -> String {
        var digits: [UInt8] = []  // base-58 digits, least significant first
        for byte in bytes {
            var carry = Int(byte)
            for index in digits.indices {
                carry += Int(digits[index]) << 8
                digits[index] = UInt8(carry % 58)
                carry /= 58
            }
            while carry > 0 {
                digits.append(UInt8(carry % 58))
                carry /= 58
            }
        }
        let zeros = bytes.prefix { $0 == 0 }.count
        let text = [UInt8](repeating: alphabet[0], count: zeros) + digits.reversed().map { alphabet[Int($0)] }
        return String(decoding: text, as: UTF8.self)
    }

    static func decode(_ text: String) -> [UInt8]? {
        var bytes: [UInt8] = []  // least significant first
        for character in text.utf8 {
            guard let digit = alphabet.firstIndex(of: character) else { return nil }
            var carry = digit
            for index in bytes.indices {
                carry += Int(bytes[index]) * 58
                bytes[index] = UInt8(carry & 0xFF)
                carry >>= 8
            }
            while carry > 0 {
                bytes.append(UInt8(carry & 0xFF))
                carry >>= 8
            }
        }
        let zeros = text.utf8.prefix { $0 == alphabet[0] }.count
        return [UInt8](repeating: 0, count: zeros) + bytes.reversed()
    }
}

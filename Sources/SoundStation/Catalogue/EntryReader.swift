/// Reads one sound object of the manifest, applying defaults and range checks.
struct EntryReader {
    let object: ManifestJSON.Object
    /// How errors refer to this entry: its name when it has a usable one, else `#position`.
    let label: String
    let manifestPath: String

    init(object: ManifestJSON.Object, position: Int, manifestPath: String) {
        self.object = object
        self.manifestPath = manifestPath
        if case .string(let name) = object["name"], Self.isUsableName(name) {
            label = name
        } else {
            label = "#\(position)"
        }
    }

    /// Names are looked up verbatim, so stray spaces would make a sound unfindable.
    static func isUsableName(_ name: String) -> Bool {
        !name.isEmpty && name.trimmingWhitespace() == name
    }

    func entry(root: String) throws(CatalogueError) -> SoundEntry {
        for member in object.members where !ManifestKeys.entry.contains(member.key) {
            throw .unknownKey(path: manifestPath, entry: label, key: member.key)
        }
        for key in ManifestKeys.required where object[key] == nil {
            throw .missingKey(path: manifestPath, entry: label, key: key)
        }
        let name = try string("name", expected: "a non-empty name without leading or trailing spaces") {
            Self.isUsableName($0)
        }
        let synth = try synthSound()
        if synth != nil, let path = object["path"] {
            throw invalid("path", path, "no path on a sound with \"synth\" (the generator makes it)")
        }
        if synth == nil, object["path"] == nil {
            throw .missingKey(path: manifestPath, entry: label, key: "path")
        }
        let path =
            synth != nil
            ? ""
            : try string("path", expected: "a non-empty path relative to the assets folder") { !$0.isEmpty }
        let kindNames = SoundKind.allCases.map(\.rawValue).joined(separator: ", ")
        guard let kind = try choice("kind", SoundKind.self, expected: "one of \(kindNames)") else {
            throw .missingKey(path: manifestPath, entry: label, key: "kind")
        }
        let loop = try bool("loop") ?? SoundEntry.defaultLoop(for: kind)
        let (loopStart, loopEnd) = try loopPoints(looping: loop)
        let resolvedPath =
            synth != nil
            ? "" : try PathSafety.resolve(name: name, path: path, root: root, manifestPath: manifestPath)
        if synth != nil, kind == .music || object["stream"] == .bool(true) || object["stems"] != nil {
            throw invalid(
                "synth", object["synth"]!, "a synthesised effect or voice (not music, streamed or layered)")
        }
        let stealNames = StealPolicy.allCases.map(\.rawValue).joined(separator: ", ")
        let soundFont = try soundFont(name: name, root: root)
        var entry = SoundEntry(
            name: name, path: path, resolvedPath: resolvedPath, kind: kind,
            volume: Float(try number("volume", in: 0...4) ?? Double(SoundEntry.defaultVolume)),
            loop: loop,
            priority: try integer("priority", in: 0...255) ?? SoundEntry.defaultPriority,
            maxInstances: try integer("maxInstances", in: 1...Int.max),
            steal: try choice("steal", StealPolicy.self, expected: "one of \(stealNames)")
                ?? SoundEntry.defaultSteal,
            stream: try bool("stream") ?? false,
            coalesceMilliseconds: try number("coalesceMs", in: 0...Double.greatestFiniteMagnitude),
            loopStart: loopStart, loopEnd: loopEnd,
            channels: try choice("channels", ChannelSelection.self, expected: "downmix or first-two")
                ?? .downmix,
            strict: try bool("strict") ?? false, tempo: try tempo(kind: kind),
            markers: try markers(kind: kind), stems: try stems(kind: kind, name: name, root: root),
            duckMusic: try duckMusic(kind: kind), track: try integer("track", in: 1...Int.max) ?? 1,
            soundFont: soundFont.map { $0.path }, resolvedSoundFont: soundFont.map { $0.resolved })
        entry.synth = synth
        return entry
    }

    /// The entry's `synth`: the JSON form (an object) or an sfxr parameter string.
    private func synthSound() throws(CatalogueError) -> SynthSound? {
        guard let value = object["synth"] else { return nil }
        do {
            if case .string(let text) = value { return try SynthSound(parsing: text) }
            return try SynthSound(json: value)
        } catch {
            throw invalid("synth", value, error.description)
        }
    }

    /// Reads `"soundfont": "Fonts/chip.sf2"`: the SoundFont a MIDI file plays through, a file under
    /// the assets root like the sound's own (so it travels with the catalogue to a remote player).
    private func soundFont(name: String, root: String) throws(CatalogueError) -> (
        path: String, resolved: String
    )? {
        guard let value = object["soundfont"] else { return nil }
        guard case .string(let path) = value, !path.isEmpty else {
            throw invalid("soundfont", value, "the path of a SoundFont (.sf2) relative to the assets folder")
        }
        return (path, try PathSafety.resolve(name: name, path: path, root: root, manifestPath: manifestPath))
    }

    func invalid(_ key: String, _ value: ManifestJSON.Value, _ expected: String) -> CatalogueError {
        .invalidValue(path: manifestPath, entry: label, key: key, value: value.brief, expected: expected)
    }

    private func string(
        _ key: String, expected: String, isValid: (String) -> Bool
    ) throws(CatalogueError) -> String {
        guard let value = object[key] else { throw .missingKey(path: manifestPath, entry: label, key: key) }
        guard case .string(let text) = value, isValid(text) else { throw invalid(key, value, expected) }
        return text
    }

    private func choice<Choice: RawRepresentable<String>>(
        _ key: String, _ type: Choice.Type, expected: String
    ) throws(CatalogueError) -> Choice? {
        guard let value = object[key] else { return nil }
        guard case .string(let text) = value, let choice = Choice(rawValue: text) else {
            throw invalid(key, value, expected)
        }
        return choice
    }

    private func bool(_ key: String) throws(CatalogueError) -> Bool? {
        guard let value = object[key] else { return nil }
        guard case .bool(let flag) = value else { throw invalid(key, value, "true or false") }
        return flag
    }

    func integer(_ key: String, in range: ClosedRange<Int>) throws(CatalogueError) -> Int? {
        guard let value = object[key] else { return nil }
        let expected =
            range.upperBound == Int.max
            ? "a whole number of at least \(range.lowerBound)"
            : "a whole number from \(range.lowerBound) to \(range.upperBound)"
        guard case .integer(let number) = value, range.contains(number) else {
            throw invalid(key, value, expected)
        }
        return number
    }

    func number(_ key: String, in range: ClosedRange<Double>) throws(CatalogueError) -> Double? {
        guard let value = object[key] else { return nil }
        let expected =
            range.upperBound == .greatestFiniteMagnitude
            ? "a number of at least \(range.lowerBound.manifestText)"
            : "a number from \(range.lowerBound.manifestText) to \(range.upperBound.manifestText)"
        let number: Double
        switch value {
        case .integer(let whole): number = Double(whole)
        case .number(let fraction): number = fraction
        default: throw invalid(key, value, expected)
        }
        guard range.contains(number) else { throw invalid(key, value, expected) }
        return number
    }

    /// Reads loopStart/loopEnd and checks they describe a non-empty loop.
    private func loopPoints(looping: Bool) throws(CatalogueError) -> (LoopPoint?, LoopPoint?) {
        let expected = "a whole frame count like 48000 or a string of seconds like \"1.5s\""
        var points: [LoopPoint?] = []
        for key in ["loopStart", "loopEnd"] {
            guard let value = object[key] else {
                points.append(nil)
                continue
            }
            guard let point = LoopPoint(manifestValue: value) else { throw invalid(key, value, expected) }
            // Loop points on a sound that never loops are almost always a forgotten "loop": true.
            guard looping else {
                throw invalid(
                    key, value, "no loop point because \"loop\" is false; set \"loop\": true or remove it")
            }
            points.append(point)
        }
        let (start, end) = (points[0], points[1])
        guard let end, case .some(let endValue) = object["loopEnd"] else { return (start, end) }
        guard let start else {
            // With no loopStart the loop begins at zero, which is zero in any unit.
            let isAfterZero: Bool
            switch end {
            case .frames(let frames): isAfterZero = frames > 0
            case .seconds(let seconds): isAfterZero = seconds > 0
            }
            if !isAfterZero {
                throw invalid("loopEnd", endValue, "a point after the start of the file")
            }
            return (nil, end)
        }
        switch (start, end) {
        case (.frames(let first), .frames(let last)) where last <= first:
            throw invalid("loopEnd", endValue, "a point after loopStart")
        case (.seconds(let first), .seconds(let last)) where last <= first:
            throw invalid("loopEnd", endValue, "a point after loopStart")
        case (.frames, .seconds), (.seconds, .frames):
            // Comparing frames with seconds needs the sample rate, which loading does not know.
            throw invalid("loopEnd", endValue, "the same unit as loopStart (both frames or both seconds)")
        default:
            break
        }
        return (start, end)
    }
}

extension Double {
    /// Drops the ".0" Swift prints for whole numbers, so messages read "0 to 4".
    fileprivate var manifestText: String {
        rounded() == self && abs(self) < 1e15 ? String(Int(self)) : String(self)
    }
}

extension String {
    /// Foundation-free trimming, so this file needs nothing beyond the standard library.
    fileprivate func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}

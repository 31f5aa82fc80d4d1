/// The musical keys of a music entry: `bpm`, `beatsPerBar`, `downbeat` and `markers`.
extension EntryReader {
    static let tempoKeys = ["bpm", "beatsPerBar", "downbeat"]

    /// Reads the tempo keys; they need `"kind": "music"`, and `beatsPerBar` and `downbeat` need `bpm`.
    func tempo(kind: SoundKind) throws(CatalogueError) -> Tempo? {
        try requireMusic(Self.tempoKeys, kind: kind)
        guard let bpmValue = object["bpm"] else {
            for key in ["beatsPerBar", "downbeat"] {
                if let value = object[key] {
                    throw invalid(key, value, "no \"\(key)\" without \"bpm\"; add the tempo in \"bpm\"")
                }
            }
            return nil
        }
        let bpm: Double
        switch bpmValue {
        case .integer(let whole): bpm = Double(whole)
        case .number(let fraction): bpm = fraction
        default: bpm = .nan
        }
        guard bpm > 0, bpm <= 1000 else {
            throw invalid("bpm", bpmValue, "a tempo above 0 and at most 1000 beats per minute")
        }
        return Tempo(
            bpm: bpm, beatsPerBar: try integer("beatsPerBar", in: 1...64) ?? 4,
            downbeat: try number("downbeat", in: 0...Double.greatestFiniteMagnitude) ?? 0)
    }

    /// Reads `"markers": {"name": seconds}`.
    func markers(kind: SoundKind) throws(CatalogueError) -> [String: Double] {
        try requireMusic(["markers"], kind: kind)
        guard let value = object["markers"] else { return [:] }
        guard case .object(let members) = value else {
            throw invalid("markers", value, "an object of names and seconds, like {\"calm-exit\": 16.0}")
        }
        var markers: [String: Double] = [:]
        for (name, seconds) in members.members {
            guard Self.isUsableName(name) else {
                throw invalid(
                    "markers", .string(name),
                    "marker names that are not empty and have no leading or trailing spaces"
                )
            }
            let time: Double
            switch seconds {
            case .integer(let whole): time = Double(whole)
            case .number(let fraction): time = fraction
            default: time = -1
            }
            guard time >= 0, time.isFinite else {
                throw invalid("markers.\(name)", seconds, "a position in seconds, 0 or more")
            }
            markers[name] = time
        }
        return markers
    }

    /// Reads `"stems": [{"path": "Music/game-drums.ogg", "from": 0.3, "full": 0.5}]`.
    func stems(kind: SoundKind, name: String, root: String) throws(CatalogueError) -> [Stem] {
        try requireMusic(["stems"], kind: kind)
        guard let value = object["stems"] else { return [] }
        let shape = "an array of objects like {\"path\": \"Music/drums.ogg\", \"from\": 0.3}"
        guard case .array(let items) = value, !items.isEmpty else { throw invalid("stems", value, shape) }
        var stems: [Stem] = []
        for (index, item) in items.enumerated() {
            let key = "stems.\(index)"
            guard case .object(let stem) = item else { throw invalid(key, item, shape) }
            for member in stem.members where !["path", "from", "full"].contains(member.key) {
                throw invalid(
                    "\(key).\(member.key)", member.value, "no such key: a stem has path, from and full")
            }
            guard case .string(let path) = stem["path"], !path.isEmpty else {
                throw invalid("\(key).path", stem["path"] ?? .null, "a path relative to the assets folder")
            }
            let from = try fraction(stem["from"] ?? .integer(0), key: "\(key).from", above: 0)
            let full = try stem["full"].map { value throws(CatalogueError) in
                try fraction(value, key: "\(key).full", above: from)
            }
            let resolved = try PathSafety.resolve(
                name: name, path: path, root: root, manifestPath: manifestPath)
            stems.append(Stem(path: path, resolvedPath: resolved, from: from, full: full))
        }
        return stems
    }

    /// Reads `"duckMusic": -9`: decibels the music dips to while the sound plays; not on music.
    func duckMusic(kind: SoundKind) throws(CatalogueError) -> Float {
        guard let value = object["duckMusic"] else { return 0 }
        guard kind != .music else {
            throw invalid(
                "duckMusic", value, "no \"duckMusic\" on a music sound: music cannot duck itself; remove it")
        }
        let deepest = Double(PlayOptions.deepestDuck)
        return Float(try number("duckMusic", in: deepest...0) ?? 0)
    }

    private func fraction(_ value: ManifestJSON.Value, key: String, above low: Double) throws(CatalogueError)
        -> Double
    {
        let number: Double
        switch value {
        case .integer(let whole): number = Double(whole)
        case .number(let fraction): number = fraction
        default: number = .nan
        }
        guard number >= low, number <= 1 else {
            throw invalid(key, value, "an intensity from \(low == 0 ? "0" : String(low)) to 1")
        }
        return number
    }

    private func requireMusic(_ keys: [String], kind: SoundKind) throws(CatalogueError) {
        guard kind != .music else { return }
        for key in keys {
            if let value = object[key] {
                throw invalid(
                    key, value, "no \"\(key)\" on a \(kind.rawValue) sound: only music keeps time; remove it")
            }
        }
    }
}

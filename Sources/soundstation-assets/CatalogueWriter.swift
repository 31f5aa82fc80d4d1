import Glibc
import SoundStation

/// One sound as the manifest lists it; nil fields are left out so the catalogue's defaults apply.
struct CatalogueEntry {
    /// The name games ask for.
    var name: String
    /// The file, relative to the assets folder.
    var path: String
    /// `effect`, `music` or `voice`.
    var kind: String
    /// Linear gain.
    var volume: Double
    /// Whether playback wraps around.
    var loop: Bool
    /// The frame a loop restarts at.
    var loopStart: Int?
    /// The frame a loop wraps at.
    var loopEnd: Int?
    /// A music track's tempo in beats per minute, and its beats per bar (its downbeat is at 0).
    var bpm: Int? = nil
    var beatsPerBar: Int? = nil
    /// A layered track's stems: each file and the intensity it joins at and is full from.
    var stems: [StemEntry] = []
    /// 0...255, higher wins when voices run short.
    var priority: Int
    /// How many copies may play at once.
    var maxInstances: Int
    /// `oldest`, `quietest` or `refuse`.
    var steal: String?
    /// Whether to decode while playing.
    var stream: Bool
    /// Merges requests closer together than this many milliseconds.
    var coalesceMs: Int?
}

extension CatalogueEntry {
    /// One stem of a layered track, as `"stems"` lists it.
    struct StemEntry {
        var path: String
        var from: Double
        var full: Double
    }
}

/// Writes `catalogue.json` by hand, so keys come out in one fixed, readable order and the
/// file is byte-for-byte the same on every run (JSONSerialization promises neither).
enum CatalogueWriter {
    /// The manifest text for `entries`, pretty-printed with a trailing newline.
    static func json(for entries: [CatalogueEntry]) -> String {
        let objects = entries.map { entry -> String in
            var fields = [
                ("name", JSONString.literal(entry.name)), ("path", JSONString.literal(entry.path)),
                ("kind", JSONString.literal(entry.kind)),
                ("volume", number(entry.volume)), ("loop", String(entry.loop)),
            ]
            if let loopStart = entry.loopStart { fields.append(("loopStart", String(loopStart))) }
            if let loopEnd = entry.loopEnd { fields.append(("loopEnd", String(loopEnd))) }
            if let bpm = entry.bpm { fields.append(("bpm", String(bpm))) }
            if let beats = entry.beatsPerBar { fields.append(("beatsPerBar", String(beats))) }
            if !entry.stems.isEmpty {
                let stems = entry.stems.map { stem in
                    "        { \"path\": \(JSONString.literal(stem.path)), \"from\": \(number(stem.from)), "
                        + "\"full\": \(number(stem.full)) }"
                }
                fields.append(("stems", "[\n" + stems.joined(separator: ",\n") + "\n      ]"))
            }
            fields.append(("priority", String(entry.priority)))
            fields.append(("maxInstances", String(entry.maxInstances)))
            if let steal = entry.steal { fields.append(("steal", JSONString.literal(steal))) }
            fields.append(("stream", String(entry.stream)))
            if let coalesce = entry.coalesceMs { fields.append(("coalesceMs", String(coalesce))) }
            let body = fields.map { "      \(JSONString.literal($0.0)): \($0.1)" }.joined(separator: ",\n")
            return "    {\n" + body + "\n    }"
        }
        return "{\n  \"sounds\": [\n" + objects.joined(separator: ",\n") + "\n  ]\n}\n"
    }

    /// Writes the manifest to `path`, replacing any old one.
    static func write(_ entries: [CatalogueEntry], to path: String) throws {
        try FileOutput.write(Array(json(for: entries).utf8), to: path)
    }

    /// Swift's shortest round-trip spelling, which is valid JSON for finite values and keeps
    /// ".0" on whole numbers, so volumes read as gains rather than counts.
    private static func number(_ value: Double) -> String {
        String(value)
    }
}

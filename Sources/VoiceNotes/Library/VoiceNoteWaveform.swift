import SoundStation

/// A note's loudness over its length, one RMS level per equal slice, for drawing a small waveform in a
/// list (``blocks``: `▁▁▁▅▇█▆▃`).
///
/// Computing it decodes the whole note piece by piece (a few chunks in memory, whatever its length), so
/// ``VoiceNoteLibrary/waveform(for:)`` computes it off the caller's thread once per note and caches it.
public struct VoiceNoteWaveform: Sendable, Equatable, Codable {
    /// Cells in the list's waveform column.
    public static let defaultCells = 16
    /// The quietest level drawn above the lowest block: quieter slices all show `▁`.
    public static let floor = -60.0
    /// The eight block characters from quiet to loud.
    public static let blockCharacters: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    /// The RMS level of each slice in dBFS (all channels alike), clamped to ``InputLevel/floor``.
    public let levels: [Double]

    /// Creates a waveform from levels already measured.
    /// - Parameter levels: One dBFS value per cell.
    public init(levels: [Double]) {
        self.levels = levels
    }

    /// Measures a note's file.
    /// - Parameters:
    ///   - path: A `.ogg` or `.wav` note.
    ///   - cells: How many slices; each gets an equal share of the frames (a note shorter than
    ///     `cells` frames gives floor-level cells where it has none).
    /// - Throws: ``VoiceNoteError/unreadable(path:reason:)`` when the file cannot be decoded.
    public init(fileAt path: String, cells: Int = defaultCells) throws(VoiceNoteError) {
        let cells = max(1, cells)
        do {
            let decoder = try AudioDecoder.openStream(fileAt: path)
            let channels = max(decoder.info.channels, 1)
            let frames = max(decoder.info.frameCount, 0)
            var sums = [Double](repeating: 0, count: cells)
            var counts = [Int](repeating: 0, count: cells)
            var frame = 0
            while true {
                let chunk = try decoder.read(maxFrames: 16_384)
                if chunk.isEmpty { break }
                for (index, sample) in chunk.enumerated() {
                    // Frames past the declared count (a header that undercounts) join the last cell.
                    let cell = min(cells - 1, (frame + index / channels) * cells / max(frames, 1))
                    sums[cell] += Double(sample) * Double(sample)
                    counts[cell] += 1
                }
                frame += chunk.count / channels
            }
            levels = zip(sums, counts).map { sum, count in
                InputLevel.decibels(count > 0 ? (sum / Double(count)).squareRoot() : 0)
            }
        } catch {
            throw .unreadable(path: path, reason: error.description)
        }
    }

    /// The waveform as block characters, one per cell: `▁` at or below ``floor``, `█` near full scale,
    /// evenly spaced in decibels between.
    public var blocks: String {
        let steps = Self.blockCharacters.count
        return String(
            levels.map { level in
                let fraction = (level - Self.floor) / -Self.floor
                let step = Int((fraction * Double(steps)).rounded(.down))
                return Self.blockCharacters[min(steps - 1, max(0, step))]
            })
    }
}

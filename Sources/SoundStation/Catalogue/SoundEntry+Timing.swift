extension SoundEntry {
    /// The most a looping body may differ from a whole number of bars, in frames of the file: loop
    /// points are whole frames and bars rarely are.
    static let barTolerance = 1.0

    /// The loop a looping entry repeats, in frames: its loop points, or the whole file.
    /// - Parameters:
    ///   - sampleRate: The file's rate.
    ///   - frameCount: The file's length.
    /// - Returns: `nil` when the entry does not loop.
    func loopBody(sampleRate: Int, frameCount: Int) -> Range<Int>? {
        guard loop, frameCount > 0 else { return nil }
        return loopRange(sampleRate: sampleRate, frameCount: frameCount) ?? 0..<frameCount
    }

    /// Checks the tempo and markers against the file once its length is known: the downbeat and
    /// every marker inside the file (and before a loop's end, where playback never goes), and a loop
    /// body that holds a whole number of bars, so the grid survives every loop.
    /// - Parameters:
    ///   - sampleRate: The file's rate.
    ///   - frameCount: The file's length.
    /// - Throws: ``CatalogueError/timingMismatch(name:key:reason:)`` naming the key and what to change.
    func checkTiming(sampleRate: Int, frameCount: Int) throws(CatalogueError) {
        guard tempo != nil || !markers.isEmpty, sampleRate > 0 else { return }
        let rate = Double(sampleRate)
        let length = Double(frameCount) / rate
        let body = loopBody(sampleRate: sampleRate, frameCount: frameCount)
        let reachable = body.map { Double($0.upperBound) / rate } ?? length
        for (name, seconds) in markers.sorted(by: { $0.key < $1.key }) where seconds >= reachable {
            let why =
                seconds >= length
                ? "it is past the end of the file (\(seconds.brief) s of \(length.brief) s)"
                : "it is past the loop's end at \(reachable.brief) s, where playback never goes"
            throw .timingMismatch(name: self.name, key: "markers.\(name)", reason: why + "; move it earlier")
        }
        guard let tempo else { return }
        if tempo.downbeat >= length {
            throw .timingMismatch(
                name: name, key: "downbeat",
                reason: "\(tempo.downbeat.brief) s is past the end of the file (\(length.brief) s)")
        }
        guard let body else { return }
        let barFrames = tempo.secondsPerBar * rate
        let bars = Double(body.count) / barFrames
        let whole = max(1, bars.rounded())
        if abs(Double(body.count) - whole * barFrames) > Self.barTolerance {
            let suggestion = body.lowerBound + Int((whole * barFrames).rounded())
            let fits =
                suggestion <= frameCount
                ? "make it a whole number of bars (e.g. \"loopEnd\": \(suggestion) for \(Int(whole)) bar(s))"
                : "make it a whole number of bars, or fix \"bpm\""
            throw .timingMismatch(
                name: name, key: "bpm",
                reason:
                    "the loop body (frames \(body.lowerBound)..<\(body.upperBound)) holds \(bars.brief) bars of "
                    + "\((tempo.secondsPerBar).brief) s at \(tempo.bpm.brief) bpm; \(fits)")
        }
    }
}

extension Double {
    /// A number for messages: up to 4 decimals, no trailing ".0".
    fileprivate var brief: String {
        let rounded = (self * 10_000).rounded() / 10_000
        return rounded == rounded.rounded() && abs(rounded) < 1e15 ? String(Int(rounded)) : String(rounded)
    }
}

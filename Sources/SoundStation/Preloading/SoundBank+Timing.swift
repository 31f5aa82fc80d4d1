extension SoundBank {
    /// The grid of a loaded music track: its tempo, markers, loop and file rate.
    /// - Parameter name: A catalogue name.
    /// - Returns: `nil` when it is not loaded.
    func grid(of name: String) -> TrackGrid? {
        table.withLock { table in
            table.loaded[name].map {
                TrackGrid(entry: $0.entry, sampleRate: $0.info.sampleRate, frameCount: $0.info.frameCount)
            }
        }
    }
}

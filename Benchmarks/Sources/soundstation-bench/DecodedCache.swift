import Foundation

/// The decoded-sound cache the cases run with, chosen as any game chooses it: through
/// `SOUNDSTATION_PCM_CACHE`, read when a sound bank is made. The cases compare decoding with the C
/// peers, so every case decodes each time (``off()``, at the start) but `preload-cached`, which reads
/// back a cache of its own (``inFolder(_:_:)``).
enum DecodedCache {
    /// No cache for the banks made from now on.
    static func off() { setenv("SOUNDSTATION_PCM_CACHE", "off", 1) }

    /// A cache in `folder` (emptied before and after) for the banks `body` makes.
    static func inFolder<T>(_ folder: String, _ body: () async throws -> T) async rethrows -> T {
        try? FileManager.default.removeItem(atPath: folder)
        setenv("SOUNDSTATION_PCM_CACHE", folder, 1)
        defer {
            off()
            try? FileManager.default.removeItem(atPath: folder)
        }
        return try await body()
    }
}

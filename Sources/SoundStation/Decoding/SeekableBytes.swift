/// A read position over a ``ByteSource``, for C libraries that read through callbacks (libsndfile's
/// virtual I/O, libxmp's loaders).
final class SeekableBytes {
    private let source: any ByteSource
    let byteCount: Int
    private(set) var position = 0
    /// The first read error, kept because the C callback can only say "no bytes".
    private(set) var failure: AudioDecodingError?

    init(_ source: any ByteSource) {
        self.source = source
        self.byteCount = source.byteCount
    }

    /// Copies up to `count` bytes from the position into `destination` and advances.
    func read(into destination: UnsafeMutableRawPointer, count: Int) -> Int {
        let wanted = min(max(count, 0), byteCount - position)
        guard wanted > 0 else { return 0 }
        do {
            let chunk = try source.bytes(at: position, count: wanted)
            chunk.withUnsafeBytes { destination.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
            position += chunk.count
            return chunk.count
        } catch {
            failure = failure ?? error
            return 0
        }
    }

    /// Moves the position like `lseek`; returns the new position, or -1 outside the data.
    func seek(offset: Int64, whence: Int32) -> Int64 {
        let base: Int64
        switch whence {
        case 0: base = 0
        case 1: base = Int64(position)
        case 2: base = Int64(byteCount)
        default: return -1
        }
        let (target, overflow) = base.addingReportingOverflow(offset)
        guard !overflow, target >= 0, target <= Int64(byteCount) else { return -1 }
        position = Int(target)
        return target
    }
}

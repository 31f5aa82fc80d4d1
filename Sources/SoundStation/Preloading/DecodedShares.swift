import Glibc

/// The decoded sounds a bank (or several, such as a remote player's) holds, by what they were decoded
/// from, so entries that name the same file with the same decoding options share one decode and one
/// device copy: a catalogue of 100,000 entries on one file holds that file's samples once, and loads
/// in time and memory linear in its entries.
///
/// A file is known by its path and identity (device, inode, size and modification time), so a file
/// edited in place is decoded again. Buffers are held weakly: a sound freed by its last user is not
/// kept alive here. Loads of the same file wait for each other (the first decodes, the others share
/// its result); loads of different files never do.
package final class DecodedShares: Sendable {
    /// What a decode depends on.
    struct Key: Hashable {
        var path: String
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modified: Int64
        /// ``PCMCache/tag(_:)`` of the options (whether a streamed module loops by its song changes no
        /// decoded sample, so entries that differ in it share).
        var options: UInt64

        /// The key of `path` as it is now, or `nil` when it cannot be read (the load then fails with
        /// the decoder's own error).
        init?(path: String, options: DecodingOptions) {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            self.path = path
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            size = Int64(info.st_size)
            modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
            self.options = PCMCache.tag(options)
        }
    }

    /// What is known of one file: its header, what decoding it said, and the buffers made from it
    /// (one per set of loop points).
    struct Slot {
        /// The file's header as read for an entry (a tracker module's is read for each, since its
        /// length depends on how the entry loops).
        var info: AudioFileInfo?
        var warnings: [AudioDecodingWarning] = []
        fileprivate var buffers: [WeakBuffer] = []

        /// A live buffer of this file with these loop points.
        func buffer(loop: Range<Int>?) -> SoundBuffer? {
            buffers.lazy.compactMap(\.buffer).first { $0.loopPoints == loop }
        }

        /// Any live buffer of this file (its samples serve other loop points without a decode).
        var anyBuffer: SoundBuffer? { buffers.lazy.compactMap(\.buffer).first }

        /// Keeps `buffer` for the next entries on this file.
        mutating func add(_ buffer: SoundBuffer) {
            buffers.removeAll { $0.buffer == nil }
            buffers.append(WeakBuffer(buffer: buffer))
        }

        var isIdle: Bool { buffers.allSatisfy { $0.buffer == nil } }
    }

    private final class Box: Sendable {
        let slot = Locked(Slot())
        /// Loads using the box now (counted under the table's lock).
        let users = Locked(0)
    }

    private let boxes = Locked<(table: [Key: Box], pruneAt: Int)>(([:], 64))

    /// An empty table (a remote player makes one and shares it among its catalogues' banks).
    package init() {}

    /// Runs `body` with the slot of `key`, holding it so loads of the same file wait for this one.
    func withSlot<Result, Failure: Error>(
        _ key: Key, _ body: (inout Slot) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let box = boxes.withLock { boxes -> Box in
            if boxes.table.count >= boxes.pruneAt { Self.prune(&boxes) }
            let box = boxes.table[key] ?? Box()
            boxes.table[key] = box
            box.users.withLock { $0 += 1 }
            return box
        }
        defer { box.users.withLock { $0 -= 1 } }
        return try box.slot.withLock(body)
    }

    /// Drops the slots of files no buffer is made from any more and no load is using, so the table
    /// stays as large as what is loaded.
    private static func prune(_ boxes: inout (table: [Key: Box], pruneAt: Int)) {
        boxes.table = boxes.table.filter { _, box in
            box.users.withLock { $0 } > 0 || !box.slot.withLock { $0.isIdle }
        }
        boxes.pruneAt = max(64, boxes.table.count * 2)
    }

    /// How many distinct files have live buffers.
    var liveFiles: Int {
        boxes.withLock { $0.table.values.filter { !$0.slot.withLock { $0.isIdle } }.count }
    }
}

/// A buffer held weakly.
private struct WeakBuffer: @unchecked Sendable {
    // `@unchecked`: a weak reference to a Sendable class, read and written only under a slot's lock.
    weak var buffer: SoundBuffer?
}

import Glibc

/// The Linux calls behind an ``AssetWatch``: one inotify instance watching folders, and a pipe that
/// wakes a wait early when the watch is cancelled.
///
/// Folders are watched rather than files because editors save by writing a new file and renaming it
/// over the old one: a watch on the old file would see it deleted and nothing after.
final class Inotify: Sendable {
    /// A file created, written and closed, moved in, modified or deleted in a watched folder.
    struct Change: Hashable {
        /// The folder (as it was given to ``watch(_:)``) joined with the file's name.
        var path: String
    }

    /// What one wait saw.
    struct Batch {
        var changes: [Change] = []
        /// The kernel's queue overflowed: changes were lost, so everything must be looked at again.
        var overflowed = false
    }

    /// Written by the editor's save, whatever way it saves: in place (close after writing), by
    /// renaming a new file over the old one (moved to), or by deleting and creating; modifications
    /// too, so a long copy keeps postponing the reload until it is quiet.
    static let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_MODIFY | IN_ONLYDIR)

    private let descriptor: Int32
    private let wakeRead: Int32
    private let wakeWrite: Int32
    /// The folders watched, by watch descriptor.
    private let folders = Locked<[Int32: String]>([:])

    /// Opens an inotify instance and the wake pipe.
    /// - Throws: ``AssetWatchError/unavailable(path:reason:)`` when the kernel refuses either.
    init(root: String) throws(AssetWatchError) {
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else {
            throw .unavailable(
                path: root,
                reason: Self.message(errno)
                    + " (raise fs.inotify.max_user_instances, or close other watchers)")
        }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            let reason = Self.message(errno)
            close(descriptor)
            throw .unavailable(path: root, reason: reason)
        }
        for end in ends {
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        self.descriptor = descriptor
        wakeRead = ends[0]
        wakeWrite = ends[1]
    }

    deinit {
        close(descriptor)
        close(wakeRead)
        close(wakeWrite)
    }

    /// Watches `folder` (once; watching it again does nothing).
    /// - Throws: ``AssetWatchError/unavailable(path:reason:)`` naming the folder.
    func watch(_ folder: String) throws(AssetWatchError) {
        if folders.withLock({ $0.values.contains(folder) }) { return }
        let watch = inotify_add_watch(descriptor, folder, Self.mask)
        guard watch >= 0 else {
            let code = errno
            let advice = code == ENOSPC ? " (raise fs.inotify.max_user_watches)" : ""
            throw .unavailable(path: folder, reason: Self.message(code) + advice)
        }
        folders.withLock { $0[watch] = folder }
    }

    /// The folders watched now.
    var watched: Set<String> { folders.withLock { Set($0.values) } }

    /// Waits up to `timeout` for changes (or a ``wake()``) and returns what arrived.
    func wait(_ timeout: Duration) -> Batch {
        var fds = [
            pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
        ]
        let milliseconds = Int32(clamping: Int(max(0, (timeout.inSeconds * 1000).rounded(.up))))
        guard poll(&fds, 2, milliseconds) > 0 else { return Batch() }
        if fds[1].revents != 0 {
            var scratch = [UInt8](repeating: 0, count: 64)
            while read(wakeRead, &scratch, scratch.count) > 0 {}
        }
        return fds[0].revents != 0 ? readEvents() : Batch()
    }

    /// Ends a ``wait(_:)`` in progress (or the next one) at once; safe from any thread.
    func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    /// Reads every queued event: `struct inotify_event` records (wd, mask, cookie, len, then `len`
    /// bytes of NUL-padded name).
    private func readEvents() -> Batch {
        var batch = Batch()
        var bytes = [UInt8](repeating: 0, count: 64 * 1024)
        let header = MemoryLayout<inotify_event>.size
        while true {
            let count = read(descriptor, &bytes, bytes.count)
            guard count > 0 else { return batch }
            var offset = 0
            while offset + header <= count {
                let (watch, mask, length) = bytes.withUnsafeBytes { raw in
                    (
                        raw.loadUnaligned(fromByteOffset: offset, as: Int32.self),
                        raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self),
                        Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                    )
                }
                let nameBytes = bytes[(offset + header)..<min(count, offset + header + length)]
                offset += header + length
                if mask & UInt32(IN_Q_OVERFLOW) != 0 { batch.overflowed = true }
                if mask & UInt32(IN_IGNORED) != 0 {
                    // The folder itself went away; a new one of that name is watched when seen again.
                    _ = folders.withLock { $0.removeValue(forKey: watch) }
                    continue
                }
                guard let folder = folders.withLock({ $0[watch] }), length > 0 else { continue }
                let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
                batch.changes.append(Change(path: folder == "/" ? "/" + name : folder + "/" + name))
            }
        }
    }

    private static func message(_ code: Int32) -> String { String(cString: strerror(code)) }
}

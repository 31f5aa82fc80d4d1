import CVorbis
import Glibc

/// The bytes libvorbisfile pulls from through `ov_callbacks`: a file read with `pread`, or a
/// buffer in memory.
///
/// It lives as long as the ``VorbisFileDecoder`` that owns it, which passes libvorbisfile only an
/// unretained pointer to it; the close callback is left out because Swift owns the lifetime.
final class VorbisDataSource {
    private enum Storage {
        case file(InputFile)
        case memory([UInt8])
    }

    private let storage: Storage
    private var position = 0
    let byteCount: Int

    init(file: InputFile) {
        storage = .file(file)
        byteCount = file.byteCount
    }

    init(bytes: [UInt8]) {
        storage = .memory(bytes)
        byteCount = bytes.count
    }

    /// The same bytes read from their start, for a second decoder of the same file (a long file's
    /// decode split in two, ``VorbisFileDecoder/readAll()``): a file is read with `pread` and a
    /// buffer is never written, so the two may read at once.
    init(sharing other: VorbisDataSource) {
        storage = other.storage
        byteCount = other.byteCount
    }

    /// Up to `count` bytes at `offset`, for inspecting the file outside libvorbisfile.
    func bytes(at offset: Int, count: Int) -> [UInt8] {
        switch storage {
        case .file(let file): return (try? file.bytes(at: offset, count: count)) ?? []
        case .memory(let bytes): return bytes.bytes(at: offset, count: count)
        }
    }

    /// Copies up to `count` bytes from the current position; sets `errno` and returns 0 on failure,
    /// which is how libvorbisfile tells a read error from the end of the data.
    private func read(into destination: UnsafeMutableRawPointer, count: Int) -> Int {
        let wanted = min(count, byteCount - position)
        guard wanted > 0 else { return 0 }
        let target = UnsafeMutableRawBufferPointer(start: destination, count: wanted)
        switch storage {
        case .file(let file):
            guard let got = try? file.read(into: target, at: position) else {
                errno = EIO
                return 0
            }
            position += got
            return got
        case .memory(let bytes):
            bytes.withUnsafeBytes { source in
                target.copyMemory(
                    from: UnsafeRawBufferPointer(rebasing: source[position..<position + wanted]))
            }
            position += wanted
            return wanted
        }
    }

    private func seek(to offset: Int64, whence: Int32) -> Int32 {
        let base: Int
        switch whence {
        case SEEK_SET: base = 0
        case SEEK_CUR: base = position
        case SEEK_END: base = byteCount
        default: return -1
        }
        let target = Int64(base) + offset
        guard target >= 0, target <= Int64(byteCount) else { return -1 }
        position = Int(target)
        return 0
    }

    /// Callbacks that find this object again through the `datasource` pointer.
    static var callbacks: ov_callbacks {
        return ov_callbacks(
            read_func: { destination, size, count, source in
                guard let destination, let source, size > 0 else { return 0 }
                let me = Unmanaged<VorbisDataSource>.fromOpaque(source).takeUnretainedValue()
                let total = size.multipliedReportingOverflow(by: count)
                return me.read(into: destination, count: total.overflow ? Int.max : total.partialValue) / size
            },
            seek_func: { source, offset, whence in
                guard let source else { return -1 }
                return Unmanaged<VorbisDataSource>.fromOpaque(source).takeUnretainedValue()
                    .seek(to: offset, whence: whence)
            },
            close_func: nil,
            tell_func: { source in
                guard let source else { return -1 }
                return Int(Unmanaged<VorbisDataSource>.fromOpaque(source).takeUnretainedValue().position)
            }
        )
    }
}

import CSoundStation
@_spi(Bindings) import SoundStation

// The C API's streams a game feeds: ss_stream_*. Each is documented in soundstation.h.

/// What `ss_stream *` points at: the feed and the engine it plays on (whose handle is never freed, so
/// a stream outliving `ss_close` still answers).
final class CStream: Sendable {
    let feed: PCMFeed
    let engine: CEngine

    init(feed: PCMFeed, engine: CEngine) {
        self.feed = feed
        self.engine = engine
    }
}

/// The stream a C handle names.
/// - Throws: ``CError`` (invalid argument) for NULL.
private func stream(_ pointer: OpaquePointer?) throws(CError) -> CStream {
    guard let pointer else { throw .invalid("stream is NULL: open one with ss_stream_open") }
    return Unmanaged<CStream>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue()
}

/// The options' fields as the library compiled them, with their defaults.
private func streamDefaults(size: UInt32) -> ss_stream_options {
    ss_stream_options(size: size, bus: SS_BUS_EFFECTS.rawValue, volume: 1, pan: 0, queue_frames: 0)
}

/// `ss_stream_options_init`: fills the defaults into the caller's struct, never past `size` bytes.
/// - Parameters:
///   - options: The caller's struct.
///   - size: Its size as the caller compiled it.
/// - Returns: `SS_OK` or a negative code.
@_cdecl("ss_stream_options_init")
public func ssStreamOptionsInit(_ options: UnsafeMutablePointer<ss_stream_options>?, _ size: Int) -> Int32 {
    cCall { () throws(CError) -> Int32 in
        guard let options else {
            throw .invalid("ss_stream_options_init: options is NULL: pass the address of the options struct")
        }
        guard size >= MemoryLayout<UInt32>.size, size <= Int(UInt32.max) else {
            throw .invalid(
                "ss_stream_options_init: invalid size \(UInt(bitPattern: size)): pass sizeof the options struct"
            )
        }
        var defaults = streamDefaults(size: UInt32(size))
        let full = MemoryLayout<ss_stream_options>.size
        let raw = UnsafeMutableRawPointer(options)
        withUnsafeBytes(of: &defaults) { raw.copyMemory(from: $0.baseAddress!, byteCount: min(size, full)) }
        if size > full { (raw + full).initializeMemory(as: UInt8.self, repeating: 0, count: size - full) }
        return SS_OK.rawValue
    }
}

/// `ss_stream_open`: opens a stream the game feeds and starts its voice.
/// - Parameters:
///   - engine: The handle.
///   - channels: 1 or 2.
///   - rate: Frames per second.
///   - options: The caller's options, or NULL.
///   - out: Receives the stream.
/// - Returns: `SS_OK` or a negative code.
@_cdecl("ss_stream_open")
public func ssStreamOpen(
    _ engine: OpaquePointer?, _ channels: Int32, _ rate: Int32, _ options: UnsafeRawPointer?,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    cCall { () throws(CError) -> Int32 in
        let engine = try handle(engine)
        let system = try engine.system
        guard let out else { throw .invalid("stream is NULL: pass the address of an ss_stream pointer") }
        out.pointee = nil
        var read = streamDefaults(size: UInt32(MemoryLayout<ss_stream_options>.size))
        if let options {
            let stated = options.loadUnaligned(as: UInt32.self)
            guard stated >= UInt32(MemoryLayout<UInt32>.size) else {
                throw .invalid(
                    "ss_stream_open: options->size is \(stated): fill the options with ss_stream_options_init first"
                )
            }
            let count = min(Int(stated), MemoryLayout<ss_stream_options>.size)
            withUnsafeMutableBytes(of: &read) { $0.baseAddress!.copyMemory(from: options, byteCount: count) }
        }
        guard channels == 1 || channels == 2 else {
            throw .invalid("invalid channels \(channels): a stream has 1 or 2 channels")
        }
        guard (8000...192_000).contains(rate) else {
            throw .invalid("invalid rate \(rate) Hz: expected 8000...192000")
        }
        let bus = read.bus == SS_BUS_DEFAULT.rawValue ? Bus.effects : try mixBus(read.bus)
        guard read.volume.isFinite, (0...16).contains(read.volume) else {
            throw .invalid("invalid options->volume \(read.volume): expected 0...16")
        }
        guard read.pan.isFinite, (-1...1).contains(read.pan) else {
            throw .invalid("invalid options->pan \(read.pan): expected -1...1")
        }
        guard read.queue_frames == 0 || (1...Int32(AudioEngine.maximumFeedFrames)).contains(read.queue_frames)
        else {
            throw .invalid(
                "invalid options->queue_frames \(read.queue_frames): expected 1...\(AudioEngine.maximumFeedFrames), "
                    + "or 0 for half a second")
        }
        let feed: PCMFeed
        do throws(AudioEngineError) {
            feed = try system.engine.openFeed(
                channels: Int(channels), sampleRate: Int(rate),
                options: PlayOptions(volume: read.volume, pan: read.pan, bus: bus),
                queueFrames: read.queue_frames == 0 ? nil : Int(read.queue_frames))
        } catch {
            throw CError(error)
        }
        out.pointee = OpaquePointer(Unmanaged.passRetained(CStream(feed: feed, engine: engine)).toOpaque())
        return SS_OK.rawValue
    }
}

/// `ss_stream_write`: copies frames into the stream's queue without waiting.
/// - Parameters:
///   - handle: The stream.
///   - samples: `frames * channels` floats.
///   - frames: How many frames.
/// - Returns: The frames taken, or a negative code.
@_cdecl("ss_stream_write")
public func ssStreamWrite(_ handle: OpaquePointer?, _ samples: UnsafePointer<Float>?, _ frames: Int32)
    -> Int32
{
    cCall { () throws(CError) -> Int32 in
        let stream = try stream(handle)
        guard frames >= 0 else { throw .invalid("invalid frames \(frames): expected 0 or more") }
        if frames == 0 { return 0 }
        guard let samples else { throw .invalid("interleaved is NULL with \(frames) frames to write") }
        guard !stream.engine.isClosed, !stream.feed.isClosed else {
            throw .closed
        }
        let count = Int(frames) * stream.feed.channels
        return Int32(stream.feed.write(UnsafeBufferPointer(start: samples, count: count)))
    }
}

/// `ss_stream_queued`: frames written and not yet heard.
@_cdecl("ss_stream_queued")
public func ssStreamQueued(_ handle: OpaquePointer?) -> Int32 {
    cCall { () throws(CError) -> Int32 in Int32(clamping: try stream(handle).feed.queuedFrames) }
}

/// `ss_stream_underruns`: times the voice ran dry after it began.
@_cdecl("ss_stream_underruns")
public func ssStreamUnderruns(_ handle: OpaquePointer?) -> Int32 {
    cCall { () throws(CError) -> Int32 in Int32(clamping: try stream(handle).feed.underruns) }
}

/// `ss_stream_refused`: frames the writes refused.
@_cdecl("ss_stream_refused")
public func ssStreamRefused(_ handle: OpaquePointer?) -> Int32 {
    cCall { () throws(CError) -> Int32 in Int32(clamping: try stream(handle).feed.refusedFrames) }
}

/// `ss_stream_voice`: the voice a stream plays through; 0 for NULL or none.
@_cdecl("ss_stream_voice")
public func ssStreamVoice(_ handle: OpaquePointer?) -> UInt64 {
    guard let handle else { return 0 }
    return Unmanaged<CStream>.fromOpaque(UnsafeRawPointer(handle)).takeUnretainedValue().feed.voice?.ticket
        ?? 0
}

/// `ss_stream_close`: stops the voice and frees the handle.
@_cdecl("ss_stream_close")
public func ssStreamClose(_ handle: OpaquePointer?) {
    guard let handle else { return }
    let stream = Unmanaged<CStream>.fromOpaque(UnsafeRawPointer(handle)).takeRetainedValue()
    stream.feed.close()
}

import CSoundStation
@_spi(Bindings) import SoundStation

// The C API's sounds from memory: ss_load_memory and ss_load_pcm. Each is documented in soundstation.h.

/// The most bytes `ss_load_memory` takes: the limit `ss_load_file` reads a file up to.
private let maximumMemoryBytes = 1 << 30

/// `ss_load_memory`: decodes an encoded file held in memory into a sound with a new id.
/// - Parameters:
///   - engine: The handle.
///   - name: The sound's name.
///   - bytes: The file's bytes, copied before the call returns.
///   - size: How many.
/// - Returns: The id, or a negative code.
@_cdecl("ss_load_memory")
public func ssLoadMemory(
    _ engine: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ bytes: UnsafeRawPointer?, _ size: Int
) -> Int32 {
    cCall { () throws(CError) -> Int32 in
        let engine = try handle(engine)
        let system = try engine.system
        let name = try newSoundName(name, in: engine, system: system, unnamed: "sound")
        guard let bytes else { throw .invalid("bytes is NULL: give ss_load_memory the file's bytes") }
        // size_t arrives as Int: a value above Int.max (a negative length cast to size_t) shows here.
        guard size > 0 else {
            throw .invalid(
                "size \(UInt(bitPattern: size)) is not a file's length: expected 1...\(maximumMemoryBytes) bytes"
            )
        }
        guard size <= maximumMemoryBytes else {
            throw .invalid("size \(size) is too large: ss_load_memory takes at most 1 GiB")
        }
        let copy = [UInt8](UnsafeRawBufferPointer(start: bytes, count: size))
        let (options, warnings) = DecodingOptions().collectingWarnings()
        let audio: PCMAudio
        do throws(AudioDecodingError) {
            audio = try AudioDecoder.decode(
                bytes: copy, name: "\(name) (\(size) bytes in memory)", options: options)
        } catch {
            throw CError(code: SS_ERR_DECODE.rawValue, message: error.description)
        }
        for warning in warnings() { engine.notice("\(name): \(warning.description)") }
        return try publish(audio, named: name, in: engine, system: system, origin: .encoded(copy))
    }
}

/// `ss_load_pcm`: makes raw interleaved samples a sound with a new id.
/// - Parameters:
///   - engine: The handle.
///   - name: The sound's name.
///   - samples: `frames * channels` samples of `format`, copied before the call returns.
///   - format: An `ss_sample_format`.
///   - frames: How many frames.
///   - channels: Samples per frame.
///   - rate: Frames per second.
/// - Returns: The id, or a negative code.
@_cdecl("ss_load_pcm")
public func ssLoadPCM(
    _ engine: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ samples: UnsafeRawPointer?,
    _ format: ss_sample_format, _ frames: Int32, _ channels: Int32, _ rate: Int32
) -> Int32 {
    cCall { () throws(CError) -> Int32 in
        let engine = try handle(engine)
        let system = try engine.system
        let name = try newSoundName(name, in: engine, system: system, unnamed: "sound")
        guard let samples else { throw .invalid("samples is NULL: give ss_load_pcm the samples") }
        guard frames >= 1 else { throw .invalid("invalid frames \(frames): expected 1 or more") }
        let limit = PCMAudio.maximumInterleavedChannels
        guard (1...Int32(limit)).contains(channels) else {
            throw .invalid("invalid channels \(channels): expected 1...\(limit)")
        }
        let rates = PCMAudio.interleavedRates
        guard rates.contains(Int(rate)) else {
            throw .invalid("invalid rate \(rate) Hz: expected \(rates.lowerBound)...\(rates.upperBound)")
        }
        let count = Int(frames) * Int(channels)
        guard count <= maximumMemoryBytes / 4 else {
            throw .invalid("\(frames) frames of \(channels) channels is too many: at most 1 GiB of samples")
        }
        guard format == SS_SAMPLE_FLOAT32 || format == SS_SAMPLE_INT16 else {
            throw .invalid(
                "invalid format \(format.rawValue): expected SS_SAMPLE_FLOAT32 (0) or SS_SAMPLE_INT16 (1)")
        }
        let audio: PCMAudio
        do throws(AudioEngineError) {
            if format == SS_SAMPLE_FLOAT32 {
                let values = samples.bindMemory(to: Float.self, capacity: count)
                audio = try PCMAudio(
                    interleaved: Array(UnsafeBufferPointer(start: values, count: count)),
                    channels: Int(channels), sampleRate: Int(rate))
            } else {
                let values = samples.bindMemory(to: Int16.self, capacity: count)
                audio = try PCMAudio(
                    interleaved: Array(UnsafeBufferPointer(start: values, count: count)),
                    channels: Int(channels), sampleRate: Int(rate))
            }
        } catch {
            throw CError(error)
        }
        return try publish(audio, named: name, in: engine, system: system)
    }
}

/// Uploads `audio` as an effect called `name` and gives it an id (`ss_load_file`, `ss_load_memory`,
/// `ss_load_pcm`); over SSH the player is sent the bytes of `origin`.
func publish(
    _ audio: PCMAudio, named name: String, in engine: CEngine, system: SoundSystem,
    origin: MemorySoundOrigin = .pcm
) throws(CError) -> Int32 {
    let buffer: SoundBuffer
    do throws(AudioEngineError) {
        buffer = try system.engine.makeBuffer(audio, name: name, origin: origin)
    } catch {
        throw CError(error)
    }
    return try engine.publish(.init(name: name, file: buffer), as: buffer.id)
}

import CSoundStation
import Dispatch
import Glibc
@_spi(Bindings) import SoundStation

// The C API's loading functions: preload, load_file, sound_id. Each is documented in soundstation.h.

/// `ss_preload`: decodes catalogue sounds before the game needs them and gives them ids.
/// - Parameters:
///   - engine: The handle.
///   - names: `count` names, or NULL for the whole catalogue.
///   - count: How many names.
///   - progress: Called on this thread after each sound, or NULL.
///   - user: Passed to `progress`.
/// - Returns: `SS_OK` or a negative code.
@_cdecl("ss_preload")
public func ssPreload(
    _ engine: OpaquePointer?, _ names: UnsafePointer<UnsafePointer<CChar>?>?, _ count: Int32,
    _ progress: (@convention(c) (Double, UnsafeMutableRawPointer?) -> Void)?, _ user: UnsafeMutableRawPointer?
) -> Int32 {
    cCall { () throws(CError) -> Int32 in
        let engine = try handle(engine)
        let system = try engine.system
        let wanted: [String]
        if let names {
            guard count >= 0 else { throw .invalid("invalid count \(count): expected 0 or more names") }
            wanted = try (0..<Int(count)).map { index throws(CError) in
                try string(names[index], "names[\(index)]")
            }
            for name in wanted {
                do throws(CatalogueError) { _ = try system.catalogue.entry(named: name) } catch {
                    throw CError(error)
                }
            }
        } else {
            wanted = system.catalogue.entries.map(\.name)
        }
        let cancels = ss_internal_engine_cancels(engine.cHandle)
        let result = preloadBlocking(system.bank, wanted, progress: { progress?($0, user) }) {
            ss_internal_engine_cancels(engine.cHandle) != cancels
        }
        guard let loaded = result else {
            throw CError(
                code: SS_ERR_CANCELLED.rawValue,
                message: "ss_preload was cancelled by ss_cancel_preload: what it had loaded is let go of")
        }
        engine.hold(loaded)
        for warning in loaded.warnings { engine.notice(warning.description) }
        let done = Set(loaded.names)
        for name in wanted where done.contains(name) {
            guard let sound = try? system.bank.id(of: name) else { continue }
            let entry = system.catalogue[name]
            let music = entry?.kind == .music && system.bank.isStreamed(name)
            _ = try engine.publish(
                .init(name: name, file: nil), as: sound, music: music, loops: entry?.loop ?? false)
        }
        if !loaded.failures.isEmpty { throw CError(SoundLoadError.someFailed(failures: loaded.failures)) }
        return SS_OK.rawValue
    }
}

/// Runs a preload to its end, calling `progress` on the calling thread after each sound, unless
/// `cancelled` says to stop (asked every 20 ms).
/// - Parameters:
///   - bank: Where to load.
///   - names: Catalogue names.
///   - progress: Receives the fraction done.
///   - cancelled: Whether `ss_cancel_preload` was called since the preload began.
/// - Returns: What was loaded, with the failures; `nil` when cancelled (the preload's task lets go
///   of what it had loaded when it ends).
private func preloadBlocking(
    _ bank: SoundBank, _ names: [String], progress: (Double) -> Void, cancelled: () -> Bool
) -> PreloadedSounds? {
    let mailbox = PreloadMailbox()
    let task = Task.detached {
        let loaded = try? await bank.preload(names) { mailbox.post(fraction: $0.fraction) }
        mailbox.finish(loaded)
    }
    while true {
        let woken = mailbox.signal.wait(timeout: .now() + .milliseconds(20)) == .success
        if cancelled() {
            // Decodes stop between chunks once cancelled: wait that long, so nothing the preload
            // started outlives the call (a game that exits at once must not race OpenAL's teardown).
            task.cancel()
            while !mailbox.isDone { _ = mailbox.signal.wait(timeout: .now() + .milliseconds(5)) }
            return nil
        }
        guard woken else { continue }
        let (fractions, result, done) = mailbox.take()
        for fraction in fractions { progress(fraction) }
        if done {
            // A cancel asked for in those callbacks came before the call returned, so it still
            // counts, even with every sound in (the preload's end and its last progress are often
            // taken together): what was loaded is let go of.
            guard cancelled() else { return result }
            result?.unload()
            return nil
        }
    }
}

/// Carries a preload's progress and result from its task to the thread that waits in `ss_preload`.
private final class PreloadMailbox: Sendable {
    let signal = DispatchSemaphore(value: 0)
    private let box = Locked<(fractions: [Double], result: PreloadedSounds?, done: Bool)>(([], nil, false))

    func post(fraction: Double) {
        box.withLock { $0.fractions.append(fraction) }
        signal.signal()
    }

    func finish(_ result: PreloadedSounds?) {
        box.withLock {
            $0.result = result
            $0.done = true
        }
        signal.signal()
    }

    /// Whether the preload ended (with a result, or cancelled without one).
    var isDone: Bool { box.withLock { $0.done } }

    /// The fractions posted since the last call, the result once finished, and whether it has, read
    /// together (a result read apart from its flag could be missed).
    func take() -> (fractions: [Double], result: PreloadedSounds?, done: Bool) {
        box.withLock { box in
            defer { box.fractions = [] }
            return (box.fractions, box.result, box.done)
        }
    }
}

/// `ss_load_file`: decodes one file into a sound with a new id.
/// - Parameters:
///   - engine: The handle.
///   - name: The sound's name.
///   - path: A WAV or Ogg Vorbis file.
/// - Returns: The id, or a negative code.
@_cdecl("ss_load_file")
public func ssLoadFile(
    _ engine: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ path: UnsafePointer<CChar>?
) -> Int32 {
    cCall { () throws(CError) -> Int32 in
        let engine = try handle(engine)
        let system = try engine.system
        let name = try newSoundName(name, in: engine, system: system, unnamed: "file")
        guard let path else { throw .invalid("path is NULL") }
        let audio: PCMAudio
        // Over SSH the player is sent the file itself (or the bytes read), not its samples.
        let origin: MemorySoundOrigin
        // Warnings (a file cut short) become this engine's notices, at once.
        let (options, warnings) = DecodingOptions().collectingWarnings()
        do throws(AudioDecodingError) {
            if let text = String(validatingCString: path) {
                audio = try AudioDecoder.decode(fileAt: text, options: options)
                origin = .file(text)
            } else {
                // A Linux path is bytes: one that is not UTF-8 is read as it is, and named escaped.
                let shown = escaped(path)
                let bytes = try readFile(path, shown: shown)
                audio = try AudioDecoder.decode(bytes: bytes, name: shown, options: options)
                origin = .encoded(bytes)
            }
        } catch {
            throw CError(code: SS_ERR_DECODE.rawValue, message: error.description)
        }
        for warning in warnings() { engine.notice("\(name): \(warning.description)") }
        return try publish(audio, named: name, in: engine, system: system, origin: origin)
    }
}

/// `ss_load_music_file`: makes a file a streamed music track with no catalogue entry.
/// - Parameters:
///   - engine: The handle.
///   - name: The track's name.
///   - path: Any file the engine reads.
/// - Returns: The id, or a negative code.
@_cdecl("ss_load_music_file")
public func ssLoadMusicFile(
    _ engine: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ path: UnsafePointer<CChar>?
) -> Int32 {
    cCall { () throws(CError) -> Int32 in
        let engine = try handle(engine)
        let system = try engine.system
        let name = try newSoundName(name, in: engine, system: system, unnamed: "file", kind: "track")
        let path = try string(path, "path")
        let warnings: [SoundLoadWarning]
        do throws(SoundLoadError) { warnings = try system.bank.loadMusic(named: name, fileAt: path) } catch {
            // In this call's terms: there is no manifest to fix.
            switch error {
            case .catalogue(.fileMissing(_, let path)):
                throw CError(
                    code: SS_ERR_DECODE.rawValue,
                    message: "no file at \(path): give ss_load_music_file a file")
            case .catalogue(.undecodable(_, let path, let reason)):
                throw CError(
                    code: SS_ERR_DECODE.rawValue, message: "\(path) does not open as audio: \(reason)")
            default: throw CError(error)
            }
        }
        for warning in warnings { engine.notice(warning.description) }
        let sound: SoundID
        do throws(SoundLoadError) { sound = try system.bank.id(of: name) } catch { throw CError(error) }
        return try engine.publish(.init(name: name, file: nil), as: sound, music: true, loops: true)
    }
}

/// `ss_sound_id`: the id of a loaded sound.
/// - Parameters:
///   - engine: The handle.
///   - name: The sound's name.
/// - Returns: The id, or a negative code.
@_cdecl("ss_sound_id")
public func ssSoundID(_ engine: OpaquePointer?, _ name: UnsafePointer<CChar>?) -> Int32 {
    cCall { () throws(CError) -> Int32 in
        let engine = try handle(engine)
        let system = try engine.system
        let name = try string(name, "name")
        if let id = engine.table.withLock({ $0.ids[name] }) { return id }
        do throws(CatalogueError) { _ = try system.catalogue.entry(named: name) } catch {
            throw CError(error)
        }
        throw CError(SoundLoadError.notLoaded(name: name))
    }
}

/// The whole file at a path given as bytes (not UTF-8, so it cannot become a Swift path string).
/// - Throws: ``AudioDecodingError`` naming the path when it cannot be read.
private func readFile(_ path: UnsafePointer<CChar>, shown: String) throws(AudioDecodingError) -> [UInt8] {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else {
        throw .unreadable(path: shown, reason: String(cString: strerror(errno)))
    }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
        let got = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if got < 0 {
            if errno == EINTR { continue }
            throw .unreadable(path: shown, reason: String(cString: strerror(errno)))
        }
        if got == 0 { return bytes }
        bytes.append(contentsOf: chunk[..<got])
        guard bytes.count <= 1 << 30 else { throw .unreadable(path: shown, reason: "larger than 1 GiB") }
    }
}

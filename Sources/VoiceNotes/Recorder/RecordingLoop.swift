import Glibc
import SoundStation

/// The body of a recorder's thread: opens the device and the file, moves samples to the encoder as
/// they arrive, flushes regularly, and finishes the note.
///
/// The device and the writer are created and used on this thread only, which is why they need no
/// locks and never cross to another thread.
struct RecordingLoop: Sendable {
    /// What ``VoiceNoteRecorder/start(limit:)`` learns once everything is open.
    struct Opened: Sendable {
        let name: String
        let path: String
        let device: String
    }

    let settings: VoiceNoteSettings
    let device: String?
    let frameLimit: Int?
    let library: VoiceNoteLibrary
    let control: RecordingControl
    let opened: Completion<Result<Opened, VoiceNoteError>>
    let recorder: VoiceNoteRecorder

    /// How often the device is drained: short enough for a lively meter, long enough to be cheap.
    static let pollInterval = 0.025
    /// How much new audio goes between syncs to disk: a crash loses at most this plus the encoder's
    /// look-ahead. Counted in audio rather than wall time so every forced page holds several Vorbis
    /// packets; a page holding only the stream's first packet would carry granule position 0, which
    /// strict checkers (ogginfo) reject.
    static let flushSeconds = 0.5
    /// OpenAL's ring buffer; generous so a slow disk sync never drops input.
    static let deviceBuffer: Duration = .seconds(4)
    /// How long a device may take to deliver its first samples before the recording gives up.
    static let startTimeout = Duration.seconds(10)

    func run() {
        let capture: CaptureDevice
        do {
            capture = try CaptureDevice(
                name: device, sampleRate: settings.sampleRate, channels: settings.channels,
                buffer: Self.deviceBuffer)
        } catch {
            opened.complete(.failure(Self.translate(error, device: device, settings: settings)))
            return
        }
        let reservation: NoteReservation
        do {
            reservation = try library.reserveNewNote(format: settings.format)
        } catch {
            opened.complete(.failure(error))
            return
        }
        let writer: any NoteWriter
        do {
            writer = try NoteWriters.make(path: reservation.partPath, settings: settings)
        } catch {
            // The empty reserved file would otherwise be "repaired" (and set aside) at the next open.
            try? FileSystem.remove(reservation.partPath)
            opened.complete(.failure(error))
            return
        }
        capture.start()
        opened.complete(
            .success(Opened(name: reservation.name, path: reservation.partPath, device: capture.name)))

        var session = Session(capture: capture, writer: writer, loop: self)
        session.record()
        capture.stop()
        session.drainAfterStop()
        recorder.complete(session.finish(reservation), control: control)
    }

    fileprivate func remaining(after frames: Int) -> Int {
        frameLimit.map { max(0, $0 - frames) } ?? .max
    }

    private static func translate(_ error: CaptureError, device: String?, settings: VoiceNoteSettings)
        -> VoiceNoteError
    {
        switch error {
        case .invalidSettings(let reason): .invalidSettings(reason: reason)
        case .cannotOpen, .disconnected:
            .cannotOpenDevice(
                device: device,
                reason: "OpenAL could not open it for \(settings.channels) channel(s) at "
                    + "\(settings.sampleRate) Hz; is the sound server running and the device present?")
        }
    }
}

/// The mutable part of one recording, on the recording thread's stack.
private struct Session {
    let capture: CaptureDevice
    let writer: any NoteWriter
    let loop: RecordingLoop
    var frames = 0
    var failure: VoiceNoteError?
    private let started = ContinuousClock.now

    private var channels: Int { loop.settings.channels }
    private var seconds: Double { Double(frames) / Double(loop.settings.sampleRate) }

    /// Polls the device until a stop is asked for, the length is reached, or something fails.
    mutating func record() {
        var flushedFrames = 0
        let flushFrames = Int(RecordingLoop.flushSeconds * Double(loop.settings.sampleRate))
        while !loop.control.isStopRequested, loop.remaining(after: frames) > 0 {
            usleep(useconds_t(RecordingLoop.pollInterval * 1_000_000))
            guard take(capture.read(maxFrames: loop.remaining(after: frames))) else { return }
            if frames == 0, ContinuousClock.now - started > RecordingLoop.startTimeout {
                failure = .noAudio(device: capture.name, waited: RecordingLoop.startTimeout.inSeconds)
                return
            }
            if !capture.isConnected {
                failure = .deviceDisconnected(device: capture.name, path: writer.path, keptSeconds: seconds)
                return
            }
            if frames - flushedFrames >= flushFrames {
                do {
                    try writer.flush()
                } catch {
                    failure = error
                    return
                }
                flushedFrames = frames
            }
        }
    }

    /// After a stop, what the device captured up to that moment still belongs to the note.
    mutating func drainAfterStop() {
        guard failure == nil, loop.control.isStopRequested else { return }
        _ = take(capture.read(maxFrames: loop.remaining(after: frames)))
    }

    /// Writes one block and publishes the new length and level; false after a write failure.
    private mutating func take(_ samples: [Float]) -> Bool {
        guard !samples.isEmpty else { return true }
        do {
            try writer.write(samples)
        } catch {
            failure = error
            return false
        }
        frames += samples.count / channels
        let (frames, bytes) = (frames, writer.bytesWritten)
        let elapsed = Duration.frames(Int64(frames), rate: loop.settings.sampleRate)
        let level = InputLevel(measuring: samples)
        loop.recorder.publish { status in
            status.inputStarted = true
            status.frames = frames
            status.elapsed = elapsed
            status.level = level
            status.bytesWritten = bytes
        }
        return true
    }

    /// Ends the file and moves it to its final name; after a write failure the part written so far is
    /// repaired in place instead, which needs no free space.
    func finish(_ reservation: NoteReservation) -> Result<VoiceNote, VoiceNoteError> {
        var failure = self.failure
        guard frames > 0 else {
            // An empty note is no note: nothing to play, only clutter in the list.
            try? FileSystem.remove(reservation.partPath)
            return .failure(
                failure ?? .noAudio(device: capture.name, waited: (ContinuousClock.now - started).inSeconds))
        }
        if failure == nil || failure?.isDisconnection == true {
            do {
                try writer.finish()
            } catch {
                failure = error
            }
        }
        guard case .writeFailed(_, let reason, _)? = failure else {
            let note = Result { () throws(VoiceNoteError) in try loop.library.adopt(reservation) }
            guard let failure, case .success = note else { return note }
            // The message names the note as the user will find it, not the unfinished file.
            if case .deviceDisconnected(let device, _, let kept) = failure {
                return .failure(
                    .deviceDisconnected(device: device, path: reservation.finalPath, keptSeconds: kept))
            }
            return .failure(failure)
        }
        do {
            let report = try loop.library.salvage(reservation)
            let kept = report.keptAs.map(loop.library.path(of:)) ?? reservation.finalPath
            return .failure(.writeFailed(path: kept, reason: reason, keptSeconds: report.kept.inSeconds))
        } catch {
            return .failure(error)
        }
    }
}

extension VoiceNoteError {
    fileprivate var isDisconnection: Bool {
        if case .deviceDisconnected = self { return true }
        return false
    }
}

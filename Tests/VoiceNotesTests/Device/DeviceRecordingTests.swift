import Foundation
import Observation
import SoundStation
import SoundStationTesting
import Synchronization
import Testing

@testable import VoiceNotes

/// The real device path: espeak-ng speech is played into a null sink of the test's own on the private
/// PulseAudio server while the recorder captures the sink's monitor, and notes are played back
/// through the engine and captured again. Serialized: the tests share the server and the machine's
/// two cores, and their timings matter. Where timing matters the tests block their thread instead
/// of awaiting: other suites can keep every task thread busy for seconds, and an await could then
/// resume far too late to start the speech inside the recording.
@Suite(
    "Recording and playing voice notes through PulseAudio", .serialized,
    .enabled(if: PulseTools.isAvailable, "needs the private PulseAudio server of `make test`"))
struct DeviceRecordingTests {
    static let sentence = "Voice notes keep what you say. Testing one, two, three."

    @Test(
        "a note records N seconds of speech at 12 kHz mono, whose loudness follows the speech; it plays back once"
    )
    func recordAndPlayBack() throws {
        let fixture = try SpeechFixture(text: Self.sentence)
        defer { fixture.remove() }
        let seconds = (fixture.speech.duration.inSeconds + 2).rounded()
        let library = try VoiceNoteLibrary(directory: fixture.notesFolder)
        let recorder = VoiceNoteRecorder(library: library, device: fixture.sink.monitor)

        let changed = Mutex(false)
        withObservationTracking {
            _ = recorder.status
        } onChange: {
            changed.withLock { $0 = true }
        }
        let name = try recorder.start(seconds: seconds)
        #expect(recorder.isRecording)
        #expect(recorder.status.device == fixture.sink.monitor)
        try waitForInput(recorder)
        Thread.sleep(forTimeInterval: 0.6)
        let paplay = try fixture.playSpeech()
        var loudestPeak = InputLevel.floor
        var elapsedSeen: [Double] = []
        while recorder.isRecording {
            Thread.sleep(forTimeInterval: 0.05)
            loudestPeak = max(loudestPeak, recorder.level.peak)
            elapsedSeen.append(recorder.elapsed)
        }
        paplay.waitUntilExit()
        let note = try recorder.stop()
        #expect(changed.withLock { $0 }, "observers hear about status changes")
        #expect(
            elapsedSeen == elapsedSeen.sorted() && elapsedSeen.count > 10, "elapsed grows while recording")
        #expect(loudestPeak > -20, "the meter saw the speech (peak \(loudestPeak) dBFS)")

        // The note: in the library, finished under its final name, valid Ogg Vorbis at the asked format.
        #expect(note.name == name && note.fileName == name + ".ogg")
        #expect(name.hasPrefix("recording-") && Int(name.dropFirst("recording-".count)) != nil)
        #expect(library.notes.first == note)
        #expect(!FileManager.default.fileExists(atPath: note.path + ".part"))
        let ogginfo = try PulseTools.run("ogginfo", [note.path])
        #expect(ogginfo.status == 0, "ogginfo: \(ogginfo.output)")
        #expect(note.format == .oggVorbis && note.sampleRate == 12_000 && note.channels == 1)
        let audio = try AudioDecoder.decode(fileAt: note.path)
        #expect(audio.frameCount == Int(seconds) * 12_000, "counted samples: \(audio.frameCount)")
        #expect(abs(audio.duration.inSeconds - seconds) < 0.1)

        let match = fixture.loudnessMatch(audio)
        print(
            "measure: recorded \(audio.duration) s for \(seconds) s asked; speech \(fixture.speech.duration) s; "
                + "contour correlation \(fmt(match.correlation)); speech \(fmt(match.speechDB)) dBFS RMS, "
                + "outside \(fmt(match.outsideDB)) dBFS; meter peak \(fmt(loudestPeak)) dBFS")
        #expect(match.correlation > 0.8, "the recording's loudness follows the speech")
        #expect(match.speechDB - match.outsideDB > 20, "speech stands out of the silence around it")
        let original = AudioAnalysis.decibels(AudioAnalysis.rms(fixture.speech))
        #expect(
            abs(match.speechDB - original) < 3, "speech recorded at \(match.speechDB), played at \(original)")

        try playBack(note, fixture: fixture)
    }

    /// Plays the note through the engine on the sink and records it there: heard, finished once.
    private func playBack(_ note: VoiceNote, fixture: SpeechFixture) throws {
        // OpenAL Soft (1.19) opens a named device from the list it enumerated last, which a suite running
        // alongside may have made before this sink existed: enumerate again until the sink is listed.
        let listed = ContinuousClock.now + .seconds(5)
        while !AudioEngine.playbackDevices().contains(fixture.sink.description), ContinuousClock.now < listed
        {
            usleep(50_000)
        }
        let engine = try AudioEngine(output: .device(name: fixture.sink.description))
        defer { engine.shutdown() }
        let capture = try CaptureDevice(name: fixture.sink.monitor, sampleRate: 12_000, channels: 1)
        let player = VoiceNotePlayer(engine: engine)
        let events = Mutex<[PlaybackFinished]>([])
        player.onFinished { event in events.withLock { $0.append(event) } }
        capture.start()
        Thread.sleep(forTimeInterval: 0.3)
        try player.play(note)
        var samples: [Float] = []
        // The output stream, like capture, may take a moment to start: wait for the end, not a time.
        let deadline = ContinuousClock.now + .seconds(note.duration + 6)
        var tail: ContinuousClock.Instant?
        while ContinuousClock.now < (tail ?? deadline) {
            Thread.sleep(forTimeInterval: 0.04)
            samples += capture.read()
            if tail == nil, !events.withLock(\.isEmpty) { tail = .now + .milliseconds(500) }
        }
        capture.stop()
        samples += capture.read()
        #expect(!player.isPlaying)
        // Let a second event show up if one ever would.
        Thread.sleep(forTimeInterval: 0.3)
        let received = events.withLock { $0 }
        #expect(received.count == 1, "finished events: \(received)")
        #expect(received.first?.reason == .ended && received.first?.note == note)

        let heard = PCMAudio(sampleRate: 12_000, channels: 1, samples: samples)
        let recorded = try AudioDecoder.decode(fileAt: note.path)
        let (lag, correlation) = AudioAnalysis.bestAlignment(
            of: AudioAnalysis.envelope(recorded), in: AudioAnalysis.envelope(heard))
        let window = 600
        let heardSpan = (lag * window)..<min(heard.frameCount, lag * window + recorded.frameCount)
        let heardDB = AudioAnalysis.decibels(AudioAnalysis.rms(heard, frames: heardSpan))
        let noteDB = AudioAnalysis.decibels(AudioAnalysis.rms(recorded))
        print(
            "measure: playback heard \(fmt(heardDB)) dBFS RMS for a note of \(fmt(noteDB)) dBFS; "
                + "contour correlation \(fmt(correlation)); finished events \(received.count)")
        #expect(correlation > 0.8, "what the sink played follows the note")
        // A mono voice at the centre reaches each side at -4.5 dB; the mono capture averages them.
        #expect(abs(heardDB - (noteDB - 4.5)) < 3)
    }

    @Test("WAV at 16 kHz stereo records exactly the asked frames")
    func wavStereo() async throws {
        let fixture = try SpeechFixture(text: "Stereo.")
        defer { fixture.remove() }
        let library = try VoiceNoteLibrary(directory: fixture.notesFolder)
        let settings = VoiceNoteSettings(sampleRate: 16_000, channels: 2, format: .wav)
        let recorder = VoiceNoteRecorder(library: library, settings: settings, device: fixture.sink.monitor)
        try recorder.start(seconds: 1.5)
        let paplay = try fixture.playSpeech()
        let note = try await recorder.finished()
        paplay.waitUntilExit()
        #expect(note.fileName.hasSuffix(".wav") && note.format == .wav)
        let audio = try AudioDecoder.decode(fileAt: note.path)
        #expect(audio.sampleRate == 16_000 && audio.channels == 2 && audio.frameCount == 24_000)
        #expect(AudioAnalysis.decibels(AudioAnalysis.rms(audio)) > -40, "the speech is in it")

        // A recording that ended by itself needs no stop() before the next one.
        try recorder.start(seconds: 0.25)
        let second = try await recorder.finished()
        #expect(second.fileName != note.fileName)
        #expect(try AudioDecoder.decode(fileAt: second.path).frameCount == 4_000)
    }

    @Test("stop() ends a recording early, keeping what was captured up to then")
    func stopEarly() throws {
        let fixture = try SpeechFixture(text: "Stop.")
        defer { fixture.remove() }
        let library = try VoiceNoteLibrary(directory: fixture.notesFolder)
        let recorder = VoiceNoteRecorder(library: library, device: fixture.sink.monitor)
        try recorder.start()
        #expect(throws: VoiceNoteError.self) { try recorder.start() }
        try waitForInput(recorder)
        Thread.sleep(forTimeInterval: 1.5)
        let elapsed = recorder.elapsed
        let note = try recorder.stop()
        #expect(!recorder.isRecording)
        print("measure: stopped after \(fmt(elapsed)) s counted, note \(fmt(note.duration)) s")
        #expect(note.duration >= elapsed && note.duration < elapsed + 0.5)
        #expect(note.duration > 1.0)
        #expect(throws: VoiceNoteError.self) { try recorder.stop() }
    }

    @Test("a missing device and a vanished folder are errors naming them")
    func openingErrors() throws {
        let fixture = try SpeechFixture(text: "Error.")
        defer { fixture.remove() }
        let library = try VoiceNoteLibrary(directory: fixture.notesFolder)
        let missing = VoiceNoteRecorder(library: library, device: "No Such Microphone")
        let deviceError = #expect(throws: VoiceNoteError.self) { try missing.start() }
        #expect(deviceError?.description.contains("No Such Microphone") == true)
        #expect(!missing.isRecording)

        try FileManager.default.removeItem(atPath: fixture.notesFolder)
        let recorder = VoiceNoteRecorder(library: library, device: fixture.sink.monitor)
        let fileError = #expect(throws: VoiceNoteError.self) { try recorder.start() }
        #expect(fileError?.description.contains(fixture.notesFolder) == true)
        #expect(!recorder.isRecording)
    }

    @Test(
        "killing the recording process leaves a note that opens and holds all but the last second",
        .enabled(if: BuiltTool.isBuilt, "build the voicenote executable first (`swift build`)"))
    func killedMidway() throws {
        let fixture = try SpeechFixture(text: Self.sentence + " " + Self.sentence)
        defer { fixture.remove() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BuiltTool.voicenote)
        process.arguments = [
            "record", "--seconds", "30", "--dir", fixture.notesFolder, "--device", fixture.sink.monitor,
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

        // The first line says the device and the file are open and samples are flowing.
        var text = ""
        while !text.contains("\n") {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
        }
        try #require(text.hasPrefix("recording "), "voicenote record said: \(text)")
        let started = ContinuousClock.now
        let paplay = try fixture.playSpeech()
        Thread.sleep(forTimeInterval: 3)
        kill(process.processIdentifier, SIGKILL)
        let elapsed = ContinuousClock.now - started
        process.waitUntilExit()
        paplay.terminate()
        #expect(process.terminationReason == .uncaughtSignal)

        let parts = try FileManager.default.contentsOfDirectory(atPath: fixture.notesFolder)
        #expect(parts.count == 1 && parts[0].hasSuffix(".ogg.part"), "left behind: \(parts)")
        let library = try VoiceNoteLibrary(directory: fixture.notesFolder)
        #expect(library.repairs.map(\.outcome) == [.recovered])
        let note = try #require(library.notes.first)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        let audio = try AudioDecoder.decode(fileAt: note.path)
        print(
            "measure: killed after \(fmt(seconds)) s; repaired note \(fmt(note.duration)) s "
                + "(lost \(fmt(seconds - note.duration)) s); \(library.repairs[0])")
        #expect(note.duration >= seconds - 1, "kept \(note.duration) s of \(seconds) s")
        #expect(note.duration <= seconds + 0.2)
        #expect(abs(audio.duration.inSeconds - note.duration) < 0.001)
        #expect(
            AudioAnalysis.envelope(audio).map(AudioAnalysis.decibels).max() ?? -140 > -30,
            "the speech is in it")
    }
}

/// Waits until the device delivers samples (PulseAudio may take two seconds to start a stream).
private func waitForInput(_ recorder: VoiceNoteRecorder) throws {
    let deadline = ContinuousClock.now + .seconds(8)
    while !recorder.status.inputStarted && recorder.isRecording && ContinuousClock.now < deadline {
        Thread.sleep(forTimeInterval: 0.005)
    }
    try #require(recorder.status.inputStarted, "the device delivered no samples")
}

private func fmt(_ value: Double) -> String { String(format: "%.2f", value) }

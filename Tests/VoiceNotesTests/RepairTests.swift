import Foundation
import SoundStation
import SoundStationTesting
import Testing

@testable import VoiceNotes

@Suite("Unfinished recordings are repaired when the library opens")
struct RepairTests {
    /// An Ogg recording as a crash leaves it: flushed but never finished, then cut inside a page.
    private func crashedOgg(in folder: TestFolder, name: String, seconds: Double) throws -> (
        path: String, flushed: Int
    ) {
        let path = folder.file(name)
        let encoder = try VorbisEncoder(path: path, sampleRate: 12_000, channels: 1, quality: 0.6)
        let samples = Tone.sine(frequency: 330, seconds: seconds, rate: 12_000, amplitude: 0.5)
        try encoder.write(samples)
        try encoder.flush()
        // More audio whose pages are cut part-way, as when the process dies mid-write.
        try encoder.write(Tone.sine(frequency: 330, seconds: 1, rate: 12_000, amplitude: 0.5))
        try encoder.flush()
        let flushedBytes = try folder.read(path)
        let cut = flushedBytes.count - 100
        try folder.write(Array(flushedBytes.prefix(cut)), to: path)
        return (path, samples.count)
    }

    @Test("a crashed Ogg recording becomes a complete note holding the flushed audio")
    func oggRecovered() throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let (path, flushed) = try crashedOgg(in: folder, name: "recording-100.ogg.part", seconds: 2)
        let before = try folder.read(path)
        #expect(OggPageScan.scan(before).intactLength < before.count)

        let library = try VoiceNoteLibrary(directory: folder.path)
        let report = try #require(library.repairs.first)
        #expect(report.outcome == .recovered)
        #expect(report.keptAs == "recording-100.ogg")
        #expect(report.description.contains("recording-100.ogg.part"))
        #expect(!FileManager.default.fileExists(atPath: path))

        let note = try library.note(named: "recording-100")
        let audio = try AudioDecoder.decode(fileAt: note.path)
        // Everything flushed before the cut survives, less at most one Vorbis block of look-ahead.
        #expect(audio.frameCount >= flushed - 2_048, "kept \(audio.frameCount) of \(flushed) frames")
        #expect(abs(note.duration.inSeconds - Double(audio.frameCount) / 12_000) < 0.001)
        #expect(
            abs(
                AudioAnalysis.decibels(AudioAnalysis.rms(audio))
                    - AudioAnalysis.decibels(0.5 / 2.squareRoot())) < 1)
        // The repaired file is a closed stream: intact to its last byte, its last page marked as the end.
        let repaired = try folder.read(note.path)
        let scan = OggPageScan.scan(repaired)
        #expect(scan.intactLength == repaired.count && scan.lastPageEndsStream)
        if let ogginfo = try? PulseTools.run("ogginfo", [note.path]), ogginfo.output.contains("Vorbis") {
            #expect(ogginfo.status == 0, "\(ogginfo.output)")
        }

        // Reported once: opening again finds nothing to repair.
        #expect(try library.refresh().isEmpty)
    }

    @Test("a finished file is left byte for byte as it was by the page scan")
    func completeFileUntouched() throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let path = try folder.writeNote("done.ogg", seconds: 1)
        let bytes = try folder.read(path)
        let scan = OggPageScan.scan(bytes)
        #expect(scan.intactLength == bytes.count)
        #expect(scan.lastPageEndsStream)
        var corrupted = bytes
        corrupted[bytes.count - 10] ^= 0xFF
        #expect(OggPageScan.scan(corrupted).intactLength < bytes.count, "a bad checksum ends the intact part")
    }

    @Test("a recording that holds only headers is removed and reported")
    func emptyRemoved() throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let path = folder.file("recording-200.ogg.part")
        let encoder = try VorbisEncoder(path: path, sampleRate: 12_000, channels: 1, quality: 0.6)
        try encoder.flush()
        let library = try VoiceNoteLibrary(directory: folder.path)
        #expect(library.repairs.map(\.outcome) == [.removedEmpty])
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(library.notes.isEmpty)
    }

    @Test("garbage is set aside as .damaged and reported once, never deleted")
    func garbageSetAside() throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        try folder.write(Array(repeating: 0x41, count: 5_000), to: folder.file("recording-300.ogg.part"))
        let library = try VoiceNoteLibrary(directory: folder.path)
        let report = try #require(library.repairs.first)
        guard case .unrecoverable = report.outcome else {
            Issue.record("expected unrecoverable, got \(report)")
            return
        }
        #expect(report.keptAs == "recording-300.ogg.damaged")
        #expect(FileManager.default.fileExists(atPath: folder.file("recording-300.ogg.damaged")))
        #expect(try library.refresh().isEmpty)
    }

    @Test("a WAV recording gets its header sizes from the data on disk, in whole frames")
    func wavRecovered() throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let settings = VoiceNoteSettings(sampleRate: 16_000, channels: 2, format: .wav)
        let path = folder.file("recording-400.wav.part")
        #expect(try RawFile.createEmpty(path))
        let writer = try WAVNoteWriter(path: path, settings: settings)
        let frames = 8_000
        try writer.write(
            Tone.sine(frequency: 500, seconds: Double(frames * 2) / 16_000, rate: 16_000, amplitude: 0.5))
        // No flush: the header still says 0 bytes of data. Append half a frame, as a torn write would.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([1, 2]))
        try handle.close()

        let library = try VoiceNoteLibrary(directory: folder.path)
        #expect(library.repairs.map(\.outcome) == [.recovered])
        let note = try library.note(named: "recording-400")
        #expect(note.format == .wav && note.sampleRate == 16_000 && note.channels == 2)
        let audio = try AudioDecoder.decode(fileAt: note.path)
        #expect(audio.frameCount == frames)
    }

    @Test("a recording whose lock is held (still being recorded) is left alone")
    func lockedLeftAlone() throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let (path, _) = try crashedOgg(in: folder, name: "recording-500.ogg.part", seconds: 1)
        var lock = PartFileLock(path: path)
        #expect(lock != nil)
        let library = try VoiceNoteLibrary(directory: folder.path)
        #expect(library.repairs.isEmpty)
        #expect(FileManager.default.fileExists(atPath: path))
        lock = nil
        // Another test's child process, started while the lock was taken, shares its descriptor
        // until the child runs its program, and with it the lock (`PartFileLock`): a refresh in
        // that instant leaves the file, as for any holder, and the next one repairs it.
        var outcomes: [RepairReport.Outcome] = []
        var refreshes = 0
        let deadline = ContinuousClock.now + .seconds(10)
        while outcomes.isEmpty && ContinuousClock.now < deadline {
            if refreshes > 0 { usleep(1_000) }
            outcomes = try library.refresh().map(\.outcome)
            refreshes += 1
        }
        #expect(outcomes == [.recovered], "after \(refreshes) refreshes in 10 s")
    }

    @Test("a recovered note never replaces a finished note of the same name")
    func recoveredBesideExisting() throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        try folder.writeNote("recording-600.ogg")
        _ = try crashedOgg(in: folder, name: "recording-600.ogg.part", seconds: 1)
        let library = try VoiceNoteLibrary(directory: folder.path)
        #expect(library.repairs.first?.keptAs == "recording-600-recovered.ogg")
        #expect(Set(library.notes.map(\.name)) == ["recording-600", "recording-600-recovered"])
    }
}

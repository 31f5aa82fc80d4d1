import Glibc
import SoundStation

/// Turns an unfinished recording (`NAME.ogg.part`, `NAME.wav.part`) into a complete note in place.
///
/// In place because the usual reason a recording is unfinished may be a full disk: cutting the torn
/// tail and patching a few header bytes needs no free space, where re-encoding would.
enum NoteRepair {
    /// Repairs `partPath` and renames it to `finalPath`; never throws, every outcome is a report.
    /// The caller holds the file's lock.
    static func repair(partPath: String, finalPath: String, format: VoiceNoteFormat) -> RepairReport {
        let file = PathText.lastComponent(partPath)
        do throws(RepairFailure) {
            switch format {
            case .oggVorbis: try closeOggStream(at: partPath)
            case .wav: try fixWAVSizes(at: partPath)
            }
            let info: AudioFileInfo
            do {
                info = try AudioDecoder.info(ofFileAt: partPath)
                // Decoding everything proves each page is playable, not just the headers.
                _ = try AudioDecoder.decode(fileAt: partPath)
            } catch {
                throw RepairFailure(reason: error.description)
            }
            guard info.frameCount > 0 else {
                try? FileSystem.remove(partPath)
                return RepairReport(file: file, keptAs: nil, kept: .zero, outcome: .removedEmpty)
            }
            try move(partPath, to: finalPath)
            return RepairReport(
                file: file, keptAs: PathText.lastComponent(finalPath),
                kept: info.duration,
                outcome: .recovered)
        } catch {
            return setAside(partPath, file: file, reason: error.reason)
        }
    }

    /// Cuts the file after its last intact page and marks that page as the stream's end.
    private static func closeOggStream(at path: String) throws(RepairFailure) {
        let bytes = try read(path)
        let scan = OggPageScan.scan(bytes)
        guard let last = scan.lastPageOffset else {
            throw RepairFailure(reason: "not one intact Ogg page was written")
        }
        guard scan.intactLength != bytes.count || !scan.lastPageEndsStream else { return }
        let intact = Array(bytes[..<scan.intactLength])
        guard let patch = OggPageScan.closingPatch(intact, page: last) else {
            throw RepairFailure(reason: "the last Ogg page cannot be rewritten")
        }
        try update(path) { file throws(RawFileError) in
            try file.truncate(to: scan.intactLength)
            try file.write([patch.flags], at: last + 5)
            try file.write(patch.checksum, at: last + 22)
        }
    }

    /// Sets the RIFF and data sizes from the bytes actually on disk, in whole frames.
    private static func fixWAVSizes(at path: String) throws(RepairFailure) {
        let bytes = try read(path)
        let header = WAVNoteWriter.headerSize
        guard bytes.count >= header, Array(bytes[0..<4]) == Array("RIFF".utf8),
            Array(bytes[8..<16]) == Array("WAVEfmt ".utf8), Array(bytes[36..<40]) == Array("data".utf8)
        else {
            throw RepairFailure(reason: "its WAV header is missing or not the recorder's")
        }
        let blockAlign = max(1, Int(bytes[32]) | Int(bytes[33]) << 8)
        let dataBytes = (bytes.count - header) / blockAlign * blockAlign
        try update(path) { file throws(RawFileError) in
            try file.truncate(to: header + dataBytes)
            try WAVHeaderPatch.apply(dataBytes: dataBytes, to: file)
        }
    }

    private static func read(_ path: String) throws(RepairFailure) -> [UInt8] {
        guard let bytes = FileSystem.read(path) else {
            throw RepairFailure(reason: "it cannot be read")
        }
        return bytes
    }

    private static func update(_ path: String, _ body: (RawFile) throws(RawFileError) -> Void)
        throws(RepairFailure)
    {
        do {
            let file = try RawFile(updating: path)
            try body(file)
            try file.sync()
            try file.close()
        } catch let error as RawFileError {
            throw RepairFailure(reason: error.reason)
        } catch {
            throw RepairFailure(reason: "\(error)")
        }
    }

    private static func move(_ source: String, to destination: String) throws(RepairFailure) {
        guard rename(source, destination) == 0 else {
            throw RepairFailure(reason: "renaming it failed: \(RawFile.systemError())")
        }
    }

    /// Keeps an unreadable recording out of the way under `.damaged`, so it is reported once, not at
    /// every open, and nothing is deleted that a person might still rescue.
    private static func setAside(_ path: String, file: String, reason: String) -> RepairReport {
        let damaged = path.replacingSuffix(".part", with: ".damaged")
        let keptAs = rename(path, damaged) == 0 ? PathText.lastComponent(damaged) : file
        return RepairReport(
            file: file, keptAs: keptAs, kept: .zero, outcome: .unrecoverable(reason: reason))
    }
}

/// Why a repair step failed, in words for the report.
struct RepairFailure: Error {
    let reason: String
}

extension String {
    fileprivate func replacingSuffix(_ suffix: String, with replacement: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) + replacement : self + replacement
    }
}

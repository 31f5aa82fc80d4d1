import Glibc
import SoundStation

/// What the recorder and the repair need from a library: new files, finished notes, salvaged ones.
extension VoiceNoteLibrary {
    /// Creates and locks a new `recording-<unix time>.EXT.part`, with a suffix when that name is taken.
    func reserveNewNote(format: VoiceNoteFormat, date: VoiceNoteDate = .now) throws(VoiceNoteError)
        -> NoteReservation
    {
        let stem = "recording-\(Int(date.timeIntervalSince1970))"
        for attempt in 1...1_000 {
            let name = attempt == 1 ? stem : "\(stem)-\(attempt)"
            let finalPath = path(of: "\(name).\(format.fileExtension)")
            if FileSystem.exists(finalPath) { continue }
            let partPath = finalPath + ".part"
            guard try RawFile.createEmpty(partPath), let lock = PartFileLock(path: partPath) else { continue }
            return NoteReservation(
                name: name, partPath: partPath, finalPath: finalPath, format: format, lock: lock)
        }
        throw .cannotCreateFile(path: path(of: stem), reason: "a thousand notes already have that name")
    }

    /// Moves a finished recording to its final name and adds it to ``notes``.
    func adopt(_ reservation: NoteReservation) throws(VoiceNoteError) -> VoiceNote {
        guard Glibc.rename(reservation.partPath, reservation.finalPath) == 0 else {
            throw .fileOperationFailed(
                path: reservation.partPath, operation: "finish", reason: RawFile.systemError())
        }
        let note = try VoiceNote(path: reservation.finalPath)
        insert(note)
        return note
    }

    /// Keeps what a failed recording wrote, repairing it in place, and adds it to ``notes``.
    func salvage(_ reservation: NoteReservation) throws(VoiceNoteError) -> RepairReport {
        let report = NoteRepair.repair(
            partPath: reservation.partPath, finalPath: reservation.finalPath, format: reservation.format)
        if case .recovered = report.outcome {
            insert(try VoiceNote(path: reservation.finalPath))
        }
        return report
    }

    /// Repairs `NAME.EXT.part` unless a recorder still holds it.
    func repairUnfinished(_ fileName: String) -> RepairReport? {
        let stem = String(fileName.dropLast(".part".count))
        let (base, format) = NoteName.split(stem)
        guard let format else { return nil }
        let partPath = path(of: fileName)
        guard let lock = PartFileLock(path: partPath) else { return nil }
        defer { withExtendedLifetime(lock) {} }
        var finalPath = path(of: stem)
        var attempt = 2
        while FileSystem.exists(finalPath) {
            finalPath = path(
                of: "\(base)-recovered\(attempt == 2 ? "" : "-\(attempt)").\(format.fileExtension)")
            attempt += 1
        }
        return NoteRepair.repair(partPath: partPath, finalPath: finalPath, format: format)
    }
}

/// A new note's file, created empty and locked, waiting for the recorder to write it.
struct NoteReservation {
    let name: String
    let partPath: String
    let finalPath: String
    let format: VoiceNoteFormat
    /// Held until the note is finished, so ``VoiceNoteLibrary/refresh()`` leaves the file alone.
    let lock: PartFileLock
}

/// The rules for note names given by people or scripts: a plain file name that stays in the folder.
enum NoteName {
    /// Longest accepted name in UTF-8 bytes, leaving room for an extension and `.part` within the
    /// usual 255-byte file-name limit.
    static let maxBytes = 200

    /// Checks a name before it is joined to the folder's path.
    /// - Parameter name: A note name, with or without its extension.
    /// - Throws: ``VoiceNoteError/invalidName(_:reason:)`` saying what is wrong with it.
    static func validate(_ name: String) throws(VoiceNoteError) {
        if name.isEmpty {
            throw .invalidName(name, reason: "it is empty")
        }
        if name.contains("/") {
            throw .invalidName(name, reason: "it contains '/', which would reach outside the notes folder")
        }
        if name.contains("..") {
            throw .invalidName(name, reason: "it contains '..', which could reach outside the notes folder")
        }
        if name.hasPrefix(".") {
            throw .invalidName(name, reason: "it starts with '.', which hides the file")
        }
        if name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            throw .invalidName(name, reason: "it contains control characters")
        }
        if name.utf8.count > maxBytes {
            throw .invalidName(name, reason: "it is longer than \(maxBytes) bytes")
        }
        if name.hasSuffix(".part") || name.hasSuffix(".damaged") {
            throw .invalidName(name, reason: "'.part' and '.damaged' mark unfinished recordings")
        }
    }

    /// Splits `meeting.ogg` into `meeting` and its format; a name without a note extension is all base.
    static func split(_ name: String) -> (base: String, format: VoiceNoteFormat?) {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex,
            let format = VoiceNoteFormat(fileExtension: String(name[name.index(after: dot)...]))
        else {
            return (name, nil)
        }
        return (String(name[..<dot]), format)
    }
}

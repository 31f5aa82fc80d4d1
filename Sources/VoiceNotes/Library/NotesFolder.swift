import Glibc
import SoundStation

/// Creating and checking a notes folder.
enum NotesFolder {
    /// Creates the folder private to its owner, or checks that an existing one is usable.
    static func prepare(_ directory: String) throws(VoiceNoteError) {
        if let isDirectory = FileSystem.isDirectory(directory) {
            guard isDirectory else {
                throw .folderUnavailable(path: directory, reason: "a file of that name is in the way")
            }
        } else {
            do {
                try FileSystem.createDirectory(directory, mode: 0o700)
            } catch {
                throw .folderUnavailable(path: directory, reason: Self.creationFailure(directory))
            }
            // The umask could have narrowed the mode, never widened it; set it exactly anyway.
            chmod(directory, 0o700)
        }
        guard Glibc.access(directory, W_OK | X_OK) == 0 else {
            throw .folderUnavailable(path: directory, reason: "it is not writable (\(RawFile.systemError()))")
        }
    }

    /// Names the ancestor that stopped the folder being created, which is rarely the folder itself.
    private static func creationFailure(_ directory: String) -> String {
        var ancestor = PathText.deletingLastComponent(directory)
        while !ancestor.isEmpty, ancestor != "/", !FileSystem.exists(ancestor) {
            ancestor = PathText.deletingLastComponent(ancestor)
        }
        if FileSystem.isDirectory(ancestor) == false {
            return "'\(ancestor)' is a file, not a folder"
        }
        return "it could not be created inside '\(ancestor)'"
    }
}

import Foundation
import Synchronization

extension AudioEngine {
    /// Opens the session's terminal for ``AudioOutput/remote`` and taps the command path: every
    /// command the mixing side carries out goes to the player's side with its engine-clock frame.
    /// - Throws: ``AudioEngineError/noPlaybackDevice(name:)`` when the process has no terminal.
    func openRemoteLink() throws(AudioEngineError) {
        let announcement =
            RemoteAnnouncement.from(environment: ProcessInfo.processInfo.environment) ?? RemoteAnnouncement()
        let link = try RemoteLink(
            announcement: announcement, sampleRate: sampleRate,
            clock: { [weak self] in self?.frameNow ?? 0 },
            name: { [weak self] id in self?.sounds.withLock { $0.name(of: id) } ?? "\(id)" })
        remoteLink.withLock { $0 = link }
        commandTap.withLock { $0 = { [weak link] command, frame in link?.forward(command, frame: frame) } }
    }

    /// Bytes a remote engine has written to the player so far (0 for other outputs).
    public var remoteBytesWritten: Int {
        remoteLink.withLock { $0 }?.bytesWritten.load(ordering: .relaxed) ?? 0
    }
}

import Synchronization

/// Whether an engine of this process holds the session to the player.
private let remoteClaimed = Atomic<Bool>(false)

extension AudioEngine {
    /// Opens the session's terminal (or the player's forwarded socket) for ``AudioOutput/remote`` and
    /// taps the command path: every command the mixing side carries out goes to the player's side
    /// with its engine-clock frame.
    /// - Throws: ``AudioEngineError/noPlaybackDevice(name:)`` when the process has no terminal, or
    ///   the socket does not answer.
    func openRemoteLink() throws(AudioEngineError) {
        // One engine per process speaks to the player: the stream has one clock and one set of sound
        // ids, and a second engine's would be mistaken for the first's.
        guard !remoteClaimed.exchange(true, ordering: .acquiringAndReleasing) else {
            throw .noPlaybackDevice(name: "remote (another engine of this process sends to the player)")
        }
        // `SOUNDSTATION_OUTPUT=remote` with no player found: frames on the terminal, as announced.
        let route =
            RemoteAnnouncement.route(environment: ProcessEnvironment.variables)
            ?? .terminal(RemoteAnnouncement())
        let link: RemoteLink
        do {
            link = try RemoteLink(
                route: route, sampleRate: sampleRate,
                clock: { [weak self] in self?.frameNow ?? 0 },
                name: { [weak self] id in self?.sounds.withLock { $0.name(of: id) } ?? "\(id)" })
        } catch {
            remoteClaimed.store(false, ordering: .releasing)
            throw error
        }
        remoteLink.withLock { $0 = link }
        commandTap.withLock { $0 = { [weak link] command, frame in link?.forward(command, frame: frame) } }
    }

    /// Closes the remote session, freeing the terminal for another engine of the process.
    func closeRemoteLink(timeout: Duration = .seconds(2)) {
        guard
            let link = remoteLink.withLock({ link in
                defer { link = nil }
                return link
            })
        else { return }
        link.close(timeout: timeout)
        remoteClaimed.store(false, ordering: .releasing)
    }

    /// Bytes a remote engine has written to the player so far (0 for other outputs).
    public var remoteBytesWritten: Int {
        remoteLink.withLock { $0 }?.bytesWritten.load(ordering: .relaxed) ?? 0
    }
}

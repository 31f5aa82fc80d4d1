import Glibc
import SoundStation
import StarfallCore

/// The game's sound for an interactive front end: the real device when there is one, silent output
/// with a notice when there is not, the catalogue, and the event mapping.
struct GameSound {
    /// Engine, catalogue, bank and stations.
    let system: SoundSystem
    /// The game's events turned into sound.
    let audio: GameAudio

    /// Opens the output chosen by `SOUNDSTATION_OUTPUT`/`SOUNDSTATION_DEVICE` (the default device
    /// otherwise) and reads the catalogue.
    /// - Parameters:
    ///   - assets: The assets folder from `--assets`, or nil to look in the usual places.
    ///   - notices: Where a missing device or an unknown setting is reported.
    /// - Throws: ``StartupError`` when the catalogue cannot be read or not even silent output opens.
    static func open(assets: String?, notices: NoticeBoard) throws(StartupError) -> GameSound {
        let catalogue: Catalogue
        do {
            // The environment was read already when no folder was given (locateDefault), and a given one is final.
            catalogue = try Catalogue(assetsRoot: assetsRoot(assets), environment: [:])
        } catch {
            throw .catalogue(error)
        }
        let output: AudioOutput
        do {
            output = try AudioOutput.fromEnvironment()
        } catch {
            notices.post("\(error.description) Using the default device.")
            output = .device()
        }
        let engine: AudioEngine
        do {
            engine = try AudioEngine.openWithFallback(output) { notices.post($0) }
        } catch {
            throw .engine(error)
        }
        let system = SoundSystem(engine: engine, catalogue: catalogue)
        let audio = GameAudio(sound: system, fieldWidth: Rules.standard.fieldWidth, echoLevel: 3) {
            notices.post($0)
        }
        return GameSound(system: system, audio: audio)
    }

    /// The assets folder: `explicit` when given, else where ``AssetLocation/locateDefault(environment:currentDirectory:executablePath:)``
    /// finds one.
    static func assetsRoot(_ explicit: String?) throws(CatalogueError) -> String {
        if let explicit { return explicit }
        return try AssetLocation.locateDefault()
    }

    /// Loads every sound before the menu appears, calling `show` as each one finishes so a front end
    /// can draw the loading screen; sounds that fail are reported and the game goes on without them.
    /// - Parameters:
    ///   - notices: Where failures are reported.
    ///   - show: Draws the progress; called on the main actor.
    /// - Returns: The loaded sounds, or nil when the preload was cancelled.
    @MainActor
    func preload(notices: NoticeBoard, show: (LoadingState) -> Void) async -> PreloadedSounds? {
        let (progress, task) = system.bank.preloadWithProgress()
        show(LoadingState(completed: 0, total: system.catalogue.entries.count, latest: nil))
        for await step in progress {
            show(LoadingState(completed: step.completed, total: step.total, latest: step.latest))
        }
        guard let loaded = try? await task.value else { return nil }
        for warning in loaded.warnings { notices.post(warning.description) }
        if !loaded.failures.isEmpty {
            notices.post(
                SoundLoadError.someFailed(failures: loaded.failures).description
                    + "; the game goes on without them (make assets re-creates the demo's sounds)")
        }
        return loaded
    }

    /// Starts reloading edited assets (`--watch-assets`), posting each reload, or what is wrong with an
    /// edit, as a notice.
    /// - Parameter notices: Where the reports go.
    /// - Returns: The running watch, or nil when the kernel refused it (which is posted too).
    func watchAssets(notices: NoticeBoard) -> AssetWatch? {
        system.engine.onEvent { event in
            if let line = event.reloadMessage { notices.post(line) }
        }
        do {
            return try system.bank.watch()
        } catch {
            notices.post(error.description)
            return nil
        }
    }
}

import Foundation
import SoundStationTesting
import Testing

@testable import SoundStation
@testable import SoundStationPlayer

/// A MIDI song whose catalogue names a SoundFont, played over a remote link: the song and the
/// SoundFont go to the player as files cached by hash, and the player renders the song through it.
@Suite(.enabled(if: (try? SoundFonts.find(named: nil, for: "")) != nil, "needs timgm6mb-soundfont"))
struct RemoteSongTests {
    @Test func aMIDISongAndItsSoundFontTravelAndThePlayerRendersThem() async throws {
        let assets = try TestAssets()
        try FileManager.default.createDirectory(
            atPath: "\(assets.root)/Fonts", withIntermediateDirectories: true)
        // The system's General MIDI SoundFont, copied into the assets as a game would ship its own.
        let system = try SoundFonts.find(named: nil, for: "")
        try Data(contentsOf: URL(fileURLWithPath: system)).write(
            to: URL(fileURLWithPath: "\(assets.root)/Fonts/gm.sf2"))
        try Data(SongFixture.midi()).write(to: URL(fileURLWithPath: "\(assets.root)/song.mid"))
        assets.add(
            "tune", file: "song.mid", kind: "music", extra: "\"soundfont\": \"Fonts/gm.sf2\", \"loop\": false"
        )
        let server = try await assets.system()
        #expect(server.catalogue["tune"]?.resolvedSoundFont == "\(assets.root)/Fonts/gm.sf2")

        let (manifest, files) = try #require(
            RemoteLink.rewrite(root: server.catalogue.root, entries: server.catalogue.entries))
        #expect(files.count == 2)
        let text = String(decoding: manifest, as: UTF8.self)
        let fontHash = try #require(files.first { $0.path.hasSuffix("gm.sf2") }).hash
        #expect(text.contains("\"soundfont\":\"\(fontHash.hex).sf2\""), "\(text)")

        let side = try RemoteTestPlayer()
        defer { side.close() }
        try await side.open(server.catalogue)
        #expect(side.player.report.filesReceived == 2)
        #expect(Set(side.cache.entries().map(\.ext)) == ["mid", "sf2"])

        let sent = server.engine.recordCommands()
        try server.music.play("tune")
        _ = try server.engine.render(frames: 48_000)
        try await side.send(sent.withLock { $0 }, naming: [(try server.bank.id(of: "tune"), "tune")])
        let mix = try side.engine.render(frames: 96_000)
        // The first note 100 ms in (the delay), the second 0.5 s after it.
        let first = try #require(AudioAnalysis.onset(mix, threshold: 0.01))
        #expect(abs(first - 4_800) <= 480, "the song starts at frame \(first)")
        #expect(AudioAnalysis.rms(mix, frames: 28_800 + 2_400..<28_800 + 12_000) > 0.005)
    }
}

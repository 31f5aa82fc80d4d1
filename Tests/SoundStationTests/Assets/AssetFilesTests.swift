import SoundStationTesting
import Testing

@testable import SoundStation

/// Checks the committed, generated `Assets/` folder the demo game ships with: that it loads,
/// decodes, has sane lengths and levels, and that the music loops without a click.
@Suite struct AssetsFolderTests {
    @Test func catalogueLoadsWithEverySound() throws {
        let catalogue = try CommittedAssets.loadedCatalogue()
        #expect(catalogue.entries(ofKind: .music).map(\.name) == CommittedAssets.musicNames)
        #expect(catalogue.entries(ofKind: .effect).map(\.name) == CommittedAssets.effectNames)
        #expect(catalogue.entries(ofKind: .voice).isEmpty)
    }

    @Test func effectSettingsMatchTheirUse() throws {
        let catalogue = try CommittedAssets.loadedCatalogue()
        #expect(try catalogue.entry(named: "explosion").priority == 200)
        #expect(try catalogue.entry(named: "click").priority == 64)
        let coin = try catalogue.entry(named: "coin")
        #expect(coin.maxInstances == 6)
        #expect(coin.steal == .oldest)
        let hit = try catalogue.entry(named: "hit")
        #expect(hit.maxInstances == 3)
        #expect(hit.steal == .quietest)
        let tick = try catalogue.entry(named: "bomb-tick")
        #expect(tick.maxInstances == 1)
        #expect(tick.steal == .refuse)
        for name in CommittedAssets.effectNames {
            let entry = try catalogue.entry(named: name)
            #expect(entry.loop == false, "\(name)")
            #expect(entry.stream == false, "\(name)")
            #expect(entry.path.hasPrefix("Effects/"), "\(name)")
        }
    }

    @Test(arguments: CommittedAssets.musicNames + CommittedAssets.effectNames)
    func everyFileDecodesAt48kHz(name: String) throws {
        let audio = try CommittedAssets.audio(name)
        #expect(audio.sampleRate == 48_000)
        #expect(audio.frameCount > 0)
    }

    @Test(arguments: CommittedAssets.musicNames)
    func musicIsStereoAndLong(name: String) throws {
        let audio = try CommittedAssets.audio(name)
        #expect(audio.channels == 2)
        #expect((20.0...40.0).contains(audio.duration.inSeconds), "\(name) lasts \(audio.duration) s")
        let entry = try CommittedAssets.loadedCatalogue().entry(named: name)
        #expect(entry.loop)
        #expect(entry.path.hasPrefix("Music/"))
    }

    @Test(arguments: CommittedAssets.effectNames)
    func effectsAreMonoAndShort(name: String) throws {
        let audio = try CommittedAssets.audio(name)
        #expect(audio.channels == 1)
        #expect((0.03...2.0).contains(audio.duration.inSeconds), "\(name) lasts \(audio.duration) s")
    }

    @Test(arguments: CommittedAssets.musicNames + CommittedAssets.effectNames)
    func peaksSitNearMinus3dBFSWithoutClipping(name: String) throws {
        // A layered track is normalised as a whole: its file and its stems together.
        var audio = try CommittedAssets.audio(name)
        for stem in try CommittedAssets.loadedCatalogue().entry(named: name).stems {
            let layer = try AudioDecoder.decode(fileAt: stem.resolvedPath)
            #expect(layer.samples.count == audio.samples.count, "\(stem.path) differs in length")
            let sum = zip(audio.samples, layer.samples).map { $0 + $1 }
            audio = PCMAudio(sampleRate: audio.sampleRate, channels: audio.channels, samples: sum)
        }
        let peak = AudioAnalysis.peak(audio)
        #expect(peak < 1, "\(name) peaks at \(peak)")
        // -3 dBFS is 0.708; Vorbis may move peaks by a few percent either way.
        #expect(peak > 0.6, "\(name) peaks at \(peak)")
    }

    @Test(arguments: CommittedAssets.effectNames)
    func effectsStartAtOnceAndEndInSilence(name: String) throws {
        let samples = try CommittedAssets.audio(name).samples
        let firstMillisecond = samples.prefix(48)
        #expect(firstMillisecond.contains { abs($0) > 1e-4 }, "\(name) is silent for its first millisecond")
        let lastMillisecond = samples.suffix(48).map(abs).max() ?? 0
        #expect(lastMillisecond < 0.01, "\(name) ends at level \(lastMillisecond)")
    }

    @Test func mainLoopsAsAWholeWithoutAClick() throws {
        let entry = try CommittedAssets.loadedCatalogue().entry(named: "main")
        #expect(entry.loopStart == nil)
        #expect(entry.loopEnd == nil)
        let audio = try CommittedAssets.audio("main")
        let seam = SeamMeasure(audio, loopStart: 0, loopEnd: audio.frameCount)
        #expect(seam.seamJump <= seam.largestInsideJump, "\(seam)")
    }

    @Test func gameLoopsFromLoopStartWithoutAClick() throws {
        let entry = try CommittedAssets.loadedCatalogue().entry(named: "game")
        let audio = try CommittedAssets.audio("game")
        let start = try #require(entry.loopStart).frame(atSampleRate: audio.sampleRate)
        let end = try #require(entry.loopEnd).frame(atSampleRate: audio.sampleRate)
        #expect(start > 0)
        #expect(end == audio.frameCount)
        #expect(
            Double(start) / Double(audio.sampleRate) < 10, "the intro should be short, not most of the track")
        let seam = SeamMeasure(audio, loopStart: start, loopEnd: end)
        #expect(seam.seamJump <= seam.largestInsideJump, "\(seam)")
    }
}

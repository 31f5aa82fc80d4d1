import Foundation
import SoundStationTesting
import Testing

@testable import SoundStation

/// The decoded-PCM cache: what it reads back is what decoding gives, and a changed file, a damaged
/// entry or a full folder never plays wrong samples.
@Suite struct PCMCacheTests {
    /// A cache in a folder of its own, removed with the assets.
    private static func cache(in assets: TestAssets, byteLimit: Int = PCMCache.defaultByteLimit) -> PCMCache {
        PCMCache(directory: assets.root + "/cache", byteLimit: byteLimit)
    }

    private static func entries(_ cache: PCMCache) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: cache.directory)) ?? []).filter {
            $0.hasSuffix(".pcm")
        }.sorted()
    }

    @Test("XXH64 gives the reference values")
    func xxh64ReferenceValues() {
        #expect(XXHash64.xxh64("") == 0xEF46_DB37_51D8_E999)
        #expect(XXHash64.xxh64("abc") == 0x44BC_2CF5_AD77_0999)
        #expect((0..<100).map(UInt8.init).withUnsafeBytes { XXHash64.xxh64($0) } == 0x6AC1_E580_3216_6597)
        #expect(
            (0..<37).map(UInt8.init).withUnsafeBytes { XXHash64.xxh64($0, seed: 7) }
                == 0x69E0_C889_396A_FAF7)
    }

    @Test("an Ogg file decodes once; the second load reads the entry, and it is the same samples")
    func secondLoadReadsTheEntry() throws {
        let assets = try TestAssets()
        try assets.addOgg("song", Signals.sine(frequency: 330, seconds: 1, sampleRate: 44_100))
        let path = assets.root + "/song.ogg"
        let cache = Self.cache(in: assets)
        let decoded = try AudioDecoder.decode(fileAt: path)

        let first = try cache.decode(fileAt: path)
        #expect(first == decoded)
        #expect(Self.entries(cache).count == 1)
        let second = try cache.decode(fileAt: path)
        #expect(second == decoded)

        // The entry is what is read: one holding other (valid) samples under the file's key is played.
        let name = try #require(Self.entries(cache).first)
        let key = try #require(Self.key(fromFileName: name))
        let other = PCMAudio(sampleRate: 44_100, channels: 1, samples: [Float](repeating: 0.25, count: 100))
        cache.write(other, key)
        #expect(try cache.decode(fileAt: path) == other)
    }

    @Test("a damaged, cut or foreign entry is deleted and the file decoded again")
    func damagedEntriesFallBackToDecoding() throws {
        let assets = try TestAssets()
        try assets.addOgg("song", Signals.sine(frequency: 440, seconds: 0.5, sampleRate: 48_000))
        let path = assets.root + "/song.ogg"
        let cache = Self.cache(in: assets)
        let decoded = try AudioDecoder.decode(fileAt: path)
        _ = try cache.decode(fileAt: path)
        let entry = cache.directory + "/" + (try #require(Self.entries(cache).first))
        let intact = try Data(contentsOf: URL(fileURLWithPath: entry))

        var flipped = intact
        flipped[PCMCache.headerBytes + 1_000] ^= 0x40  // one bit of one sample
        let damages: [(String, Data)] = [
            ("a flipped bit in the samples", flipped),
            ("cut short", intact.prefix(intact.count / 2)),
            ("only a header", intact.prefix(PCMCache.headerBytes)),
            ("empty", Data()),
            ("not an entry", Data("hello".utf8)),
        ]
        for (damage, bytes) in damages {
            try bytes.write(to: URL(fileURLWithPath: entry))
            #expect(try cache.decode(fileAt: path) == decoded, "\(damage)")
            // Written again whole by that decode.
            #expect(try Data(contentsOf: URL(fileURLWithPath: entry)) == intact, "\(damage)")
        }
    }

    @Test("an edited file is decoded afresh under a new entry")
    func editedFileIsANewEntry() throws {
        let assets = try TestAssets()
        let path = assets.root + "/song.ogg"
        try assets.addOgg("song", Signals.sine(frequency: 440, seconds: 0.5, sampleRate: 48_000))
        let cache = Self.cache(in: assets)
        let before = try cache.decode(fileAt: path)
        try assets.addOgg("song", Signals.sine(frequency: 880, seconds: 0.75, sampleRate: 48_000))
        let after = try cache.decode(fileAt: path)
        #expect(after == (try AudioDecoder.decode(fileAt: path)))
        #expect(after.frameCount != before.frameCount)
        #expect(Self.entries(cache).count == 2)
    }

    @Test("the options that shape the samples are part of the entry's name")
    func optionsAreInTheKey() throws {
        let assets = try TestAssets()
        try assets.addOgg("song", Signals.sine(frequency: 440, seconds: 0.5, sampleRate: 48_000))
        let cache = Self.cache(in: assets)
        _ = try cache.decode(fileAt: assets.root + "/song.ogg", options: DecodingOptions(channels: .downmix))
        _ = try cache.decode(fileAt: assets.root + "/song.ogg", options: DecodingOptions(channels: .firstTwo))
        #expect(Self.entries(cache).count == 2)
    }

    @Test("the folder stays within its limit: the entry read least recently goes first")
    func folderIsBounded() throws {
        let assets = try TestAssets()
        for (index, name) in ["a", "b", "c"].enumerated() {
            try assets.addOgg(
                name, Signals.sine(frequency: 300 + 100 * Double(index), seconds: 1, sampleRate: 48_000))
        }
        // Room for two one-second mono entries (192 kB each), not three.
        let cache = Self.cache(in: assets, byteLimit: 400_000)
        _ = try cache.decode(fileAt: assets.root + "/a.ogg")
        let aNames = Self.entries(cache)
        _ = try cache.decode(fileAt: assets.root + "/b.ogg")
        let names = Self.entries(cache)
        #expect(names.count == 2)
        // a is read again (a hit), so b is now the least recently read; its time is set in the past
        // so the order does not depend on the file system's timestamp resolution.
        let bName = try #require(names.first { !aNames.contains($0) })
        var old = [timespec(tv_sec: 1_000, tv_nsec: 0), timespec(tv_sec: 1_000, tv_nsec: 0)]
        utimensat(AT_FDCWD, cache.directory + "/" + bName, &old, 0)
        _ = try cache.decode(fileAt: assets.root + "/a.ogg")
        _ = try cache.decode(fileAt: assets.root + "/c.ogg")
        let left = Self.entries(cache)
        #expect(left.count == 2)
        #expect(!left.contains(bName))
        // A sound bigger than the whole limit is decoded but never written.
        let tiny = PCMCache(directory: assets.root + "/tiny", byteLimit: 1_000)
        #expect(
            try tiny.decode(fileAt: assets.root + "/a.ogg")
                == (try AudioDecoder.decode(fileAt: assets.root + "/a.ogg")))
        #expect(Self.entries(tiny).isEmpty)
    }

    @Test("another writer's entry on its way counts within the limit")
    func entriesBeingWrittenCount() throws {
        let assets = try TestAssets()
        try assets.addOgg("a", Signals.sine(frequency: 300, seconds: 1, sampleRate: 48_000))
        try assets.addOgg("b", Signals.sine(frequency: 400, seconds: 1, sampleRate: 48_000))
        let cache = Self.cache(in: assets, byteLimit: 400_000)
        _ = try cache.decode(fileAt: assets.root + "/a.ogg")
        // A writer in another process has 150 kB on its way: a second entry no longer fits beside a.
        try Data(count: 150_000).write(to: URL(fileURLWithPath: cache.directory + "/.tmp-1-2"))
        _ = try cache.decode(fileAt: assets.root + "/b.ogg")
        let names = try FileManager.default.contentsOfDirectory(atPath: cache.directory)
        let total = try names.reduce(0) { total, name in
            let size = try FileManager.default.attributesOfItem(atPath: cache.directory + "/" + name)[.size]
            return total + ((size as? Int) ?? 0)
        }
        #expect(Self.entries(cache).count == 1 && total <= 400_000)
    }

    @Test("WAV files are read as they are, and a file that warns is never cached")
    func plainPCMAndWarningsAreNotCached() throws {
        let assets = try TestAssets()
        try assets.addWAV("hit", Signals.sine(frequency: 440, seconds: 0.2))
        try assets.addOgg("song", Signals.sine(frequency: 440, seconds: 1, sampleRate: 48_000))
        let song = assets.root + "/song.ogg"
        let bytes = try Data(contentsOf: URL(fileURLWithPath: song))
        try bytes.prefix(bytes.count * 2 / 3).write(to: URL(fileURLWithPath: song))
        let cache = Self.cache(in: assets)
        _ = try cache.decode(fileAt: assets.root + "/hit.wav")
        #expect(Self.entries(cache).isEmpty)
        for _ in 0..<2 {
            let (options, collected) = DecodingOptions().collectingWarnings()
            _ = try cache.decode(fileAt: song, options: options)
            #expect(collected().count == 1)
        }
        #expect(Self.entries(cache).isEmpty)
    }

    @Test("a bank uses the cache it is given, and none when given nil")
    func bankUsesItsCache() throws {
        let assets = try TestAssets()
        try assets.addOgg(
            "song", Signals.sine(frequency: 440, seconds: 0.5, sampleRate: 48_000), kind: "effect")
        let engine = try AudioEngine(output: .offline())
        let cache = Self.cache(in: assets)
        let off = SoundBank(engine: engine, catalogue: try assets.catalogue(), pcmCache: nil)
        try off.load("song")
        #expect(Self.entries(cache).isEmpty)
        let on = SoundBank(engine: engine, catalogue: try assets.catalogue(), pcmCache: cache)
        try on.load("song")
        #expect(Self.entries(cache).count == 1)
        let again = SoundBank(engine: engine, catalogue: try assets.catalogue(), pcmCache: cache)
        try again.load("song")
        #expect(again.buffer(named: "song")?.frameCount == off.buffer(named: "song")?.frameCount)
    }

    @Test("the environment chooses the folder, or turns the cache off")
    func environment() {
        #expect(PCMCache.fromEnvironment(["HOME": "/home/p"])?.directory == "/home/p/.cache/soundstation/pcm")
        #expect(
            PCMCache.fromEnvironment(["HOME": "/home/p", "XDG_CACHE_HOME": "/c"])?.directory
                == "/c/soundstation/pcm")
        #expect(
            PCMCache.fromEnvironment(["HOME": "/home/p", "XDG_CACHE_HOME": "relative"])?.directory
                == "/home/p/.cache/soundstation/pcm")
        #expect(
            PCMCache.fromEnvironment(["HOME": "/home/p", "SOUNDSTATION_PCM_CACHE": "/x"])?.directory == "/x")
        for off in ["off", "OFF", "0", "no", "false"] {
            #expect(PCMCache.fromEnvironment(["HOME": "/home/p", "SOUNDSTATION_PCM_CACHE": off]) == nil)
        }
        #expect(PCMCache.fromEnvironment([:]) == nil)
    }

    private static func key(fromFileName name: String) -> PCMCache.Key? {
        let parts = name.dropLast(4).split(separator: "-").compactMap { UInt64($0, radix: 16) }
        guard parts.count == 3 else { return nil }
        return PCMCache.Key(source: parts[0], size: parts[1], options: parts[2])
    }
}

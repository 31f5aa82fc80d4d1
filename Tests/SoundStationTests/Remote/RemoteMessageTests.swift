import Testing

@testable import SoundStation

/// A remote session's messages read back exactly, and bytes no server writes are refused.
@Suite struct RemoteMessageTests {
    static let hash = ContentHash.of(Array("beep".utf8))
    static let messages: [RemoteMessage] = [
        .hello(sampleRate: 48_000, frame: 1234, session: 0xDEAD_BEEF),
        .command(
            .play(
                voice: VoiceHandle(ticket: 9), sound: SoundID(rawValue: 3), options: PlayOptions(),
                frame: 96_000), frame: 48_000),
        .command(.stopAll(bus: .music, fade: .seconds(1)), frame: 0),
        .clock(frame: 1 << 40),
        .catalogue(manifest: Array("{\"sounds\":[]}".utf8), files: [RemoteFile(hash: hash, size: 77)]),
        .soundName(SoundID(rawValue: 12), name: "laser"),
        .fileChunk(hash, size: 10, offset: 4, data: [1, 2, 3, 4, 5, 6]),
        .bye,
    ]

    @Test func roundTrips() throws {
        for message in Self.messages {
            #expect(try RemoteMessage(decoding: message.encoded()) == message)
        }
    }

    @Test func refusesEveryCutAndDamage() {
        for message in Self.messages {
            let bytes = message.encoded()
            for cut in 0..<bytes.count {
                #expect(throws: WireError.self) { try RemoteMessage(decoding: Array(bytes[..<cut])) }
            }
            #expect(throws: WireError.self) { try RemoteMessage(decoding: bytes + [0]) }
        }
        // A piece past its file's end, a negative frame, an unknown kind.
        var piece = WireWriter(kind: 105)
        piece.fixed(Self.hash.bytes)
        piece.i64(4)
        piece.i64(2)
        piece.blob([1, 2, 3])
        #expect(throws: WireError.self) { try RemoteMessage(decoding: piece.bytes) }
        var clock = WireWriter(kind: 102)
        clock.i64(-1)
        #expect(throws: WireError.self) { try RemoteMessage(decoding: clock.bytes) }
        #expect(throws: WireError.unknownKind(99)) { try RemoteMessage(decoding: [WireFormat.version, 99]) }
    }

    @Test func hashesMatchKnownDigests() {
        #expect(
            ContentHash.of([UInt8]()).hex
                == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            ContentHash.of(Array("abc".utf8)).hex
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let long = [UInt8](repeating: 0x61, count: 1_000_000)
        #expect(
            ContentHash.of(long).hex == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        #expect(ContentHash(hex: Self.hash.hex) == Self.hash)
        #expect(ContentHash(hex: Self.hash.hex.uppercased()) == nil)
        #expect(ContentHash(hex: "../../etc/passwd") == nil)
    }
}

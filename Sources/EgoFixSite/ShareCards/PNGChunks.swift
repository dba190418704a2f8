import EgoFixCore
import CCairo
import Foundation

/// Reading and filtering PNG chunks. Chunks are copied verbatim with their CRCs.
public enum PNGChunks {
    public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    public struct Chunk: Equatable, Sendable {
        public let type: String
        /// The whole chunk: length, type, data and CRC.
        public let range: Range<Int>
        public let dataRange: Range<Int>
    }

    /// The chunks of a PNG, in order. Throws if the signature, a length or the final IEND is wrong.
    public static func chunks(_ png: Data) throws -> [Chunk] {
        let bytes = [UInt8](png)
        guard bytes.count >= 8, Array(bytes[0..<8]) == signature else {
            throw ShareCardPNG.Error.png("no PNG signature")
        }
        var out: [Chunk] = []
        var i = 8
        while i < bytes.count {
            guard i + 12 <= bytes.count else { throw ShareCardPNG.Error.png("truncated chunk at byte \(i)") }
            let length = Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            guard length <= 0x7fff_ffff, i + 12 + length <= bytes.count else {
                throw ShareCardPNG.Error.png("chunk at byte \(i) runs past the end")
            }
            let type = String(decoding: bytes[(i + 4)..<(i + 8)], as: UTF8.self)
            out.append(Chunk(type: type, range: i..<(i + 12 + length), dataRange: (i + 8)..<(i + 8 + length)))
            i += 12 + length
            if type == "IEND" { break }
        }
        guard out.last?.type == "IEND" else { throw ShareCardPNG.Error.png("no IEND chunk") }
        return out
    }

    /// The PNG with only the chunks whose type is in `types`, in their original order.
    public static func keepingOnly(_ types: Set<String>, in png: Data) throws -> Data {
        var out = Data(signature)
        for chunk in try chunks(png) where types.contains(chunk.type) {
            out.append(png.subdata(in: chunk.range))
        }
        return out
    }
}

import EgoFixCore
import CCairo
import Foundation

/// Pixel memory for share cards, handed back after each card and reused by the next (at most one
/// buffer a core is kept).
///
/// A buffer is 3 MB that cairo writes over in full, so on Linux it is mapped on its own, aligned to
/// 2 MiB and marked for transparent huge pages: where the kernel has them (the `madvise` setting),
/// the first card on a thread takes two page faults instead of about 740, at about 2 µs each on
/// this project's machines. Where it has none, or the mapping fails, it is ordinary memory.
final class PixelBuffers: @unchecked Sendable {
    static let shared = PixelBuffers()
    private let lock = NSLock()
    private var free: [Buffer] = []

    struct Buffer {
        let pointer: UnsafeMutableRawPointer
        let bytes: Int
        /// The length of its own mapping, 0 for memory from the allocator.
        let mapped: Int
    }

    func take(_ bytes: Int) -> Buffer {
        lock.lock()
        defer { lock.unlock() }
        if let i = free.firstIndex(where: { $0.bytes == bytes }) { return free.remove(at: i) }
        return PixelBuffers.hugeMapped(bytes)
            ?? Buffer(pointer: UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64), bytes: bytes, mapped: 0)
    }

    func give(_ buffer: Buffer) {
        lock.lock()
        defer { lock.unlock() }
        if free.count < max(2, Parallel.cores) {
            free.append(buffer)
        } else {
            PixelBuffers.release(buffer)
        }
    }

    static func release(_ buffer: Buffer) {
        if buffer.mapped > 0 {
            #if os(Linux)
            munmap(buffer.pointer, buffer.mapped)
            #endif
        } else {
            buffer.pointer.deallocate()
        }
    }

    /// `bytes` of zeroed memory in a mapping of its own, aligned to 2 MiB and advised for huge
    /// pages; nil where that is not to be had.
    static func hugeMapped(_ bytes: Int) -> Buffer? {
        #if os(Linux)
        let unit = 2 << 20
        let length = (bytes + unit - 1) / unit * unit
        // Map one unit more than needed and trim both ends, so the buffer starts on a 2 MiB boundary.
        guard let raw = mmap(nil, length + unit, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
              raw != MAP_FAILED else { return nil }
        let start = Int(bitPattern: raw)
        let aligned = (start + unit - 1) / unit * unit
        if aligned > start { munmap(raw, aligned - start) }
        let end = start + length + unit
        if end > aligned + length, let tail = UnsafeMutableRawPointer(bitPattern: aligned + length) {
            munmap(tail, end - (aligned + length))
        }
        guard let pointer = UnsafeMutableRawPointer(bitPattern: aligned) else { return nil }
        _ = madvise(pointer, length, MADV_HUGEPAGE)  // a hint: without it the memory still works
        return Buffer(pointer: pointer, bytes: bytes, mapped: length)
        #else
        return nil
        #endif
    }

    static func zeroed(_ bytes: Int) -> Buffer {
        let p = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
        p.initializeMemory(as: UInt8.self, repeating: 0, count: bytes)
        return Buffer(pointer: p, bytes: bytes, mapped: 0)
    }
}

import EgoFixCore
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a build of an output folder was made from and what it left there: a key naming its
/// inputs, the size, modification time and inode of every file it wrote, and the keys of its
/// share-card PNGs. Kept outside the folder (the folder holds only the site), so the next build
/// can tell that nothing changed, or which cards it need not draw again.
public struct SiteManifest: Sendable, Equatable {
    public struct Stamp: Sendable, Equatable {
        public let size: Int64
        public let seconds: Int64
        public let nanoseconds: Int64
        public let inode: UInt64

        public init(size: Int64, seconds: Int64, nanoseconds: Int64, inode: UInt64) {
            self.size = size
            self.seconds = seconds
            self.nanoseconds = nanoseconds
            self.inode = inode
        }

        init(_ st: stat) {
            #if os(Linux)
            let mtime = st.st_mtim
            #else
            let mtime = st.st_mtimespec
            #endif
            self.init(size: Int64(st.st_size), seconds: Int64(mtime.tv_sec), nanoseconds: Int64(mtime.tv_nsec), inode: UInt64(st.st_ino))
        }
    }

    public var key: String
    public var files: [String: Stamp]
    public var cardKeys: [String: String]
    /// Every folder of the site ("" is the output folder itself), stamped like the files: adding,
    /// removing or renaming anything in a folder changes its modification time, so matching stamps
    /// mean no file was added anywhere, without reading a single folder.
    public var folders: [String: Stamp]
    /// The files' and the folders' paths in `PathOrder`, when the manifest was made from a sorted
    /// list of files: `encoded()` then writes in that order instead of sorting the keys (a hint,
    /// used only while it covers every path the manifest holds; not part of its value).
    private var fileOrder: [String]?
    private var folderOrder: [String]?

    public static func == (a: SiteManifest, b: SiteManifest) -> Bool {
        a.key == b.key && a.files == b.files && a.cardKeys == b.cardKeys && a.folders == b.folders
    }

    public init(key: String, files: [String: Stamp], cardKeys: [String: String], folders: [String: Stamp] = [:]) {
        self.key = key
        self.files = files
        self.cardKeys = cardKeys
        self.folders = folders
    }

    /// The manifest of a finished build: the stamps of `files` and of their folders as they are now
    /// in `folder`. Stamps in `known` (as `SiteBuild.fileStamps` took them while writing) are used
    /// instead of looking the files up again.
    public init(key: String, folder: URL, files: [String], cardKeys: [String: String], known: [String: Stamp] = [:],
                knownFolders: [String: Stamp] = [:]) {
        var names: Set<String> = [""]
        names.reserveCapacity(files.count + 1)
        var lookups: [(path: String, folder: Bool)] = []
        // The folders as they first appear, each path's from the top down: in `PathOrder` when the
        // files are (as a build's list is), which is checked below.
        var folderSequence = [""]
        var fresh: [String] = []
        for path in files {
            if known[path] == nil { lookups.append((path, false)) }
            var folder = SiteBuild.parent(path)
            while !folder.isEmpty, names.insert(folder).inserted {
                fresh.append(folder)
                folder = SiteBuild.parent(folder)
            }
            folderSequence += fresh.reversed()
            fresh.removeAll(keepingCapacity: true)
        }
        var folders: [String: Stamp] = [:]
        for name in names { if let s = knownFolders[name] { folders[name] = s } }
        lookups += PathOrder.sorted(names.filter { folders[$0] == nil }).map { ($0.isEmpty ? "." : $0, true) }
        var stamps: [String: Stamp] = [:]
        stamps.reserveCapacity(files.count)
        for path in files { if let s = known[path] { stamps[path] = s } }
        let dir = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dir >= 0 {
            defer { close(dir) }
            let found = Parallel.map(lookups) { SiteManifest.stamp(at: dir, $0.path, folder: $0.folder) }
            for (lookup, stamp) in zip(lookups, found) {
                guard let stamp else { continue }
                if lookup.folder { folders[lookup.path == "." ? "" : lookup.path] = stamp } else { stamps[lookup.path] = stamp }
            }
        }
        self.init(key: key, files: stamps, cardKeys: cardKeys, folders: folders)
        if PathOrder.isSortedAndUnique(files) { fileOrder = files }
        if PathOrder.isSortedAndUnique(folderSequence) { folderOrder = folderSequence }
    }

    /// The entries in `PathOrder`: read along `hint` when it is sorted (as the hints are) and
    /// covers every key, each key looked up once; else along the keys sorted.
    private static func ordered<Value>(_ hint: [String]?, _ map: [String: Value]) -> [(path: String, value: Value)] {
        if let hint, hint.count >= map.count {
            var entries: [(path: String, value: Value)] = []
            entries.reserveCapacity(map.count)
            for path in hint { if let v = map[path] { entries.append((path, v)) } }
            if entries.count == map.count { return entries }
        }
        return PathOrder.sorted(map.keys).compactMap { path in map[path].map { (path, $0) } }
    }

    /// A regular file's stamp, or a folder's with `folder` (links are not followed); nil for anything else.
    public static func stamp(_ path: String, folder: Bool = false) -> Stamp? {
        stamp(at: AT_FDCWD, path, folder: folder)
    }

    /// The same, for a path relative to the open folder `dir` (which saves looking the folder up again).
    static func stamp(at dir: Int32, _ path: String, folder: Bool = false) -> Stamp? {
        var st = stat()
        guard fstatat(dir, path, &st, AT_SYMLINK_NOFOLLOW) == 0, (st.st_mode & S_IFMT) == (folder ? S_IFDIR : S_IFREG) else { return nil }
        return Stamp(st)
    }

    static let header = "egofix site manifest 2"

    /// One line a file: "f size seconds nanoseconds inode path"; a folder: "d size seconds
    /// nanoseconds inode path" (the output folder's path is "."); a card: "c key path"; after the key line.
    public func encoded() -> Data {
        var out = ByteText(capacity: 64 * (files.count + folders.count + 2))
        out.append(string: SiteManifest.header + "\nk " + key + "\n")
        for (path, s) in SiteManifest.ordered(fileOrder, files) { SiteManifest.line("f ", s, path, into: &out) }
        for (path, s) in SiteManifest.ordered(folderOrder, folders) { SiteManifest.line("d ", s, path.isEmpty ? "." : path, into: &out) }
        SiteManifest.cardLines(cardKeys, into: &out)
        return out.data()
    }

    /// The cards' lines, in `PathOrder`.
    static func cardLines(_ cardKeys: [String: String], into out: inout ByteText) {
        for path in PathOrder.sorted(cardKeys.keys) { out.append(string: "c " + (cardKeys[path] ?? "") + " " + path + "\n") }
    }

    /// The notes a build said (`SiteBuildResult.notesNotOnTheSite`), after the other lines, one
    /// line each: "n text", with backslash and newline written as \\ and \n. A rebuild with
    /// nothing changed says them again from here.
    public static func noteLines(_ notes: [String]) -> Data {
        var out = ByteText(capacity: notes.reduce(0) { $0 + $1.utf8.count + 3 })
        for note in notes where !note.isEmpty {
            out.append(string: "n " + note.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n") + "\n")
        }
        return out.data()
    }

    /// A note line's text as it was before `noteLines`.
    static func unescapedNote(_ text: String) -> String {
        var out = "", escaped = false
        for c in text {
            if escaped {
                out.append(c == "n" ? "\n" : c)
                escaped = false
            } else if c == "\\" {
                escaped = true
            } else {
                out.append(c)
            }
        }
        return out
    }

    /// One line, on its own ("." for the output folder's path, as in the file).
    static func lineBytes(_ kind: StaticString, _ s: Stamp, _ path: String) -> [UInt8] {
        var out = ByteText(capacity: 48 + path.utf8.count)
        line(kind, s, path.isEmpty ? "." : path, into: &out)
        return out.bytes
    }

    private static func line(_ kind: StaticString, _ s: Stamp, _ path: String, into out: inout ByteText) {
        out.append(kind)
        out.append(Int(s.size))
        out.append(" ")
        out.append(Int(s.seconds))
        out.append(" ")
        out.append(Int(s.nanoseconds))
        out.append(" ")
        if let inode = Int(exactly: s.inode) { out.append(inode) } else { out.append(string: String(s.inode)) }
        out.append(" ")
        out.append(string: path)
        out.append("\n")
    }

    /// Nil when the file is missing or not a manifest this version wrote.
    public static func read(_ url: URL) -> SiteManifest? {
        Listing.read(url).map(SiteManifest.init)
    }

    /// A manifest's lines as they were written (each kind sorted by path), before anything is
    /// looked up by path: all a rebuild with nothing changed needs. The paths stay in the file's
    /// bytes (each line's end made a NUL), so checking them makes no strings; `files` and
    /// `folders` make them when asked.
    public struct Listing: Sendable {
        public var key: String
        public var cards: [(path: String, key: String)] = []
        /// The notes the build said (see `noteLines`).
        public var notes: [String] = []
        /// The manifest's bytes, every newline a NUL.
        let text: [UInt8]
        /// A path in `text` (NUL-terminated there) and its stamp.
        struct Line: Sendable {
            let start: Int32
            let count: Int32
            let stamp: Stamp
        }
        let fileLines: [Line]
        /// The output folder's own line is "." in `text` and "" in `folders`.
        let folderLines: [Line]

        public var files: [(path: String, stamp: Stamp)] { fileLines.map { (path($0), $0.stamp) } }

        /// How many different paths the file lines name, `except` aside: counted from the bytes
        /// when the lines are in strictly rising byte order (as egofix writes them), so no path
        /// is listed twice; else from the paths as strings.
        func fileCount(without except: String) -> Int {
            let rising = text.withUnsafeBufferPointer { b -> Bool in
                guard let base = b.baseAddress else { return false }
                return fileLines.indices.dropFirst().allSatisfy { i in
                    let x = fileLines[i - 1], y = fileLines[i]
                    let c = memcmp(base + Int(x.start), base + Int(y.start), Int(min(x.count, y.count)))
                    return c < 0 || (c == 0 && x.count < y.count)
                }
            }
            guard rising else { return Set(files.map(\.path)).subtracting([except]).count }
            let length = except.utf8.count
            return fileLines.count - (fileLines.contains { Int($0.count) == length && path($0) == except } ? 1 : 0)
        }
        public var folders: [(path: String, stamp: Stamp)] {
            folderLines.map { line in
                let p = path(line)
                return (p == "." ? "" : p, line.stamp)
            }
        }

        func path(_ line: Line) -> String {
            text.withUnsafeBufferPointer { b in
                String(decoding: UnsafeBufferPointer(rebasing: b[Int(line.start)..<Int(line.start + line.count)]), as: UTF8.self)
            }
        }

        /// Nil when the file is missing or not a manifest this version wrote.
        public static func read(_ url: URL) -> Listing? {
            read(path: url.path)
        }

        public static func read(path: String) -> Listing? {
            guard let bytes = readManifestBytes(path) else { return nil }
            return SiteManifest.parse(bytes)
        }
    }

    /// The manifest a listing holds (a path listed twice keeps its last line).
    public init(_ listing: Listing) {
        var files: [String: Stamp] = [:], folders: [String: Stamp] = [:], cards: [String: String] = [:]
        files.reserveCapacity(listing.fileLines.count)
        folders.reserveCapacity(listing.folderLines.count)
        for (path, stamp) in listing.files { files[path] = stamp }
        for (path, stamp) in listing.folders { folders[path] = stamp }
        for (path, key) in listing.cards { cards[path] = key }
        self.init(key: listing.key, files: files, cardKeys: cards, folders: folders)
    }

    /// The bytes of `encoded()`, read back without splitting them into strings first.
    static func parse(_ text: consuming [UInt8]) -> Listing? {
        let hasNUL = text.withUnsafeBufferPointer { b in b.baseAddress.map { memchr($0, 0, b.count) != nil } ?? false }
        guard text.count < Int(Int32.max) - 1, !hasNUL else { return nil }
        // Every line ends in a newline, made a NUL below, so every path listed is NUL-terminated.
        if text.last != 0x0A { text.append(0x0A) }
        var key = ""
        var cards: [(path: String, key: String)] = []
        var notes: [String] = []
        var files: [Listing.Line] = [], folders: [Listing.Line] = []
        let ok = text.withUnsafeMutableBufferPointer { b -> Bool in
            guard let base = b.baseAddress else { return false }
            let n = b.count
            var i = 0
            /// The next line, its newline made a NUL: (start, end) with `end` at the NUL.
            func line() -> (Int, Int)? {
                guard i < n, let nl = memchr(base + i, 0x0A, n - i) else { return nil }
                let start = i, end = base.distance(to: nl.assumingMemoryBound(to: UInt8.self))
                base[end] = 0
                i = end + 1
                return (start, end)
            }
            func text(_ a: Int, _ e: Int) -> String { String(decoding: UnsafeBufferPointer(start: base + a, count: e - a), as: UTF8.self) }
            guard let (h0, h1) = line(), text(h0, h1) == header, let (k0, k1) = line(), k1 - k0 > 2,
                  base[k0] == UInt8(ascii: "k"), base[k0 + 1] == 0x20 else { return false }
            key = text(k0 + 2, k1)
            files.reserveCapacity(n / 96)
            folders.reserveCapacity(n / 96)
            while let (a, e) = line() {
                if a == e { continue }
                guard e - a > 2, base[a + 1] == 0x20 else { return false }
                switch base[a] {
                case UInt8(ascii: "f"), UInt8(ascii: "d"):
                    // Four numbers, then the path (which may hold spaces); the path is the rest of the line,
                    // which the line's NUL ends.
                    var j = a + 2
                    var numbers: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
                    for k in 0..<4 {
                        guard let (v, next) = number(base, j, e) else { return false }
                        j = next
                        switch k {
                        case 0: numbers.0 = v
                        case 1: numbers.1 = v
                        case 2: numbers.2 = v
                        default: numbers.3 = v
                        }
                    }
                    guard j < e else { return false }
                    let stamp = Stamp(size: Int64(bitPattern: numbers.0), seconds: Int64(bitPattern: numbers.1),
                                      nanoseconds: Int64(bitPattern: numbers.2), inode: numbers.3)
                    let entry = Listing.Line(start: Int32(j), count: Int32(e - j), stamp: stamp)
                    if base[a] == UInt8(ascii: "f") { files.append(entry) } else { folders.append(entry) }
                case UInt8(ascii: "c"):
                    guard let space = UnsafeBufferPointer(start: base + a + 2, count: e - a - 2).firstIndex(of: 0x20),
                          a + 2 + space + 1 < e else { return false }
                    cards.append((text(a + 2 + space + 1, e), text(a + 2, a + 2 + space)))
                case UInt8(ascii: "n"):
                    notes.append(unescapedNote(text(a + 2, e)))
                default:
                    return false
                }
            }
            return true
        }
        guard ok else { return nil }
        var listing = Listing(key: key, text: text, fileLines: files, folderLines: folders)
        listing.cards = cards
        listing.notes = notes
        return listing
    }

    /// A decimal number (an optional minus sign, then digits, in 64 bits) at `start`, followed by
    /// a space before `end`; the number's bits and the index after the space.
    private static func number(_ base: UnsafeMutablePointer<UInt8>, _ start: Int, _ end: Int) -> (UInt64, Int)? {
        var j = start
        let negative = j < end && base[j] == UInt8(ascii: "-")
        if negative { j += 1 }
        let first = j
        var v: UInt64 = 0
        while j < end {
            let d = base[j] &- 0x30
            guard d < 10 else { break }
            v = v &* 10 &+ UInt64(d)
            j += 1
        }
        guard j > first, j < end, base[j] == 0x20 else { return nil }
        if j - first > 18 {
            // Eighteen digits always fit in 64 bits; a longer number is read again, checked.
            v = 0
            for k in first..<j {
                let (times, o1) = v.multipliedReportingOverflow(by: 10)
                let (sum, o2) = times.addingReportingOverflow(UInt64(base[k] &- 0x30))
                guard !o1, !o2 else { return nil }
                v = sum
            }
        }
        guard !negative || v <= UInt64(Int64.max) else { return nil }
        return (negative ? UInt64(bitPattern: -Int64(bitPattern: v)) : v, j + 1)
    }

    /// Writes it whole or not at all (a temporary file renamed into place).
    public func write(to url: URL) throws {
        try SiteManifest.write(encoded(), to: url)
    }

    /// The same for a manifest's bytes.
    public static func write(_ bytes: Data, to url: URL) throws {
        // It names the site's weeks, bugs and shared fixes: the user's alone, as the private pages are.
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let temp = url.path + ".\(getpid()).tmp"
        // A manifest that cannot be written (a full disk) leaves none, neither a part of the new
        // one nor the previous site's, which no longer describes the folder: the next build
        // simply does all the work.
        do { try SiteBuild.writeFile(temp, bytes, mode: 0o600) } catch {
            unlink(temp)
            unlink(url.path)
            throw error
        }
        guard rename(temp, url.path) == 0 else {
            let code = errno
            unlink(temp)
            unlink(url.path)
            throw SiteWriterError.io(path: url.path, reason: String(cString: strerror(code)))
        }
    }
}

/// A file's bytes (nil if it cannot be read), without going through `Data`.
fileprivate func readManifestBytes(_ path: String) -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var st = stat()
    guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, st.st_size >= 0, st.st_size < Int.max / 2 else { return nil }
    // One byte more than the size, so that a file grown since `fstat` is noticed rather than cut.
    let capacity = Int(st.st_size) + 1
    var failed = false
    let bytes = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
        count = 0
        guard let base = buffer.baseAddress else { return }
        while count < capacity {
            let n = read(fd, base + count, capacity - count)
            if n < 0 && errno == EINTR { continue }
            if n < 0 { failed = true }
            guard n > 0 else { break }
            count += n
        }
    }
    return failed || bytes.count == capacity ? nil : bytes
}

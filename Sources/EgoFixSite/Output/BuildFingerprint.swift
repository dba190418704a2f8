import EgoFixCore
import Foundation

/// Names everything a site build is made from, so a build with the same inputs into a folder that
/// still holds the last build's files can stop before doing any work.
///
/// The inputs: this egofix executable (its identity on disk, which changes with every build of
/// egofix and covers the built-in templates, assets and seeds), the data (the demo's years and
/// seed, or the store file and its write-ahead log as the file system describes them, with what the
/// pages show of the clock: `SiteClockView`), the title and base URL, egofix.toml, the content
/// folder, and the workspace's Templates, Assets and Seeds overrides, byte for byte.
public enum BuildFingerprint {
    static func key(_ request: SiteBuildRequest) -> String {
        var h = Digest()
        h.add("egofix build inputs 2")
        h.add(executableIdentity())
        switch request.source {
        case .demo(let years, let seed, _):
            h.add("demo \(years) \(seed) \(DemoSite.endDate) \(DemoSite.zone)")
        case .store(let path, let clock, _):
            h.add("store \(clock.text)")
            for suffix in ["", "-wal", "-journal"] { h.addIdentity(path + suffix) }
        }
        h.add("title \(request.title)")
        h.add("base \(request.baseURL ?? "-")")
        // The folders by plain paths, the way the build reads them (the system resolves them;
        // standardizing them as URLs first only cost time).
        let root = request.workspace
        h.addFile(root + "/egofix.toml")
        for folder in InputFolders.all(content: request.contentFolder) {
            h.add("folder \(folder)")
            h.addFolder(folder.hasPrefix("/") ? folder : root + "/" + folder)
        }
        // A folder named for one of them but for its case (which the build names, reading none of it).
        for misnamed in MisnamedFolder.find(in: root) { h.add("misnamed \(misnamed.found)") }
        return h.hex
    }

    /// This executable as it is on disk: device, inode, size and modification time.
    public static func executableIdentity() -> String {
        var st = stat()
        #if os(Linux)
        let path = "/proc/self/exe"
        #else
        let path = Bundle.main.executablePath ?? CommandLine.arguments[0]
        #endif
        guard stat(path, &st) == 0 else { return "unknown executable" }
        #if os(Linux)
        let mtime = st.st_mtim
        #else
        let mtime = st.st_mtimespec
        #endif
        return "exe \(st.st_dev) \(st.st_ino) \(st.st_size) \(mtime.tv_sec).\(mtime.tv_nsec)"
    }

    /// Where the manifest of the last build into `output` is kept: the user's cache folder
    /// (`xdgCacheHome`, else `home`/.cache), one file per output folder. Nil without either.
    public static func manifestLocation(for output: String, xdgCacheHome: String?, home: String?) -> String? {
        let cache: String
        if let xdg = xdgCacheHome, xdg.hasPrefix("/") {
            cache = xdg
        } else if let home, home.hasPrefix("/") {
            cache = home + "/.cache"
        } else {
            return nil
        }
        var h = Digest()
        h.add(output)
        return cache + "/egofix/sites/\(h.hex).manifest"
    }

    /// A fast 128-bit hash of everything added, in order (change detection, not security).
    struct Digest {
        private var a: UInt64 = 0x243F_6A88_85A3_08D3
        private var b: UInt64 = 0x1319_8A2E_0370_7344
        private var count: UInt64 = 0

        private mutating func word(_ w: UInt64) {
            a = (a ^ w) &* 0x9E37_79B9_7F4A_7C15
            a ^= a >> 29
            b = (b &+ w) &* 0xC2B2_AE3D_27D4_EB4F
            b ^= b >> 31
            count &+= 1
        }

        mutating func add(_ bytes: UnsafeRawBufferPointer) {
            var i = 0
            let n = bytes.count
            while i + 8 <= n {
                word(bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self))
                i += 8
            }
            var tail: UInt64 = 0
            var shift: UInt64 = 0
            while i < n {
                tail |= UInt64(bytes[i]) << shift
                shift += 8
                i += 1
            }
            word(tail)
            word(UInt64(n))
        }

        mutating func add(_ s: String) {
            var s = s
            s.withUTF8 { add(UnsafeRawBufferPointer($0)) }
        }

        /// A file's bytes, or a marker that it is not there or not a regular file (a FIFO would
        /// stall the read; the build's own load then refuses it, naming it).
        mutating func addFile(_ path: String) {
            var st = stat()
            guard stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else {
                add("not a file")
                return
            }
            guard let data = FileManager.default.contents(atPath: path) else {
                add("missing")
                return
            }
            add("file")
            data.withUnsafeBytes { add($0) }
        }

        /// A file as the file system describes it: device, inode, size, modification and change
        /// times to the nanosecond (every write through SQLite moves them; a file put in its place
        /// has another inode or change time, which no tool sets), or a marker that it is not there.
        /// Reading a 10-year store's 3.8 MB instead took a few milliseconds of every build.
        mutating func addIdentity(_ path: String) {
            var st = stat()
            guard stat(path, &st) == 0 else {
                add("missing")
                return
            }
            #if os(Linux)
            let (m, c) = (st.st_mtim, st.st_ctim)
            #else
            let (m, c) = (st.st_mtimespec, st.st_ctimespec)
            #endif
            add("stat \(st.st_dev) \(st.st_ino) \(st.st_size) \(m.tv_sec).\(m.tv_nsec) \(c.tv_sec).\(c.tv_nsec)")
        }

        /// Every file under a folder, by relative path, with its bytes; a marker when there is none.
        mutating func addFolder(_ path: String) {
            var st = stat()
            guard stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR else {
                add("no folder")
                return
            }
            // The folder a link (its files are then not read by the build, which refuses it).
            if lstat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFLNK { add("a link") }
            var files: [String] = []
            Digest.collectFiles(in: path, prefix: "", into: &files)
            for rel in files.sorted() {
                add(rel)
                addFile(path + "/" + rel)
            }
        }

        /// The paths (after `prefix`) of the files under `folder` and its folders, read with
        /// readdir (FileManager's `subpaths` cost a rebuild with nothing to do 0.3 M instructions).
        /// A link is taken as what it points to, and a link to a folder is not followed, as
        /// FileManager listed them; an unreadable folder lists nothing.
        static func collectFiles(in folder: String, prefix: String, into files: inout [String]) {
            guard let dir = opendir(folder) else { return }
            defer { closedir(dir) }
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                }
                guard name != ".", name != ".." else { continue }
                let full = folder + "/" + name
                var st = stat()
                var type = entry.pointee.d_type
                if type == UInt8(DT_UNKNOWN), lstat(full, &st) == 0 {
                    type = (st.st_mode & S_IFMT) == S_IFDIR ? UInt8(DT_DIR) : (st.st_mode & S_IFMT) == S_IFLNK ? UInt8(DT_LNK) : UInt8(DT_REG)
                }
                if type == UInt8(DT_DIR) {
                    collectFiles(in: full, prefix: prefix + name + "/", into: &files)
                } else if type == UInt8(DT_LNK), stat(full, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR {
                    // Not followed, but counted (as "not a file"): a link put in after a good build
                    // makes the next one build, and refuse it, rather than find nothing changed.
                    files.append(prefix + name)
                } else {
                    files.append(prefix + name)
                }
            }
        }

        var hex: String {
            let x = String(a, radix: 16), y = String(b ^ count, radix: 16)
            return String(repeating: "0", count: 16 - x.count) + x + String(repeating: "0", count: 16 - y.count) + y
        }
    }
}

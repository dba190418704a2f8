import EgoFixCore
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One build in progress. Paths are reserved (checked) from one task; the files of reserved paths
/// may then be put from any thread.
public final class SiteBuild: @unchecked Sendable {
    private let writer: SiteWriter
    private let lock: FolderLock
    /// The new site's folder and the previous site's, as paths (looked up once, not per file).
    private let buildRoot: String
    private let previousRoot: String
    /// Whether there is a previous site to keep files from (when there is none, nothing is looked up in it).
    private let hasPrevious: Bool
    /// Guards everything below it once files are being put from several threads.
    private let state = NSLock()
    /// Each reserved path, with its place in `reserved`.
    private var files: [String: Int] = [:]
    private var reserved: [String] = []
    private var folders: Set<String> = []
    /// The folders as they first appear in the reserved paths, each path's from the top down.
    private var folderSequence: [String] = []
    private var madeFolders: Set<String> = []
    private var put: Set<String> = []
    private var written: [String] = []
    private var unchanged: [String] = []
    private var stamps: [String: SiteManifest.Stamp] = [:]
    /// The manifest's line of each reserved file (by its place) and of each finished folder,
    /// written on the thread that put the file or made the folder's last entry, so that the
    /// manifest at the end is only joined up (see `manifest(key:cardKeys:)`).
    private var fileLines: [[UInt8]?] = []
    private var folderLines: [String: [UInt8]] = [:]
    /// Per folder ("" is the top), the entries (files and folders) still to be made in it; a
    /// folder whose last entry is made will not change again, so its stamp is taken then.
    private var entriesToMake: [String: Int] = [:]
    private var folderStampsTaken: [String: SiteManifest.Stamp] = [:]
    private var done = false
    private var committed = false
    /// Whether the commit has removed the previous site (from the build folder, after the swap).
    private var previousRemoved = false

    init(writer: SiteWriter, lock: FolderLock) {
        self.writer = writer
        self.lock = lock
        buildRoot = writer.buildFolder.path
        previousRoot = writer.output.path
        var st = stat()
        hasPrevious = lstat(previousRoot, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
    }

    deinit { if !done { abandon() } }

    /// Adds a file. Paths are relative, "/"-separated, without "." or ".." segments.
    public func add(_ path: String, _ data: Data) throws {
        try add(all: [(path: path, data: data)])
    }

    /// Adds many files: paths are checked in order (the first bad one is the error), then the
    /// files are compared and written on every core.
    public func add(all list: [(path: String, data: Data)]) throws {
        try reserve(list.map(\.path))
        let outcomes = Parallel.map(list) { file in Result { try self.put(file.path, file.data) } }
        for outcome in outcomes { _ = try outcome.get() }
    }

    /// Checks paths in order (the first bad one is the error) and holds them for `put`.
    public func reserve(_ paths: [String]) throws {
        state.lock()
        defer { state.unlock() }
        guard !done else { throw SiteWriterError.finished }
        let (filesBefore, foldersBefore) = (files, folders)
        let (reservedBefore, sequenceBefore) = (reserved.count, folderSequence.count)
        // Room up front, so the sets are not rehashed as they grow (a folder or two a path).
        files.reserveCapacity(files.count + paths.count)
        folders.reserveCapacity(folders.count + paths.count)
        entriesToMake.reserveCapacity(entriesToMake.count + paths.count)
        reserved.reserveCapacity(reserved.count + paths.count)
        do {
            var previous = ""
            for path in paths {
                try validate(path, after: previous)
                files[path] = reserved.count
                reserved.append(path)
                previous = path
            }
        } catch {
            (files, folders) = (filesBefore, foldersBefore)  // all or none
            reserved.removeSubrange(reservedBefore...)
            folderSequence.removeSubrange(sequenceBefore...)
            throw error
        }
        fileLines += repeatElement(nil, count: paths.count)
        for path in paths { entriesToMake[SiteBuild.parent(path), default: 0] += 1 }
        for folder in folders where !foldersBefore.contains(folder) { entriesToMake[SiteBuild.parent(folder), default: 0] += 1 }
    }

    /// The folder holding `path` ("" for the top): what comes before its last "/", read as the
    /// file system reads it (a byte, not a Character, which could join "/" to a combining mark).
    static func parent(_ path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "" }
        return String(Substring(path.utf8[..<slash]))
    }

    /// An entry was made in `folder`: when it was the last, the folder's stamp is final (the top
    /// folder's is not: the marker goes in at the commit).
    private func entryMade(in folder: String) {
        state.lock()
        let left = (entriesToMake[folder] ?? 0) - 1
        entriesToMake[folder] = left
        state.unlock()
        guard left == 0, !folder.isEmpty, let stamp = SiteManifest.stamp(buildRoot + "/" + folder, folder: true) else { return }
        let line = SiteManifest.lineBytes("d ", stamp, folder)
        state.lock()
        folderStampsTaken[folder] = stamp
        folderLines[folder] = line
        state.unlock()
    }

    /// Puts the file of a reserved path into the build, from any thread: hard-linked from the
    /// previous site when the bytes are the same there, else written. Returns whether it was written.
    @discardableResult
    public func put(_ path: String, _ data: Data) throws -> Bool {
        if BuildInterrupt.received != nil { throw SiteWriterError.interrupted }
        state.lock()
        guard !done else {
            state.unlock()
            throw SiteWriterError.finished
        }
        guard let slot = files[path], put.insert(path).inserted else {
            state.unlock()
            throw files[path] != nil ? SiteWriterError.duplicatePath(path) : SiteWriterError.invalidPath(path, reason: "not reserved")
        }
        state.unlock()
        try makeFolder(SiteBuild.parent(path), under: buildRoot)
        let target = buildRoot + "/" + path
        let previous = previousRoot + "/" + path
        let isNew: Bool
        let stamp: SiteManifest.Stamp?
        do {
            if hasPrevious && SiteBuild.sameBytes(previous, data) {
                try SiteBuild.keep(previous, as: target, mode: SiteWriter.fileMode(path))
                isNew = false
                stamp = SiteManifest.stamp(target)
            } else {
                stamp = try SiteBuild.writeFile(target, data, mode: SiteWriter.fileMode(path))
                isNew = true
            }
        } catch let error as SiteWriterError {
            throw error
        } catch {
            throw SiteWriterError.io(path: target, reason: error.localizedDescription)
        }
        let line = stamp.map { SiteManifest.lineBytes("f ", $0, path) }
        state.lock()
        if isNew { written.append(path) } else { unchanged.append(path) }
        stamps[path] = stamp
        fileLines[slot] = line
        state.unlock()
        entryMade(in: SiteBuild.parent(path))
        return isNew
    }

    /// Makes `folder` (relative) and its parents in the build, once each. Two threads may both
    /// make one; the second finds it there.
    private func makeFolder(_ folder: String, under root: String) throws {
        guard !folder.isEmpty else { return }
        state.lock()
        let there = madeFolders.contains(folder)
        state.unlock()
        if there { return }
        try makeFolder(SiteBuild.parent(folder), under: root)
        let path = root + "/" + folder
        let made = mkdir(path, SiteWriter.folderMode(folder)) == 0
        if !made && errno != EEXIST {
            throw SiteWriterError.io(path: path, reason: "cannot create the folder: " + String(cString: strerror(errno)))
        }
        state.lock()
        madeFolders.insert(folder)
        state.unlock()
        if made { entryMade(in: SiteBuild.parent(folder)) }  // the thread that made it counts it, once
    }

    /// The size, modification time and inode of every file put so far, as it is in the build
    /// (and, after `commit()`, in the output folder: the swap keeps them).
    public var fileStamps: [String: SiteManifest.Stamp] {
        state.lock()
        defer { state.unlock() }
        return stamps
    }

    /// The stamps of the folders below the top whose every entry has been made, taken as each
    /// was finished (the swap keeps them too).
    public var folderStamps: [String: SiteManifest.Stamp] {
        state.lock()
        defer { state.unlock() }
        return folderStampsTaken
    }

    public func add(_ path: String, text: String) throws {
        try add(path, Data(text.utf8))
    }

    /// Swaps the new site in and reports what changed.
    @discardableResult
    public func commit() throws -> SiteWriteReport {
        guard !done else { throw SiteWriterError.finished }
        if put.count < files.count, let missing = Set(files.keys).subtracting(put).min() {
            abandon()
            throw SiteWriterError.invalidPath(missing, reason: "reserved but never written")
        }
        defer {
            done = true
            cleanUp()
        }
        let marker = writer.buildFolder.appendingPathComponent(SiteWriter.markerName)
        let markerData = Data(SiteWriter.markerText.utf8)
        let previousMarker = writer.output.appendingPathComponent(SiteWriter.markerName)
        do {
            if SiteBuild.sameBytes(previousMarker.path, markerData) {
                try SiteBuild.keep(previousMarker.path, as: marker.path, mode: SiteWriter.fileMode(SiteWriter.markerName))
            } else {
                try SiteBuild.writeFile(marker.path, markerData, mode: SiteWriter.fileMode(SiteWriter.markerName))
            }
        } catch {
            throw SiteWriterError.io(path: marker.path, reason: error.localizedDescription)
        }
        try writer.swapIn()
        committed = true
        // The previous site is now in the build folder. It goes at once, on every core, and what
        // it held that this build does not is what the build removed from the site.
        let previous = FolderTree.removeListingFiles(writer.buildFolder.path)
        previousRemoved = true
        let removed = previous.filter { files[$0] == nil && $0 != SiteWriter.markerName }
        var report = SiteWriteReport(written: PathOrder.sorted(written), unchanged: PathOrder.sorted(unchanged), removed: removed)
        if FolderTree.exists(writer.buildFolder.path) { report.previousLeftAt = writer.buildFolder.path }
        return report
    }

    /// After `commit()`, the build's manifest: the bytes of `SiteManifest(key:folder:files:cardKeys:known:knownFolders:)`
    /// for the reserved paths and the stamps taken while writing. Nil before the commit.
    public func manifest(key: String, cardKeys: [String: String]) -> Data? {
        state.lock()
        defer { state.unlock() }
        guard committed else { return nil }
        return joinedManifest(key: key, cardKeys: cardKeys)
            ?? SiteManifest(key: key, folder: writer.output, files: reserved, cardKeys: cardKeys, known: stamps,
                            knownFolders: folderStampsTaken).encoded()
    }

    /// The manifest joined up from the lines formatted as each file was put and each folder
    /// finished (a folder without one, such as the top, is looked up in the output now); nil when
    /// the paths were not reserved in `PathOrder`, a file has no stamp or a folder cannot be read.
    func joinedManifest(key: String, cardKeys: [String: String]) -> Data? {
        guard PathOrder.isSortedAndUnique(reserved) else { return nil }
        var folders = [""] + folderSequence
        if !PathOrder.isSortedAndUnique(folders) { folders = PathOrder.sorted(folders) }
        var out = ByteText(capacity: 64 * (reserved.count + folders.count + cardKeys.count + 2))
        out.append(string: SiteManifest.header + "\nk " + key + "\n")
        for line in fileLines {
            guard let line else { return nil }
            line.withUnsafeBufferPointer { out.append($0) }
        }
        var dir: Int32 = -1
        defer { if dir >= 0 { close(dir) } }
        for folder in folders {
            if let line = folderLines[folder] {
                line.withUnsafeBufferPointer { out.append($0) }
                continue
            }
            if dir < 0 { dir = open(writer.output.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
            guard dir >= 0, let stamp = SiteManifest.stamp(at: dir, folder.isEmpty ? "." : folder, folder: true) else { return nil }
            SiteManifest.lineBytes("d ", stamp, folder).withUnsafeBufferPointer { out.append($0) }
        }
        SiteManifest.cardLines(cardKeys, into: &out)
        return out.data()
    }

    /// Discards the build; the previous site stays as it was.
    public func abandon() {
        done = true
        cleanUp()
    }

    private func cleanUp() {
        if !previousRemoved { FolderTree.remove(writer.buildFolder.path) }
        lock.release()
    }

    /// `previous` is the path checked just before this one: the folders this path shares with it
    /// (the same bytes from the start, up to and with a "/") were checked and held then, so they
    /// are not looked up again; in a sorted list of paths most folders are shared with the one before.
    private func validate(_ path: String, after previous: String) throws {
        guard !path.isEmpty else { throw SiteWriterError.invalidPath(path, reason: "empty path") }
        guard !path.hasPrefix("/") else { throw SiteWriterError.invalidPath(path, reason: "absolute path") }
        // One look along the bytes finds control characters and backslashes
        // (`PathName.isRefusedByte`) and the segments, split at the byte "/" as the file system
        // splits them.
        var text = path
        let (slashes, control, badSegment) = text.withUTF8 { b -> ([Int], Bool, Bool) in
            var slashes: [Int] = []
            var control = false, badSegment = false
            var start = 0
            for i in 0...b.count {
                let c: UInt8 = i < b.count ? b[i] : UInt8(ascii: "/")
                if PathName.isRefusedByte(c) { control = true }
                guard c == UInt8(ascii: "/") else { continue }
                let n = i - start
                if n == 0 || (b[start] == UInt8(ascii: ".") && (n == 1 || (n == 2 && b[start + 1] == UInt8(ascii: ".")))) {
                    badSegment = true
                }
                if i < b.count { slashes.append(i) }
                start = i + 1
            }
            return (slashes, control, badSegment)
        }
        guard !control else { throw SiteWriterError.invalidPath(path, reason: "control character or backslash in the path") }
        guard !badSegment else { throw SiteWriterError.invalidPath(path, reason: "empty, '.' or '..' segment") }
        guard path != SiteWriter.markerName else {
            throw SiteWriterError.invalidPath(path, reason: "reserved name")
        }
        guard files[path] == nil else { throw SiteWriterError.duplicatePath(path) }
        guard !folders.contains(path) else { throw SiteWriterError.pathConflict(path, with: path + "/...") }
        var before = previous
        let shared = text.withUTF8 { a in
            before.withUTF8 { b -> Int in
                var i = 0
                let n = min(a.count, b.count)
                while i < n && a[i] == b[i] { i += 1 }
                return i
            }
        }
        for slash in slashes where slash >= shared {
            let prefix = text.withUTF8 { String(decoding: UnsafeBufferPointer(rebasing: $0[..<slash]), as: UTF8.self) }
            if files[prefix] != nil { throw SiteWriterError.pathConflict(path, with: prefix) }
            if folders.insert(prefix).inserted { folderSequence.append(prefix) }
        }
    }

    /// Whether `path` is a regular file (not a link) holding exactly `data`.
    static func sameBytes(_ path: String, _ data: Data) -> Bool {
        var st = stat()
        guard lstat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, Int(st.st_size) == data.count else {
            return false
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        let count = data.count
        guard count > 0 else { return true }
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: count, alignment: 16)
        defer { buffer.deallocate() }
        var got = 0
        while got < count {
            let n = read(fd, buffer + got, count - got)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            got += n
        }
        return data.withUnsafeBytes { raw in raw.baseAddress.map { memcmp($0, buffer, count) == 0 } ?? false }
    }

    /// Writes a new file (mode `mode` less the umask; 0666, as `Data.write` does, by default) and
    /// returns its stamp (nil only if it could not be read back).
    @discardableResult
    static func writeFile(_ path: String, _ data: Data, mode: mode_t = 0o666) throws -> SiteManifest.Stamp? {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard fd >= 0 else { throw SiteWriterError.io(path: path, reason: String(cString: strerror(errno))) }
        var failure = WholeWrite.write(data, to: fd)
        var st = stat()
        let stamped = failure == 0 && fstat(fd, &st) == 0
        if close(fd) != 0 && failure == 0 { failure = errno }
        guard failure == 0 else { throw SiteWriterError.io(path: path, reason: String(cString: strerror(failure))) }
        return stamped ? SiteManifest.Stamp(st) : nil
    }

    /// Puts the previous file into the new tree without rewriting it: a hard link (same inode and
    /// modification time), or, where links are not possible, a copy with the old modification time.
    /// A file kept from a site written with other modes (an earlier egofix) gets `mode`.
    static func keep(_ previous: String, as target: String, mode: mode_t = 0o666) throws {
        if link(previous, target) == 0 {
            var st = stat()
            if lstat(target, &st) == 0, st.st_mode & 0o777 & ~mode != 0 { _ = chmod(target, st.st_mode & 0o777 & mode) }
            return
        }
        let fm = FileManager.default
        try fm.copyItem(atPath: previous, toPath: target)
        if let date = try fm.attributesOfItem(atPath: previous)[.modificationDate] as? Date {
            try fm.setAttributes([.modificationDate: date], ofItemAtPath: target)
        }
    }
}

import Foundation
import GRDB
import EgoFixCore

/// What one `egofix sync` did.
public struct SyncReport: Sendable, Equatable {
    /// This machine's id (kept in the store, not in the export).
    public var deviceId: UUID
    /// The file this machine writes in the folder.
    public var ownFile: String
    /// True when this store had no practice and took the folder's.
    public var joined: Bool
    /// Other machines' files read and merged, by name.
    public var merged: [String]
    /// Files unchanged since the last sync (not read again).
    public var unchanged: Int
    /// Records written into this store.
    public var recordsChanged: Int
    /// Whether this machine's file was rewritten (false when its bytes were already there).
    public var wroteOwnFile: Bool
    /// One line per file skipped or only partly merged: the file's path, then why.
    public var warnings: [String]
    /// Whether the folder was not there and this sync made it (a new shared folder, or a typo).
    public var madeFolder = false
    /// The bugs the merge changed, so that the lifecycle settled after it counts only others.
    var bugsChanged: Set<UUID> = []
}

/// Errors that stop a sync; nothing was changed.
public enum SyncError: Error, Equatable, CustomStringConvertible {
    case notAFolder(String)
    /// Neither the folder nor the one that would hold it is there (no ~/Sync on this machine).
    case notThere(String, parent: String)
    case nothingToJoin(String)
    /// An empty store and a folder whose device files were all skipped, each for the reason given.
    case noReadableFileToJoin(String, skipped: [String])
    /// An empty store and a folder that is not there (a mistyped path, likelier than an empty folder).
    case noFolderToJoin(String)
    /// A store with a practice, and a folder whose device files are all another practice's: the
    /// sync merged nothing, said "Synced", and left its own file there for every sync of the
    /// folder's machines to warn about.
    case anotherPractice(String, files: [String])
    case alreadyAPractice(String)
    case cannotWrite(String, String)
    /// An empty store and a folder with the files of more than one practice: each practice's
    /// files, by name.
    case severalPractices(String, [[String]])

    public var description: String {
        switch self {
        case .severalPractices(let dir, let practices):
            let listed = practices.map { $0.joined(separator: ", ") }.joined(separator: "; and ")
            return "\(dir) holds the files of \(practices.count) practices (\(listed)), and egofix cannot tell which to join. "
                + "Move the files of the one you do not mean out of the folder, then run the command again; nothing was changed."
        case .notThere(let dir, let parent):
            return "\(dir) is not there, nor is \(parent). Give the folder your sync tool shares (Syncthing, Dropbox, a git checkout); nothing was changed."
        case .notAFolder(let dir):
            return "\(dir) is not a folder. Give the folder your sync tool shares (Syncthing, Dropbox, a git checkout); nothing was changed."
        case .noFolderToJoin(let dir):
            return "no practice to join: \(dir) is not there. Check the path: it is the folder your other machine syncs into; nothing was changed."
        case .anotherPractice(let dir, let files):
            return "\(dir) holds another practice's files (\(files.joined(separator: ", "))) and none of this one's: a sync would merge nothing and "
                + "leave this machine's file there for that practice's machines to skip. Give this practice a folder of its own. To move this machine "
                + "onto that practice instead, export this store (`egofix export FILE`), then start an empty store with `egofix init --from \(dir)`. Nothing was written."
        case .noReadableFileToJoin(let dir, let skipped):
            return "no practice to join in \(dir): its device files were skipped (\(skipped.map { $0.hasSuffix(".") ? String($0.dropLast()) : $0 }.joined(separator: "; "))). "
                + "Sync the machine that has the practice again to write its file anew; nothing was changed."
        case .nothingToJoin(let dir):
            return "no practice to join in \(dir): it holds no readable device file. Run `egofix sync \(dir)` on the machine that has the practice first; nothing was changed."
        case .alreadyAPractice(let path):
            return "store \(path) already holds a practice. `egofix sync DIR` merges it with the folder; `init --from` is for an empty store."
        case .cannotWrite(let path, let why):
            return "cannot write \(path) (\(why)). Check that the folder is writable and has space; nothing was merged."
        }
    }
}

extension SQLiteStore {
    static let deviceKey = "sync.device"
    /// The device id a store had before `import --replace` gave it a new one.
    static let replacedDeviceKey = "sync.replacedDevice"
    static let seenPrefix = "sync.seen."
    static let recordsPrefix = "sync.records."

    /// `egofix sync DIR`: merges every other machine's file in `folder` into this store, applies
    /// the sync rules (`SyncRules`) and the bug lifecycle, and writes this machine's own file
    /// (temporary name, fsync, rename), all while holding the store's write lock. A store with no
    /// profile joins the practice of the first readable file. A file that is unreadable, not a
    /// device file, from a newer format or from another practice is skipped with one warning line.
    ///
    /// `requireEmpty` refuses a store that already has a profile (`init --from`). `before` runs
    /// first inside the same transaction (loading the catalogue).
    public func sync(folder: String, calendar: Calendar, now: Date, requireEmpty: Bool = false,
                     before: () async throws -> Void = {}) async throws -> SyncReport {
        var st = stat()
        // A folder not made yet inside one that is there (~/Sync/egofix) is made, the user's alone.
        let parent = StoreLocation.folder(of: folder)
        var madeFolder = false
        if stat(folder, &st) != 0, errno == ENOENT, stat(parent.isEmpty ? "." : parent, &st) == 0,
           (st.st_mode & S_IFMT) == S_IFDIR {
            madeFolder = mkdir(folder, 0o700) == 0
        }
        if stat(folder, &st) != 0, errno == ENOENT, !parent.isEmpty, stat(parent, &st) != 0 {
            throw SyncError.notThere(folder, parent: parent)
        }
        guard stat(folder, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR else { throw SyncError.notAFolder(folder) }
        // A refused sync leaves no folder it made (rmdir: only while it is still empty).
        var synced = false
        defer { if madeFolder && !synced { rmdir(folder) } }
        // This machine's file, when this sync wrote it first: a store that then cannot commit (a
        // full disk) leaves no file of a device no store holds (an orphan every machine merged).
        var madeOwnFile: String?
        do {
            // This machine's id is committed before any file is named after it. Drawn inside the
            // merge's transaction, a first sync or join killed after writing its file (or its
            // temporary) and before the commit left a file of an id no store held: merged as
            // another machine's at every sync, and a temporary, a whole copy of the practice,
            // that no later sync removed (they clear their own id's).
            try await transaction { _ = try access.writeNow { db in try self.deviceId(db) } }
            var done = try await transaction {
                try await before()
                var (report, merged) = try access.writeNow { db in
                    try self.mergeFolder(db, folder: folder, calendar: calendar, now: now, requireEmpty: requireEmpty)
                }
                // Nothing changed here or in the folder since the last sync: nothing to do.
                guard var file = merged else { return report }
                // The lifecycle follows from the merged crashes and ratings, as after any command;
                // a bug it moves (to stable, say) is a record changed here too.
                let settled = try await LifecycleService(repos: repositories, calendar: calendar).reconcileEach(at: now)
                report.recordsChanged += Set(settled.map(\.bug.id)).subtracting(report.bugsChanged).count
                let existed = SQLiteStore.exists(at: report.ownFile)
                try access.writeNow { db in try self.writeOwnFile(db, file: &file, folder: folder, report: &report) }
                if !existed { madeOwnFile = report.ownFile }
                synced = true
                return report
            }
            done.madeFolder = madeFolder && synced
            return done
        } catch {
            if let madeOwnFile { unlink(madeOwnFile) }
            synced = false
            // A folder this sync had to make holds nothing to join: it was not there, which a
            // mistyped path explains better than "no readable device file".
            if let e = error as? SyncError { throw madeFolder && e == .nothingToJoin(folder) ? .noFolderToJoin(folder) : e }
            // SQLite's own words (a full disk, a read-only file) said as the store's errors are.
            throw SQLiteStore.map(error, path: path, operation: "syncing")
        }
    }

    private func deviceId(_ db: Database) throws -> UUID {
        if let text = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [Self.deviceKey]),
           let id = UUIDText.parse(text) {
            return id
        }
        let id = UUID()
        try setMeta(db, Self.deviceKey, id.uuidString)
        return id
    }

    private func setMeta(_ db: Database, _ key: String, _ value: String) throws {
        try db.execute(sql: "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                       arguments: [key, value])
    }

    private static func fingerprint(_ st: stat) -> String {
        "\(st.st_size):\(st.st_mtim.tv_sec).\(st.st_mtim.tv_nsec):\(st.st_ino)"
    }

    /// The warning for a device file left out of a sync: "skipped PATH: it PROBLEM.", a line
    /// that ends in a full stop as every other one does.
    static func skipped(_ path: String, _ problem: DeviceFileProblem) -> String {
        let text = "\(problem)"
        return "skipped \(path): it \(text)" + (text.hasSuffix(".") ? "" : ".")
    }

    private static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    private func mergeFolder(_ db: Database, folder: String, calendar: Calendar, now: Date, requireEmpty: Bool) throws -> (SyncReport, DeviceFile?) {
        let device = try deviceId(db)
        // Records made here since the last sync carry this machine's id from now on.
        for table in SyncState.tables {
            try db.execute(sql: "UPDATE \(table) SET syncToken = ? WHERE syncToken IS NULL", arguments: [device.uuidString])
        }
        // The catalogue comes from each machine's seeds, stamped when that machine loaded them (and
        // a retired fix when it retired it); the stamps are set back to the catalogue's own date so
        // every machine holds the same bytes (whether a fix is retired is all its retiredAt says).
        // A bug the practice touched keeps its stamp: it dates the user's state (see SyncState.merge).
        try db.execute(sql: """
            UPDATE fixes SET updatedAt = createdAt WHERE updatedAt != createdAt;
            UPDATE fixes SET retiredAt = createdAt WHERE retiredAt IS NOT NULL AND retiredAt != createdAt;
            UPDATE education SET updatedAt = createdAt WHERE updatedAt != createdAt;
            UPDATE bugs SET updatedAt = createdAt WHERE updatedAt != createdAt AND isActive = 0 AND status = 'identified'
                AND activatedAt IS NULL AND stableSince IS NULL AND lastRetestAt IS NULL AND resolvedAt IS NULL AND regressedAt IS NULL;
            """)
        let own = DeviceFile.name(device: device)
        var report = SyncReport(deviceId: device, ownFile: Self.join(folder, own), joined: false, merged: [],
                                unchanged: 0, recordsChanged: 0, wroteOwnFile: false, warnings: [])
        let hasProfile = try Bool.fetchOne(db, sql: "SELECT EXISTS(SELECT 1 FROM users WHERE deletedAt IS NULL)") ?? false
        if requireEmpty, hasProfile { throw SyncError.alreadyAPractice(path) }

        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { DeviceFile.device(inName: $0) != nil }.sorted()
        } catch {
            throw SyncError.notAFolder(folder)
        }
        // Which files changed since the last sync (size, modification time, inode).
        var changedFiles: [(name: String, mark: String)] = []
        var ownSeen = false
        for name in names {
            let full = Self.join(folder, name)
            var st = stat()
            guard lstat(full, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else {
                report.warnings.append(Self.skipped(full, .unreadable("not a regular file")))
                continue
            }
            let mark = Self.fingerprint(st)
            if try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [Self.seenPrefix + name]) == mark {
                report.unchanged += 1
                if name == own { ownSeen = true }
                continue
            }
            changedFiles.append((name, mark))
        }
        let local = try Self.localFingerprint(db)
        if hasProfile, changedFiles.isEmpty, ownSeen,
           try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [Self.localKey]) == local {
            return (report, nil)
        }

        var state = try SyncState.load(db)
        var profile = state.users.values.filter { $0.deletedAt == nil }
            .sorted { $0.createdAt != $1.createdAt ? $0.createdAt < $1.createdAt : $0.id.uuidString < $1.id.uuidString }.first?.id
        if profile == nil {
            // Which practices the folder holds: joining the first readable file by name joined a
            // stray file's empty practice over the one with the history.
            var practices: [UUID: [String]] = [:]
            for (name, _) in changedFiles {
                let full = Self.join(folder, name)
                var st = stat()
                guard lstat(full, &st) == 0, Int(st.st_size) <= DeviceFileReader.maxBytes,
                      let data = FileManager.default.contents(atPath: full),
                      let claimed = try? DeviceFileReader.header(data, name: name).profileId else { continue }
                practices[claimed, default: []].append(name)
            }
            if practices.count > 1 { throw SyncError.severalPractices(folder, practices.values.map { $0.sorted() }.sorted { $0[0] < $1[0] }) }
        }
        var otherPractice: [String] = [], samePractice = 0
        for (name, mark) in changedFiles {
            let full = Self.join(folder, name)
            func warn(_ problem: DeviceFileProblem) {
                if case .otherPractice = problem { otherPractice.append(name) }
                report.warnings.append(Self.skipped(full, problem))
            }
            var st = stat()
            guard lstat(full, &st) == 0 else {
                warn(.unreadable(String(cString: strerror(errno))))
                continue
            }
            if Int(st.st_size) > DeviceFileReader.maxBytes {
                warn(.tooLarge(Int(st.st_size)))
                continue
            }
            guard let data = FileManager.default.contents(atPath: full) else {
                warn(.unreadable(String(cString: strerror(errno))))
                continue
            }
            do {
                if let profile, let c = DeviceFileReader.chunks(data) {
                    // The usual case: a file in the encoder's shape, of which only the records that
                    // are new since it was last merged are decoded.
                    guard c.format == DeviceFile.kind else { throw DeviceFileProblem.notADeviceFile("no \"format\": \"\(DeviceFile.kind)\"") }
                    if c.formatVersion > DeviceFile.currentFormat { throw DeviceFileProblem.newerFormat(c.formatVersion) }
                    guard c.formatVersion >= 1 else { throw DeviceFileProblem.notADeviceFile("no formatVersion") }
                    if let named = DeviceFile.device(inName: name), named != c.deviceId { throw DeviceFileProblem.misnamed(c.deviceId) }
                    guard c.profileId == profile else { throw DeviceFileProblem.otherPractice(c.profileId) }
                    let known = DeviceFileReader.decodeHashes(
                        try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [Self.recordsPrefix + name]))
                    let file = try DeviceFileReader.decodeNew(data, c, known: known, profile: profile)
                    samePractice += 1
                    try merge(file, name: name, path: full, mark: mark, hashes: c.records.map(\.hash), into: &state, db: db, report: &report)
                    continue
                }
                let header = try DeviceFileReader.header(data, name: name)
                guard let claimed = header.profileId else { throw DeviceFileProblem.notADeviceFile("no profileId") }
                if profile == nil {
                    // An empty store joins the practice of the first readable file.
                    let file = try DeviceFileReader.decode(data, profile: claimed)
                    guard file.users.contains(where: { $0.id == claimed && $0.deletedAt == nil }) else {
                        throw DeviceFileProblem.invalid("it holds no live profile to join")
                    }
                    profile = claimed
                    report.joined = true
                    try merge(file, name: name, path: full, mark: mark, hashes: DeviceFileReader.chunks(data)?.records.map(\.hash),
                              into: &state, db: db, report: &report)
                    continue
                }
                guard claimed == profile else { throw DeviceFileProblem.otherPractice(claimed) }
                let file = try DeviceFileReader.decode(data, profile: claimed)
                samePractice += 1
                try merge(file, name: name, path: full, mark: mark, hashes: nil, into: &state, db: db, report: &report)
            } catch let problem as DeviceFileProblem {
                warn(problem)
            }
        }
        guard let profile else {
            // Why each file was passed over, said: "holds no readable device file" named neither.
            if !report.warnings.isEmpty { throw SyncError.noReadableFileToJoin(folder, skipped: report.warnings) }
            throw SyncError.nothingToJoin(folder)
        }
        // This machine's first sync into a folder that is another practice's.
        if hasProfile, !otherPractice.isEmpty, samePractice == 0, report.unchanged == 0, !names.contains(own) {
            throw SyncError.anotherPractice(folder, files: otherPractice.sorted())
        }
        state.applyRules(profile: profile, calendar: calendar, now: now)
        try state.write(db)
        report.recordsChanged = state.changedCount
        report.bugsChanged = state.changed[Bug.table] ?? []
        return (report, state.deviceFile(device: device, profile: profile))
    }

    private func merge(_ file: DeviceFile, name: String, path full: String, mark: String, hashes: [UInt64]?,
                       into state: inout SyncState, db: Database, report: inout SyncReport) throws {
        let waiting = state.merge(file)
        if DeviceFile.device(inName: name) != report.deviceId { report.merged.append(name) }
        if waiting > 0 {
            // Not marked as seen: read again next time, when the catalogue may have them.
            report.warnings.append("\(full) has \(waiting) record\(waiting == 1 ? "" : "s") about catalogue entries this egofix does not have; "
                                   + "merged the rest, the \(waiting == 1 ? "record waits" : "records wait") for an update of egofix or ./Seeds")
        } else {
            try setMeta(db, Self.seenPrefix + name, mark)
            // The records merged, so that the next read of this file decodes only new ones.
            if let hashes {
                try setMeta(db, Self.recordsPrefix + name, DeviceFileReader.encodeHashes(hashes))
            } else {
                try db.execute(sql: "DELETE FROM meta WHERE key = ?", arguments: [Self.recordsPrefix + name])
            }
        }
    }

    private func writeOwnFile(_ db: Database, file: inout DeviceFile, folder: String, report: inout SyncReport) throws {
        let name = DeviceFile.name(device: report.deviceId)
        let local = try Self.localFingerprint(db)
        // A temporary file a killed sync left behind (the store's lock keeps two syncs here apart).
        AtomicFile.removeStaleTemporaries(of: name, in: folder)
        // This machine's file is encoded every time and written only when its bytes changed. (A
        // shortcut that skipped the encoding when row counts and sums of stamps were unchanged let
        // a record that changed at an unchanged stamp, such as the profile merged at a tie on the
        // clock, stay out of the file, and two machines did not converge.)
        // The bug states as the lifecycle left them.
        file.bugStates = try TableOps.everything(db, Bug.self).map(BugState.init)
        let data: Data
        do { data = try file.encoded() } catch {
            throw StoreError.database(operation: "writing the device file", reason: "a record does not encode as JSON: \(error)")
        }
        let path = report.ownFile
        if FileManager.default.contents(atPath: path) != data {
            do throws(AtomicFile.Failure) { try AtomicFile.write(data, to: path) } catch { throw SyncError.cannotWrite(path, error.reason) }
            report.wroteOwnFile = true
        }
        var st = stat()
        if lstat(path, &st) == 0 { try setMeta(db, Self.seenPrefix + name, Self.fingerprint(st)) }
        try setMeta(db, Self.localKey, local)
        try removeReplacedDeviceFile(db, folder: folder)
    }

    /// The file this store wrote under the device id it had before `import --replace`: once it is
    /// merged whole (its records are in this store, and in its new file), it is removed; it was
    /// merged as another machine's at every sync, for good ("2 other machines' files merged").
    private func removeReplacedDeviceFile(_ db: Database, folder: String) throws {
        guard let text = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [Self.replacedDeviceKey]),
              let old = UUIDText.parse(text) else { return }
        let name = DeviceFile.name(device: old), path = Self.join(folder, name)
        let merged = try Bool.fetchOne(db, sql: "SELECT EXISTS(SELECT 1 FROM meta WHERE key = ?)", arguments: [Self.seenPrefix + name]) ?? false
        var st = stat()
        guard merged || lstat(path, &st) != 0 else { return }
        unlink(path)
        try db.execute(sql: "DELETE FROM meta WHERE key IN (?, ?, ?)", arguments: [Self.replacedDeviceKey, Self.seenPrefix + name, Self.recordsPrefix + name])
    }

    static let localKey = "sync.local"

    /// A fingerprint of the practice's records as they stand: per table, the number of rows and the
    /// sums of their stamps in milliseconds. Every command that changes a record adds a row or moves
    /// one of its stamps (updatedAt, deletedAt, a pattern's viewedAt or dismissedAt; the others are
    /// never edited), so an equal fingerprint means nothing to write. An edit moves updatedAt even
    /// with the clock pinned to the previous edit's instant (`SyncRules.editStamp`).
    static func localFingerprint(_ db: Database) throws -> String {
        func ms(_ column: String) -> String { "sum(CAST(coalesce(\(column), 0) * 1000 AS INTEGER))" }
        var parts: [String] = []
        for (table, columns) in [(Bug.table, ["updatedAt"]), (UserProfile.table, ["updatedAt", "deletedAt"]),
                                 (FixCompletion.table, ["updatedAt", "deletedAt"]), (Crash.table, ["updatedAt", "deletedAt"]),
                                 (VersionEntry.table, ["deletedAt"]), (AnalyticsEvent.table, ["deletedAt"]),
                                 (DetectedPattern.table, ["deletedAt", "viewedAt", "dismissedAt"]),
                                 (WeeklyDiagnostic.table, ["deletedAt"])] {
            let sql = "SELECT count(*) || ':' || " + columns.map { "coalesce(\(ms($0)), 0)" }.joined(separator: " || ':' || ") + " FROM \(table)"
            parts.append(try String.fetchOne(db, sql: sql) ?? "")
        }
        return parts.joined(separator: "/")
    }
}

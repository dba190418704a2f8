import Foundation
import EgoFixCore

/// One machine's file in the sync folder: everything it knows of the practice's user records,
/// written by that machine only. The format is versioned; docs/sync.md describes it.
struct DeviceFile: Codable, Sendable {
    /// Bumped whenever the file's shape changes incompatibly.
    /// 2: completions carry `day`, which an egofix reading format 1 drops without a word (and then
    /// groups days given elsewhere in its own zone); it skips a format 2 file with a warning.
    static let currentFormat = 2
    /// The value of `format`, so another JSON file is not mistaken for one.
    static let kind = "egofix-device"
    static let prefix = "egofix-device-"
    static let suffix = ".json"

    var format: String
    var formatVersion: Int
    var deviceId: UUID
    var profileId: UUID
    var users: [UserProfile]
    var completions: [FixCompletion]
    var crashes: [Crash]
    var versions: [VersionEntry]
    var events: [AnalyticsEvent]
    var patterns: [DetectedPattern]
    var diagnostics: [WeeklyDiagnostic]
    /// The user's state of each catalogue bug (the catalogue's own text comes from the seeds).
    var bugStates: [BugState]

    /// `egofix-device-<DEVICE ID>.json`
    static func name(device: UUID) -> String { prefix + device.uuidString + suffix }

    /// The device id in a file name of this shape, or nil for any other name.
    static func device(inName name: String) -> UUID? {
        guard name.hasPrefix(prefix), name.hasSuffix(suffix) else { return nil }
        let middle = name.dropFirst(prefix.count).dropLast(suffix.count)
        return UUIDText.parse(String(middle))
    }

    struct Header: Decodable {
        var format: String?
        var formatVersion: Int?
        var deviceId: UUID?
        var profileId: UUID?
    }

    /// Canonical bytes: the export's encoder (sorted keys, exact instants), then a newline.
    func encoded() throws -> Data {
        var data = Snapshot.tidyEmptyArrays(try Snapshot.encoder().encode(self))
        data.append(0x0A)
        return data
    }
}

/// A bug's user state: what the practice did with a catalogue bug.
struct BugState: Codable, Sendable, Equatable {
    var id: UUID
    var slug: String
    var isActive: Bool
    var status: BugStatus
    var activatedAt: Date?
    var stableSince: Date?
    var lastRetestAt: Date?
    var resolvedAt: Date?
    var regressedAt: Date?
    var updatedAt: Date

    init(_ b: Bug) {
        id = b.id
        slug = b.slug
        isActive = b.isActive
        status = b.status
        activatedAt = b.activatedAt
        stableSince = b.stableSince
        lastRetestAt = b.lastRetestAt
        resolvedAt = b.resolvedAt
        regressedAt = b.regressedAt
        updatedAt = b.updatedAt
    }

    /// The catalogue's state of a bug: never activated, nothing happened to it.
    var isUntouched: Bool {
        !isActive && status == .identified && activatedAt == nil && stableSince == nil && lastRetestAt == nil
            && resolvedAt == nil && regressedAt == nil
    }

    /// The local bug with this state applied (catalogue text kept).
    func applied(to b: Bug) -> Bug {
        var out = b
        out.isActive = isActive
        out.status = status
        out.activatedAt = activatedAt
        out.stableSince = stableSince
        out.lastRetestAt = lastRetestAt
        out.resolvedAt = resolvedAt
        out.regressedAt = regressedAt
        out.updatedAt = updatedAt
        return out
    }
}

/// Why a file in the sync folder was skipped; `description` is the end of its warning line.
enum DeviceFileProblem: Error, Equatable, CustomStringConvertible {
    case unreadable(String)
    case notJSON
    case notADeviceFile(String)
    case newerFormat(Int)
    case misnamed(UUID)
    case otherPractice(UUID)
    case invalid(String)
    case tooLarge(Int)

    var description: String {
        switch self {
        case .unreadable(let why): return "cannot be read (\(why))"
        case .notJSON: return "is not JSON (truncated, or not a device file)"
        case .notADeviceFile(let why): return "is not an egofix device file (\(why))"
        case .newerFormat(let n):
            return "was written by a newer egofix (device format \(n); this one reads up to \(DeviceFile.currentFormat)). Update egofix on this machine"
        case .misnamed(let id): return "holds device \(id.uuidString), not the one its name says"
        case .otherPractice(let id):
            return "belongs to another practice (profile \(id.uuidString)). A store joins a practice only when empty: `egofix init --from DIR`"
        case .invalid(let why): return "breaks a rule (\(why))"
        case .tooLarge(let n): return "is \(n) bytes, over the limit of \(DeviceFileReader.maxBytes)"
        }
    }
}

enum DeviceFileReader {
    /// Far above a century of practice; a file over it is not a device file.
    static let maxBytes = 1 << 30

    /// The header alone: which practice and which machine, and whether this egofix reads it.
    static func header(_ data: Data, name: String) throws -> DeviceFile.Header {
        let h: DeviceFile.Header
        do { h = try JSONDecoder().decode(DeviceFile.Header.self, from: data) } catch DecodingError.dataCorrupted(let ctx) where ctx.codingPath.isEmpty {
            // The parser's own complaint: random bytes, a truncated file.
            throw DeviceFileProblem.notJSON
        } catch {
            throw DeviceFileProblem.notADeviceFile("its header does not decode")
        }
        guard h.format == DeviceFile.kind else { throw DeviceFileProblem.notADeviceFile("no \"format\": \"\(DeviceFile.kind)\"") }
        guard let v = h.formatVersion, v >= 1 else { throw DeviceFileProblem.notADeviceFile("no formatVersion") }
        if v > DeviceFile.currentFormat { throw DeviceFileProblem.newerFormat(v) }
        guard let device = h.deviceId, h.profileId != nil else { throw DeviceFileProblem.notADeviceFile("no deviceId or profileId") }
        if let named = DeviceFile.device(inName: name), named != device { throw DeviceFileProblem.misnamed(device) }
        return h
    }

    /// The whole file, decoded and checked: every record belongs to the file's profile, text
    /// holds no control character and stays within the Markdown cap, ids are unique per table.
    /// Instants are held to an import's bounds.
    static func decode(_ data: Data, profile: UUID) throws -> DeviceFile {
        let f: DeviceFile
        do { f = try Snapshot.decoder(checkingInstants: true).decode(DeviceFile.self, from: data) } catch {
            let issue = ImportValidation.issue(from: error, fallback: "does not decode")
            throw DeviceFileProblem.invalid(issue.description)
        }
        guard f.profileId == profile else { throw DeviceFileProblem.otherPractice(f.profileId) }
        try check(f, profile: profile)
        return f
    }

    /// The rules every record of a device file must satisfy (the whole file, or the records of it
    /// that are new since it was last merged).
    static func check(_ f: DeviceFile, profile: UUID) throws {
        func text(_ table: String, _ field: String, _ s: String?) throws {
            guard let s else { return }
            if s.utf8.count > Thresholds.maxMarkdownBytes {
                throw DeviceFileProblem.invalid("\(table).\(field) is \(s.utf8.count) bytes, over \(Thresholds.maxMarkdownBytes)")
            }
            if s.unicodeScalars.contains(where: ControlText.isRefused) {
                throw DeviceFileProblem.invalid("\(table).\(field) holds a control character")
            }
        }
        func unique<R: Identifiable>(_ table: String, _ rs: [R]) throws where R.ID == UUID {
            var seen = Set<UUID>()
            for r in rs where !seen.insert(r.id).inserted {
                throw DeviceFileProblem.invalid("\(table) has \(r.id.uuidString) twice")
            }
        }
        for u in f.users where u.id != profile { throw DeviceFileProblem.otherPractice(u.id) }
        for u in f.users {
            if let p = ImportValidation.profileRangeProblems(u).first { throw DeviceFileProblem.invalid("users.\(p.field): \(p.message)") }
        }
        try unique("users", f.users)
        try unique("completions", f.completions)
        try unique("crashes", f.crashes)
        try unique("versions", f.versions)
        try unique("events", f.events)
        try unique("patterns", f.patterns)
        try unique("diagnostics", f.diagnostics)
        var bugs = Set<UUID>()
        for b in f.bugStates where !bugs.insert(b.id).inserted { throw DeviceFileProblem.invalid("bugStates has \(b.id.uuidString) twice") }
        for c in f.completions {
            try text("completions", "reflection", c.reflection)
            if let d = c.day, !ImportValidation.dayOrdinals.contains(d) { throw DeviceFileProblem.invalid("completions.day: \(d) is not a day from 1900 to 2200") }
            if c.userId != profile { throw DeviceFileProblem.invalid("completion \(c.id.uuidString) belongs to another profile") }
        }
        for e in f.events {
            if let p = ImportValidation.eventRangeProblems(e).first { throw DeviceFileProblem.invalid("events.\(p.field): \(p.message)") }
        }
        for c in f.crashes {
            try text("crashes", "note", c.note)
            if c.userId != profile { throw DeviceFileProblem.invalid("crash \(c.id.uuidString) belongs to another profile") }
        }
        for p in f.patterns {
            try text("patterns", "title", p.title)
            try text("patterns", "body", p.body)
            try text("patterns", "basis", p.basis)
        }
        for v in f.versions {
            try text("versions", "description", v.description)
            if Version(canonical: v.version) == nil { throw DeviceFileProblem.invalid("versions: \"\(v.version)\" is not a version like 1.3") }
        }
        for u in f.users where Version(canonical: u.currentVersion) == nil || u.currentStreak < 0 || u.longestStreak < 0 {
            throw DeviceFileProblem.invalid("the profile's version or streak is not one egofix writes")
        }
    }

    // MARK: - Reading only what changed

    /// A device file as written (canonical JSON), cut into its records without decoding them.
    struct Chunks {
        var format: String
        var formatVersion: Int
        var deviceId: UUID
        var profileId: UUID
        /// Each record: its table, its bytes in the file, and a hash of both.
        var records: [(table: String, range: Range<Int>, hash: UInt64)]
    }

    static let chunkTables: Set<String> = ["users", "completions", "crashes", "versions", "events", "patterns",
                                           "diagnostics", "bugStates"]

    /// The file cut into records, when it has exactly the shape the encoder writes (one key per
    /// line at two spaces, one record per block at four); nil for anything else, which is then
    /// read whole by `decode` (and refused there when it is not a device file).
    static func chunks(_ data: Data) -> Chunks? {
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Chunks? in
            let b = raw.bindMemory(to: UInt8.self)
            let n = b.count
            guard n >= 2, b[0] == UInt8(ascii: "{"), b[1] == 0x0A, b[n - 1] == 0x0A else { return nil }
            var format: String?, version: Int?, device: UUID?, profile: UUID?
            var records: [(table: String, range: Range<Int>, hash: UInt64)] = []
            var table: String?
            var recordStart: Int?
            var i = 2
            var closed = false
            func line(_ start: Int, _ end: Int, is text: StaticString) -> Bool {
                guard end - start == text.utf8CodeUnitCount else { return false }
                for k in 0..<(end - start) where b[start + k] != text.utf8Start[k] { return false }
                return true
            }
            while i < n {
                var j = i
                while j < n, b[j] != 0x0A { j += 1 }
                // b[i..<j] is one line.
                if closed { return nil }
                if let t = table {
                    if let start = recordStart {
                        if line(i, j, is: "    }") || line(i, j, is: "    },") {
                            let end = i + 5
                            var h: UInt64 = 0xcbf2_9ce4_8422_2325
                            for c in t.utf8 { h = (h ^ UInt64(c)) &* 0x0000_0100_0000_01b3 }
                            for k in start..<end { h = (h ^ UInt64(b[k])) &* 0x0000_0100_0000_01b3 }
                            records.append((t, start..<end, h))
                            recordStart = nil
                        }
                    } else if line(i, j, is: "    {") {
                        recordStart = i + 4
                    } else if line(i, j, is: "  ]") || line(i, j, is: "  ],") {
                        table = nil
                    } else {
                        return nil
                    }
                } else if line(i, j, is: "}") {
                    closed = true
                } else {
                    // `  "key" : value` with an optional comma.
                    let text = String(decoding: UnsafeBufferPointer(rebasing: b[i..<j]), as: UTF8.self)
                    guard text.hasPrefix("  \""), let sep = text.range(of: "\" : ") else { return nil }
                    let key = String(text[text.index(text.startIndex, offsetBy: 3)..<sep.lowerBound])
                    var value = String(text[sep.upperBound...])
                    if value.hasSuffix(",") { value.removeLast() }
                    if chunkTables.contains(key) {
                        if value == "[" { table = key } else if value != "[]" { return nil }
                    } else if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 {
                        let inner = String(value.dropFirst().dropLast())
                        if inner.contains("\\") { return nil }
                        switch key {
                        case "format": format = inner
                        case "deviceId": device = UUIDText.parse(inner)
                        case "profileId": profile = UUIDText.parse(inner)
                        default: return nil
                        }
                    } else if key == "formatVersion", let v = Int(value) {
                        version = v
                    } else {
                        return nil
                    }
                }
                i = j + 1
            }
            guard closed, table == nil, let format, let version, let device, let profile else { return nil }
            return Chunks(format: format, formatVersion: version, deviceId: device, profileId: profile, records: records)
        }
    }

    /// The records of `chunks` whose hashes are not in `known`, decoded into a device file of
    /// their own (header from the file), and checked like a whole file.
    static func decodeNew(_ data: Data, _ c: Chunks, known: Set<UInt64>, profile: UUID) throws -> DeviceFile {
        guard c.profileId == profile else { throw DeviceFileProblem.otherPractice(c.profileId) }
        var f = DeviceFile(format: c.format, formatVersion: c.formatVersion, deviceId: c.deviceId, profileId: c.profileId,
                           users: [], completions: [], crashes: [], versions: [], events: [], patterns: [], diagnostics: [],
                           bugStates: [])
        let decoder = Snapshot.decoder(checkingInstants: true)
        func one<T: Decodable>(_ type: T.Type, _ r: Range<Int>, _ table: String) throws -> T {
            do { return try decoder.decode(T.self, from: data.subdata(in: r)) } catch {
                let issue = ImportValidation.issue(from: error, fallback: "does not decode")
                throw DeviceFileProblem.invalid("\(table): \(issue.description)")
            }
        }
        for r in c.records where !known.contains(r.hash) {
            switch r.table {
            case "users": f.users.append(try one(UserProfile.self, r.range, r.table))
            case "completions": f.completions.append(try one(FixCompletion.self, r.range, r.table))
            case "crashes": f.crashes.append(try one(Crash.self, r.range, r.table))
            case "versions": f.versions.append(try one(VersionEntry.self, r.range, r.table))
            case "events": f.events.append(try one(AnalyticsEvent.self, r.range, r.table))
            case "patterns": f.patterns.append(try one(DetectedPattern.self, r.range, r.table))
            case "diagnostics": f.diagnostics.append(try one(WeeklyDiagnostic.self, r.range, r.table))
            default: f.bugStates.append(try one(BugState.self, r.range, r.table))
            }
        }
        try check(f, profile: profile)
        return f
    }

    /// The hashes of a file's records, as kept in the store's meta: 16 hex digits each.
    static func encodeHashes(_ hashes: [UInt64]) -> String {
        var out = [UInt8]()
        out.reserveCapacity(hashes.count * 16)
        let digits = Array("0123456789abcdef".utf8)
        for h in hashes.sorted() {
            for k in stride(from: 60, through: 0, by: -4) { out.append(digits[Int((h >> UInt64(k)) & 0xF)]) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func decodeHashes(_ text: String?) -> Set<UInt64> {
        guard let text else { return [] }
        var out = Set<UInt64>()
        var h: UInt64 = 0, k = 0
        for c in text.utf8 {
            let v: UInt64
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): v = UInt64(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): v = UInt64(c - UInt8(ascii: "a") + 10)
            default: return []
            }
            h = h << 4 | v
            k += 1
            if k == 16 {
                out.insert(h)
                h = 0
                k = 0
            }
        }
        return out
    }
}

import Foundation
import EgoFixCore

/// One machine's file in the sync folder: everything it knows of the practice's user records,
/// written by that machine only. The format is versioned; docs/sync.md describes it.
struct DeviceFile: Codable, Sendable {
    /// Bumped whenever the file's shape changes incompatibly.
    static let currentFormat = 1
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
    static func decode(_ data: Data, profile: UUID) throws -> DeviceFile {
        let f: DeviceFile
        do { f = try Snapshot.decoder().decode(DeviceFile.self, from: data) } catch {
            let issue = ImportValidation.issue(from: error, fallback: "does not decode")
            throw DeviceFileProblem.invalid(issue.description)
        }
        guard f.profileId == profile else { throw DeviceFileProblem.otherPractice(f.profileId) }
        func text(_ table: String, _ field: String, _ s: String?) throws {
            guard let s else { return }
            if s.utf8.count > Thresholds.maxMarkdownBytes {
                throw DeviceFileProblem.invalid("\(table).\(field) is \(s.utf8.count) bytes, over \(Thresholds.maxMarkdownBytes)")
            }
            if s.unicodeScalars.contains(where: { c in
                (c.value < 0x20 && c != "\t" && c != "\n" && c != "\r") || (0x7F...0x9F).contains(c.value)
            }) {
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
            if c.userId != profile { throw DeviceFileProblem.invalid("completion \(c.id.uuidString) belongs to another profile") }
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
        return f
    }
}

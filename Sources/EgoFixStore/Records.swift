import Foundation
import GRDB
import EgoFixCore

/// A Core record as a row of one SQLite table.
///
/// `columns` lists every column in table order (the first is `id`); `orderColumn` is the column
/// holding the record's `orderDate`, so `ORDER BY orderColumn, id` is exactly the in-memory order
/// (by orderDate, then uuidString: uppercase hex sorts the same bytewise as by String).
protocol SQLRecord: StoredRecord, Codable {
    static var table: String { get }
    static var columns: [String] { get }
    static var orderColumn: String { get }
    func databaseValues() throws -> [DatabaseValue]
    init(_ r: RowReader) throws
}

extension SQLRecord {
    static var orderBy: String { "\(orderColumn), id" }
}

extension Bug: SQLRecord {
    static let table = "bugs"
    static let orderColumn = "createdAt"
    static let columns = ["id", "slug", "title", "description", "color", "isActive", "status", "activatedAt",
                          "stableSince", "lastRetestAt", "resolvedAt", "createdAt", "updatedAt", "deletedAt", "syncToken", "regressedAt"]
    func databaseValues() throws -> [DatabaseValue] {
        [Col.uuid(id), Col.text(slug), Col.text(title), Col.text(description), Col.text(color), Col.bool(isActive),
         Col.raw(status), Col.date(activatedAt), Col.date(stableSince), Col.date(lastRetestAt), Col.date(resolvedAt),
         Col.date(createdAt), Col.date(updatedAt), Col.date(deletedAt), Col.text(syncToken), Col.date(regressedAt)]
    }
    init(_ r: RowReader) throws {
        self.init(id: try r.uuid("id"), slug: try r.string("slug"), title: try r.string("title"),
                  description: try r.string("description"), color: try r.string("color"), isActive: try r.bool("isActive"),
                  status: try r.raw("status"), activatedAt: try r.dateOpt("activatedAt"),
                  stableSince: try r.dateOpt("stableSince"), lastRetestAt: try r.dateOpt("lastRetestAt"),
                  resolvedAt: try r.dateOpt("resolvedAt"), createdAt: try r.date("createdAt"),
                  updatedAt: try r.date("updatedAt"), deletedAt: try r.dateOpt("deletedAt"),
                  syncToken: try r.stringOpt("syncToken"), regressedAt: try r.dateOpt("regressedAt"))
    }
}

extension Fix: SQLRecord {
    static let table = "fixes"
    static let orderColumn = "number"
    static let columns = ["id", "number", "bugId", "type", "severity", "interactionType", "prompt", "inlineComment",
                          "validation", "configurationData", "createdAt", "updatedAt", "deletedAt", "syncToken", "retiredAt"]
    func databaseValues() throws -> [DatabaseValue] {
        [Col.uuid(id), Col.int(number), Col.uuid(bugId), Col.raw(type), Col.raw(severity), Col.raw(interactionType),
         Col.text(prompt), Col.text(inlineComment), Col.text(validation), Col.blob(configurationData),
         Col.date(createdAt), Col.date(updatedAt), Col.date(deletedAt), Col.text(syncToken), Col.date(retiredAt)]
    }
    init(_ r: RowReader) throws {
        self.init(id: try r.uuid("id"), number: try r.int("number"), bugId: try r.uuid("bugId"), type: try r.raw("type"),
                  severity: try r.raw("severity"), interactionType: try r.raw("interactionType"),
                  prompt: try r.string("prompt"), inlineComment: try r.stringOpt("inlineComment"),
                  validation: try r.stringOpt("validation"), configurationData: try r.data("configurationData"),
                  createdAt: try r.date("createdAt"), updatedAt: try r.date("updatedAt"),
                  deletedAt: try r.dateOpt("deletedAt"), syncToken: try r.stringOpt("syncToken"),
                  retiredAt: try r.dateOpt("retiredAt"))
    }
}

extension FixCompletion: SQLRecord {
    static let table = "completions"
    static let orderColumn = "assignedAt"
    static let columns = ["id", "fixId", "userId", "outcome", "reflection", "outcomeData", "assignedAt", "completedAt",
                          "createdAt", "updatedAt", "deletedAt", "syncToken", "day"]
    func databaseValues() throws -> [DatabaseValue] {
        [Col.uuid(id), Col.uuid(fixId), Col.uuid(userId), Col.raw(outcome), Col.text(reflection), Col.blob(outcomeData),
         Col.date(assignedAt), Col.date(completedAt), Col.date(createdAt), Col.date(updatedAt), Col.date(deletedAt),
         Col.text(syncToken), Col.int(day)]
    }
    init(_ r: RowReader) throws {
        self.init(id: try r.uuid("id"), fixId: try r.uuid("fixId"), userId: try r.uuid("userId"),
                  outcome: try r.raw("outcome"), reflection: try r.stringOpt("reflection"),
                  outcomeData: try r.data("outcomeData"), assignedAt: try r.date("assignedAt"),
                  completedAt: try r.dateOpt("completedAt"), createdAt: try r.date("createdAt"),
                  updatedAt: try r.date("updatedAt"), deletedAt: try r.dateOpt("deletedAt"),
                  syncToken: try r.stringOpt("syncToken"), day: try r.intOpt("day"))
    }
}

extension Crash: SQLRecord {
    static let table = "crashes"
    static let orderColumn = "crashedAt"
    static let columns = ["id", "userId", "bugId", "note", "crashedAt", "rebootedAt", "createdAt", "updatedAt",
                          "deletedAt", "syncToken"]
    func databaseValues() throws -> [DatabaseValue] {
        [Col.uuid(id), Col.uuid(userId), Col.uuid(bugId), Col.text(note), Col.date(crashedAt), Col.date(rebootedAt),
         Col.date(createdAt), Col.date(updatedAt), Col.date(deletedAt), Col.text(syncToken)]
    }
    init(_ r: RowReader) throws {
        self.init(id: try r.uuid("id"), userId: try r.uuid("userId"), bugId: try r.uuidOpt("bugId"),
                  note: try r.stringOpt("note"), crashedAt: try r.date("crashedAt"), rebootedAt: try r.dateOpt("rebootedAt"),
                  createdAt: try r.date("createdAt"), updatedAt: try r.date("updatedAt"),
                  deletedAt: try r.dateOpt("deletedAt"), syncToken: try r.stringOpt("syncToken"))
    }
}

extension UserProfile: SQLRecord {
    static let table = "users"
    static let orderColumn = "createdAt"
    static let columns = ["id", "currentVersion", "primaryBugId", "currentStreak", "longestStreak", "lastEngagementDate",
                          "streakFreezeAvailable", "freezeUsedWeekStart", "lastTidbitId", "createdAt", "updatedAt",
                          "deletedAt", "syncToken", "lastSyncedAt", "lastEngagementDay"]
    func databaseValues() throws -> [DatabaseValue] {
        [Col.uuid(id), Col.text(currentVersion), Col.uuid(primaryBugId), Col.int(currentStreak), Col.int(longestStreak),
         Col.date(lastEngagementDate), Col.bool(streakFreezeAvailable), Col.int(freezeUsedWeekStart),
         Col.uuid(lastTidbitId), Col.date(createdAt), Col.date(updatedAt), Col.date(deletedAt), Col.text(syncToken),
         Col.date(lastSyncedAt), Col.int(lastEngagementDay)]
    }
    init(_ r: RowReader) throws {
        self.init(id: try r.uuid("id"), currentVersion: try r.string("currentVersion"),
                  primaryBugId: try r.uuidOpt("primaryBugId"), currentStreak: try r.int("currentStreak"),
                  longestStreak: try r.int("longestStreak"), lastEngagementDate: try r.dateOpt("lastEngagementDate"),
                  streakFreezeAvailable: try r.bool("streakFreezeAvailable"),
                  freezeUsedWeekStart: try r.intOpt("freezeUsedWeekStart"), lastTidbitId: try r.uuidOpt("lastTidbitId"),
                  createdAt: try r.date("createdAt"), updatedAt: try r.date("updatedAt"),
                  deletedAt: try r.dateOpt("deletedAt"), syncToken: try r.stringOpt("syncToken"),
                  lastSyncedAt: try r.dateOpt("lastSyncedAt"), lastEngagementDay: try r.intOpt("lastEngagementDay"))
    }
}

extension VersionEntry: SQLRecord {
    static let table = "versions"
    static let orderColumn = "createdAt"
    static let columns = ["id", "userId", "version", "changeType", "description", "createdAt", "deletedAt", "syncToken"]
    func databaseValues() throws -> [DatabaseValue] {
        [Col.uuid(id), Col.uuid(userId), Col.text(version), Col.raw(changeType), Col.text(description),
         Col.date(createdAt), Col.date(deletedAt), Col.text(syncToken)]
    }
    init(_ r: RowReader) throws {
        self.init(id: try r.uuid("id"), userId: try r.uuid("userId"), version: try r.string("version"),
                  changeType: try r.raw("changeType"), description: try r.string("description"),
                  createdAt: try r.date("createdAt"), deletedAt: try r.dateOpt("deletedAt"),
                  syncToken: try r.stringOpt("syncToken"))
    }
}

extension AnalyticsEvent: SQLRecord {
    static let table = "events"
    static let orderColumn = "timestamp"
    static let columns = ["id", "userId", "eventType", "bugId", "fixId", "context", "dayOfWeek", "hourOfDay",
                          "timestamp", "deletedAt", "syncToken"]
    func databaseValues() throws -> [DatabaseValue] {
        [Col.uuid(id), Col.uuid(userId), Col.raw(eventType), Col.uuid(bugId), Col.uuid(fixId), Col.raw(context),
         Col.int(dayOfWeek), Col.int(hourOfDay), Col.date(timestamp), Col.date(deletedAt), Col.text(syncToken)]
    }
    init(_ r: RowReader) throws {
        self.init(id: try r.uuid("id"), userId: try r.uuid("userId"), eventType: try r.raw("eventType"),
                  bugId: try r.uuidOpt("bugId"), fixId: try r.uuidOpt("fixId"), context: try r.rawOpt("context"),
                  dayOfWeek: try r.int("dayOfWeek"), hourOfDay: try r.int("hourOfDay"),
                  timestamp: try r.date("timestamp"), deletedAt: try r.dateOpt("deletedAt"),
                  syncToken: try r.stringOpt("syncToken"))
    }
}

extension DetectedPattern: SQLRecord {
    static let table = "patterns"
    static let orderColumn = "detectedAt"
    static let columns = ["id", "userId", "patternType", "severity", "title", "body", "relatedBugIds", "dataPoints",
                          "pValue", "basis", "detectedAt", "viewedAt", "dismissedAt", "deletedAt", "syncToken"]
    func databaseValues() throws -> [DatabaseValue] {
        [Col.uuid(id), Col.uuid(userId), Col.raw(patternType), Col.raw(severity), Col.text(title), Col.text(body),
         try Col.json(relatedBugIds), Col.int(dataPoints), Col.real(pValue), Col.text(basis), Col.date(detectedAt),
         Col.date(viewedAt), Col.date(dismissedAt), Col.date(deletedAt), Col.text(syncToken)]
    }
    init(_ r: RowReader) throws {
        self.init(id: try r.uuid("id"), userId: try r.uuid("userId"), patternType: try r.raw("patternType"),
                  severity: try r.raw("severity"), title: try r.string("title"), body: try r.string("body"),
                  relatedBugIds: try r.json("relatedBugIds", [UUID].self), dataPoints: try r.int("dataPoints"),
                  pValue: try r.double("pValue"), basis: try r.string("basis"), detectedAt: try r.date("detectedAt"),
                  viewedAt: try r.dateOpt("viewedAt"), dismissedAt: try r.dateOpt("dismissedAt"),
                  deletedAt: try r.dateOpt("deletedAt"), syncToken: try r.stringOpt("syncToken"))
    }
}

extension WeeklyDiagnostic: SQLRecord {
    static let table = "diagnostics"
    static let orderColumn = "weekStarting"
    static let columns = ["id", "userId", "weekStarting", "responses", "completedAt", "deletedAt", "syncToken"]
    func databaseValues() throws -> [DatabaseValue] {
        [Col.uuid(id), Col.uuid(userId), Col.date(weekStarting), try Col.json(responses), Col.date(completedAt),
         Col.date(deletedAt), Col.text(syncToken)]
    }
    init(_ r: RowReader) throws {
        self.init(id: try r.uuid("id"), userId: try r.uuid("userId"), weekStarting: try r.date("weekStarting"),
                  responses: try WeeklyDiagnostic.responses(r.string("responses")) ?? r.json("responses", [BugDiagnosticResponse].self),
                  completedAt: try r.date("completedAt"), deletedAt: try r.dateOpt("deletedAt"),
                  syncToken: try r.stringOpt("syncToken"))
    }
}

extension MicroEducation: SQLRecord {
    static let table = "education"
    static let orderColumn = "createdAt"
    static let columns = ["id", "bugSlug", "trigger", "body", "createdAt", "updatedAt", "deletedAt"]
    func databaseValues() throws -> [DatabaseValue] {
        [Col.uuid(id), Col.text(bugSlug), Col.raw(trigger), Col.text(body), Col.date(createdAt), Col.date(updatedAt),
         Col.date(deletedAt)]
    }
    init(_ r: RowReader) throws {
        self.init(id: try r.uuid("id"), bugSlug: try r.string("bugSlug"), trigger: try r.raw("trigger"),
                  body: try r.string("body"), createdAt: try r.date("createdAt"), updatedAt: try r.date("updatedAt"),
                  deletedAt: try r.dateOpt("deletedAt"))
    }
}

extension WeeklyDiagnostic {
    /// The responses column as the store writes it (canonical JSON: sorted keys, no spaces, no
    /// escapes), read without JSONDecoder; nil for anything else, which then goes to it. A quiet
    /// rating that carries a context is left to JSONDecoder too (the model's initializer drops it).
    static func responses(_ json: String) -> [BugDiagnosticResponse]? {
        var json = json
        return json.withUTF8 { b -> [BugDiagnosticResponse]? in
            var i = 0
            func expect(_ s: StaticString) -> Bool {
                let n = s.utf8CodeUnitCount
                guard i + n <= b.count else { return false }
                for k in 0..<n where b[i + k] != s.utf8Start[k] { return false }
                i += n
                return true
            }
            /// A string with no escapes, up to its closing quote.
            func string() -> UnsafeBufferPointer<UInt8>? {
                let start = i
                while i < b.count, b[i] != 0x22 {
                    if b[i] == 0x5c || b[i] < 0x20 { return nil }
                    i += 1
                }
                guard i < b.count else { return nil }
                defer { i += 1 }
                return UnsafeBufferPointer(rebasing: b[start..<i])
            }
            guard expect("[") else { return nil }
            var out: [BugDiagnosticResponse] = []
            if expect("]") { return i == b.count ? out : nil }
            while true {
                guard expect("{\"bugId\":\""), let id = string().flatMap(UUIDText.parse),
                      expect(",\"intensity\":\""), let raw = string(),
                      let intensity = BugIntensity(rawValue: String(decoding: raw, as: UTF8.self)) else { return nil }
                var context: EventContext?
                if expect(",\"primaryContext\":\"") {
                    guard intensity != .quiet, let c = string(),
                          let value = EventContext(rawValue: String(decoding: c, as: UTF8.self)) else { return nil }
                    context = value
                }
                guard expect("}") else { return nil }
                out.append(BugDiagnosticResponse(bugId: id, intensity: intensity, primaryContext: context))
                if expect("]") { return i == b.count ? out : nil }
                guard expect(",") else { return nil }
            }
        }
    }
}

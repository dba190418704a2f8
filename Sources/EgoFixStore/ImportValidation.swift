import Foundation
import GRDB
import EgoFixCore

enum ImportValidation {
    private struct Header: Decodable {
        var formatVersion: Int
    }

    /// Decodes the whole file and checks every rule; throws StoreError naming table, index and field.
    /// `checkingInstants`: an import the user asked for (instants from 1900 to 2099).
    static func decodeAndValidate(_ data: Data, checkingInstants: Bool = false) throws -> Snapshot {
        let decoder = Snapshot.decoder(checkingInstants: checkingInstants)
        // Not JSON at all (truncated, binary, another format)?
        var object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            throw StoreError.importNotJSON(reason: jsonReason(error))
        }
        var data = data
        if let shown = controlCharactersShown(in: object) {
            object = shown.object
            data = shown.data
        }
        // A sync folder's device file is not an export (it was refused as "bugs: missing").
        if let top = object as? [String: Any], top["deviceId"] != nil, top["profileId"] != nil {
            throw StoreError.importInvalid([ImportIssue(table: "", index: nil, field: "",
                message: "this is a sync folder's device file, not an export; `egofix sync DIR` merges the folder into a store, `egofix init --from DIR` joins it from a new one")])
        }
        // No text anywhere may hold a control character (NUL, escape sequences, ...).
        if let problem = controlCharacter(in: object, path: "") {
            throw StoreError.importInvalid([problem])
        }
        let header: Header
        do { header = try decoder.decode(Header.self, from: data) } catch DecodingError.keyNotFound(let key, _) where key.stringValue == "formatVersion" {
            // JSON, but not an export at all ("formatVersion: missing" named a field of a format
            // the person may never have heard of).
            throw StoreError.importInvalid([ImportIssue(table: "", index: nil, field: "",
                                                        message: "the file is not an EgoFix export (it has no formatVersion); `egofix export FILE` makes one")])
        } catch {
            throw StoreError.importInvalid([issue(from: error, fallback: "this is not an EgoFix export")])
        }
        if header.formatVersion > Snapshot.currentFormat {
            throw StoreError.importNewerFormat(found: header.formatVersion, supported: Snapshot.currentFormat)
        }
        if header.formatVersion < 1 {
            throw StoreError.importInvalid([ImportIssue(table: "", index: nil, field: "formatVersion",
                                                        message: "\(header.formatVersion) is not a format version")])
        }
        let s: Snapshot
        do { s = try decoder.decode(Snapshot.self, from: data) } catch {
            var found = issue(from: error, fallback: "does not decode")
            // Foundation names no field for a number an integer field cannot hold (1.5, 1e30):
            // the first such number in the file is the one.
            if found.table.isEmpty, found.field.isEmpty, let at = wholeNumberProblem(in: object, path: []) { found = at }
            throw StoreError.importInvalid([found])
        }
        // A key given twice is read as its first value by the decoder and as its last by the check
        // above, so a control character could pass in the first: a file with more keys than its
        // objects hold has its text checked again as decoded (an export never has; this costs
        // nothing on the files egofix writes).
        if keyCount(in: data) != keyCount(in: object),
           let decoded = try? JSONSerialization.jsonObject(with: Snapshot.encoder().encode(s)),
           let problem = controlCharacter(in: decoded, path: "") {
            throw StoreError.importInvalid([problem])
        }
        let problems = check(s)
        if !problems.isEmpty { throw StoreError.importInvalid(problems) }
        return s
    }

    /// An export of format 1, from the first egofix, which stored a reflection or a crash note as
    /// given: its control characters shown as `\u{1B}`, as migration v5 shows them in a store
    /// (`Schema.showControlCharacters`), so the backup made before an upgrade imports. Nil when
    /// the file is of a later format or holds none.
    static func controlCharactersShown(in object: Any) -> (object: Any, data: Data)? {
        guard var top = object as? [String: Any], (top["formatVersion"] as? Int) == 1 else { return nil }
        var changed = false
        for (table, field) in [("completions", "reflection"), ("crashes", "note")] {
            guard var rows = top[table] as? [[String: Any]] else { continue }
            for i in rows.indices {
                guard let text = rows[i][field] as? String else { continue }
                let shown = ControlText.shown(text)
                if shown != text {
                    rows[i][field] = shown
                    changed = true
                }
            }
            top[table] = rows
        }
        guard changed, let data = try? JSONSerialization.data(withJSONObject: top, options: [.sortedKeys]) else { return nil }
        return (top, data)
    }

    /// The longest streak a record may claim: more days than lie between the earliest record and the
    /// clock's last year.
    static let maxStreak = 100_000
    /// The local days a profile's day fields may name: from the earliest record's year to well past
    /// the clock's last, so a day added or a span taken never overflows.
    static let dayOrdinals = LocalDay(year: 1900, month: 1, day: 1).ordinal...LocalDay(year: 2200, month: 12, day: 31).ordinal

    /// The profile's counters and day fields out of range, as (field, why): the same rule for an
    /// import and for a device file merged by sync.
    static func profileRangeProblems(_ u: UserProfile) -> [(field: String, message: String)] {
        var out: [(field: String, message: String)] = []
        for (field, value) in [("currentStreak", u.currentStreak), ("longestStreak", u.longestStreak)] where !(0...maxStreak).contains(value) {
            out.append((field, "\(value) is not between 0 and \(maxStreak)"))
        }
        for (field, value) in [("lastEngagementDay", u.lastEngagementDay), ("freezeUsedWeekStart", u.freezeUsedWeekStart)] {
            if let value, !dayOrdinals.contains(value) {
                out.append((field, "\(value) is not a day from 1900 to 2200"))
            }
        }
        return out
    }

    /// An event's local weekday and hour out of range: its weekday gives the day it counted for
    /// the streak, and the detectors read both.
    static func eventRangeProblems(_ e: AnalyticsEvent) -> [(field: String, message: String)] {
        var out: [(field: String, message: String)] = []
        if !(1...7).contains(e.dayOfWeek) { out.append(("dayOfWeek", "\(e.dayOfWeek) is not a weekday from 1 (Sunday) to 7")) }
        if !(0...23).contains(e.hourOfDay) { out.append(("hourOfDay", "\(e.hourOfDay) is not an hour from 0 to 23")) }
        return out
    }

    /// Every string in a JSON document, keys and values (none when it is not JSON).
    static func strings(inJSON data: Data) -> [String] {
        var out: [String] = []
        func walk(_ v: Any) {
            if let s = v as? String { out.append(s) }
            else if let a = v as? [Any] { a.forEach(walk) }
            else if let d = v as? [String: Any] { for k in d.keys.sorted() { out.append(k); d[k].map(walk) } }
        }
        if let v = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) { walk(v) }
        return out
    }

    /// Every rule a decoded file must satisfy, problems in table then record order.
    static func check(_ s: Snapshot) -> [ImportIssue] {
        var issues: [ImportIssue] = []

        func unique<R: SQLRecord>(_ records: [R]) -> Set<UUID> {
            var firstIndex: [UUID: Int] = [:]
            for (i, r) in records.enumerated() {
                if let earlier = firstIndex[r.id] {
                    issues.append(ImportIssue(table: R.table, index: i, field: "id",
                                              message: "\(r.id.uuidString) appears twice (also at index \(earlier))"))
                } else {
                    firstIndex[r.id] = i
                }
            }
            return Set(firstIndex.keys)
        }
        func size(_ table: String, _ i: Int, _ field: String, _ text: String?) {
            guard let text else { return }
            let bytes = text.utf8.count
            if bytes > Thresholds.maxMarkdownBytes {
                issues.append(ImportIssue(table: table, index: i, field: field,
                                          message: "\(bytes) bytes, over the limit of \(Thresholds.maxMarkdownBytes)"))
            }
        }

        let bugIds = unique(s.bugs)
        // A slug names one bug: its page, its colour, `--bug SLUG` (two made every build fail).
        var slugAt: [String: Int] = [:]
        for (i, b) in s.bugs.enumerated() {
            // The slug names a page's folder and a class in style.css: any other shape broke out
            // of the stylesheet (a slug of `x){}*{display:none}.y(` left every page blank).
            if !NameShape.isSlug(b.slug) {
                issues.append(ImportIssue(table: Bug.table, index: i, field: "slug", message: "'\(b.slug)' is not lowercase words joined by '-'"))
            }
            for (field, text) in [("title", b.title), ("description", b.description)] {
                if let bad = CopyRules.unsafeCharacter(text) { issues.append(ImportIssue(table: Bug.table, index: i, field: field, message: bad)) }
            }
        }
        for (i, f) in s.fixes.enumerated() {
            // The configuration's text (a quiz's options, a counter's description) reaches the
            // pages as the prompt does.
            let configured = f.configurationData.map { ImportValidation.strings(inJSON: $0).joined(separator: "\n") } ?? ""
            for (field, text) in [("prompt", f.prompt), ("inlineComment", f.inlineComment ?? ""), ("validation", f.validation ?? ""),
                                  ("configurationData", configured)] {
                if let bad = CopyRules.unsafeCharacter(text) { issues.append(ImportIssue(table: Fix.table, index: i, field: field, message: bad)) }
            }
        }
        for (i, e) in s.education.enumerated() {
            if let bad = CopyRules.unsafeCharacter(e.body) { issues.append(ImportIssue(table: MicroEducation.table, index: i, field: "body", message: bad)) }
        }
        for (i, b) in s.bugs.enumerated() where b.deletedAt == nil {
            if let earlier = slugAt[b.slug] {
                issues.append(ImportIssue(table: Bug.table, index: i, field: "slug",
                                          message: "'\(b.slug)' is also the slug of the bug at index \(earlier); a slug names one bug"))
            } else {
                slugAt[b.slug] = i
            }
        }
        let fixIds = unique(s.fixes)
        for (i, f) in s.fixes.enumerated() where !bugIds.contains(f.bugId) {
            issues.append(ImportIssue(table: Fix.table, index: i, field: "bugId",
                                      message: "refers to bug \(f.bugId.uuidString), which is not in the file"))
        }
        _ = unique(s.completions)
        for (i, c) in s.completions.enumerated() {
            if !fixIds.contains(c.fixId) {
                issues.append(ImportIssue(table: FixCompletion.table, index: i, field: "fixId",
                                          message: "refers to fix \(c.fixId.uuidString), which is not in the file"))
            }
            size(FixCompletion.table, i, "reflection", c.reflection)
            if let d = c.day, !dayOrdinals.contains(d) {
                issues.append(ImportIssue(table: FixCompletion.table, index: i, field: "day", message: "\(d) is not a day from 1900 to 2200"))
            }
        }
        _ = unique(s.crashes)
        for (i, c) in s.crashes.enumerated() {
            if let b = c.bugId, !bugIds.contains(b) {
                issues.append(ImportIssue(table: Crash.table, index: i, field: "bugId",
                                          message: "refers to bug \(b.uuidString), which is not in the file"))
            }
            size(Crash.table, i, "note", c.note)
        }
        _ = unique(s.users)
        var liveProfile: Int?
        for (i, u) in s.users.enumerated() {
            if u.deletedAt == nil {
                if let first = liveProfile {
                    issues.append(ImportIssue(table: UserProfile.table, index: i, field: "",
                                              message: "a second profile (the first is at index \(first)); a store holds one"))
                }
                liveProfile = liveProfile ?? i
            }
            if let b = u.primaryBugId, !bugIds.contains(b) {
                issues.append(ImportIssue(table: UserProfile.table, index: i, field: "primaryBugId",
                                          message: "refers to bug \(b.uuidString), which is not in the file"))
            }
            for p in profileRangeProblems(u) {
                issues.append(ImportIssue(table: UserProfile.table, index: i, field: p.field, message: p.message))
            }
            if Version(canonical: u.currentVersion) == nil {
                issues.append(ImportIssue(table: UserProfile.table, index: i, field: "currentVersion",
                                          message: "\"\(u.currentVersion)\" is not a version like 1.3"))
            }
        }
        _ = unique(s.versions)
        for (i, v) in s.versions.enumerated() where Version(canonical: v.version) == nil {
            issues.append(ImportIssue(table: VersionEntry.table, index: i, field: "version",
                                      message: "\"\(v.version)\" is not a version like 1.3"))
        }
        _ = unique(s.events)
        for (i, e) in s.events.enumerated() {
            for p in eventRangeProblems(e) {
                issues.append(ImportIssue(table: AnalyticsEvent.table, index: i, field: p.field, message: p.message))
            }
        }
        _ = unique(s.patterns)
        _ = unique(s.diagnostics)
        _ = unique(s.education)
        // Every record belongs to the one profile: sync writes only that profile's records, so
        // another's were kept here and never reached the other machines.
        if let p = liveProfile {
            let profile = s.users[p].id
            func owned(_ table: String, _ owners: [UUID]) {
                for (i, owner) in owners.enumerated() where owner != profile {
                    issues.append(ImportIssue(table: table, index: i, field: "userId",
                                              message: "\(owner.uuidString) is not the profile's id; a store holds one practice"))
                }
            }
            owned(FixCompletion.table, s.completions.map(\.userId))
            owned(Crash.table, s.crashes.map(\.userId))
            owned(VersionEntry.table, s.versions.map(\.userId))
            owned(AnalyticsEvent.table, s.events.map(\.userId))
            owned(DetectedPattern.table, s.patterns.map(\.userId))
            owned(WeeklyDiagnostic.table, s.diagnostics.map(\.userId))
        }
        // A practice's records need the profile they belong to (without one, every command would
        // ask for `egofix init` over them); a file of the catalogue alone needs none.
        let records = s.completions.count + s.crashes.count + s.versions.count + s.events.count + s.patterns.count + s.diagnostics.count
        if liveProfile == nil, records > 0 {
            issues.append(ImportIssue(table: UserProfile.table, index: nil, field: "",
                                      message: "no live profile, but \(records) records of a practice; an export holds the profile they belong to"))
        }
        return issues
    }

    /// A phrase for what the user has in this store, or nil when it holds no user record
    /// (soft-deleted ones count: they are the user's too).
    static func userData(_ db: Database) throws -> String? {
        var parts: [String] = []
        for table in Snapshot.userTables {
            let n = try TableOps.count(db, table: table)
            if n > 0 { parts.append(Snapshot.phrase(n, table)) }
        }
        return parts.isEmpty ? nil : "a practice (" + parts.joined(separator: ", ") + ")"
    }

    /// The first text in the file (values and keys, in key order) holding a control character
    /// other than tab, newline and carriage return, as an issue naming where; nil when there is none.
    static func controlCharacter(in value: Any, path: String) -> ImportIssue? {
        func bad(_ s: String) -> Unicode.Scalar? { s.unicodeScalars.first(where: ControlText.isRefused) }
        func issue(_ path: String, _ c: Unicode.Scalar) -> ImportIssue {
            // "completions[3].reflection" → table "completions", index 3, field "reflection".
            var table = path, index: Int?, field = ""
            if let open = path.firstIndex(of: "[") {
                table = String(path[..<open])
                let rest = path[path.index(after: open)...]
                if let close = rest.firstIndex(of: "]") {
                    index = Int(rest[..<close])
                    field = String(rest[rest.index(after: close)...].drop(while: { $0 == "." }))
                }
            }
            let code = "U+" + String(repeating: "0", count: max(0, 4 - String(c.value, radix: 16).count)) + String(c.value, radix: 16, uppercase: true)
            return ImportIssue(table: table, index: index, field: field,
                               message: "holds the control character \(code); text may hold tabs and line breaks, nothing else of the kind")
        }
        switch value {
        case let s as String:
            return bad(s).map { issue(path, $0) }
        case let list as [Any]:
            for (i, item) in list.enumerated() {
                if let found = controlCharacter(in: item, path: path + "[\(i)]") { return found }
            }
        case let object as [String: Any]:
            for key in object.keys.sorted() {
                let inner = path.isEmpty ? key : path + "." + key
                if let c = bad(key) { return issue(inner, c) }
                if let child = object[key], let found = controlCharacter(in: child, path: inner) { return found }
            }
        default:
            break
        }
        return nil
    }

    // MARK: - Messages

    /// The JSON reader's reason, as a clause inside a sentence: a lowercase start and no full
    /// stop of its own ("(Unexpected end of file during JSON parse.)." read twice stopped).
    static func jsonReason(_ error: Error) -> String {
        let ns = error as NSError
        var reason = ns.localizedDescription
        if let debug = ns.userInfo[NSDebugDescriptionErrorKey] as? String, !debug.isEmpty { reason = debug }
        else if case .dataCorrupted(let ctx)? = error as? DecodingError { reason = ctx.debugDescription }
        while reason.hasSuffix(".") { reason.removeLast() }
        if let first = reason.first, first.isUppercase, reason.dropFirst().first?.isLowercase == true {
            reason = first.lowercased() + reason.dropFirst()
        }
        return reason
    }

    /// An ImportIssue from a DecodingError's coding path: table, record index, field.
    static func issue(from error: Error, fallback: String) -> ImportIssue {
        guard let e = error as? DecodingError else {
            return ImportIssue(table: "", index: nil, field: "", message: "\(fallback): \(error)")
        }
        let path: [CodingKey]
        let message: String
        switch e {
        case .keyNotFound(let key, let ctx):
            path = ctx.codingPath + [key]
            message = "missing"
        case .valueNotFound(let type, let ctx):
            path = ctx.codingPath
            message = "is null, expected \(typeName(type))"
        case .typeMismatch(let type, let ctx):
            path = ctx.codingPath
            message = "has the wrong type, expected \(typeName(type))"
        case .dataCorrupted(let ctx):
            path = ctx.codingPath
            message = readable(ctx.debugDescription)
        @unknown default:
            return ImportIssue(table: "", index: nil, field: "", message: "\(fallback): \(error)")
        }
        return issue(at: path.map { $0.intValue.map(PathKey.index) ?? .name($0.stringValue) }, message: message)
    }

    /// A place in the file: an object's key or an array's index.
    enum PathKey {
        case name(String)
        case index(Int)
    }

    /// An ImportIssue at `path` in the file: its first key the table, then the record's index, then the field.
    static func issue(at path: [PathKey], message: String) -> ImportIssue {
        var path = path[...]
        var table = ""
        var index: Int?
        if case .name(let first)? = path.first, path.count > 1 {
            table = first
            path.removeFirst()
            if case .index(let i)? = path.first {
                index = i
                path.removeFirst()
            }
        }
        var field = ""
        for key in path {
            switch key {
            case .index(let i): field += "[\(i)]"
            case .name(let n): field += (field.isEmpty ? "" : ".") + n
            }
        }
        return ImportIssue(table: table, index: index, field: field, message: message)
    }

    /// How many keys the JSON text gives: strings followed by a colon, outside strings.
    static func keyCount(in data: Data) -> Int {
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Int in
            let b = raw.bindMemory(to: UInt8.self)
            var count = 0, i = 0, inString = false
            while i < b.count {
                let c = b[i]
                if inString {
                    if c == UInt8(ascii: "\\") {
                        i += 1
                    } else if c == UInt8(ascii: "\"") {
                        inString = false
                        var j = i + 1
                        while j < b.count, b[j] == 0x20 || b[j] == 0x0A || b[j] == 0x0D || b[j] == 0x09 { j += 1 }
                        if j < b.count, b[j] == UInt8(ascii: ":") { count += 1 }
                    }
                } else if c == UInt8(ascii: "\"") {
                    inString = true
                }
                i += 1
            }
            return count
        }
    }

    /// How many keys the parsed objects in `value` hold (a key given twice counts once).
    static func keyCount(in value: Any) -> Int {
        if let object = value as? [String: Any] { return object.count + object.values.reduce(0) { $0 + keyCount(in: $1) } }
        if let array = value as? [Any] { return array.reduce(0) { $0 + keyCount(in: $1) } }
        return 0
    }

    /// The first number in `value` that no integer field holds (a fraction, or beyond 64 bits),
    /// outside the fields that are fractions (`pValue`), as an issue at its place in the file.
    static func wholeNumberProblem(in value: Any, path: [PathKey]) -> ImportIssue? {
        if value is Bool { return nil }
        if let n = value as? NSNumber {
            let d = n.doubleValue
            if case .name("pValue")? = path.last { return nil }
            guard d != d.rounded() || abs(d) >= 9.2e18 else { return nil }
            return issue(at: path, message: "\(n) is not a whole number this field can hold")
        }
        if let array = value as? [Any] {
            for (i, item) in array.enumerated() {
                if let found = wholeNumberProblem(in: item, path: path + [.index(i)]) { return found }
            }
        } else if let object = value as? [String: Any] {
            for key in object.keys.sorted() {
                if let child = object[key], let found = wholeNumberProblem(in: child, path: path + [.name(key)]) { return found }
            }
        }
        return nil
    }

    /// Foundation's decoding complaints in the file's terms: one sentence, no Swift type names.
    private static func readable(_ text: String) -> String {
        var t = text.trimmingCharacters(in: .whitespaces)
        while t.hasSuffix("..") { t.removeLast() }
        if t.hasPrefix("Attempted to decode UUID from invalid UUID string") { return "is not a UUID like 2F1C6E4A-7B0D-4E8A-9C55-0A1B2C3D4E5F" }
        if t.hasPrefix("The given data was not valid JSON") || t.hasPrefix("Parsed JSON number") { return "is not a number this file can hold" }
        if t.hasPrefix("Cannot initialize"), let value = t.range(of: " value ") {
            return "\"\(t[value.upperBound...])\" is not one of the allowed values"
        }
        return t
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "text"
        case is Int.Type, is Double.Type: return "a number"
        case is Bool.Type: return "true or false"
        default:
            let n = String(describing: type)
            if n.hasPrefix("Array") { return "a list" }
            if n.hasPrefix("Dictionary") { return "an object" }
            return "a value"
        }
    }
}

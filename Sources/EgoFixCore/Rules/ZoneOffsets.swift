import Foundation

/// Time zone offsets from UTC, remembered per UTC day: asking the zone (ICU, behind a lock) costs
/// far more than the arithmetic around it, and the site and the demo ask tens of thousands of
/// times. A day is remembered as one offset only when the offset at its first and last second
/// agree (no transition in it); a day with a transition is asked about each time.
final class ZoneOffsets: @unchecked Sendable {
    static let shared = ZoneOffsets()

    private let lock = NSLock()
    private var zone = ""
    /// Offsets of the UTC days from `base` on (days since the reference date): seconds, `varies`
    /// for a day with a transition, `unknown` for one not asked about yet.
    private var base = 0
    private var table: [Int32] = []
    private static let unknown = Int32.min
    private static let varies = Int32.min + 1
    private static let maxDays = 120_000

    /// The zone's offset at `t` (seconds since the reference date).
    func offset(_ tz: TimeZone, at t: Double) -> Int { offset(tz, id: tz.identifier, at: t) }

    /// The days known so far, as they are now: for a loop over many instants (`LocalDay.Converter`),
    /// which reads them without taking the lock each time and asks the table about the others.
    struct Snapshot: Sendable {
        let base: Int
        let table: [Int32]

        /// The offset of a UTC day (days since the reference date) with no transition in it, if known.
        @inline(__always)
        func offset(utcDay day: Int) -> Int? {
            let i = day - base
            guard i >= 0 && i < table.count else { return nil }
            let v = table[i]
            return v == ZoneOffsets.unknown || v == ZoneOffsets.varies ? nil : Int(v)
        }
    }

    func snapshot(id: String) -> Snapshot {
        lock.lock()
        defer { lock.unlock() }
        return id == zone ? Snapshot(base: base, table: table) : Snapshot(base: 0, table: [])
    }

    /// The same, with the zone's identifier already at hand (reading it costs more than the lookup).
    func offset(_ tz: TimeZone, id: String, at t: Double) -> Int {
        let day = Int((t / 86_400).rounded(.down))
        let value = dayOffset(tz, id: id, day: day)
        return value == ZoneOffsets.varies ? tz.secondsFromGMT(for: Date(timeIntervalSinceReferenceDate: t)) : Int(value)
    }

    /// The offset of the instants around a local time (seconds since the reference date, on the
    /// wall clock) when it is the same for two whole days either side (more than any offset change);
    /// nil near a transition.
    func steadyOffset(_ tz: TimeZone, aroundLocal local: Double) -> Int? {
        let id = tz.identifier
        let guess = dayOffset(tz, id: id, day: Int((local / 86_400).rounded(.down)))
        guard guess != ZoneOffsets.varies else { return nil }
        let day = Int(((local - Double(guess)) / 86_400).rounded(.down))
        return all((day - 2)...(day + 2), have: guess, tz, id: id) ? Int(guess) : nil
    }

    /// `steadyOffset(_:aroundLocal:)` for every time of a local day at once (`start` is its first
    /// second on the wall clock): the offset when it is the same from two days before the day's
    /// first instant to two days after its last, nil otherwise.
    /// With the offset, the UTC days checked (all of which have it).
    func steadyOffset(_ tz: TimeZone, aroundLocalDay start: Double) -> (offset: Int, days: ClosedRange<Int>)? {
        let id = tz.identifier
        let guess = dayOffset(tz, id: id, day: Int((start / 86_400).rounded(.down)))
        guard guess != ZoneOffsets.varies else { return nil }
        let days = (Int(((start - Double(guess)) / 86_400).rounded(.down)) - 2)...(Int(((start + 86_399 - Double(guess)) / 86_400).rounded(.down)) + 2)
        return all(days, have: guess, tz, id: id) ? (Int(guess), days) : nil
    }

    /// Whether every UTC day in `days` has the offset `value`: the days already known are read
    /// under one lock, the others (a day further on, as a simulation walks forward) asked one by one.
    private func all(_ days: ClosedRange<Int>, have value: Int32, _ tz: TimeZone, id: String) -> Bool {
        // Which days are not known yet, one bit a day (a range too long for the bits asks about every day).
        var unknown: UInt64 = days.count <= 64 ? 0 : .max
        lock.lock()
        if id == zone && unknown == 0 {
            let t = table, b = base
            for (k, d) in days.enumerated() {
                let i = d - b
                let known = i >= 0 && i < t.count ? t[i] : ZoneOffsets.unknown
                if known == ZoneOffsets.unknown {
                    unknown |= 1 << UInt64(k)
                } else if known != value {
                    lock.unlock()
                    return false
                }
            }
        } else {
            unknown = .max
        }
        lock.unlock()
        guard unknown != 0 else { return true }
        for (k, d) in days.enumerated() where k >= 64 || unknown & (1 << UInt64(k)) != 0 {
            if dayOffset(tz, id: id, day: d) != value { return false }
        }
        return true
    }


    private func dayOffset(_ tz: TimeZone, id: String, day: Int) -> Int32 {
        lock.lock()
        if id != zone {
            zone = id
            table.removeAll(keepingCapacity: true)
        }
        let i = day - base
        let cached = i >= 0 && i < table.count ? table[i] : ZoneOffsets.unknown
        lock.unlock()
        if cached != ZoneOffsets.unknown { return cached }
        let start = Double(day) * 86_400
        let first = tz.secondsFromGMT(for: Date(timeIntervalSinceReferenceDate: start))
        let last = tz.secondsFromGMT(for: Date(timeIntervalSinceReferenceDate: start + 86_399))
        let value = first == last ? Int32(clamping: first) : ZoneOffsets.varies
        // Up to the zone's next transition the offset stays what it is at the day's start: the
        // days wholly before it (a year at most) are known from this one question, rather than two
        // each as a simulation walks forward.
        var through = day
        if value != ZoneOffsets.varies {
            let horizon = Double(day + 366) * 86_400
            let next = tz.nextDaylightSavingTimeTransition(after: Date(timeIntervalSinceReferenceDate: start))?.timeIntervalSinceReferenceDate ?? horizon
            through = max(day, Int((min(next, horizon) / 86_400).rounded(.down)) - 1)
        }
        lock.lock()
        if id == zone {
            for d in day...through { store(value, day: d) }
        }
        lock.unlock()
        return value
    }

    /// Records a day, growing the table (a year of room at a time) while it stays small.
    private func store(_ value: Int32, day: Int) {
        if table.isEmpty { base = day - 366 }
        var i = day - base
        if i < 0 {
            let grow = -i + 366
            guard table.count + grow <= ZoneOffsets.maxDays else { return }
            table.insert(contentsOf: [Int32](repeating: ZoneOffsets.unknown, count: grow), at: 0)
            base -= grow
            i += grow
        }
        if i >= table.count {
            let grow = i - table.count + 367
            guard table.count + grow <= ZoneOffsets.maxDays else { return }
            table.append(contentsOf: [Int32](repeating: ZoneOffsets.unknown, count: grow))
        }
        table[i] = value
    }
}

import Foundation
import GRDB
import Synchronization
import EgoFixCore

/// Whether a command's transaction is open on the store's connection (`SQLiteStore.transaction`).
final class CommandTransaction: Sendable {
    private let state = Mutex(false)
    var isOpen: Bool { state.withLock { $0 } }
    func set(_ open: Bool) { state.withLock { $0 = open } }
}

/// The queue and clock every repository shares; maps SQLite errors to StoreError.
struct Access: Sendable {
    let queue: DatabaseQueue
    let clock: @Sendable () -> Date
    /// Whole tables read earlier in this process, while still true.
    let cache: TableCache
    /// While a command's transaction is open, every read and write joins it instead of opening its own.
    let command: CommandTransaction

    func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            if command.isOpen { return try await queue.writeWithoutTransaction(body) }
            return try await queue.read(body)
        } catch {
            throw SQLiteStore.map(error, path: queue.path, operation: "reading")
        }
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            if command.isOpen { return try await queue.writeWithoutTransaction(body) }
            return try await queue.write(body)
        } catch {
            throw SQLiteStore.map(error, path: queue.path, operation: "writing")
        }
    }

    /// The synchronous forms, for the store's own bookkeeping (meta values, the catalogue).
    func readNow<T>(_ body: (Database) throws -> T) throws -> T {
        if command.isOpen { return try queue.writeWithoutTransaction(body) }
        return try queue.read(body)
    }

    func writeNow<T>(_ body: (Database) throws -> T) throws -> T {
        if command.isOpen { return try queue.writeWithoutTransaction(body) }
        return try queue.write(body)
    }
}

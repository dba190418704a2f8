import ArgumentParser
import Foundation

/// An error a user caused: one line on standard error, exit code 1.
struct CLIError: Error, CustomStringConvertible {
    let message: String
    let code: Int32
    init(_ message: String, code: Int32 = 1) {
        self.message = message
        self.code = code
    }
    var description: String { message }
}

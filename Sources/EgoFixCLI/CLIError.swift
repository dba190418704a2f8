import ArgumentParser
import Foundation

/// An error a user caused: one line on standard error, exit code 1.
package struct CLIError: Error, CustomStringConvertible {
    package let message: String
    package let code: Int32
    package init(_ message: String, code: Int32 = 1) {
        self.message = message
        self.code = code
    }
    package var description: String { message }
}

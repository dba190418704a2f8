import EgoFixStore
import Foundation

/// egofix's folder of state kept between runs: $XDG_STATE_HOME/egofix, else
/// ~/.local/state/egofix (an empty or relative XDG_STATE_HOME counts as unset; an empty HOME is
/// the password database's home). It holds the reminders' note of what was sent and the texts a
/// refused command kept.
enum StateFolder {
    static func path(environment env: [String: String]) -> String {
        if let x = env["XDG_STATE_HOME"], x.hasPrefix("/") { return x + "/egofix" }
        return StoreLocation.home(environment: env) + "/.local/state/egofix"
    }

    /// The folder for kept texts (`kept` inside the state folder), made readable by this user
    /// alone when it is not there; nil when it cannot be made or is not a folder this user owns.
    static func keptFolder(environment env: [String: String]) -> String? {
        let folder = path(environment: env) + "/kept"
        return PrivateFolder.make(folder) ? folder : nil
    }
}

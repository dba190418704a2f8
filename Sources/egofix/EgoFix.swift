import ArgumentParser
import EgoFixCore
import EgoFixSite
import EgoFixStore
import Foundation

@main
struct EgoFix: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "egofix",
        abstract: "Ego patterns as bugs in legacy code. A daily fix, a weekly diagnostic, a static site.",
        discussion: """
        Your ego is legacy software: poorly documented, full of defensive functions that fire when
        they shouldn't. EgoFix gives you one small fix a day and keeps the record in a local store.
        """,
        version: EgoFixInfo.version,
        subcommands: [])
}

enum EgoFixInfo {
    static let version = "0.1.0"
}

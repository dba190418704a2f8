import Foundation

public enum EducationTrigger: String, Codable, Sendable, CaseIterable {
    case afterApplied      // shown after marking fix as applied
    case afterSkipped
    case afterFailed
    case afterCrash
    case duringDiagnostic
    case restDay           // no fix assigned
}

import EgoFixCore
import Foundation

/// What every page adds to its own fields (`PageContext.render`).
struct PageFrame: Sendable {
    let siteTitle: String
    let pageTitle: String
    /// "../" once a folder.
    let root: String
    let nav: [(label: String, href: String)]
    /// The entry of `nav` marked as the current page (none when no entry has this href).
    let current: String
    let footer: String
    let crisis: Bool

    /// The fields, after the page's own.
    func append(to page: inout TemplateObject, nav value: TemplateValue) {
        page.append("siteTitle", .text(siteTitle))
        page.append("pageTitle", .text(pageTitle))
        page.append("root", .text(root))
        page.append("nav", value)
        page.append("footer", .text(footer))
        page.append("crisis", .bool(crisis))
    }
}

// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "EgoFix",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "egofix", targets: ["egofix"]),
        .library(name: "EgoFixCore", targets: ["EgoFixCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", exact: "2.1.1"),
    ],
    targets: [
        .systemLibrary(name: "CCmark", path: "Sources/CCmark", pkgConfig: "libcmark",
                       providers: [.apt(["libcmark-dev"])]),
        .systemLibrary(name: "CCairo", path: "Sources/CCairo", pkgConfig: "cairo",
                       providers: [.apt(["libcairo2-dev"])]),
        .target(name: "EgoFixCore", path: "Sources/EgoFixCore"),
        .target(name: "EgoFixStore",
                dependencies: ["EgoFixCore", .product(name: "GRDB", package: "GRDB.swift")],
                path: "Sources/EgoFixStore"),
        .target(name: "EgoFixSite",
                dependencies: ["EgoFixCore", "CCmark", "CCairo",
                               .product(name: "Mustache", package: "swift-mustache")],
                path: "Sources/EgoFixSite"),
        .executableTarget(name: "egofix",
                          dependencies: ["EgoFixCore", "EgoFixStore", "EgoFixSite",
                                         .product(name: "ArgumentParser", package: "swift-argument-parser")],
                          path: "Sources/egofix"),
        .testTarget(name: "EgoFixCoreTests", dependencies: ["EgoFixCore"], path: "Tests/EgoFixCoreTests"),
        .testTarget(name: "EgoFixStoreTests", dependencies: ["EgoFixStore", "EgoFixCore"], path: "Tests/EgoFixStoreTests"),
        .testTarget(name: "EgoFixSiteTests", dependencies: ["EgoFixSite", "EgoFixCore"], path: "Tests/EgoFixSiteTests"),
    ],
    swiftLanguageModes: [.v6]
)

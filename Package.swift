// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "EgoFix",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "egofix", targets: ["egofix"]),
        .executable(name: "egofix-serve", targets: ["egofix-serve"]),
        .library(name: "EgoFixCore", targets: ["EgoFixCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", exact: "2.1.1"),
        // egofix.toml is read by a real TOML parser (toml++ underneath).
        .package(url: "https://github.com/LebJe/TOMLKit", exact: "0.6.0"),
        // `egofix serve`'s HTTP server (async, small: FlyingSocks underneath, no NIO).
        .package(url: "https://github.com/swhitty/FlyingFox", exact: "0.27.1"),
    ],
    targets: [
        .systemLibrary(name: "CCmark", path: "Sources/CCmark", pkgConfig: "libcmark",
                       providers: [.apt(["libcmark-dev"])]),
        // glibc's malloc.h, for `mallopt`.
        .systemLibrary(name: "CMalloc", path: "Sources/CMalloc"),
        // cairo's header, and its functions loaded with dlopen when the first share card is drawn.
        .target(name: "CCairo", path: "Sources/CCairo"),
        .executableTarget(name: "EmbedTool", path: "Sources/EmbedTool"),
        .plugin(name: "EmbedResources", capability: .buildTool(), dependencies: ["EmbedTool"], path: "Plugins/EmbedResources"),
        .target(name: "EgoFixResources", path: "Sources/EgoFixResources", plugins: ["EmbedResources"]),
        // The domain: Swift and Foundation only.
        .target(name: "EgoFixCore", path: "Sources/EgoFixCore"),
        // egofix.toml, read with TOMLKit (C++), kept out of Core.
        .target(name: "EgoFixConfig", dependencies: ["EgoFixCore", .product(name: "TOMLKit", package: "TOMLKit")], path: "Sources/EgoFixConfig"),
        .target(name: "EgoFixStore",
                dependencies: ["EgoFixCore", "EgoFixResources", .product(name: "GRDB", package: "GRDB.swift")],
                path: "Sources/EgoFixStore"),
        .target(name: "EgoFixSite",
                dependencies: ["EgoFixCore", "EgoFixResources", "CCmark", "CCairo"],
                path: "Sources/EgoFixSite"),
        // Every command, as a library: `egofix` is its one-line main.
        .target(name: "EgoFixCLI",
                dependencies: ["EgoFixCore", "EgoFixConfig", "EgoFixStore", "EgoFixSite", "EgoFixResources", "CMalloc",
                               .product(name: "ArgumentParser", package: "swift-argument-parser")],
                path: "Sources/EgoFixCLI"),
        .executableTarget(name: "egofix", dependencies: ["EgoFixCLI"], path: "Sources/egofix"),
        // `egofix serve` hands over to this program: FlyingFox brings Foundation's networking and
        // libcurl with it, which no other command should load at its start.
        .executableTarget(name: "egofix-serve",
                          dependencies: ["EgoFixCLI", "EgoFixCore", "EgoFixConfig", "EgoFixSite", "EgoFixStore",
                                         .product(name: "ArgumentParser", package: "swift-argument-parser"),
                                         .product(name: "FlyingFox", package: "FlyingFox")],
                          path: "Sources/egofix-serve"),
        .testTarget(name: "EgoFixCoreTests", dependencies: ["EgoFixCore", "EgoFixResources"], path: "Tests/EgoFixCoreTests"),
        .testTarget(name: "EgoFixConfigTests", dependencies: ["EgoFixConfig", "EgoFixCore"], path: "Tests/EgoFixConfigTests"),
        .testTarget(name: "EgoFixStoreTests", dependencies: ["EgoFixStore", "EgoFixCore", "EgoFixResources"], path: "Tests/EgoFixStoreTests"),
        .testTarget(name: "EgoFixCLITests", dependencies: ["EgoFixCLI", "egofix", "egofix-serve"], path: "Tests/EgoFixCLITests"),
        .testTarget(name: "EgoFixSiteTests", dependencies: ["EgoFixSite", "EgoFixCore", "EgoFixResources",
                                                           .product(name: "Mustache", package: "swift-mustache")],
                    path: "Tests/EgoFixSiteTests"),
    ],
    swiftLanguageModes: [.v6]
)

import EgoFixCLI

// `egofix serve` hands over to this program (see Serve in EgoFixCLI).
await EgoFix.runCommandLine(of: ServeCommand.self)

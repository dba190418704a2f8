import EgoFixCLI

await EgoFix.runCommandLine()

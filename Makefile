.PHONY: demo test check-site bench seeds install
PREFIX ?= /usr/local
demo:
	./scripts/demo.sh
test:
	./scripts/test.sh
check-site:
	./scripts/check_site.sh
bench:
	./scripts/bench.sh
# egofix into $(PREFIX)/bin: the same release binary as make demo and make bench.
install:
	./scripts/deps.sh
	install -d "$(DESTDIR)$(PREFIX)/bin"
	install -m 0755 "$$(./scripts/release.sh)" "$(DESTDIR)$(PREFIX)/bin/egofix"
# Sources/EgoFixCore/Catalogue/CompiledSeeds.swift from Seeds/ (after editing the seeds; the tests say when).
seeds:
	swift build --product egofix
	swift run --skip-build egofix compile-seeds Seeds > Sources/EgoFixCore/Catalogue/CompiledSeeds.swift.new \
		|| { rm -f Sources/EgoFixCore/Catalogue/CompiledSeeds.swift.new; exit 1; }
	mv Sources/EgoFixCore/Catalogue/CompiledSeeds.swift.new Sources/EgoFixCore/Catalogue/CompiledSeeds.swift

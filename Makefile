.PHONY: demo test check-site bench install
PREFIX ?= /usr/local
demo:
	./scripts/demo.sh
test:
	./scripts/test.sh
check-site:
	./scripts/check_site.sh
bench:
	./scripts/bench.sh
# egofix into $(PREFIX)/bin: the same release binary as make demo and make bench, and beside it
# egofix-serve, the program `egofix serve` hands over to.
install:
	./scripts/deps.sh
	install -d "$(DESTDIR)$(PREFIX)/bin"
	bin="$$(./scripts/release.sh)" && install -m 0755 "$$bin" "$$bin-serve" "$(DESTDIR)$(PREFIX)/bin/"

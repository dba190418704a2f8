.PHONY: demo test check-site bench
demo:
	./scripts/demo.sh
test:
	./scripts/test.sh
check-site:
	./scripts/check_site.sh
bench:
	./scripts/bench.sh

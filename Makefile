.PHONY: demo test check-site
demo:
	./scripts/demo.sh
test:
	./scripts/test.sh
check-site:
	./scripts/check_site.sh

# harness — make targets. `make test` is the CI gate.
GO ?= go
PKGS := ./...

.PHONY: test fmt-check vet unit fuzz bench explore explore-deep mutate

test: fmt-check vet unit

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet $(PKGS)

unit:
	$(GO) test -count=1 -timeout 14m $(PKGS)

# Fuzz each target for FUZZTIME (seed corpora run as part of `make test`).
FUZZTIME ?= 30s
fuzz:
	$(GO) test ./model/ -run '^$$' -fuzz '^FuzzParseBlob$$' -fuzztime $(FUZZTIME)
	$(GO) test ./model/ -run '^$$' -fuzz '^FuzzEscape$$' -fuzztime $(FUZZTIME)
	$(GO) test ./model/ -run '^$$' -fuzz '^FuzzParseEvent$$' -fuzztime $(FUZZTIME)

bench:
	$(GO) test -run '^$$' -bench . -benchmem $(PKGS)

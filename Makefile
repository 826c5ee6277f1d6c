# harness — make targets. `make test` is the quick gate (every package, a
# full-size run skipped or shrunk under -short, internal/shortrun);
# `make test-full` runs every test at its full size. CI (.ci/run) runs both.
GO ?= go
PKGS := ./...

.PHONY: peer-deps vectors test test-full race fmt-check vet lint tools unit unit-short fuzz bench explore explore-deep por-check mutate props-long history-long amendment simulate peers readings

test: fmt-check vet unit-short race

test-full: fmt-check vet unit race

# The lock-free shared tables under the race detector (the explorer's
# workers read them without a lock).
race:
	$(GO) test -race -count=1 ./exhaustive/ -run 'TestRecvTableConcurrent|TestU64map'

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet $(PKGS)

# staticcheck and goimports (import grouping), pinned; `make tools` installs
# them into $(GOBIN) (default $HOME/go/bin), which .ci/run does.
STATICCHECK_VERSION ?= v0.8.2
GOIMPORTS_VERSION ?= v0.52.0
GOBIN ?= $(shell $(GO) env GOPATH)/bin
tools:
	$(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)
	$(GO) install golang.org/x/tools/cmd/goimports@$(GOIMPORTS_VERSION)

lint:
	$(GOBIN)/staticcheck $(PKGS)
	@out=$$($(GOBIN)/goimports -l -local github.com/nip-rs/harness $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "goimports needed:"; echo "$$out"; exit 1; fi

unit: peer-deps
	$(GO) test -count=1 -timeout 14m $(PKGS)

unit-short: peer-deps
	$(GO) test -count=1 -short -timeout 10m $(PKGS)

# The peer relays that run as subprocesses, built and installed into the
# cache the tests start them from (internal/testrelay/peers): rely and the newest
# khatru (nested Go modules), the JS relay's npm packages. Quick when
# nothing changed; a peer whose tools are absent is reported and its tests
# skip, unless PEERS_REQUIRE is set (.ci/run sets it).
peer-deps:
	$(GO) run ./internal/testrelay/peers/prepare

# Fuzz each target for FUZZTIME (seed corpora run as part of `make test`).
FUZZTIME ?= 30s
fuzz:
	$(GO) test ./model/ -run '^$$' -fuzz '^FuzzParseBlob$$' -fuzztime $(FUZZTIME)
	$(GO) test ./model/ -run '^$$' -fuzz '^FuzzEscape$$' -fuzztime $(FUZZTIME)
	$(GO) test ./model/ -run '^$$' -fuzz '^FuzzParseEvent$$' -fuzztime $(FUZZTIME)
	$(GO) test ./model/ -run '^$$' -fuzz '^FuzzLoadFrames$$' -fuzztime $(FUZZTIME)
	$(GO) test ./model/ -run '^$$' -fuzz '^FuzzParseBlobAllocation$$' -fuzztime $(FUZZTIME)
	$(GO) test ./history/ -run '^$$' -fuzz '^FuzzReplay$$' -fuzztime $(FUZZTIME)
	$(GO) test ./candidate/ -run '^$$' -fuzz '^FuzzParseA$$' -fuzztime $(FUZZTIME)

bench:
	$(GO) test -run '^$$' -bench . -benchmem $(PKGS)

# The reference universe (the formal note's model) at its depth bound 4 under
# both tie policies, then every directed check, then the network universes
# at their default depth. EXPLORE_FLAGS goes to every one of them (e.g.
# '-depth 7' deepens all four); NETWORK_FLAGS to the network universes only
# (-symmetry=false to compare). Exit 1 on a violation. How long a run takes:
# NOTE.md, "Benchmarks".
EXPLORE_FLAGS ?=
NETWORK_FLAGS ?=
explore:
	$(GO) run ./cmd/explore -universe reference -tie both -directed $(EXPLORE_FLAGS)
	$(GO) run ./cmd/explore -universe network -tie both -directed=false $(EXPLORE_FLAGS) $(NETWORK_FLAGS)
	$(GO) run ./cmd/explore -universe network-whole -tie both -directed=false $(EXPLORE_FLAGS) $(NETWORK_FLAGS)
	$(GO) run ./cmd/explore -universe long-id -tie both -directed=false $(EXPLORE_FLAGS) $(NETWORK_FLAGS)

# The network universes one level deeper than `make test-full` runs them, under
# both tie policies (time and memory: NOTE.md, "Benchmarks").
explore-deep:
	$(GO) run ./cmd/explore -universe network -depth 7 -tie both -directed=false $(EXPLORE_FLAGS) $(NETWORK_FLAGS)
	$(GO) run ./cmd/explore -universe network-whole -depth 7 -tie both -directed=false $(EXPLORE_FLAGS) $(NETWORK_FLAGS)

# Partial-order reduction against the unreduced search for every mutant and
# amendment: both network universes at depth 5 under both tie policies
# (`make test` runs network at depth 3 under clear-wins; NOTE.md,
# "Partial-order reduction").
por-check:
	POR_FULL=1 $(GO) test -count=1 -timeout 60m ./mutants/ -run '^TestPORFindsTheSameViolations$$' -v

# The mutant gate: the control, then every mutant against every generic check,
# cheapest first, witnesses compared with mutants/testdata (time: NOTE.md,
# "Mutants", "Figures"; progress on stderr says how far it is).
# Exit 1 when a mutant survives or a witness changed. MUTATE_FLAGS='-all' runs
# every check for every mutant; '-update' rewrites witnesses.
MUTATE_FLAGS ?=
mutate:
	$(GO) run ./cmd/mutate $(MUTATE_FLAGS)

# The full-state load's property checks, many more cases from a random
# seed (set PROPS_SEED to reproduce a run; the seed is printed).
PROPS_CHECKS ?= 200000
PROPS_SEED ?= 0
props-long:
	$(GO) test -count=1 -timeout 60m ./props/ -run 'Conformant|Plateau|RunMatches' -rapid.checks=$(PROPS_CHECKS) -rapid.seed=$(PROPS_SEED) -v

# The paged history walk's rapid state machine, many more cases from a
# random seed (set HISTORY_SEED to reproduce a run; the seed is printed).
HISTORY_CHECKS ?= 100000
HISTORY_SEED ?= 0
history-long:
	$(GO) test -count=1 -timeout 30m ./history/ -run 'StateMachine' -rapid.checks=$(HISTORY_CHECKS) -rapid.seed=$(HISTORY_SEED) -v
	$(GO) test -count=1 -timeout 30m ./history/ -run 'FullDepth' -history.variants -v

# An amendment (amendments/, see -list) as the baseline: the explorer and
# every cube, then the whole mutant gate against it. The first command's
# exit status is ignored so the gate runs too (an amendment usually fails
# a spec-text conformance cube); read both reports.
AMENDMENT ?= b-max-frontier
amendment:
	-$(GO) run ./cmd/explore -rules $(AMENDMENT)
	$(GO) run ./cmd/mutate -control $(AMENDMENT)

# Seeded random walks through every universe, far past the exhaustive
# bounds, same checks at every state (`make test` runs a bounded one in
# exhaustive's tests). The seed is printed; exit 1 on a violation, whose
# shrunk witness goes to witness/.
SIM_WALKS ?= 2000
SIM_STEPS ?= 40
SIM_SEED ?= 1
simulate:
	for u in reference network network-whole hierarchy long-id; do \
		$(GO) run ./cmd/explore -universe $$u -simulate $(SIM_WALKS) -steps $(SIM_STEPS) -seed $(SIM_SEED) -tie both || exit $$?; \
	done
	$(GO) run ./cmd/explore -universe walk -simulate $(SIM_WALKS) -steps $(SIM_STEPS) -seed $(SIM_SEED)

# The dynamic load scenarios against every peer relay (internal/testrelay/peers:
# khatru v0.8.4 over slicestore, badger, lmdb, sqlite3; rely; the newest
# khatru; the JS relay with and without its cache) with many more loads
# than `make test-full` runs (PEERS_LOADS per scenario), ungated figures logged
# and gated loads asserted to have no false complete, each probe with its
# full 2000 race trials; the disk stores on disk, not in RAM.
PEERS_LOADS ?= 100
peers: peer-deps
	KHATRUTEST_DATA_DIR=$${TMPDIR:-/tmp} PEERS_LOADS=$(PEERS_LOADS) $(GO) test -count=1 -timeout 60m ./internal/testrelay/khatrutest/ -run 'TestScenariosOnPeers|TestGatedLoadsOnPeers|TestGatedTwoPassLoadsOnPeers|TestUngatedPassesOnKhatru' -v

# The conformance vectors (vectors/, README "Test your client against the
# vectors"): the explorer's paths the traces are made from re-explored,
# the files regenerated from the production core, then replayed against it.
# `go test ./vectors/gen/` fails when the committed files drift.
vectors:
	$(GO) run ./cmd/vectors -explored
	$(GO) run ./cmd/vectors -out vectors
	$(GO) run ./cmd/vectors -check -out vectors

# The whole suite under each codec reading of Content Validation (the
# readings are rule sets, not mutants; make test runs the reference
# universe under each, this target every universe and check).
readings:
	for r in by-value-integers distinct-key-limit utf8-discards-event; do $(GO) run ./cmd/explore -rules $$r || exit $$?; done

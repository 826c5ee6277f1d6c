package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/nip-rs/harness/amendments"
	"github.com/nip-rs/harness/catalog"
	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/history"
	"github.com/nip-rs/harness/internal/cli"
	"github.com/nip-rs/harness/internal/gcfloor"
	"github.com/nip-rs/harness/mbt"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/mutants"
	"github.com/nip-rs/harness/runreport"
	"github.com/nip-rs/harness/witnessfile"
)

// Exit codes (shared by every command, internal/cli).
const (
	exitOK        = cli.ExitOK
	exitViolation = cli.ExitFailed
	exitUsage     = cli.ExitUsage
	exitUnknown   = cli.ExitUnknown
)

func main() {
	// Small runs allocate fast beside a small live heap (the tables live
	// outside it): a floor under the collector's goal spares most of their
	// collections; large runs keep the default (internal/gcfloor).
	gcfloor.Set(gcfloor.Default, 100)
	ctx, stop := cli.Interruptible()
	defer stop()
	onInterrupt(ctx, os.Stdout, os.Exit)
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// current is what the run has done so far, for the partial summary an
// interrupt prints.
var current exhaustive.Tracker

// onInterrupt prints the partial summary to w and exits exitUnknown when
// ctx ends (cli.Interruptible: the first SIGINT or SIGTERM). exit is
// os.Exit in the command; done is closed once the summary is written.
func onInterrupt(ctx context.Context, w io.Writer, exit func(int)) (done <-chan struct{}) {
	return cli.OnInterrupt(ctx, w, func(w io.Writer) { cli.WritePartial(w, current.Run(), current.Lines(), "") }, exit)
}

// cat names every universe and rule set the flags and witnesses can refer
// to: the project's own and every mutant (so -rules can name a mutant and
// -replay resolves the mutants' witnesses, mutants/testdata).
// catErr, when set, says why the catalogue could not be built (two
// amendments with one name): every run reports it and exits 2.
var cat, catErr = func() (*exhaustive.Catalog, error) {
	c := exhaustive.NewCatalog()
	mutants.Register(c)
	return c, amendments.Register(c)
}()

// universes is every universe of every layer over cat (package catalog):
// -list, the walk and its variants, the community universes and the
// replay of a universe's witness come from it.
var universes = catalog.New(cat)

// defaultMaxStates guards memory: a network universe stores about 700
// bytes per state, so this is about 2 GB; make explore-deep's largest run
// (network, depth 7) stores under 2 million.
const defaultMaxStates = 3_000_000

// options are the parsed flags.
type options struct {
	universe  string
	depth     int
	tie       string
	workers   int
	directed  bool
	only      string
	rules     string
	variant   string
	maxStates int
	json      bool
	witness   string
	replay    string
	progress  time.Duration
	list      bool
	symmetry  bool
	html      string
	all       bool
	compare   string
	diff      string
	// check is "" for the safety checks or checkLiveness.
	check string
	// observe names an observation to search for (exhaustive.Observations).
	observe string
	// cases is -diff -universe load's scenarios per relay profile.
	cases int
	sim   simOptions
	itf   itfOptions
	valid validateOptions
	por   porOptions
	store storeOptions
	ckpt  checkpointOptions
	// cpuProfile and memProfile name pprof output files ("" for none).
	cpuProfile, memProfile string
	// set names the flags given on the command line, in order.
	set []string
	// args are the positional arguments: -merge's shard files.
	args []string
}

func (o *options) isSet(name string) bool { return slices.Contains(o.set, name) }

// parseFlags parses the command line. done is true when the command is to
// exit at once with code: -h, -version, or a usage error (reported).
func parseFlags(args []string, stdout, stderr io.Writer) (o *options, code int, done bool) {
	o = &options{}
	c := cli.New(doc)
	fs := c.Flags
	fs.StringVar(&o.universe, "universe", "reference", "universe to explore (see -list; walk is the paged history walk; load, with -diff only, is the full-state load's seeded scenarios)")
	fs.IntVar(&o.depth, "depth", 0, fmt.Sprintf("depth bound in transitions, at most %d (0: the universe's default)", witnessfile.MaxDepth))
	fs.StringVar(&o.tie, "tie", "both", "tie policy: clear, set or both")
	fs.IntVar(&o.workers, "workers", runtime.GOMAXPROCS(0), "parallel workers")
	fs.BoolVar(&o.directed, "directed", true, "also run the directed checks")
	fs.StringVar(&o.only, "only", "", "run only these directed checks (comma-separated keys)")
	fs.StringVar(&o.rules, "rules", "proposed", "rule set to run under (see -list): proposed (the text and every proposal), spec (the text as written), an amendment, a mutant; the walk universe takes spec by default")
	fs.StringVar(&o.variant, "variant", "default", "with -universe walk: default, ties, capped, future, strays, overlap or backdate (see -list)")
	fs.IntVar(&o.maxStates, "max-states", defaultMaxStates, "stop with result unknown beyond this many distinct states, a guard on memory (0: no limit)")
	fs.BoolVar(&o.json, "json", false, "print the result as one JSON object")
	fs.StringVar(&o.witness, "witness", "witness", "directory to write witness files to")
	fs.StringVar(&o.replay, "replay", "", fmt.Sprintf("replay a witness file (at most %d bytes; every field checked before it runs)", witnessfile.MaxFileBytes))
	fs.DurationVar(&o.progress, "progress", time.Second, "progress interval on stderr (0: off)")
	fs.BoolVar(&o.list, "list", false, "list universes, rule sets and directed checks")
	fs.BoolVar(&o.symmetry, "symmetry", true, "store one state per orbit of the universe's interchangeable devices and contexts (network universes)")
	fs.BoolVar(&o.all, "all", false, "write and print one witness per violated invariant, the smallest of each, not only the smallest overall")
	fs.StringVar(&o.html, "html", "", "also write the witnesses as one self-contained HTML page to this file")
	fs.StringVar(&o.cpuProfile, "cpuprofile", "", "write a CPU profile of the run to this file (go tool pprof)")
	fs.StringVar(&o.memProfile, "memprofile", "", "write a heap profile at the end of the run to this file (go tool pprof)")
	fs.StringVar(&o.compare, "compare", "", compareFlagDoc)
	fs.StringVar(&o.diff, "diff", "", "A,B: the shortest history after which a user can tell rule sets A and B apart (a frontier, an override shown, an action failed, a published blob), in -universe (reference by default) to -depth; the history is written as a witness (kind diff) that -replay recomputes under both. With -universe load: the first of the full-state load's seeded scenarios (-cases per relay profile the gate searches, from -seed) after which a load's verdict, reason or retained coordinates differ, shrunk, written as a witness of kind load-diff. A and B name rule sets as -rules does, or proposed-without-PROPOSAL")
	fs.StringVar(&o.check, "check", "", "liveness: instead of the safety checks, the liveness check of a network universe (network-pair and hierarchy-pair are built for it): no re-publish cycle without user actions under weak fairness on deliveries; prints the product graph's counts and writes a lasso witness on a violation. agreement: an override set on one device reaches every upgraded device once the user stops (at most -depth user actions), under fair delivery")
	fs.StringVar(&o.observe, "observe", "", "NAME: instead of the safety checks, search -universe for the shortest trace to a state the named observation holds on (see -list); prints reached with the trace, written as a witness (kind observation), or not reached within the bounds")
	fs.IntVar(&o.cases, "cases", mutants.DefaultLoadCases, "with -diff A,B -universe load: scenarios per relay profile")
	o.sim.register(fs)
	o.itf.register(fs)
	o.valid.register(fs)
	o.por.register(fs)
	o.store.register(fs)
	o.ckpt.register(fs)
	args, itfFile, itfErr := splitITFReplay(args)
	o.itf.replay = itfFile
	if code, done := c.Parse(args, stdout, stderr); done {
		return nil, code, true
	}
	o.set = c.Set()
	o.args = c.Flags.Args()
	err := itfErr
	switch {
	case err != nil:
	case len(o.args) > 0 && !o.sim.merge:
		err = fmt.Errorf("unexpected arguments: %s (only -merge takes files)", strings.Join(o.args, " "))
	case o.depth < 0:
		err = fmt.Errorf("-depth %d is negative", o.depth)
	case o.depth > witnessfile.MaxDepth:
		// A deeper trace is one a witness file cannot carry (and a
		// network world's causal past cannot record).
		err = fmt.Errorf("-depth %d: at most %d", o.depth, witnessfile.MaxDepth)
	case o.workers < 1:
		err = fmt.Errorf("-workers %d: need at least 1", o.workers)
	case o.maxStates < 0:
		err = fmt.Errorf("-max-states %d is negative", o.maxStates)
	}
	if err != nil {
		return nil, c.Fail(stderr, err), true
	}
	return o, exitOK, false
}

func run(args []string, stdout, stderr io.Writer) int {
	o, code, done := parseFlags(args, stdout, stderr)
	if done {
		return code
	}
	if catErr != nil {
		return usageError(stderr, catErr)
	}
	if o.list {
		list(stdout)
		return exitOK
	}
	if err := o.ckpt.usable(o); err != nil {
		return usageError(stderr, err)
	}
	stop, err := cli.StartProfiles("explore", o.cpuProfile, o.memProfile, stderr)
	if err != nil {
		return usageError(stderr, err)
	}
	defer stop()
	if v, ok := universes.WalkVariantOf(o.universe); ok && !o.isSet("variant") {
		o.universe, o.variant, o.set = history.UniverseName, v, append(o.set, "variant")
	}
	if o.universe == history.UniverseName && !o.isSet("rules") {
		o.rules = "spec" // the walk's own rule sets: the text is its default
	}
	switch {
	case o.check != "" && o.check != checkLiveness && o.check != checkAgreement:
		return usageError(stderr, fmt.Errorf("-check %q: the checks to name are %s and %s", o.check, checkLiveness, checkAgreement))
	case o.check != "" && o.replay != "":
		return usageError(stderr, errors.New("-check has no meaning with -replay (a witness names its own kind)"))
	case o.check != "":
		return exploreLiveness(o, stdout, stderr)
	case o.observe != "" && o.replay != "":
		return usageError(stderr, errors.New("-observe has no meaning with -replay (a witness names its own kind)"))
	case o.observe != "":
		return exploreObserve(o, stdout, stderr)
	case o.sim.merge:
		return mergeSim(o, stdout, stderr)
	case o.sim.shard != "" && (o.sim.walks == 0 || o.universe == history.UniverseName):
		return usageError(stderr, errors.New("-shard splits the walks of -simulate on the explorer's universes (not an exhaustive search, a replay or the walk universe)"))
	case o.itf.profile != "" && o.itf.dir == "":
		return usageError(stderr, errors.New("-profile masks the traces of -simulate N -itf DIR"))
	case mbt.ProfileFlagError(o.itf.profile) != nil:
		return usageError(stderr, mbt.ProfileFlagError(o.itf.profile))
	case o.itf.dir != "" && o.sim.walks == 0:
		return usageError(stderr, errors.New("-itf DIR writes the walks of -simulate N (or -replay -itf FILE checks a trace)"))
	case o.valid.log != "":
		return validateLog(o.valid.log, o.universe, o.rules, stdout, stderr)
	case o.itf.replay != "":
		code, err := mbt.ReplayTrace(cat, o.itf.replay, stdout)
		if err != nil {
			return usageError(stderr, err)
		}
		return code
	case o.replay != "":
		return replay(o, stdout, stderr)
	case o.compare != "":
		return compare(o, o.compare, stdout, stderr)
	case o.diff != "":
		return diffRules(o, stdout, stderr)
	case o.universe == history.UniverseName, isCatalogueOnly(o.universe):
		return exploreEntry(o, stdout, stderr)
	case o.sim.walks != 0 && o.all:
		return usageError(stderr, errors.New("-all has no meaning with -simulate (a simulation shrinks the first violation it meets)"))
	case o.sim.walks != 0:
		return simulate(o, stdout, stderr)
	}
	if rd, ok := mutants.LookupReading(o.rules); ok && !o.isSet("universe") {
		// The other reading of a sentence runs the whole suite and is
		// judged as an amendment of proposed would be.
		return exploreAmendment(o, runreport.ReadingAmendment(rd), stdout, stderr)
	}
	if am, ok := amendments.Lookup(o.rules); ok && !o.isSet("universe") {
		return exploreAmendment(o, am, stdout, stderr)
	}
	return explore(o, stdout, stderr)
}

func usageError(stderr io.Writer, err error) int {
	fmt.Fprintln(stderr, "explore:", err)
	return exitUsage
}

func list(w io.Writer) { runreport.WriteList(w, universes, cat, exhaustive.WriteObservations) }

// runInputs resolves the universe, tie list and rule set a run names
// (catalog.Catalog.OverrideInputs).
func runInputs(o *options) (exhaustive.Universe, []model.TiePolicy, *model.Rules, error) {
	return universes.OverrideInputs(o.universe, o.tie, o.rules)
}

// explore runs the exhaustive search of one of the explorer's universes
// and the directed checks (runreport.Explore).
func explore(o *options, stdout, stderr io.Writer) int {
	a := exploreArgs(o)
	code, err := runreport.Explore(universes, cat, a, stdout, runreport.ExploreLog{
		Note:     func(s string) { fmt.Fprintln(stderr, "explore:", s) },
		Progress: func(s string) { fmt.Fprintln(stderr, s) }})
	if err != nil {
		return usageError(stderr, err)
	}
	return code
}

// exploreArgs is the exploration o asks for, as plain values.
func exploreArgs(o *options) runreport.ExploreArgs {
	return runreport.ExploreArgs{Universe: o.universe, Tie: o.tie, Rules: o.rules, Only: o.only, TieSet: o.isSet("tie"), Depth: o.depth,
		Workers: o.workers, MaxStates: o.maxStates, GuardNote: o.maxStates == defaultMaxStates && !o.isSet("max-states"),
		Directed: o.directed, JSON: o.json, All: o.all, Symmetry: o.symmetry, POR: o.por.on, Progress: o.progress,
		StoreKind: o.store.kind, StoreDir: o.store.dir, StoreMiB: o.store.memMiB, Checkpoint: o.ckpt.dir, Resume: o.ckpt.resume,
		WitnessDir: o.witness, HTML: o.html, Tracker: &current, Stop: stopAfter}
}

// witnessText renders a witness: as found in this run, or replayed
// (catalog.Catalog.WitnessText).
var witnessText = universes.WitnessText

// writeHTML writes witnesses as one page (runreport.WritePage); rs holds
// what replaying each found (nil for one this run found itself).
func writeHTML(path string, ws []*witnessfile.Witness, rs []*witnessfile.Replayed) error {
	return runreport.WritePage(path, ws, rs, nil, witnessText)
}

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
	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/internal/cli"
	"github.com/nip-rs/harness/internal/gcfloor"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/mutants"
	"github.com/nip-rs/harness/runreport"
)

// Exit codes (shared by every command, internal/cli).
const (
	exitOK      = cli.ExitOK
	exitFailed  = cli.ExitFailed
	exitUsage   = cli.ExitUsage
	exitUnknown = cli.ExitUnknown
)

const defaultGoldn = "mutants/testdata"

// cat names the universes the gate explores and the rule sets its
// witnesses refer to: the project's own and every mutant.
// catErr, when set, says why the catalogue could not be built (two
// amendments with one name): every run reports it and exits 2.
var cat, catErr = func() (*exhaustive.Catalog, error) {
	c := exhaustive.NewCatalog()
	mutants.Register(c)
	return c, amendments.Register(c)
}()

func main() {
	collectLessOften()
	ctx, stop := cli.Interruptible()
	defer stop()
	os.Exit(runContext(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// collectLessOften lets the heap grow to three times the live heap before
// a collection (GOGC=200), and to at least gcfloor.Default, unless GOGC is
// set: the gate's explorations make mostly short-lived garbage beside
// small live heaps (their tables live outside the Go heap), and at the
// default a sixth of its CPU went to collecting and returning memory.
func collectLessOften() {
	gcfloor.Set(gcfloor.Default, 200)
}

type options struct {
	only      string
	tie       string
	all       bool
	json      bool
	workers   int
	seed      uint64
	loadCases int
	golden    string
	update    bool
	progress  bool
	list      bool
	control   string
	html      string
	witness   string // where the control's own witnesses go
	shard     string
	merge     bool
	profile   string // -cpuprofile: a CPU profile of the run ("" for none)
	set       []string
	files     []string // -merge's shard files
}

// parseFlags parses the command line. done is true when the command is to
// exit at once with code: -h, -version, or a usage error (reported).
func parseFlags(args []string, stdout, stderr io.Writer) (o *options, code int, done bool) {
	o = &options{}
	c := cli.New(doc)
	fs := c.Flags
	fs.StringVar(&o.only, "only", "", "run only these mutants (comma-separated ids, see -list)")
	fs.StringVar(&o.tie, "tie", "both", "tie policy: clear, set or both")
	fs.BoolVar(&o.all, "all", false, "run every check for every mutant instead of stopping at the first that catches it")
	fs.BoolVar(&o.json, "json", false, "print the report as one JSON object")
	fs.IntVar(&o.workers, "workers", runtime.GOMAXPROCS(0), "parallel workers of the explorer and the cubes")
	fs.Uint64Var(&o.seed, "seed", mutants.DefaultSeed, "seed of the load searches' generator (positive)")
	fs.IntVar(&o.loadCases, "load-cases", mutants.DefaultLoadCases, "cases per load search")
	fs.StringVar(&o.golden, "golden", defaultGoldn, "directory of the golden witness files (must exist, unless -update)")
	fs.BoolVar(&o.update, "update", false, "rewrite the golden witness files")
	fs.BoolVar(&o.progress, "progress", true, "report every check run on stderr (-progress=false: quiet)")
	fs.BoolVar(&o.list, "list", false, "list the mutants, the amendments and the checks, with one line each")
	fs.StringVar(&o.control, "control", "proposed", "baseline rule set: proposed (the text and every proposal), spec (the text as written), an amendment or a reading of the text (see -list) to run the whole gate against")
	fs.StringVar(&o.witness, "witness", "witness", "directory the control's own witnesses are written to when the baseline fails a check")
	fs.StringVar(&o.html, "html", "", "also write the first witnesses as one self-contained HTML page to this file")
	fs.StringVar(&o.shard, "shard", "", "run part i of n of the mutant list (i/n, counted from 1: 1/3, 2/3, 3/3; mutants dealt round-robin); with -json, its document is for -merge")
	fs.BoolVar(&o.merge, "merge", false, "combine the -shard -json documents named as arguments into the whole run's -json document, and exit as the whole run would")
	fs.StringVar(&o.profile, "cpuprofile", "", "write a CPU profile of the run to this file (go tool pprof)")
	if code, done := c.Parse(args, stdout, stderr); done {
		return nil, code, true
	}
	o.set = c.Set()
	o.files = c.Flags.Args()
	var err error
	switch {
	case o.merge && len(o.set) > 1:
		err = fmt.Errorf("-merge takes only shard files: the run's flags are in them")
	case o.merge && len(o.files) == 0:
		err = fmt.Errorf("-merge: name the shard files to merge")
	case !o.merge && len(o.files) > 0:
		err = fmt.Errorf("unexpected arguments: %s (only -merge takes files)", strings.Join(o.files, " "))
	case o.shard != "" && !o.json:
		err = fmt.Errorf("-shard %s: a shard's result is its -json document (add -json)", o.shard)
	case o.shard != "" && o.html != "":
		err = fmt.Errorf("-shard with -html: a page of one part is not the run's (write it from an unsharded run)")
	case o.workers < 1:
		err = fmt.Errorf("-workers %d: need at least 1", o.workers)
	case o.loadCases < 1:
		err = fmt.Errorf("-load-cases %d: need at least 1", o.loadCases)
	case o.seed == 0:
		err = fmt.Errorf("-seed 0: need a positive seed (the default is %d)", mutants.DefaultSeed)
	}
	if err != nil {
		return nil, c.Fail(stderr, err), true
	}
	return o, exitOK, false
}

// onlyList reads -only (mutants.ParseOnly).
func onlyList(s string) ([]string, error) {
	only, err := mutants.ParseOnly(s)
	if err != nil {
		return nil, fmt.Errorf("-only: %v", err)
	}
	return only, nil
}

func run(args []string, stdout, stderr io.Writer) int {
	return runContext(context.Background(), args, stdout, stderr)
}

func usageError(stderr io.Writer, err error) int {
	fmt.Fprintln(stderr, "mutate:", err)
	return exitUsage
}

// checkGolden refuses a golden directory the run cannot compare with: one
// that does not exist (or is not a directory), unless -update writes it.
// Checked before anything runs, so a mistyped path costs no gate run.
func checkGolden(o *options) error {
	if o.control != "proposed" || o.update {
		return nil
	}
	st, err := os.Stat(o.golden)
	switch {
	case err != nil:
		return fmt.Errorf("-golden %s: %v (-update writes a new directory)", o.golden, err)
	case !st.IsDir():
		return fmt.Errorf("-golden %s: not a directory", o.golden)
	}
	return nil
}

// runContext is the command: ctx ending (cli.Interruptible, the first
// SIGINT or SIGTERM) stops it with the partial summary and exit 3.
func runContext(ctx context.Context, args []string, stdout, stderr io.Writer) int {
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
	if o.merge {
		return merge(o.files, stdout, stderr)
	}
	shard, err := cli.ParseShard(o.shard)
	if err != nil {
		return usageError(stderr, err)
	}
	tl, err := model.ParseTies(o.tie)
	if err != nil {
		return usageError(stderr, err)
	}
	only, err := onlyList(o.only)
	if err != nil {
		return usageError(stderr, err)
	}
	opts := mutants.Options{Ties: tl, Only: only, All: o.all, Workers: o.workers, Seed: o.seed, LoadCases: o.loadCases}
	if err := runreport.Control(&opts, o.control, tl, slices.Contains(o.set, "tie")); err != nil {
		var tie *runreport.TieError
		if errors.As(err, &tie) {
			return usageError(stderr, fmt.Errorf("-tie %s: %v", o.tie, err))
		}
		return usageError(stderr, fmt.Errorf("-control: %v", err))
	}
	if err := checkGolden(o); err != nil {
		return usageError(stderr, err)
	}
	part := shardPart(only, shard)
	opts.Keep = shard.Owns
	head := header(o)
	prog := mutants.NewPartial(o.control)
	runs := len(part) * len(opts.Ties)
	g := newGauge(runs, o.control, time.Now)
	opts.Progress = func(s string) {
		prog.Note(s)
		if o.progress {
			fmt.Fprintln(stderr, "mutate:", g.line(s))
		}
	}
	opts.Started = func(id string, tie model.TiePolicy) {
		if o.progress {
			fmt.Fprintln(stderr, "mutate:", g.started(id, tie.String()))
		}
	}
	if !o.json {
		fmt.Fprintln(stdout, head)
	} else if o.progress {
		fmt.Fprintln(stderr, "mutate:", head)
	}
	opts.Catalog = cat
	stopProfile, err := cli.StartProfiles("mutate", o.profile, "", stderr)
	if err != nil {
		return usageError(stderr, err)
	}
	rep, err := mutants.RunContext(ctx, opts)
	stopProfile()
	switch {
	case errors.Is(err, context.Canceled):
		cli.WritePartial(stdout, head, prog.Lines(), "; the mutants not listed did not run, no golden file was compared or written")
		return exitUnknown
	case err != nil:
		return usageError(stderr, err)
	}
	if o.progress {
		fmt.Fprintln(stderr, "mutate:", g.finished())
	}
	var changed []string
	if o.control == "proposed" {
		changed, err = mutants.CompareGolden(o.golden, rep.Results, o.update)
		if err != nil {
			fmt.Fprintln(stderr, "mutate: golden witnesses:", err)
			return exitFailed
		}
	}
	if o.html != "" {
		if err := writeHTML(o.html, rep); err != nil {
			return usageError(stderr, err)
		}
	}
	if shard.Whole() {
		files, err := writeControlWitnesses(o.witness, rep)
		if err != nil {
			fmt.Fprintln(stderr, "mutate:", err)
		}
		for _, f := range files {
			fmt.Fprintln(stderr, "mutate: control witness written to", f)
		}
	}
	d := newDoc(runLine(o), rep, changed, o.update)
	if !shard.Whole() {
		d.Shard = &shard
		d.Mutants = part
	}
	d.finish()
	if o.json {
		d.writeJSON(stdout)
	} else {
		writeText(stdout, rep, d)
	}
	if len(d.Problems) > 0 {
		return exitFailed
	}
	return exitOK
}

// header is the first line: everything needed to reproduce the run.
func header(o *options) string {
	control := ""
	if o.control != "proposed" {
		control = " -control=" + o.control
	}
	shard := ""
	if o.shard != "" {
		shard = " -shard=" + o.shard
	}
	return fmt.Sprintf("mutate -tie=%s -only=%q -all=%t -seed=%d -load-cases=%d -workers=%d -golden=%s%s%s (version %s)",
		o.tie, o.only, o.all, o.seed, o.loadCases, o.workers, o.golden, control, shard, cli.Version())
}

// runLine is the "run" of the -json document: the header without what
// does not change the result (the worker count) or what -merge undoes
// (the shard), so that shards of one run carry the same line, and their
// merge the line of the run they split.
func runLine(o *options) string {
	control := ""
	if o.control != "proposed" {
		control = " -control=" + o.control
	}
	if o.update {
		control += " -update"
	}
	return fmt.Sprintf("mutate -tie=%s -only=%q -all=%t -seed=%d -load-cases=%d -golden=%s%s (version %s)",
		o.tie, o.only, o.all, o.seed, o.loadCases, o.golden, control, cli.Version())
}

func list(w io.Writer) {
	fmt.Fprintln(w, "catalogue:", mutants.CountSentence())
	fmt.Fprintln(w, "mutants:")
	for _, m := range mutants.All() {
		extra := ""
		if m.OneDevice {
			extra = " [one device]"
		}
		if m.Equivalent != "" {
			extra += " [equivalent under clear-wins]"
		}
		fmt.Fprintf(w, "  %-4s %s (%s)%s\n", m.ID, m.Rule, m.Section, extra)
	}
	fmt.Fprintln(w, "amendments (-control NAME):")
	for _, a := range amendments.All() {
		fmt.Fprintf(w, "  %-20s %s (%s)\n", a.Name, a.Title, a.Section)
	}
	fmt.Fprintln(w, "readings of the text (-control NAME):")
	for _, r := range mutants.Readings() {
		fmt.Fprintf(w, "  %-20s (%s)\n", r.Name, r.Section)
	}
	fmt.Fprintln(w, "checks:")
	for _, c := range mutants.SuiteChecks(cat) {
		fmt.Fprintf(w, "  %-34s %s\n", c.Name, mutants.CheckDoc(cat, c))
	}
}

func writeText(w io.Writer, rep *mutants.Report, d *gateDoc) {
	fmt.Fprintf(w, "\n%s\n", rep.SuiteLine())
	writeControl(w, d)
	rep.WriteTable(w, d.times)
	fmt.Fprintln(w)
	for _, l := range d.Summary {
		fmt.Fprintln(w, l)
	}
	fmt.Fprintln(w, "witnesses:", d.Witnesses)
	for _, p := range d.Problems {
		fmt.Fprintln(w, "FAIL", p)
	}
	fmt.Fprintf(w, "total %s\n", mutants.MS(d.elapsed))
}

// writeControl says what the baseline was checked by and what not, and
// what it tripped, safety and spec-text conformance apart (by what each
// check asserts), with one verdict line that claims nothing of a check not
// run: the lines -json carries in "control".
func writeControl(w io.Writer, d *gateDoc) {
	c := d.Control
	if c.Title != "" {
		fmt.Fprintf(w, "control: %s\n", c.Title)
	} else {
		fmt.Fprintf(w, "control: %s\n", c.Baseline)
	}
	for _, l := range c.ScopeLines {
		fmt.Fprintln(w, "  "+l)
	}
	if d.Lazy {
		fmt.Fprintln(w, "  (with -only the control runs only the checks the mutants reached; run without -only for its whole verdict)")
	}
	fmt.Fprintf(w, "  safety: %s\n", c.Safety)
	fmt.Fprintf(w, "  spec-text conformance: %s\n", c.SpecText)
	fmt.Fprintf(w, "  verdict: %s\n\n", c.Verdict)
}

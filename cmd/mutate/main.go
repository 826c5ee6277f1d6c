package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/nip-rs/harness/amendments"
	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/history/community"
	"github.com/nip-rs/harness/internal/cli"
	"github.com/nip-rs/harness/internal/notefig"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/mutants"
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
	ctx, stop := cli.Interruptible()
	defer stop()
	os.Exit(runContext(ctx, os.Args[1:], os.Stdout, os.Stderr))
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
	set       []string
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
	fs.StringVar(&o.control, "control", "spec", "baseline rule set: spec, or an amendment (see -list) to run the whole gate against")
	fs.StringVar(&o.html, "html", "", "also write the first witnesses as one self-contained HTML page to this file")
	if code, done := c.Parse(args, stdout, stderr); done {
		return nil, code, true
	}
	o.set = c.Set()
	var err error
	switch {
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

func onlyList(s string) ([]string, error) {
	if s == "" {
		return nil, nil
	}
	var out []string
	for _, id := range strings.Split(s, ",") {
		if _, ok := mutants.Lookup(id); !ok {
			return nil, fmt.Errorf("-only: unknown mutant %q (see -list)", id)
		}
		out = append(out, id)
	}
	return out, nil
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
	if o.control != "spec" || o.update {
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
	tl, err := cli.ParseTies(o.tie)
	if err != nil {
		return usageError(stderr, err)
	}
	only, err := onlyList(o.only)
	if err != nil {
		return usageError(stderr, err)
	}
	opts := mutants.Options{Ties: tl, Only: only, All: o.all, Workers: o.workers, Seed: o.seed, LoadCases: o.loadCases}
	if o.control != "spec" {
		a, ok := amendments.Lookup(o.control)
		if !ok {
			return usageError(stderr, fmt.Errorf("-control: unknown amendment %q (see -list)", o.control))
		}
		if a.Pinned && slices.Contains(o.set, "tie") && (len(tl) != 1 || tl[0] != a.Tie) {
			return usageError(stderr, fmt.Errorf("-tie %s: amendment %s decides ties itself (%s)", o.tie, a.Name, a.Tie))
		}
		opts.Ties, opts.Baseline, opts.BaselineName = a.Ties(tl), a.Rules, a.Name
	}
	if err := checkGolden(o); err != nil {
		return usageError(stderr, err)
	}
	head := header(o)
	prog := newProgress(head, o.control)
	runs := len(only) * len(opts.Ties)
	if only == nil {
		runs = len(mutants.All()) * len(opts.Ties)
	}
	g := newGauge(runs, o.control, time.Now)
	opts.Progress = func(s string) {
		prog.note(s)
		if o.progress {
			fmt.Fprintln(stderr, "mutate:", g.line(s))
		}
	}
	if !o.json {
		fmt.Fprintln(stdout, head)
	}
	opts.Catalog = cat
	rep, err := runGate(ctx, opts)
	switch {
	case errors.Is(err, context.Canceled):
		prog.summary(stdout)
		return exitUnknown
	case err != nil:
		return usageError(stderr, err)
	}
	var changed []string
	if o.control == "spec" {
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
	problems := rep.Problems()
	if !o.update {
		for _, c := range changed {
			problems = append(problems, "witness changed: "+c+" (rerun with -update to accept)")
		}
	}
	if o.json {
		writeJSON(stdout, head, rep, changed, problems, o.update)
	} else {
		writeText(stdout, rep, changed, problems, o.update)
	}
	if len(problems) > 0 {
		return exitFailed
	}
	return exitOK
}

// runGate runs the gate, or returns context.Canceled as soon as ctx ends
// (the process then exits; the gate's goroutine ends with it). A context
// ended before the start runs nothing.
func runGate(ctx context.Context, opts mutants.Options) (*mutants.Report, error) {
	if err := ctx.Err(); err != nil {
		return nil, context.Canceled
	}
	type result struct {
		rep *mutants.Report
		err error
	}
	ch := make(chan result, 1)
	go func() {
		rep, err := mutants.Run(opts)
		ch <- result{rep, err}
	}()
	select {
	case <-ctx.Done():
		return nil, context.Canceled
	case r := <-ch:
		return r.rep, r.err
	}
}

// header is the first line: everything needed to reproduce the run.
func header(o *options) string {
	control := ""
	if o.control != "spec" {
		control = " -control=" + o.control
	}
	return fmt.Sprintf("mutate -tie=%s -only=%q -all=%t -seed=%d -load-cases=%d -workers=%d -golden=%s%s (version %s)",
		o.tie, o.only, o.all, o.seed, o.loadCases, o.workers, o.golden, control, cli.Version())
}

func list(w io.Writer) {
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
	fmt.Fprintln(w, "checks:")
	for _, c := range mutants.SuiteChecks(cat) {
		fmt.Fprintf(w, "  %-34s %s\n", c.Name, checkDoc(c))
	}
}

// checkDoc is a check's one line: what it covers, and whether it guards
// safety or conformance to the spec's text.
func checkDoc(c mutants.Check) string {
	switch c.Kind {
	case mutants.KindExplore:
		u, _ := cat.Universe(c.Universe)
		return "safety: " + u.Doc
	case mutants.KindDirected:
		if mutants.IsConformance(c) {
			return "spec-text conformance: " + c.Directed.Name
		}
		return "safety: " + c.Directed.Name
	case mutants.KindHistory:
		return "safety: the paged history walk's invariants, its documented limitation excepted (explore -universe walk; history mutants only)"
	case mutants.KindSimulate:
		u, _ := cat.Universe(c.Universe)
		return "safety: seeded random walks far past the exhaustive bound: " + u.Doc
	case mutants.KindCommunity:
		if u, ok := community.UniverseNamed(c.Universe); ok {
			return "safety: " + u.Doc + " (community mutants only)"
		}
	}
	return "safety: load soundness, " + c.Prop + " check under the conformant relay"
}

func cell(f *mutants.Finding, status string) (by, inv, depth, work string) {
	if f == nil {
		return status, "—", "—", "—"
	}
	work = "—"
	if f.Work > 0 {
		work = notefig.Commas(f.Work)
	}
	return f.Check, f.Invariant, mutants.DepthString(f), work
}

func ms(d time.Duration) string { return fmt.Sprintf("%.0fms", float64(d.Microseconds())/1000) }

func writeText(w io.Writer, rep *mutants.Report, changed, problems []string, updated bool) {
	states, points := rep.Work()
	if rep.Lazy {
		fmt.Fprintf(w, "\nsuite: the %d cheapest of %d checks, the ones the selected mutants reached (the full run's order; the control ran on those only)\n",
			len(rep.Suite), len(mutants.SuiteChecks(cat)))
	} else {
		fmt.Fprintf(w, "\nsuite: %d checks (%s states over %d universes, %s cube points, 2 load searches), cheapest first\n",
			len(rep.Suite), notefig.Commas(states), countKind(rep, mutants.KindExplore), notefig.Commas(points))
	}
	writeControl(w, rep)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "id\ttie\trule\tcaught by\tinvariant\tdepth\tstates/points\tchecks\ttime")
	for _, r := range rep.Results {
		by, inv, depth, work := cell(r.First, r.Status)
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%s\n", r.Mutant.ID, r.Tie, r.Mutant.Rule, by, inv, depth, work, r.Ran, ms(r.Elapsed))
	}
	tw.Flush()
	fmt.Fprintln(w)
	for _, tie := range rep.Options.Ties {
		fmt.Fprintln(w, summaryLine(rep, tie))
	}
	switch {
	case updated && len(changed) > 0:
		fmt.Fprintf(w, "witnesses: rewrote %s\n", strings.Join(changed, ", "))
	case rep.Options.BaselineName != "spec":
		fmt.Fprintln(w, "witnesses: not compared (the golden files are recorded against spec)")
	case len(changed) == 0:
		fmt.Fprintln(w, "witnesses: every golden file matches")
	}
	for _, p := range problems {
		fmt.Fprintln(w, "FAIL", p)
	}
	fmt.Fprintf(w, "total %s\n", ms(rep.Elapsed))
}

// writeControl says what the baseline was checked by and what not, and
// what it tripped, safety and spec-text conformance apart (by what each
// check asserts), with one verdict line that claims nothing of a check not
// run.
func writeControl(w io.Writer, rep *mutants.Report) {
	name := rep.Options.BaselineName
	var safety, conf []string
	for _, tie := range rep.Options.Ties {
		for _, f := range rep.Control[tie] {
			s := fmt.Sprintf("%s %s (%s)", f.Check, f.Invariant, tie)
			if mutants.IsConformanceName(f.Check) {
				conf = append(conf, s)
			} else {
				safety = append(safety, s)
			}
		}
	}
	if a, ok := amendments.Lookup(name); ok {
		fmt.Fprintf(w, "control: amendment %s (%s): %s\n", a.Name, a.Section, a.Title)
	} else {
		fmt.Fprintf(w, "control: %s\n", name)
	}
	scope := rep.ControlScope()
	for _, l := range mutants.ScopeLines(scope, "  ") {
		fmt.Fprintln(w, l)
	}
	if rep.Lazy {
		fmt.Fprintln(w, "  (with -only the control runs only the checks the mutants reached; run without -only for its whole verdict)")
	}
	switch {
	case len(safety) > 0:
		fmt.Fprintf(w, "  safety: BROKEN: %s\n", strings.Join(safety, ", "))
	case len(scope.NotRun) > 0:
		fmt.Fprintf(w, "  safety: holds on the %d safety checks run; not decided on the %d not run\n", len(scope.Safety), len(scope.NotRun))
	default:
		fmt.Fprintf(w, "  safety: holds on every safety check (%d: universes, simulations, law and hazard cubes, load soundness)\n", len(scope.Safety))
	}
	unused := ""
	if name != "spec" {
		unused = " (expected of an amendment; those checks are not used to catch mutants)"
	}
	switch {
	case len(conf) > 0:
		fmt.Fprintf(w, "  spec-text conformance: differs from today's spec text: %s%s\n", strings.Join(conf, ", "), unused)
	case len(scope.SpecText) == 0:
		fmt.Fprintln(w, "  spec-text conformance: not checked (no conformance check ran)")
	case len(scope.NotRun) > 0:
		fmt.Fprintf(w, "  spec-text conformance: agrees with today's spec text on the %d conformance checks run (%s); the others not run\n",
			len(scope.SpecText), strings.Join(scope.SpecText, ", "))
	default:
		fmt.Fprintf(w, "  spec-text conformance: agrees with today's spec text (all %d conformance checks)\n", len(scope.SpecText))
	}
	fmt.Fprintf(w, "  verdict: %s\n\n", mutants.Verdict(scope, safety, conf))
}

// summaryLine is one tie policy's outcome: the counts, and for every
// mutant that survived or is equivalent, why.
func summaryLine(rep *mutants.Report, tie model.TiePolicy) string {
	var caught int
	var surv, eq []string
	for _, r := range rep.Results {
		if r.Tie != tie {
			continue
		}
		switch r.Status {
		case mutants.StatusCaught:
			caught++
		case mutants.StatusEquivalent:
			eq = append(eq, fmt.Sprintf("%s, expected: %s", r.Mutant.ID, r.Mutant.EquivalentUnder(tie)))
		default:
			why := "not expected"
			switch {
			case len(r.Skipped) > 0:
				why = "the baseline itself fails " + strings.Join(r.Skipped, ", ")
			case tie != model.ClearWins:
				why = "outcomes under set-wins are recorded, not required"
			}
			surv = append(surv, fmt.Sprintf("%s, %s", r.Mutant.ID, why))
		}
	}
	line := fmt.Sprintf("%s-wins: %d caught, %d survived, %d equivalent", tie, caught, len(surv), len(eq))
	if len(surv) > 0 {
		line += "; survived: " + strings.Join(surv, "; ")
	}
	if len(eq) > 0 {
		line += "; equivalent: " + strings.Join(eq, "; ")
	}
	return line
}

func countKind(rep *mutants.Report, kind string) int {
	n := 0
	for _, c := range rep.Suite {
		if c.Kind == kind {
			n++
		}
	}
	return n
}

type jsonResult struct {
	ID        string   `json:"id"`
	Rule      string   `json:"rule"`
	Section   string   `json:"section"`
	Tie       string   `json:"tie"`
	Status    string   `json:"status"`
	CaughtBy  string   `json:"caught_by,omitempty"`
	Invariant string   `json:"invariant,omitempty"`
	Depth     *int     `json:"depth,omitempty"`
	Work      int64    `json:"states_or_points,omitempty"`
	Checks    int      `json:"checks_run"`
	TimeMS    float64  `json:"time_ms"`
	Findings  []string `json:"caught_by_all,omitempty"`
	Missed    []string `json:"missed,omitempty"`
}

type jsonCheck struct {
	Name string `json:"name"`
	Work int64  `json:"work"`
}

func writeJSON(w io.Writer, head string, rep *mutants.Report, changed, problems []string, updated bool) {
	out := struct {
		Run       string       `json:"run"`
		Status    string       `json:"status"`
		Suite     []jsonCheck  `json:"suite"`
		Results   []jsonResult `json:"results"`
		Changed   []string     `json:"witnesses_changed,omitempty"`
		Rewritten bool         `json:"witnesses_rewritten,omitempty"`
		Problems  []string     `json:"problems,omitempty"`
		TimeMS    float64      `json:"time_ms"`
	}{Run: head, Status: "ok", Changed: changed, Rewritten: updated && len(changed) > 0, Problems: problems,
		TimeMS: float64(rep.Elapsed.Microseconds()) / 1000}
	if len(problems) > 0 {
		out.Status = "failed"
	}
	for _, c := range rep.Suite {
		out.Suite = append(out.Suite, jsonCheck{c.Name, c.Work})
	}
	for _, r := range rep.Results {
		j := jsonResult{ID: r.Mutant.ID, Rule: r.Mutant.Rule, Section: r.Mutant.Section, Tie: r.Tie.String(), Status: r.Status,
			Checks: r.Ran, TimeMS: float64(r.Elapsed.Microseconds()) / 1000, Findings: r.CaughtBy(), Missed: r.Missed}
		if f := r.First; f != nil {
			d := f.Depth
			j.CaughtBy, j.Invariant, j.Depth, j.Work = f.Check, f.Invariant, &d, f.Work
		}
		out.Results = append(out.Results, j)
	}
	b, _ := json.MarshalIndent(out, "", "  ") // plain data always marshals
	fmt.Fprintln(w, string(b))
}

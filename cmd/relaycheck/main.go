package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/nip-rs/harness/internal/cli"
	"github.com/nip-rs/harness/relaycheck"
)

func main() {
	ctx, stop := cli.Interruptible()
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// doc is -h: what the command does, how to call it and its exit codes.
var doc = cli.Doc{
	Name: "relaycheck",
	Args: "URL",
	About: `probes a relay for what the NIP-RS full-state load rests on: the five relay
requirements of Full-State Load (R1-R5) and the three the load also needs from
real relays (R6 atomic replacement, R7 fresh answers, R8 subscription
capacity), with NIP-01 replacement, tag filters and data loss on malformed d
tags reported beside them. It publishes events of a throwaway key dated a day
back and asks the relay to delete them at the end. The barrier (R5) and atomic
replacement (R6) are races tried until a violation, or until the trials that
exercised them bound the violation rate at the stated confidence, or the cap.
The report is a table by requirement, then every check with its evidence;
-store records it for the load's evidence gate, which admits a relay for a
complete verdict only when every load requirement conforms.`,
	Examples: []string{
		"relaycheck ws://127.0.0.1:7777                  # the report as a table and the evidence",
		"relaycheck -json wss://relay.example.com       # the report as JSON",
		"relaycheck -html report.html -store relays.json wss://relay.example.com",
		"relaycheck -max-rate 0.005 -trials 5000 URL    # tighter bounds on the races",
		"relaycheck -list                               # the requirements and their checks",
	},
	Exit: []cli.Exit{
		{Code: cli.ExitOK, Meaning: "every load requirement conforms; -h, -version, -list"},
		{Code: cli.ExitFailed, Meaning: "a load requirement is violated (the evidence is in the report)"},
		{Code: cli.ExitUsage, Meaning: "usage error: unknown flag, a URL that is not ws:// or wss:// with a host, a bad\nbound, an evidence store that cannot be read; nothing was sent"},
		{Code: cli.ExitUnknown, Meaning: "unknown: the relay could not be reached, a requirement could not be observed,\nor the run was interrupted (the report so far is printed)"},
	},
}

// options are the command's flags.
type options struct {
	asJSON, quiet, list bool
	timeout             time.Duration
	trials              int
	confidence, maxRate float64
	store, html         string
}

// run is the command with its arguments and streams, returning the exit
// status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	c := cli.New(doc)
	var o options
	fs := c.Flags
	fs.BoolVar(&o.asJSON, "json", false, "print the report as JSON (a failed connection prints a JSON error object)")
	fs.DurationVar(&o.timeout, "timeout", 5*time.Second, "bound on each exchange with the relay")
	fs.IntVar(&o.trials, "trials", 2000, "cap on the trials of each sequential check (barrier, atomic replacement)")
	fs.Float64Var(&o.confidence, "confidence", relaycheck.DefaultConfidence, "confidence of the sequential checks' bound on the violation rate")
	fs.Float64Var(&o.maxRate, "max-rate", relaycheck.DefaultMaxRate, "violation rate the sequential checks bound before they conform")
	fs.StringVar(&o.store, "store", "", "record the result in this evidence store file")
	fs.StringVar(&o.html, "html", "", "also write the report as one self-contained HTML page to this file")
	fs.BoolVar(&o.quiet, "quiet", false, "no progress on stderr")
	fs.BoolVar(&o.list, "list", false, "list the requirements and the checks that decide them, and exit")
	if code, done := c.Parse(args, stdout, stderr); done {
		return code
	}
	if o.list {
		fmt.Fprint(stdout, relaycheck.RequirementList())
		return cli.ExitOK
	}
	if fs.NArg() != 1 {
		return c.Fail(stderr, fmt.Errorf("want exactly one relay URL, got %d", fs.NArg()))
	}
	relay := fs.Arg(0)
	if err := checkURL(relay); err != nil {
		return c.Fail(stderr, err)
	}
	if o.timeout <= 0 || o.trials < 1 {
		return c.Fail(stderr, errors.New("-timeout must be positive and -trials at least 1"))
	}
	if !(o.confidence > 0 && o.confidence < 1) || !(o.maxRate > 0 && o.maxRate < 1) {
		return c.Fail(stderr, errors.New("-confidence and -max-rate must be strictly between 0 and 1"))
	}
	var st *relaycheck.FileStore
	if o.store != "" {
		st = &relaycheck.FileStore{Path: o.store}
		if _, _, err := st.Get(relay); err != nil {
			return c.Fail(stderr, err)
		}
	}
	if o.html != "" {
		if err := writable(o.html); err != nil {
			return c.Fail(stderr, fmt.Errorf("-html: %v", err))
		}
	}
	popts := relaycheck.Options{Timeout: o.timeout, BarrierTrials: o.trials, Confidence: o.confidence, MaxRate: o.maxRate}
	if !o.quiet {
		popts.Progress = stderr
		fmt.Fprintf(stderr, "relaycheck %s\n", cli.Version())
	}
	rep, err := relaycheck.Probe(ctx, relay, popts)
	if err != nil {
		fmt.Fprintln(stderr, relaycheck.Printable(err.Error()))
		if o.asJSON {
			fmt.Fprintf(stdout, "%s\n", relaycheck.FailureJSON(relay, err))
		}
		return cli.ExitUnknown
	}
	if o.asJSON {
		data, err := rep.JSON()
		if err != nil {
			fmt.Fprintln(stderr, err)
			return cli.ExitUnknown
		}
		fmt.Fprintf(stdout, "%s\n", data)
	} else {
		fmt.Fprint(stdout, rep.Text())
	}
	code := exitCode(rep)
	if ctx.Err() != nil {
		fmt.Fprintln(stderr, "relaycheck: interrupted; the report holds the checks run so far (unknown where cut short)")
		code = cli.ExitUnknown
	}
	if o.html != "" {
		if err := os.WriteFile(o.html, relaycheck.Page(rep), 0o644); err != nil {
			fmt.Fprintf(stderr, "relaycheck: -html: %v\n", err)
			return cli.ExitUnknown
		}
	}
	if st != nil && ctx.Err() == nil {
		if err := st.Put(relaycheck.FromReport(rep)); err != nil {
			fmt.Fprintln(stderr, err)
			return cli.ExitUnknown
		}
	}
	return code
}

func exitCode(rep relaycheck.Report) int {
	switch rep.Verdict() {
	case relaycheck.Violates:
		return cli.ExitFailed
	case relaycheck.Unknown:
		return cli.ExitUnknown
	}
	return cli.ExitOK
}

// checkURL refuses what no relay can be at: another scheme, no host, a
// host or port that does not parse, spaces, a fragment.
func checkURL(s string) error {
	u, err := url.Parse(s)
	if err != nil {
		return fmt.Errorf("%q is not a URL: %v", s, err)
	}
	if u.Scheme != "ws" && u.Scheme != "wss" {
		return fmt.Errorf("%q is not a ws:// or wss:// URL", s)
	}
	if u.Host == "" || u.Hostname() == "" {
		return fmt.Errorf("%q names no host", s)
	}
	if strings.ContainsAny(u.Host, " \t") || u.User != nil || u.Fragment != "" {
		return fmt.Errorf("%q is not a relay URL (spaces, user info or a fragment)", s)
	}
	if p := u.Port(); p != "" {
		if _, err := net.LookupPort("tcp", p); err != nil {
			return fmt.Errorf("%q: port %q: %v", s, p, err)
		}
	}
	return nil
}

// writable checks that path can be created before any probing, so a bad
// -html is a usage error rather than a lost report.
func writable(path string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	return f.Close()
}

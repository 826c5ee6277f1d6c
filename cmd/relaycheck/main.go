package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/nip-rs/harness/internal/cli"
	"github.com/nip-rs/harness/relaycheck"
)

// Exit codes.
const (
	exitOK        = 0
	exitViolation = 1
	exitUsage     = 2
	exitUnknown   = 3
)

func main() { os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr)) }

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("relaycheck", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print the report as JSON")
	timeout := fs.Duration("timeout", 5*time.Second, "bound on each exchange with the relay")
	trials := fs.Int("trials", 2000, "cap on the trials of each sequential check (barrier, atomic replacement)")
	confidence := fs.Float64("confidence", 0.95, "confidence of the sequential checks' bound on the violation rate")
	maxRate := fs.Float64("max-rate", 0.02, "violation rate the sequential checks bound before they conform")
	store := fs.String("store", "", "record the result in this evidence store file")
	quiet := fs.Bool("quiet", false, "no progress on stderr")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: relaycheck [flags] URL\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if fs.NArg() != 1 {
		fmt.Fprintf(stderr, "relaycheck: want exactly one relay URL, got %d\n", fs.NArg())
		return exitUsage
	}
	url := fs.Arg(0)
	if !strings.HasPrefix(url, "ws://") && !strings.HasPrefix(url, "wss://") {
		fmt.Fprintf(stderr, "relaycheck: %q is not a ws:// or wss:// URL\n", url)
		return exitUsage
	}
	if *timeout <= 0 || *trials < 1 {
		fmt.Fprintf(stderr, "relaycheck: -timeout must be positive and -trials at least 1\n")
		return exitUsage
	}
	if !(*confidence > 0 && *confidence < 1) || !(*maxRate > 0 && *maxRate < 1) {
		fmt.Fprintf(stderr, "relaycheck: -confidence and -max-rate must be strictly between 0 and 1\n")
		return exitUsage
	}
	var st *relaycheck.FileStore
	if *store != "" {
		st = &relaycheck.FileStore{Path: *store}
		if _, _, err := st.Get(url); err != nil {
			fmt.Fprintln(stderr, err)
			return exitUsage
		}
	}
	opts := relaycheck.Options{Timeout: *timeout, BarrierTrials: *trials, Confidence: *confidence, MaxRate: *maxRate}
	if !*quiet {
		opts.Progress = stderr
		fmt.Fprintf(stderr, "relaycheck %s\n", cli.Version())
	}
	rep, err := relaycheck.Probe(ctx, url, opts)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return exitUnknown
	}
	if *asJSON {
		data, err := rep.JSON()
		if err != nil {
			fmt.Fprintln(stderr, err)
			return exitUnknown
		}
		fmt.Fprintf(stdout, "%s\n", data)
	} else {
		fmt.Fprint(stdout, rep.Text())
	}
	if st != nil {
		if err := st.Put(relaycheck.FromReport(rep)); err != nil {
			fmt.Fprintln(stderr, err)
			return exitUnknown
		}
	}
	switch rep.Verdict() {
	case relaycheck.Violates:
		return exitViolation
	case relaycheck.Unknown:
		return exitUnknown
	}
	return exitOK
}

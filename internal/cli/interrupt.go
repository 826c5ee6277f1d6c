package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// Interruptible returns a context cancelled at the first SIGINT or SIGTERM,
// for a run that stops, prints what it did so far and exits ExitUnknown;
// stop restores the default handling (a second signal then ends the
// process at once).
func Interruptible() (ctx context.Context, stop context.CancelFunc) {
	ctx, stop = signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		<-ctx.Done()
		stop()
	}()
	return ctx, stop
}

// OnInterrupt writes summary to w and exits ExitUnknown when ctx ends
// (Interruptible's first signal). exit is os.Exit in a command and a
// recorder in its tests; done is closed once the summary is written.
func OnInterrupt(ctx context.Context, w io.Writer, summary func(io.Writer), exit func(int)) (done <-chan struct{}) {
	ch := make(chan struct{})
	go func() {
		<-ctx.Done()
		summary(w)
		close(ch)
		exit(ExitUnknown)
	}()
	return ch
}

// WritePartial writes an interrupted run's partial summary: a line
// naming the run (its header line), the lines saying what it did so far
// (each indented by the caller), and the result line, unknown, with what
// else the command wants said after it. Both commands frame their
// summaries so, and a reader (or a script) finds an interrupted run the
// same way in either.
func WritePartial(w io.Writer, run string, lines []string, after string) {
	fmt.Fprintf(w, "\ninterrupted: partial summary of %s\n", run)
	for _, l := range lines {
		fmt.Fprintln(w, l)
	}
	fmt.Fprintln(w, "result: unknown (interrupted)"+after)
}

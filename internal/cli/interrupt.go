package cli

import (
	"context"
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

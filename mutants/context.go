package mutants

import "context"

// RunContext is Run that gives up as soon as ctx ends, returning
// context.Canceled at once; a context ended before the start runs
// nothing. The run itself is not stopped: its goroutine goes on until it
// finishes, so a caller ends the process (an interrupted command) rather
// than start another run beside it.
func RunContext(ctx context.Context, opts Options) (*Report, error) {
	if err := ctx.Err(); err != nil {
		return nil, context.Canceled
	}
	type result struct {
		rep *Report
		err error
	}
	ch := make(chan result, 1)
	go func() {
		rep, err := Run(opts)
		ch <- result{rep, err}
	}()
	select {
	case <-ctx.Done():
		return nil, context.Canceled
	case r := <-ch:
		return r.rep, r.err
	}
}

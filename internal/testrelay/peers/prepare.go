package peers

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"
)

// Prepare builds every Go peer and installs the JS relay into the cache,
// so that the tests start them at once (`make peer-deps`; .ci/run runs it
// before the tests). It reports each step on w. A peer whose tools are
// missing is reported and passed over, unless RequireEnv is set, when it
// is an error like any other.
func Prepare(ctx context.Context, w io.Writer) error {
	var errs []error
	step := func(what string, f func() (string, error)) {
		start := time.Now()
		where, err := f()
		var m *MissingToolError
		switch {
		case err == nil:
			fmt.Fprintf(w, "peers: %s ready in %.1f s: %s\n", what, time.Since(start).Seconds(), where)
		case errors.As(err, &m) && os.Getenv(RequireEnv) == "":
			fmt.Fprintf(w, "peers: %s skipped: %v\n", what, err)
		default:
			errs = append(errs, fmt.Errorf("%s: %w", what, err))
		}
	}
	for _, module := range []string{"rely", "khatrunext"} {
		step(module, func() (string, error) { return goPeer(ctx, module) })
	}
	step("jsrelay", func() (string, error) {
		_, dir, err := jsRelay(ctx)
		return dir, err
	})
	return errors.Join(errs...)
}

package props

import (
	"flag"
	"fmt"
	"os"
	"testing"
	"time"
)

// userChecks records whether -rapid.checks (or RAPID_CHECKS) was given; if
// not, the checks below choose their own counts.
var userChecks bool

// defaultSeed makes the searches reproducible unless -rapid.seed (or
// RAPID_SEED) says otherwise; `make props-long` runs many more checks
// from a random seed.
const defaultSeed = "20240601"

func TestMain(m *testing.M) {
	flag.Parse()
	set := map[string]bool{}
	flag.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if !set["rapid.seed"] && os.Getenv("RAPID_SEED") == "" {
		_ = flag.Set("rapid.seed", defaultSeed)
	}
	if flag.Lookup("rapid.seed").Value.String() == "0" {
		// A random seed, chosen here so that it is printed and can be
		// given back with -rapid.seed.
		_ = flag.Set("rapid.seed", fmt.Sprint(time.Now().UnixNano()&(1<<62-1)))
	}
	userChecks = set["rapid.checks"] || os.Getenv("RAPID_CHECKS") != ""
	if !set["rapid.shrinktime"] && os.Getenv("RAPID_SHRINKTIME") == "" {
		_ = flag.Set("rapid.shrinktime", "5s")
	}
	fmt.Fprintf(os.Stderr, "props: rapid seed %s, checks %s\n", flag.Lookup("rapid.seed").Value, flag.Lookup("rapid.checks").Value)
	os.Exit(m.Run())
}

// withChecks runs fn with -rapid.checks at n unless the command line chose
// a count.
func withChecks(n int, fn func()) {
	if userChecks {
		fn()
		return
	}
	f := flag.Lookup("rapid.checks")
	old := f.Value.String()
	_ = f.Value.Set(fmt.Sprint(n))
	defer func() { _ = f.Value.Set(old) }()
	fn()
}

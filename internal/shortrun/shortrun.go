package shortrun

import "testing"

// Target is the make target that runs every test at its full size.
const Target = "make test-full"

// Skip ends t under -short: what says what the full run does that the
// quick gate leaves out.
func Skip(t testing.TB, what string) {
	t.Helper()
	if testing.Short() {
		t.Skipf("-short: %s; %s runs it", what, Target)
	}
}

// On says whether the run is the quick gate: a test then checks a part of
// what it checks in full (what), said in its log.
func On(t testing.TB, what string) bool {
	t.Helper()
	if testing.Short() {
		t.Logf("-short: %s; %s runs the whole", what, Target)
		return true
	}
	return false
}

// Size is full, or short under -short (said in t's log): a count of
// cases, loads or walks a test scales by.
func Size[N ~int | ~int64](t testing.TB, full, short N) N {
	t.Helper()
	if testing.Short() && short != full {
		t.Logf("-short: %d instead of %d; %s runs the full size", short, full, Target)
		return short
	}
	return full
}

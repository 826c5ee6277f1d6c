package main

import (
	"strings"
	"testing"
)

// -store runs gives the same report as the default store; a bad
// -store-mem, -store-dir, or -por with it, is a usage error.
func TestStoreRunsFlag(t *testing.T) {
	args := []string{"-universe", "network-whole", "-depth", "3", "-tie", "clear", "-directed=false", "-progress=0"}
	untimed := func(s string) string {
		var keep []string
		for _, l := range strings.Split(s, "\n") {
			if !strings.Contains(l, "ms") {
				keep = append(keep, l)
			}
		}
		return strings.Join(keep, "\n")
	}
	_, mem, _ := runCLI(t, args...)
	_, runs, _ := runCLI(t, append(args, "-store", "runs", "-store-dir", t.TempDir(), "-store-mem", "1")...)
	if untimed(mem) != untimed(runs) || !strings.Contains(runs, "1 / 4 / 39 / 279") {
		t.Fatalf("reports differ:\n%s\n%s", mem, runs)
	}
	for _, bad := range [][]string{
		{"-store", "runs", "-store-dir", "/nonexistent/dir"},
		{"-store", "runs", "-store-dir", t.TempDir(), "-store-mem", "0"},
		{"-store", "runs", "-store-dir", t.TempDir(), "-por"},
	} {
		if code, _, errOut := runCLI(t, append(args, bad...)...); code != exitUsage || !strings.Contains(errOut, "-store") {
			t.Errorf("%v: exit %d, %q", bad, code, errOut)
		}
	}
}

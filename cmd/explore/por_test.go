package main

import (
	"strings"
	"testing"
)

// -por keeps the states per depth and the result, records itself on the
// first line and runs fewer transitions; without it the first line is the
// same as ever.
func TestPORFlag(t *testing.T) {
	args := []string{"-universe", "network-whole", "-depth", "3", "-tie", "clear", "-directed=false", "-progress=0", "-max-states", "5000"}
	code, full, _ := runCLI(t, args...)
	rcode, red, _ := runCLI(t, append(args, "-por")...)
	if code != rcode {
		t.Fatalf("exit %d without -por, %d with", code, rcode)
	}
	first := func(s string) string { return strings.SplitN(s, "\n", 2)[0] }
	if strings.Contains(first(full), "-por") || !strings.Contains(first(red), " -por=true ") {
		t.Fatalf("first lines:\n%s\n%s", first(full), first(red))
	}
	for _, want := range []string{"1 / 4 / 39 / 279", "result:"} {
		if !strings.Contains(full, want) || !strings.Contains(red, want) {
			t.Errorf("%q missing:\n%s\n%s", want, full, red)
		}
	}
	actions := func(s string) string {
		for _, l := range strings.Split(s, "\n") {
			if strings.Contains(l, "actions (executed transitions)") {
				return l
			}
		}
		return ""
	}
	if actions(full) == "" || actions(full) == actions(red) {
		t.Errorf("the executed transitions are the same with -por: %q", actions(red))
	}
}

// -store disk gives the same report as the default store; a bad -store or
// -store-dir is a usage error.
func TestStoreFlag(t *testing.T) {
	args := []string{"-universe", "network-whole", "-depth", "3", "-tie", "clear", "-directed=false", "-progress=0"}
	_, mem, _ := runCLI(t, args...)
	_, disk, _ := runCLI(t, append(args, "-store", "disk", "-store-dir", t.TempDir())...)
	untimed := func(s string) string {
		var keep []string
		for _, l := range strings.Split(s, "\n") {
			if !strings.Contains(l, "ms") {
				keep = append(keep, l)
			}
		}
		return strings.Join(keep, "\n")
	}
	if untimed(mem) != untimed(disk) || !strings.Contains(disk, "1 / 4 / 39 / 279") {
		t.Fatalf("reports differ:\n%s\n%s", mem, disk)
	}
	for _, bad := range [][]string{{"-store", "tape"}, {"-store", "disk", "-store-dir", "/nonexistent/dir"}} {
		if code, _, errOut := runCLI(t, append(args, bad...)...); code != exitUsage || !strings.Contains(errOut, "-store") {
			t.Errorf("%v: exit %d, %q", bad, code, errOut)
		}
	}
}

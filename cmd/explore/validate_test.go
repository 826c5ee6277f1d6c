package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// -validate: a log some behaviour explains exits 0, one with a record no
// behaviour allows exits 1 naming the line, a malformed one exits 2
// naming the line; load records likewise.
func TestValidateCommand(t *testing.T) {
	dir := t.TempDir()
	const init = `{"step": 0, "init": {"devices": ["d0", "d1"]}}` + "\n"
	// A load against a relay the client knows not to conform: no frame
	// is sent and the verdict is at once.
	const loadStart = `{"step": 1, "device": "d0", "load": {"start": {"pubkey": "79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798", "limit": 2, "sub_prefix": "h", "first_until": 4294967291, "known_non_conforming": true}}}` + "\n"
	const act = `{"step": 1, "device": "d0", "action": {"action": "advance", "ctx": "c0", "value": 10}, "state": {"c0": {"effective": 10, "live": false}}}` + "\n"
	for _, c := range []struct {
		name, log string
		code      int
		want      string
	}{
		{"good", init + act + `{"step": 2, "device": "d1", "received": {"client_id": "d0", "contexts": {"c0": 10}}, "state": {"c0": {"effective": 10, "live": false}}}` + "\n",
			exitOK, "explained in universe validate-pair: 2 records"},
		{"bad", init + act + `{"step": 2, "device": "d1", "received": {"client_id": "d0", "contexts": {"c0": 20}}}` + "\n",
			exitViolation, "unexplained in universe validate-pair at line 3 (step 2, d1, received)"},
		{"malformed", init + act + "{\"step\": 2\n", exitUsage, "log line 3"},
		{"load", init + loadStart + `{"step": 2, "device": "d0", "load": {"verdict": {"verdict": "cannot-prove-complete", "reason": "non-conforming"}}}` + "\n",
			exitOK, "explained in universe validate-pair: 2 records"},
		{"load verdict", init + loadStart + `{"step": 2, "device": "d0", "load": {"verdict": {"verdict": "complete", "reason": "none"}}}` + "\n",
			exitViolation, "unexplained in universe validate-pair at line 3 (step 2, d0, load verdict)"},
		{"load query after verdict", init + loadStart + `{"step": 2, "device": "d0", "load": {"sent": ["REQ", "h-fence", {}]}}` + "\n",
			exitViolation, "unexplained in universe validate-pair at line 3 (step 2, d0, load sent)"},
		{"load frame", init + `{"step": 1, "device": "d0", "load": {"received": ["NOTICE", "hi"]}}` + "\n", exitUsage, "log line 2"},
	} {
		f := filepath.Join(dir, c.name+".ndjson")
		if err := os.WriteFile(f, []byte(c.log), 0o644); err != nil {
			t.Fatal(err)
		}
		code, out, errOut := runCLI(t, "-validate", f)
		if code != c.code || !strings.Contains(out+errOut, c.want) {
			t.Errorf("%s: exit %d, want %d with %q\nstdout: %s\nstderr: %s", c.name, code, c.code, c.want, out, errOut)
		}
	}
}

// -validate in network-whole: the log leaves out the legacy device and
// every publication, and the guided search explains it.
func TestValidateNetworkWholeGuided(t *testing.T) {
	f := filepath.Join(t.TempDir(), "log.ndjson")
	log := `{"step": 0, "init": {"devices": ["d0", "d1"]}}` + "\n" +
		`{"step": 1, "device": "d0", "action": {"action": "advance", "ctx": "c0", "value": 10}, "state": {"c0": {"effective": 10, "live": false}}}` + "\n" +
		`{"step": 3, "device": "d1", "received": {"client_id": "d0", "contexts": {"c0": 10}}, "state": {"c0": {"effective": 10, "live": false}}}` + "\n" +
		`{"step": 5, "device": "d1", "received": {"client_id": "d2", "contexts": {"c1": 20}}, "state": {"c0": {"effective": 10, "live": false}, "c1": {"effective": 20, "live": false}}}` + "\n"
	if err := os.WriteFile(f, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, "-universe", "network-whole", "-validate", f)
	if code != exitOK || !strings.Contains(out, "explained in universe network-whole: 3 records, found by the log-guided search") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
}

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// -validate: a log some behaviour explains exits 0, one with a record no
// behaviour allows exits 1 naming the line, a malformed one exits 2
// naming the line.
func TestValidateCommand(t *testing.T) {
	dir := t.TempDir()
	const init = `{"step": 0, "init": {"devices": ["d0", "d1"]}}` + "\n"
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

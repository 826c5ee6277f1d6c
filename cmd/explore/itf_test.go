package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestITFSimulateAndReplay: -simulate N -itf DIR writes one trace per
// walk, -replay -itf checks one against the model (exit 0), and the same
// trace with one observed value changed diverges (exit 1, the step named).
func TestITFSimulateAndReplay(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := runCLI(t, "-universe", "network-whole", "-simulate", "2", "-steps", "12", "-seed", "9", "-tie", "clear", "-itf", dir)
	if code != exitOK {
		t.Fatalf("simulate: exit %d\n%s\n%s", code, out, errOut)
	}
	files, err := filepath.Glob(filepath.Join(dir, "*"))
	if err != nil || len(files) != 2 {
		t.Fatalf("traces written: %v (%v)", files, err)
	}
	if code, out, errOut := runCLI(t, "-replay", "-itf", files[0]); code != exitOK {
		t.Fatalf("replay: exit %d\n%s\n%s", code, out, errOut)
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	var bad string
	for _, swap := range [][2]string{{`"live":false`, `"live":true`}, {`"live":true`, `"live":false`}} {
		if i := strings.LastIndex(string(data), swap[0]); i >= 0 {
			bad = string(data[:i]) + swap[1] + string(data[i+len(swap[0]):])
			break
		}
	}
	if bad == "" {
		t.Skip("the walk observed no live value to alter")
	}
	altered := filepath.Join(t.TempDir(), "altered.itf.json")
	if err := os.WriteFile(altered, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = runCLI(t, "-replay", "-itf", altered)
	if code != exitViolation || !strings.Contains(out+errOut, "step") {
		t.Fatalf("altered trace: exit %d, want %d naming the step\n%s\n%s", code, exitViolation, out, errOut)
	}
}

// -profile legacy-decoder masks the traces to what a legacy decoder
// observes (no liveness, no override key), names the profile in each, and
// they replay; an unknown profile and -profile without -itf are usage
// errors.
func TestITFProfile(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := runCLI(t, "-universe", "network-whole", "-simulate", "2", "-steps", "20", "-seed", "9", "-tie", "clear", "-itf", dir, "-profile", "legacy-decoder")
	if code != exitOK || !strings.Contains(out+errOut, "profile legacy-decoder") {
		t.Fatalf("simulate: exit %d\n%s\n%s", code, out, errOut)
	}
	files, err := filepath.Glob(filepath.Join(dir, "*"))
	if err != nil || len(files) != 2 {
		t.Fatalf("traces written: %v (%v)", files, err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(data), `"live"`) || strings.Contains(string(data), `"ov_`) || !strings.Contains(string(data), `"profile":"legacy-decoder"`) {
			t.Fatalf("%s is not masked for a legacy decoder:\n%.400s", f, data)
		}
		if code, out, errOut := runCLI(t, "-replay", "-itf", f); code != exitOK {
			t.Fatalf("replay: exit %d\n%s\n%s", code, out, errOut)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-universe", "network-whole", "-simulate", "1", "-itf", t.TempDir(), "-profile", "nonesuch"}, "nonesuch"},
		{[]string{"-universe", "network-whole", "-simulate", "1", "-profile", "full"}, "-profile masks"},
	} {
		if code, out, errOut := runCLI(t, c.args...); code != exitUsage || !strings.Contains(out+errOut, c.want) {
			t.Errorf("%v: exit %d, want %d with %q\n%s\n%s", c.args, code, exitUsage, c.want, out, errOut)
		}
	}
}

package witnesshtml

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/nip-rs/harness/witnessfile"
)

// trace is a network witness with a local action, a publication, a
// delivery and a drop, as its file and its text form hold it.
func trace(t testing.TB) Witness {
	t.Helper()
	w, err := witnessfile.Parse([]byte(`{"kind":"explore","universe":"network","depth":4,"tie":"clear","rules":"spec",
		"invariant":"N1-cross-device-convergence","detail":"stored",
		"actions":[{"action":"mark_unread","device":0,"ctx":"c0"},{"action":"publish","device":0},
		{"action":"deliver","from":0,"to":1},{"action":"drop","from":0,"to":2}]}`))
	if err != nil {
		t.Fatal(err)
	}
	text := `witness N1-cross-device-convergence: universe network, depth bound 4, tie clear, rules spec
initial state:
  d0 c0: f=- reg=(0,0,0) dead
  d1 c0: f=- reg=(0,0,0) dead
  d2 c0: f=-
step 1: mark_unread d0 c0
  d0 c0: f=- reg=(0,0,0) dead -> f=- reg=(1,0,0) live
step 2: publish d0
  d0->d1: empty -> msg 1 {ov_s:c0=1}
step 3: deliver d0->d1 msg 1
  d1 c0: f=- reg=(0,0,0) dead -> f=- reg=(1,0,0) live
step 4: drop d0->d2 msg 1
  (no change)
quiescence (what the checks at this state ran on):
  drain: nothing in flight
  d0 at the fixpoint: c0: f=0 live unread=true
violation N1-cross-device-convergence: at quiescence d0 sees <live> but d2 sees & dead
`
	return FromWitness(w, text, []string{"N1-cross-device-convergence: at quiescence d0 sees <live> but d2 sees & dead"})
}

func TestFromWitnessReadsStepsAndLanes(t *testing.T) {
	w := trace(t)
	if w.Devices != 3 || len(w.Steps) != 5 || len(w.Initial) != 3 {
		t.Fatalf("devices %d, steps %d, initial %d", w.Devices, len(w.Steps), len(w.Initial))
	}
	want := []struct {
		kind          string
		dev, from, to int
		lines         int
	}{{"local", 0, -1, -1, 1}, {"publish", 0, -1, -1, 1}, {"deliver", -1, 0, 1, 1}, {"drop", -1, 0, 2, 1}, {"quiescence", -1, -1, -1, 2}}
	for i, s := range w.Steps {
		if s.Kind != want[i].kind || s.Device != want[i].dev || s.From != want[i].from || s.To != want[i].to || len(s.Lines) != want[i].lines {
			t.Errorf("step %d: %+v", i+1, s)
		}
	}
	if w.Detail != "at quiescence d0 sees <live> but d2 sees & dead" {
		t.Errorf("detail %q: the page shows the rendered (recomputed) detail", w.Detail)
	}
}

// The page is self-contained: no URL it would fetch, and the witness
// data cannot close its script element.
func TestPageIsSelfContained(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, Page{Title: "witness </script> test", Witnesses: []Witness{trace(t)}}); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	if m := regexp.MustCompile(`(src|href)="(https?:)?//`).FindString(page); m != "" {
		t.Errorf("page refers to the network: %s", m)
	}
	if strings.Count(page, "</script>") != 2 {
		t.Errorf("want exactly the two script elements closed, got %d", strings.Count(page, "</script>"))
	}
}

// chromium is the Debian package's browser, or the test is skipped.
func chromium(t *testing.T) string {
	t.Helper()
	for _, p := range []string{"/usr/bin/chromium", "/usr/bin/chromium-browser"} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	t.Skip("no headless Chromium (/usr/bin/chromium): install the Debian package chromium to run the page in a browser (.ci/run does)")
	return ""
}

// runChromium runs the browser and returns its standard output. A browser
// that dies (a signal, or no exit within its time) is the machine's
// trouble, not the page's: it is run again, at most three times, and only
// an exit of its own with an error, or three deaths, fail the test.
func runChromium(t *testing.T, bin string, args ...string) []byte {
	t.Helper()
	out, _ := runChromiumLogged(t, bin, args...)
	return out
}

// runChromiumLogged is runChromium that also returns the browser's
// standard error (its console, with --enable-logging=stderr).
func runChromiumLogged(t *testing.T, bin string, args ...string) ([]byte, string) {
	t.Helper()
	var last string
	for attempt := 1; attempt <= 3; attempt++ {
		out, stderr, died, err := chromiumOnce(t, bin, args)
		if err == nil {
			return out, stderr
		}
		last = fmt.Sprintf("attempt %d: %v\n%s", attempt, err, stderr)
		if !died {
			t.Fatalf("chromium %v: %s", args, last)
		}
		t.Logf("chromium %v died, running it again: %s", args, last)
	}
	t.Fatalf("chromium %v died three times: %s", args, last)
	return nil, ""
}

func chromiumOnce(t *testing.T, bin string, args []string) (out []byte, stderr string, died bool, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), 180*time.Second)
	defer cancel()
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--user-data-dir=" + t.TempDir()}
	cmd := exec.CommandContext(ctx, bin, append(base, args...)...)
	var buf bytes.Buffer
	cmd.Stderr = &buf
	out, err = cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		died = ctx.Err() != nil || (errors.As(err, &ee) && !ee.Exited())
	}
	return out, buf.String(), died, err
}

// In a real browser the page's script builds one row per step with its
// lanes, a delivery arrow, and the violation marked with a link to it;
// a screenshot is kept in the test's temporary directory.
func TestPageRendersInChromium(t *testing.T) {
	bin := chromium(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "w.html")
	var b bytes.Buffer
	if err := Write(&b, Page{Title: "witnesses", Witnesses: []Witness{trace(t)}}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	dom := string(runChromium(t, bin, "--dump-dom", "file://"+path))
	for _, want := range []string{
		`data-rendered="1"`,
		`id="w1-step-1"`, `id="w1-step-4"`, `5. quiescence: drain, then publication rounds`,
		`class="delivery"`, `class="publication"`,
		`class="violation violated" id="w1-violation"`,
		`violation: N1-cross-device-convergence fails`,
		`href="#w1-violation"`,
		`at quiescence d0 sees &lt;live&gt; but d2 sees &amp; dead`,
	} {
		if !strings.Contains(dom, want) {
			t.Errorf("rendered DOM lacks %s", want)
		}
	}
	if t.Failed() {
		t.Logf("DOM:\n%s", dom)
	}
	shot := filepath.Join(dir, "w.png")
	runChromium(t, bin, "--screenshot="+shot, "--window-size=1200,900", "file://"+path)
	data, err := os.ReadFile(shot)
	if err != nil || len(data) < 1000 || !bytes.HasPrefix(data, []byte("\x89PNG")) {
		t.Fatalf("screenshot %s: %d bytes, %v", shot, len(data), err)
	}
	t.Logf("screenshot %s (%d bytes)", shot, len(data))
}

package peers

import (
	"strings"
	"testing"
	"time"
)

// TestProcessLifecycle: the URL is the first stdout line; a clean exit on
// stdin's end stops without error; a program that prints something else,
// exits on its own, or ignores its stdin is reported, never passed.
func TestProcessLifecycle(t *testing.T) {
	for _, tc := range []struct {
		name, script string
		startErr     string // part of startProcess's error ("" none)
		stopErr      string // part of stop's error ("" none)
		wait         bool   // let the program run a moment before stop
	}{
		{name: "clean", script: "echo ws://127.0.0.1:1; cat >/dev/null"},
		{name: "not a url", script: "echo listening; cat >/dev/null", startErr: `printed "listening"`},
		{name: "no url", script: "exec sleep 5", startErr: "printed no URL"},
		{name: "dies", script: "echo ws://127.0.0.1:1; echo boom >&2; exit 3", wait: true, stopErr: "exited before it was stopped"},
		{name: "fails on stop", script: "echo ws://127.0.0.1:1; cat >/dev/null; exit 4", stopErr: "exited uncleanly"},
		{name: "ignores stdin", script: "echo ws://127.0.0.1:1; exec sleep 30", stopErr: "killed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := startProcess([]string{"sh", "-c", tc.script}, 500*time.Millisecond)
			if tc.startErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.startErr) {
					t.Fatalf("start: %v, want an error with %q", err, tc.startErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if p.url != "ws://127.0.0.1:1" {
				t.Fatalf("url %q", p.url)
			}
			if tc.wait {
				<-p.done
			}
			err = p.stop(300 * time.Millisecond)
			if tc.stopErr == "" && err != nil {
				t.Fatalf("stop: %v", err)
			}
			if tc.stopErr != "" && (err == nil || !strings.Contains(err.Error(), tc.stopErr)) {
				t.Fatalf("stop: %v, want an error with %q", err, tc.stopErr)
			}
			if tc.name == "dies" && !strings.Contains(err.Error(), "boom") {
				t.Fatalf("stop's error lacks the program's stderr: %v", err)
			}
		})
	}
}

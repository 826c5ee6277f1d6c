package mbt

import (
	"bytes"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/internal/shortrun"
	"github.com/nip-rs/harness/model"
)

// validateBytes reads and validates a log in network-whole under the
// proposed rules.
func validateBytes(t *testing.T, b []byte) (*Validation, error) {
	t.Helper()
	lg, err := ReadLog(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	cat := exhaustive.NewCatalog()
	rules, err := cat.Rules(model.ProposedName)
	if err != nil {
		t.Fatal(err)
	}
	return Validate(PairUniverse(), rules, lg, DefaultMaxStates)
}

// jsLogs records the worked client's logs of a few simulated walks.
func jsLogs(t *testing.T, walks, steps int, seed uint64) [][]byte {
	t.Helper()
	node := nodePath(t)
	var out [][]byte
	cat := exhaustive.NewCatalog()
	rules, err := cat.Rules(model.ProposedName)
	if err != nil {
		t.Fatal(err)
	}
	u := PairUniverse()
	trs, err := Traces(exhaustive.SimConfig{Universe: u, Rules: rules, Walks: walks, Steps: steps, Seed: seed},
		Run{Universe: u.Name, Rules: rules.Name, Tie: rules.Tie.String(), Seed: seed, Steps: steps})
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range trs {
		b, err := RecordLog([]string{node, filepath.Join(clientDir(t), "adapter.mjs")}, tr)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

// The worked client's own logs of simulated walks are explained: the
// search finds the legacy device's actions, the publications and the
// drops the logs leave out.
func TestJSClientLogsExplained(t *testing.T) {
	for i, b := range jsLogs(t, shortrun.Size(t, 10, 3), 30, 11) {
		v, err := validateBytes(t, b)
		if err != nil {
			t.Fatalf("walk %d: %v", i, err)
		}
		if !v.Explained() {
			t.Fatalf("walk %d: not explained: %+v %v\n%s", i, v, v.Unexplained, b)
		}
		t.Logf("walk %d: %d records, at most %d states", i, v.Records, v.MaxStates)
	}
}

// lines splits a log into its JSON records, each as a generic map.
func lines(t *testing.T, b []byte) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, l := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		var m map[string]any
		if err := json.Unmarshal(l, &m); err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}

func join(t *testing.T, ms []map[string]any) []byte {
	t.Helper()
	var out []byte
	for _, m := range ms {
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		out = append(append(out, b...), '\n')
	}
	return out
}

// firstIndex is the index of the first record after init that pred
// accepts, or -1.
func firstIndex(t *testing.T, ms []map[string]any, pred func(map[string]any) bool) int {
	t.Helper()
	for i, m := range ms[1:] {
		if pred(m) {
			return i + 1
		}
	}
	return -1
}

// mustReject validates a seeded log and checks it is unexplained at the
// record of index i (line i+1) in the part named what.
func mustReject(t *testing.T, b []byte, i int, what string) *Unexplained {
	t.Helper()
	v, err := validateBytes(t, b)
	if err != nil {
		t.Fatal(err)
	}
	u := v.Unexplained
	if u == nil {
		t.Fatalf("the seeded log was not rejected (unknown: %q)\n%s", v.Unknown, b)
	}
	if u.Line != i+1 || u.What != what {
		t.Fatalf("rejected at line %d (%s), want line %d (%s): %v", u.Line, u.What, i+1, what, u)
	}
	if len(u.Prefix) != i+1 || len(u.Allows) == 0 {
		t.Fatalf("the witness has %d lines and %d alternatives, want %d lines and some", len(u.Prefix), len(u.Allows), i+1)
	}
	if v.Records != i-1 {
		t.Fatalf("%d records explained before line %d, want %d", v.Records, u.Line, i-1)
	}
	t.Logf("%v", u)
	return u
}

func TestSeededWrongLogsRejected(t *testing.T) {
	logs := jsLogs(t, 6, 30, 11)
	hasState := func(m map[string]any) bool { s, _ := m["state"].(map[string]any); return len(s) > 0 }
	isAction := func(name string) func(map[string]any) bool {
		return func(m map[string]any) bool {
			a, _ := m["action"].(map[string]any)
			return a != nil && a["action"] == name
		}
	}
	isReceipt := func(m map[string]any) bool {
		r, _ := m["received"].(map[string]any)
		cs, _ := r["contexts"].(map[string]any)
		return len(cs) > 0
	}
	// withRecord is the first log with a record pred accepts and its index.
	withRecord := func(t *testing.T, pred func(map[string]any) bool) ([]map[string]any, int) {
		for _, b := range logs {
			ms := lines(t, b)
			if i := firstIndex(t, ms, pred); i > 0 {
				return ms, i
			}
		}
		t.Fatal("no walk has a record of the kind this seeds a fault in")
		return nil, 0
	}
	t.Run("state disagrees", func(t *testing.T) {
		ms, i := withRecord(t, hasState)
		for _, c := range ms[i]["state"].(map[string]any) {
			c.(map[string]any)["effective"] = c.(map[string]any)["effective"].(float64) + 1
			break
		}
		mustReject(t, join(t, ms), i, "state")
	})
	t.Run("blob never published", func(t *testing.T) {
		ms, i := withRecord(t, isReceipt)
		ms[i]["received"].(map[string]any)["contexts"] = map[string]any{"c0": 15}
		mustReject(t, join(t, ms), i, "received")
	})
	t.Run("action effect misstated", func(t *testing.T) {
		for _, b := range logs {
			ms := lines(t, b)
			i := firstIndex(t, ms, isAction("mark_unread"))
			if i < 0 {
				continue
			}
			ctx := ms[i]["action"].(map[string]any)["ctx"].(string)
			c, ok := ms[i]["state"].(map[string]any)[ctx].(map[string]any)
			if !ok || c["live"] != true {
				continue // a refused mark-unread: nothing to misstate
			}
			c["live"] = false
			mustReject(t, join(t, ms), i, "state")
			return
		}
		t.Fatal("no walk has a mark-unread that took effect")
	})
	t.Run("receipt before its publication", func(t *testing.T) {
		ms, i := withRecord(t, func(m map[string]any) bool { return isReceipt(m) })
		if i == 1 {
			t.Fatal("the first receipt is already the first record: pick another walk")
		}
		// Move the receipt to the front, keeping the steps increasing.
		moved := append([]map[string]any{ms[0], ms[i]}, append(ms[1:i:i], ms[i+1:]...)...)
		for k, m := range moved[1:] {
			m["step"] = k + 1
		}
		mustReject(t, join(t, moved), 1, "received")
	})
}

// A search cut by its bound is unknown, neither explained nor not.
func TestValidateBoundIsUnknown(t *testing.T) {
	b := jsLogs(t, 1, 30, 11)[0]
	lg, err := ReadLog(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	v, err := Validate(PairUniverse(), model.Proposed(), lg, 2)
	if err != nil {
		t.Fatal(err)
	}
	if v.Unknown == "" || v.Explained() || v.Unexplained != nil {
		t.Fatalf("a bound of 2 states gave %+v", v)
	}
}

// A malformed log is refused before anything runs, naming its line.
func TestMalformedLogNamesLine(t *testing.T) {
	const init = `{"step": 0, "init": {"devices": ["d0", "d1"]}}` + "\n"
	const ok = `{"step": 1, "device": "d0", "action": {"action": "advance", "ctx": "c0", "value": 10}}` + "\n"
	for _, c := range []struct {
		name, log string
		line      int
	}{
		{"empty", "", 0},
		{"no init", ok, 1},
		{"not JSON", init + ok + "{oops\n", 3},
		{"unknown member", init + `{"step": 1, "device": "d0", "action": {"action": "advance"}, "extra": 1}` + "\n", 2},
		{"steps go back", init + ok + ok, 3},
		{"device not hosted", init + `{"step": 1, "device": "d2", "action": {"action": "rotate"}}` + "\n", 2},
		{"two kinds", init + `{"step": 1, "device": "d0", "action": {"action": "rotate"}, "received": {"contexts": {}}}` + "\n", 2},
		{"no kind", init + `{"step": 1, "device": "d0"}` + "\n", 2},
		{"value out of range", init + `{"step": 1, "device": "d0", "action": {"action": "advance", "ctx": "c0", "value": -1}}` + "\n", 2},
		{"bad device name", `{"step": 0, "init": {"devices": ["phone"]}}` + "\n", 1},
		{"two values on a line", init + ok[:len(ok)-1] + " {}\n", 2},
	} {
		_, err := ReadLog(strings.NewReader(c.log))
		var le *LogError
		if !errors.As(err, &le) || le.Line != c.line {
			t.Errorf("%s: got %v, want an error at line %d", c.name, err, c.line)
		}
	}
	// A hosted device the universe lacks, or that runs the legacy client,
	// is refused as malformed too, naming the init line.
	for _, u := range []string{"validate-pair", "network-whole"} {
		lg, err := ReadLog(strings.NewReader(`{"step": 0, "init": {"devices": ["d2"]}}` + "\n"))
		if err != nil {
			t.Fatal(err)
		}
		uv := PairUniverse()
		if u != uv.Name {
			uv = exhaustive.NetworkWholeUniverse()
		}
		if _, err := Validate(uv, nil, lg, DefaultMaxStates); !IsLogError(err) {
			t.Errorf("%s: device d2 gave %v", u, err)
		}
	}
}

// A logged publication is matched against the device's canonical
// publication there.
func TestPublishedRecord(t *testing.T) {
	const init = `{"step": 0, "init": {"devices": ["d0", "d1"]}}` + "\n"
	const act = `{"step": 1, "device": "d0", "action": {"action": "advance", "ctx": "c0", "value": 10}}` + "\n"
	good := init + act + `{"step": 2, "device": "d0", "published": {"contexts": {"c0": 10}}}` + "\n" +
		`{"step": 3, "device": "d1", "received": {"client_id": "d0", "contexts": {"c0": 10}}, "state": {"c0": {"effective": 10, "live": false}}}` + "\n"
	v, err := validateBytes(t, []byte(good))
	if err != nil || !v.Explained() {
		t.Fatalf("a true publication: %v %+v", err, v)
	}
	bad := init + act + `{"step": 2, "device": "d0", "published": {"contexts": {"c0": 20}}}` + "\n"
	v, err = validateBytes(t, []byte(bad))
	if err != nil || v.Unexplained == nil || v.Unexplained.Line != 3 || v.Unexplained.What != "published" {
		t.Fatalf("a false publication: %v %+v", err, v)
	}
}

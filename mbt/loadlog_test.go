package mbt

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// jsLoadLogs has the worked client write its logs of every load vector
// and returns them by file name, sorted.
func jsLoadLogs(t *testing.T) (names []string, logs map[string][]byte) {
	t.Helper()
	node := nodePath(t)
	dir := t.TempDir()
	vecs := filepath.Join(clientDir(t), "..", "..", "load.json")
	out, err := exec.Command(node, filepath.Join(clientDir(t), "loadlog.mjs"), vecs, dir).CombinedOutput()
	if err != nil {
		t.Fatalf("loadlog.mjs: %v\n%s", err, out)
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	logs = map[string][]byte{}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		logs[e.Name()] = b
		names = append(names, e.Name())
	}
	sort.Strings(names)
	return names, logs
}

// Every log the worked client writes of a load vector is explained: the
// frames it sent are the model's, in the model's order, and so is its
// verdict.
func TestJSClientLoadLogsExplained(t *testing.T) {
	names, logs := jsLoadLogs(t)
	var vf struct {
		Vectors []json.RawMessage `json:"vectors"`
	}
	b, err := os.ReadFile(filepath.Join(clientDir(t), "..", "..", "load.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &vf); err != nil {
		t.Fatal(err)
	}
	if len(names) != len(vf.Vectors) || len(names) == 0 {
		t.Fatalf("%d logs for %d load vectors", len(names), len(vf.Vectors))
	}
	verdicts := 0
	for _, n := range names {
		v, err := validateBytes(t, logs[n])
		if err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		if !v.Explained() {
			t.Fatalf("%s: not explained: %v\n%s", n, v.Unexplained, logs[n])
		}
		if bytes.Contains(logs[n], []byte(`"verdict":{`)) {
			verdicts++
		}
	}
	if verdicts == 0 {
		t.Fatal("no log reached a verdict: the verdict records went unchecked")
	}
	t.Logf("%d load logs explained, %d with a verdict", len(names), verdicts)
}

// editLog rewrites a log's records (after the init line) and numbers the
// steps again, so that an edit leaves the log well formed.
func editLog(t *testing.T, b []byte, edit func(recs []map[string]any) []map[string]any) []byte {
	t.Helper()
	ls := lines(t, b)
	recs := edit(ls[1:])
	var out bytes.Buffer
	first, _ := json.Marshal(ls[0])
	out.Write(append(first, '\n'))
	for i, r := range recs {
		r["step"] = i + 1
		l, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		out.Write(append(l, '\n'))
	}
	return out.Bytes()
}

// loadOf is a record's load object, nil for another record.
func loadOf(r map[string]any) map[string]any {
	ld, _ := r["load"].(map[string]any)
	return ld
}

// Seeded wrong logs are refused at the line of their first wrong record:
// a query sent after the verdict, a wrong verdict, a verdict before the
// load has one, a CLOSE left out
// (the next record is reported, with the CLOSE the model sends first),
// a reply to a frame the relay never sent, a load of two passes that does
// not log the wait before its first band.
func TestSeededLoadLogsRefused(t *testing.T) {
	_, logs := jsLoadLogs(t)
	base := logs["load-witness-L1.ndjson"]
	if base == nil {
		t.Fatal("no log of load/witness-L1")
	}
	verdictAt := func(recs []map[string]any) int {
		for i, r := range recs {
			if ld := loadOf(r); ld != nil && ld["verdict"] != nil {
				return i
			}
		}
		t.Fatal("the log has no verdict")
		return -1
	}
	for _, c := range []struct {
		name string
		edit func([]map[string]any) []map[string]any
		// line is the 1-based line the refusal must name, counted on
		// the edited log; what and allows what it must say.
		line         func([]map[string]any) int
		what, allows string
	}{
		{"query after verdict", func(rs []map[string]any) []map[string]any {
			i := verdictAt(rs)
			req := map[string]any{"device": "d0", "load": map[string]any{"sent": []any{"REQ", "L1-q9", map[string]any{"kinds": []any{30078}}}}}
			return append(rs[:i+1:i+1], append([]map[string]any{req}, rs[i+1:]...)...)
		}, func(rs []map[string]any) int { return verdictAt(rs) + 3 }, "load sent", "nothing: the load has its verdict"},
		{"wrong verdict", func(rs []map[string]any) []map[string]any {
			loadOf(rs[verdictAt(rs)])["verdict"].(map[string]any)["verdict"] = "complete"
			return rs
		}, func(rs []map[string]any) int { return verdictAt(rs) + 2 }, "load verdict", `"verdict":"cannot-prove-complete"`},
		{"missing CLOSE", func(rs []map[string]any) []map[string]any {
			for i, r := range rs {
				if s, ok := loadOf(r)["sent"].([]any); ok && s[0] == "CLOSE" {
					return append(rs[:i:i], rs[i+1:]...)
				}
			}
			t.Fatal("no CLOSE in the log")
			return nil
		}, func(rs []map[string]any) int {
			for i, r := range rs {
				if s, ok := loadOf(r)["sent"].([]any); ok && s[0] == "REQ" && s[1] == "L1-q2" {
					return i + 2
				}
			}
			return -1
		}, "load sent", `["CLOSE","L1-q1"]`},
		{"early verdict", func(rs []map[string]any) []map[string]any {
			// The verdict logged right after the fence's REQ, before any
			// frame could decide it.
			i := verdictAt(rs)
			v := rs[i]
			rs = append(rs[:i:i], rs[i+1:]...)
			return append(rs[:2:2], append([]map[string]any{v}, rs[2:]...)...)
		}, func([]map[string]any) int { return 4 }, "load verdict", "no verdict yet"},
		{"reply without a frame", func(rs []map[string]any) []map[string]any {
			// The second band's REQ logged before the EOSE that asks
			// for it.
			for i, r := range rs {
				if s, ok := loadOf(r)["received"].([]any); ok && s[0] == "EOSE" && s[1] == "L1-q1" {
					return append(rs[:i:i], append(rs[i+1:i+3:i+3], append([]map[string]any{r}, rs[i+3:]...)...)...)
				}
			}
			t.Fatal("no EOSE of L1-q1")
			return nil
		}, func(rs []map[string]any) int {
			for i, r := range rs {
				if s, ok := loadOf(r)["sent"].([]any); ok && s[0] == "CLOSE" && s[1] == "L1-q1" {
					return i + 2
				}
			}
			return -1
		}, "load sent", "nothing until the relay's next frame"},
		{"missing wait", func(rs []map[string]any) []map[string]any {
			for i, r := range rs {
				if loadOf(r)["wait"] != nil {
					return append(rs[:i:i], rs[i+1:]...)
				}
			}
			t.Fatal("no wait in the log")
			return nil
		}, func(rs []map[string]any) int {
			// The reply the wait came before.
			for i, r := range rs {
				if loadOf(r)["sent"] != nil && i > 0 && loadOf(rs[i-1])["received"] != nil && i > 2 {
					return i + 2
				}
			}
			return -1
		}, "load sent", "load wait {} first"},
	} {
		t.Run(c.name, func(t *testing.T) {
			base := base
			if c.name == "missing wait" {
				base = logs["load-witness-L14.ndjson"]
			}
			var recs []map[string]any
			b := editLog(t, base, func(rs []map[string]any) []map[string]any {
				recs = c.edit(rs)
				return recs
			})
			v, err := validateBytes(t, b)
			if err != nil {
				t.Fatal(err)
			}
			x := v.Unexplained
			if x == nil {
				t.Fatalf("explained:\n%s", b)
			}
			want := c.line(recs)
			if x.Line != want || x.What != c.what || !strings.Contains(strings.Join(x.Allows, " | "), c.allows) {
				t.Fatalf("refused at line %d (%s), allows %v; want line %d (%s) allowing %s\n%s", x.Line, x.What, x.Allows, want, c.what, c.allows, b)
			}
		})
	}
}

// Malformed load records are refused naming their line, before or when
// the load starts, and nothing panics on them.
func TestMalformedLoadRecords(t *testing.T) {
	const init = `{"step": 0, "init": {"devices": ["d0"]}}` + "\n"
	const start = `{"step": 1, "device": "d0", "load": {"start": {"pubkey": "79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798", "limit": 2, "sub_prefix": "h", "first_until": 4294967291}}}` + "\n"
	for _, c := range []struct{ name, line, want string }{
		{"two kinds", `{"step": 2, "device": "d0", "load": {"sent": ["CLOSE", "h-fence"], "received": ["EOSE", "h-fence"]}}`, "exactly one of"},
		{"no kind", `{"step": 2, "device": "d0", "load": {"relay": "r"}}`, "exactly one of"},
		{"unknown member", `{"step": 2, "device": "d0", "load": {"pause": {}}}`, "unknown field"},
		{"wait with a duration", `{"step": 2, "device": "d0", "load": {"wait": {"ms": 50}}}`, "unknown field"},
		{"null wait", `{"step": 2, "device": "d0", "load": {"wait": null}}`, "exactly one of"},
		{"frame not an array", `{"step": 2, "device": "d0", "load": {"received": {"EOSE": 1}}}`, "JSON array"},
		{"empty frame", `{"step": 2, "device": "d0", "load": {"sent": []}}`, "non-empty"},
		{"null frame", `{"step": 2, "device": "d0", "load": {"received": null}}`, "non-empty"},
		{"unknown frame", `{"step": 2, "device": "d0", "load": {"received": ["NOTICE", "hi"]}}`, "not an EVENT"},
		{"event without event", `{"step": 2, "device": "d0", "load": {"received": ["EVENT", "h-fence", 7]}}`, "not an EVENT"},
		{"short event", `{"step": 2, "device": "d0", "load": {"received": ["EVENT"]}}`, "not an EVENT"},
		{"verdict without reason", `{"step": 2, "device": "d0", "load": {"verdict": {"verdict": "complete"}}}`, "want verdict and reason"},
		{"state on a load", `{"step": 2, "device": "d0", "load": {"received": ["EOSE", "h-fence"]}, "state": {}}`, "no state"},
		{"foreign first band", `{"step": 2, "device": "d0", "load": {"start": {"pubkey": "79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798", "limit": 2, "sub_prefix": "h", "first_until": 100}}}`, "first_until 100"},
		{"no prefix", `{"step": 2, "device": "d0", "load": {"start": {"pubkey": "79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798", "limit": 2, "first_until": 4294967291}}}`, "sub_prefix"},
		{"bad pubkey", `{"step": 2, "device": "d0", "load": {"relay": "r2", "start": {"pubkey": "xyz", "limit": 2, "sub_prefix": "g", "first_until": 4294967291}}}`, "load start"},
		{"relay outside the load", `{"step": 2, "device": "d0", "relay": "x", "load": {"relay": "r2", "start": {"pubkey": "79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798", "limit": 1, "sub_prefix": "g", "first_until": 4294967291}}}`, "unknown field"},
		{"limit below the floor, another relay", `{"step": 2, "device": "d0", "load": {"relay": "r2", "start": {"pubkey": "79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798", "limit": 1, "sub_prefix": "g", "first_until": 4294967291}}}`, "load start"},
	} {
		t.Run(c.name, func(t *testing.T) {
			v, err := validateBytes(t, []byte(init+start+c.line+"\n"))
			if !IsLogError(err) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "line 3") {
				t.Fatalf("want a log error at line 3 saying %q, got %v (%+v)", c.want, err, v)
			}
		})
	}
}

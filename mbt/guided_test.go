package mbt

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/internal/shortrun"
	"github.com/nip-rs/harness/model"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// networkWholeLogs records the worked client's logs of simulated walks of
// network-whole, whose legacy device the logs do not host.
func networkWholeLogs(t testing.TB, walks, steps int, seed uint64) (exhaustive.Universe, *model.Rules, []*Log) {
	t.Helper()
	node := nodePath(t)
	cat := exhaustive.NewCatalog()
	rules, err := cat.Rules(model.ProposedName)
	if err != nil {
		t.Fatal(err)
	}
	u, err := cat.Universe("network-whole")
	if err != nil {
		t.Fatal(err)
	}
	trs, err := Traces(exhaustive.SimConfig{Universe: u, Rules: rules, Walks: walks, Steps: steps, Seed: seed},
		Run{Universe: u.Name, Rules: rules.Name, Tie: rules.Tie.String(), Seed: seed, Steps: steps})
	if err != nil {
		t.Fatal(err)
	}
	var out []*Log
	for _, tr := range trs {
		b, err := RecordLog([]string{node, filepath.Join(clientDir(t), "adapter.mjs")}, tr)
		if err != nil {
			t.Fatal(err)
		}
		lg, err := ReadLog(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, lg)
	}
	return u, rules, out
}

// The worked client's logs of network-whole walks, where the breadth-first
// search holds every unseen behaviour of the legacy device and passes its
// bound of 400,000 states within a few records, are explained by the
// guided search; how many states it visits per log is pinned in
// testdata/guided-network-whole.golden (-update rewrites it).
func TestGuidedExplainsNetworkWholeLogs(t *testing.T) {
	// The quick gate validates three logs; the pinned figures are those
	// of the ten, so they are not compared.
	short := shortrun.On(t, "three logs, the pinned figures not compared")
	u, rules, logs := networkWholeLogs(t, shortrun.Size(t, 10, 3), 30, 11)
	var got bytes.Buffer
	for i, lg := range logs {
		v, err := Validate(u, rules, lg, DefaultMaxStates)
		if err != nil {
			t.Fatal(err)
		}
		if !v.Explained() || !v.Guided || v.Records != len(lg.Records) {
			t.Fatalf("walk %d: explained %v, guided %v, %d of %d records (%s %v)", i, v.Explained(), v.Guided, v.Records, len(lg.Records), v.Unknown, v.Unexplained)
		}
		fmt.Fprintf(&got, "walk %d: %d records explained, %d states visited\n", i, v.Records, v.MaxStates)
	}
	if short {
		return
	}
	golden := filepath.Join("testdata", "guided-network-whole.golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, got.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want) {
		t.Fatalf("the guided search's figures changed (-update rewrites them):\n%s\nwant:\n%s", got.Bytes(), want)
	}
}

// A wrong record in a network-whole log is still found: the guided search
// finds no behaviour and the breadth-first one names the line.
func TestGuidedFallsBackOnWrongLog(t *testing.T) {
	u, rules, logs := networkWholeLogs(t, 1, 10, 11)
	lg := logs[0]
	i := -1
	for j, r := range lg.Records {
		if r.State != nil && r.State["c0"].Effective == 10 {
			i = j
			break
		}
	}
	if i < 0 {
		t.Fatal("the walk shows no c0 at 10 to alter")
	}
	lg.Records[i].State = map[string]ctxView{"c0": {Effective: 20}}
	v, err := Validate(u, rules, lg, DefaultMaxStates)
	if err != nil {
		t.Fatal(err)
	}
	if v.Guided || v.Unexplained == nil || v.Unexplained.Line != lg.Records[i].Line || v.Unexplained.What != "state" {
		t.Fatalf("want unexplained at line %d (state), got guided %v, %+v, unknown %q", lg.Records[i].Line, v.Guided, v.Unexplained, v.Unknown)
	}
}

// BenchmarkValidateNetworkWhole validates the worked client's logs of
// five network-whole walks of 30 steps.
func BenchmarkValidateNetworkWhole(b *testing.B) {
	u, rules, logs := networkWholeLogs(b, 5, 30, 11)
	b.ResetTimer()
	for range b.N {
		for _, lg := range logs {
			if v, err := Validate(u, rules, lg, DefaultMaxStates); err != nil || !v.Explained() {
				b.Fatalf("%v %+v", err, v)
			}
		}
	}
}

// A wrong last record in a network-whole log: the guided search finds no
// behaviour within its bound, the breadth-first one passes its bound
// earlier, and the unknown verdict names the line through which the
// guided search found a behaviour (the record before the altered one).
func TestGuidedHintOnUnknown(t *testing.T) {
	u, rules, logs := networkWholeLogs(t, 1, 30, 11)
	lg := logs[0]
	i := len(lg.Records) - 1
	for ; i > 0 && len(lg.Records[i].State) == 0; i-- {
	}
	if i == 0 {
		t.Fatal("the walk's log shows no state to alter")
	}
	st := map[string]ctxView{}
	for k, c := range lg.Records[i].State {
		st[k] = ctxView{Effective: c.Effective + 1, Live: c.Live}
	}
	lg.Records[i].State = st
	v, err := Validate(u, rules, lg, 20000)
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("the guided search found a behaviour through line %d", lg.Records[i-1].Line)
	if v.Explained() || v.Unexplained != nil || !strings.Contains(v.Unknown, want) {
		t.Fatalf("want unknown saying %q, got %+v", want, v)
	}
	t.Log(v.Unknown)
}

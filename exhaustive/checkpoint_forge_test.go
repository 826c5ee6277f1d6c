package exhaustive

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/nip-rs/harness/model"
)

// A checkpoint altered and given matching checksums (so that only the
// decoders and the recomputation of every stored state stand in its way)
// is refused or resumed, never a panic: bytes flipped across the tables,
// the states and the figures of a network checkpoint.
func TestForgedCheckpointNeverPanics(t *testing.T) {
	u := NetworkUniverse()
	good := t.TempDir()
	stop := func(d int) bool { return d == 2 }
	if _, err := Explore(Config{Universe: u, Depth: 3, Checkpoint: &Checkpoint{Dir: good, Build: "t", Stop: stop}}); err != nil {
		t.Fatal(err)
	}
	refused := 0
	for _, name := range []string{"level-000.tables", "level-001.tables", "level-002.tables", "level-001.states", "level-002.states", "boundary-002.tally"} {
		orig, err := os.ReadFile(filepath.Join(good, name))
		if err != nil {
			t.Fatal(err)
		}
		for pos := 0; pos < len(orig); pos += 1 + len(orig)/8 {
			dir := t.TempDir()
			es, _ := os.ReadDir(good)
			for _, e := range es {
				b, _ := os.ReadFile(filepath.Join(good, e.Name()))
				if e.Name() == name {
					b[pos] ^= 0x41
				}
				if err := os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			forgeChecksum(t, dir, name)
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Errorf("%s, byte %d: panic %v", name, pos, r)
					}
				}()
				if _, err := Explore(Config{Universe: u, Depth: 3, Rules: model.Proposed(), Checkpoint: &Checkpoint{Dir: dir, Build: "t", Resume: true}}); err != nil {
					refused++
				}
			}()
		}
	}
	if refused == 0 {
		t.Fatal("no forged checkpoint was refused")
	}
}

// forgeChecksum rewrites the manifest in dir with name's current SHA-256.
func forgeChecksum(t *testing.T, dir, name string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	mb, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(mb, &m); err != nil {
		t.Fatal(err)
	}
	for _, f := range m["files"].([]any) {
		if f := f.(map[string]any); f["name"] == name {
			sum := sha256.Sum256(b)
			f["sha256"] = hex.EncodeToString(sum[:])
		}
	}
	if mb, err = json.Marshal(m); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "manifest.json"), mb, 0o644); err != nil {
		t.Fatal(err)
	}
}

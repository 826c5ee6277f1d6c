package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// testPart is the smallest shard document: the header and nothing else.
type testPart struct {
	PartHeader
}

func (p *testPart) Header() PartHeader { return p.PartHeader }
func (p *testPart) CheckPart() error   { return nil }

func newTestPart() *testPart { return new(testPart) }

func writePart(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func header(build string, i, n int) string {
	return fmt.Sprintf(`{"run":"r","build":%q,"shard":{"index":%d,"count":%d}}`, build, i, n)
}

// What every -merge refuses before its command looks at a part: each
// case names the file or the bound, and none reads what it need not.
func TestReadShardsRefusesHostileParts(t *testing.T) {
	dir := t.TempDir()
	good := writePart(t, dir, "good.json", header(BuildID(), 1, 2))
	good2 := writePart(t, dir, "good2.json", header(BuildID(), 2, 2))
	if fs, err := ReadShards([]string{good2, good}, newTestPart); err != nil || len(fs) != 2 || fs[0].Name != good {
		t.Fatalf("two good parts: %v, %v", fs, err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.json")
	if err := os.WriteFile(big, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	// Sparse: the size is what is refused, no byte of it is read.
	if err := os.Truncate(big, MaxMergeFile+1); err != nil {
		t.Fatal(err)
	}
	var parts []string
	for i := range 16 {
		p := filepath.Join(dir, fmt.Sprintf("p%02d.json", i))
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Truncate(p, 3*MaxMergeFile/4); err != nil {
			t.Fatal(err)
		}
		parts = append(parts, p)
	}
	many := make([]string, MaxShards+1)
	for i := range many {
		many[i] = good
	}
	for _, tc := range []struct {
		files []string
		err   string
	}{
		{[]string{good, fifo}, "fifo: not a regular file"},
		{[]string{dir}, "not a regular file"},
		{[]string{big}, "more than a shard document can be"},
		{parts, "more than the parts of a run can"},
		{many, "more than a run has parts"},
		{[]string{writePart(t, dir, "huge.json", header(BuildID(), 1, 100000000))}, `"shard" count 100000000, not 1..1000`},
		{[]string{writePart(t, dir, "neg.json", header(BuildID(), -1, 2))}, `"shard" index -1`},
		{[]string{writePart(t, dir, "other.json", header("devel go1 sha256:00", 1, 1))}, "other.json: written by another build"},
		{[]string{writePart(t, dir, "extra.json", `{"run":"r","build":`+fmt.Sprintf("%q", BuildID())+`,"shard":{"index":1,"count":1},"x":1}`)}, `unknown field "x"`},
		{[]string{writePart(t, dir, "trail.json", header(BuildID(), 1, 1)+"{}")}, "after top-level value"},
		{[]string{good, good}, "are both part 1/2"},
		{[]string{good}, "missing part 2/2"},
	} {
		_, err := ReadShards(tc.files, newTestPart)
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%.60v: %v, want %q", tc.files, err, tc.err)
		}
	}
}

// The build is the version and the executable's digest, the same value
// every time it is asked for.
func TestBuildIDCarriesTheDigest(t *testing.T) {
	if d := Digest(); !strings.HasPrefix(d, "sha256:") || len(d) != len("sha256:")+64 || BuildID() != Version()+" "+d {
		t.Errorf("digest %q, build %q", d, BuildID())
	}
}

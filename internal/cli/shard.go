package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Shard is one part of a run split across machines: part Index of Count,
// counted from 1 (-shard 1/3, 2/3, 3/3), as a CI job matrix numbers its
// jobs. The zero Shard is the whole run.
type Shard struct {
	Index int `json:"index"`
	Count int `json:"count"`
}

// MaxShards bounds -shard's count: more parts than any run has items is
// a mistake, not a plan.
const MaxShards = 1000

// ParseShard reads a -shard flag: "" is the whole run, "i/n" part i of n
// with 1 <= i <= n <= MaxShards.
func ParseShard(s string) (Shard, error) {
	if s == "" {
		return Shard{}, nil
	}
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	switch {
	case !ok || err1 != nil || err2 != nil:
		return Shard{}, fmt.Errorf("-shard %q: want i/n, part i of n counted from 1 (1/3, 2/3, 3/3)", s)
	case n < 1 || n > MaxShards:
		return Shard{}, fmt.Errorf("-shard %q: the count must be 1..%d", s, MaxShards)
	case i < 1 || i > n:
		return Shard{}, fmt.Errorf("-shard %q: the part must be 1..%d (parts are counted from 1)", s, n)
	}
	return Shard{Index: i, Count: n}, nil
}

// Whole reports whether s is the whole run.
func (s Shard) Whole() bool { return s.Count == 0 }

// String is "i/n", or "" for the whole run.
func (s Shard) String() string {
	if s.Whole() {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.Index, s.Count)
}

// Owns reports whether item k (counted from 0) of a run's fixed item list
// is this shard's: items are dealt round-robin, k mod n to part
// (k mod n)+1, so a part's items depend on nothing but k and n (not on the
// machine, the worker count or the other parts).
func (s Shard) Owns(k int) bool { return s.Whole() || k%s.Count == s.Index-1 }

// Range is the contiguous block [from, to) of n items (counted from 0)
// this shard owns: the items are cut into Count blocks whose sizes differ
// by at most one, in order.
func (s Shard) Range(n int) (from, to int) {
	if s.Whole() {
		return 0, n
	}
	return n * (s.Index - 1) / s.Count, n * s.Index / s.Count
}

// MaxMergeFile bounds a shard file -merge reads.
const MaxMergeFile = 64 << 20

// ShardFile is one file given to -merge: its name and its header, what
// every shard document carries at its top level.
type ShardFile struct {
	Name  string
	Run   string `json:"run"`
	Shard *Shard `json:"shard"`
	Data  []byte `json:"-"`
}

// ReadShards reads the files given to -merge and checks they are the parts
// of one run: each a shard document (a "shard" member), every one with the
// same "run" line (the configuration and the build), the same count, each
// part exactly once, none missing. The files come back in part order. An
// error names the file or the part at fault.
func ReadShards(names []string) ([]ShardFile, error) {
	if len(names) == 0 {
		return nil, fmt.Errorf("-merge: name the shard files to merge")
	}
	var out []ShardFile
	for _, name := range names {
		st, err := os.Stat(name)
		if err != nil {
			return nil, fmt.Errorf("-merge: %v", err)
		}
		if st.Size() > MaxMergeFile {
			return nil, fmt.Errorf("-merge: %s: %d bytes, more than a shard document can be (%d)", name, st.Size(), MaxMergeFile)
		}
		data, err := os.ReadFile(name)
		if err != nil {
			return nil, fmt.Errorf("-merge: %v", err)
		}
		f := ShardFile{Name: name, Data: data}
		if err := json.Unmarshal(data, &f); err != nil {
			return nil, fmt.Errorf("-merge: %s: not a shard document: %v", name, err)
		}
		if f.Shard == nil || f.Shard.Count < 1 || f.Shard.Index < 1 || f.Shard.Index > f.Shard.Count || f.Run == "" {
			return nil, fmt.Errorf("-merge: %s: not a shard document (no run line or no valid \"shard\" member; run with -shard i/n -json)", name)
		}
		out = append(out, f)
	}
	first := out[0]
	byPart := map[int]string{}
	for _, f := range out {
		switch {
		case f.Run != first.Run:
			return nil, fmt.Errorf("-merge: %s is of another run than %s:\n  %s\n  %s", f.Name, first.Name, f.Run, first.Run)
		case f.Shard.Count != first.Shard.Count:
			return nil, fmt.Errorf("-merge: %s is part of %d, %s part of %d", f.Name, f.Shard.Count, first.Name, first.Shard.Count)
		}
		if prev, dup := byPart[f.Shard.Index]; dup {
			return nil, fmt.Errorf("-merge: %s and %s are both part %s", prev, f.Name, f.Shard)
		}
		byPart[f.Shard.Index] = f.Name
	}
	var missing []string
	for i := 1; i <= first.Shard.Count; i++ {
		if _, ok := byPart[i]; !ok {
			missing = append(missing, fmt.Sprintf("%d/%d", i, first.Shard.Count))
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("-merge: missing part %s", strings.Join(missing, ", "))
	}
	sorted := make([]ShardFile, len(out))
	for _, f := range out {
		sorted[f.Shard.Index-1] = f
	}
	return sorted, nil
}

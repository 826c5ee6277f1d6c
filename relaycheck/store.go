package relaycheck

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nip-rs/harness/model"
)

// Record is what a client knows about one relay's conformance: the load
// requirements it was seen to violate (empty: no evidence against it),
// where the evidence came from, and a line of it.
type Record struct {
	Relay    string        `json:"relay"`
	Violated []Requirement `json:"violated"`
	// Source is "probe" (a relaycheck run) or "load" (a full-state load
	// that received evidence of non-conformance).
	Source string `json:"source"`
	Detail string `json:"detail"`
}

// NonConforming reports whether the record is evidence against the relay.
func (r Record) NonConforming() bool { return len(r.Violated) > 0 }

// Store keeps one Record per relay URL (normalised). A later record
// replaces an earlier one for the same relay, except that a load's
// evidence is never erased by a record without any: evidence is only
// withdrawn by a probe that finds none.
type Store interface {
	Get(relay string) (Record, bool, error)
	Put(r Record) error
}

// MemStore is a Store in memory.
type MemStore struct {
	mu sync.Mutex
	m  map[string]Record
}

// NewMemStore returns an empty store.
func NewMemStore() *MemStore { return &MemStore{m: map[string]Record{}} }

func (s *MemStore) Get(relay string) (Record, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.m[nostr.NormalizeURL(relay)]
	return r, ok, nil
}

func (s *MemStore) Put(r Record) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	r.Relay = nostr.NormalizeURL(r.Relay)
	if merged, ok := merge(s.m[r.Relay], r); ok {
		s.m[r.Relay] = merged
	}
	return nil
}

// merge applies the replacement rule of Store.
func merge(old, r Record) (Record, bool) {
	if old.NonConforming() && !r.NonConforming() && r.Source != "probe" {
		return old, false
	}
	return r, true
}

// FileStore is a Store in one JSON file, rewritten whole on each Put
// (relays sorted by URL, so the file is stable). A missing file is an
// empty store; a file that does not parse is an error, never overwritten.
type FileStore struct {
	Path string
	mu   sync.Mutex
}

type storeFile struct {
	Version int      `json:"version"`
	Relays  []Record `json:"relays"`
}

func (s *FileStore) read() (map[string]Record, error) {
	data, err := os.ReadFile(s.Path)
	if errors.Is(err, os.ErrNotExist) {
		return map[string]Record{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("relaycheck: evidence store: %w", err)
	}
	var f storeFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("relaycheck: evidence store %s: %w", s.Path, err)
	}
	if f.Version != 1 {
		return nil, fmt.Errorf("relaycheck: evidence store %s: version %d, want 1", s.Path, f.Version)
	}
	m := map[string]Record{}
	for _, r := range f.Relays {
		m[nostr.NormalizeURL(r.Relay)] = r
	}
	return m, nil
}

func (s *FileStore) Get(relay string) (Record, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, err := s.read()
	if err != nil {
		return Record{}, false, err
	}
	r, ok := m[nostr.NormalizeURL(relay)]
	return r, ok, nil
}

func (s *FileStore) Put(r Record) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, err := s.read()
	if err != nil {
		return err
	}
	r.Relay = nostr.NormalizeURL(r.Relay)
	merged, ok := merge(m[r.Relay], r)
	if !ok {
		return nil
	}
	m[r.Relay] = merged
	f := storeFile{Version: 1}
	for _, rec := range m {
		f.Relays = append(f.Relays, rec)
	}
	slices.SortFunc(f.Relays, func(a, b Record) int { return strings.Compare(a.Relay, b.Relay) })
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	tmp := s.Path + ".tmp"
	if err := os.WriteFile(tmp, append(data, '\n'), 0o600); err != nil {
		return fmt.Errorf("relaycheck: evidence store: %w", err)
	}
	return os.Rename(tmp, s.Path)
}

// FromReport is the record a probe report gives.
func FromReport(rep Report) Record {
	r := Record{Relay: rep.Relay, Source: "probe"}
	var why []string
	for _, rv := range rep.Requirements {
		if rv.Verdict == Violates && slices.Contains(LoadRequirements, rv.Requirement) {
			r.Violated = append(r.Violated, rv.Requirement)
			for _, c := range rep.Checks {
				if c.Requirement == rv.Requirement && c.Verdict == Violates {
					why = append(why, c.ID+": "+c.Detail)
				}
			}
		}
	}
	r.Detail = strings.Join(why, "; ")
	return r
}

// ReqLoadEvidence stands for the evidence a load itself received (an
// event outside its filter, a malformed or badly signed event, more
// results than requested): it names no single requirement.
const ReqLoadEvidence Requirement = "evidence seen by a load"

// FromLoad is the record a load's result gives: evidence when the load
// ended non-conforming on what the relay sent it, nothing otherwise.
func FromLoad(relay string, res model.LoadResult) (Record, bool) {
	if res.Reason != model.ReasonNonConforming || res.Stats.REQs == 0 {
		return Record{}, false // no evidence, or the gate's own refusal
	}
	return Record{Relay: relay, Violated: []Requirement{ReqLoadEvidence}, Source: "load", Detail: res.Detail}, true
}

// Policy is what Gate does with a relay it has no record of.
type Policy uint8

const (
	// LoadUnproven loads against an unknown relay; its verdict stands,
	// marked unproven (Decision.Unproven) until a probe has run. This is
	// the spec's position: a complete verdict needs no positive proof of
	// conformance, only the absence of evidence against it.
	LoadUnproven Policy = iota
	// ProbeFirst refuses to load against an unknown relay until a probe
	// has recorded it.
	ProbeFirst
)

// Decision is the gate's answer for one relay.
type Decision struct {
	// Config is the load configuration to use: KnownNonConforming set,
	// with the evidence, when the store holds evidence against the relay.
	Config model.LoadConfig
	// Unproven reports that no probe has recorded the relay.
	Unproven bool
	// Refused is set under ProbeFirst for an unknown relay: do not load.
	Refused bool
	Reason  string
}

// Gate decides how to load against a relay given the evidence store
// (Full-State Load: a client MUST NOT load against a relay it has
// evidence violates the requirements, and treats such a load as
// potentially incomplete).
func Gate(s Store, relay string, cfg model.LoadConfig, pol Policy) (Decision, error) {
	rec, ok, err := s.Get(relay)
	if err != nil {
		return Decision{}, err
	}
	d := Decision{Config: cfg}
	switch {
	case ok && rec.NonConforming():
		d.Config.KnownNonConforming = true
		d.Config.Evidence = fmt.Sprintf("%s evidence: %v: %s", rec.Source, rec.Violated, rec.Detail)
		d.Reason = d.Config.Evidence
	case ok:
		d.Unproven = rec.Source != "probe"
	default:
		d.Unproven = true
		if pol == ProbeFirst {
			d.Refused, d.Reason = true, "no probe has recorded "+relay
		}
	}
	return d, nil
}

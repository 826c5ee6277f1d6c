package relaycheck

import (
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nip-rs/harness/model"
)

// DefaultValidity is how long a probe's record stands as evidence: a
// relay's software and configuration change, so old positive evidence
// proves nothing.
const DefaultValidity = 30 * 24 * time.Hour

// Record is what a client knows about one relay: the load requirements it
// was seen to violate (empty: no evidence against it), the probe's
// verdict on every requirement with its trial counts, the subscription
// capacity measured, where the evidence came from and when, and until
// when it stands.
type Record struct {
	Relay    string        `json:"relay"`
	Violated []Requirement `json:"violated"`
	// Source is "probe" (a relaycheck run) or "load" (a full-state load
	// that received evidence of non-conformance).
	Source string `json:"source"`
	Detail string `json:"detail"`
	// ProbeVersion is the probe's version (ProbeVersion) for a probe's
	// record; a record of another version is not evidence for this one.
	ProbeVersion string    `json:"probe_version,omitempty"`
	Date         time.Time `json:"date,omitzero"`
	// Expires is when the record stops counting (zero: Date plus
	// DefaultValidity).
	Expires time.Time `json:"expires,omitzero"`
	// Verdicts are the probe's per-requirement verdicts.
	Verdicts []RequirementVerdict `json:"verdicts,omitempty"`
	// SubCapacity and SubEvicts are Report's.
	SubCapacity int  `json:"sub_capacity,omitempty"`
	SubEvicts   bool `json:"sub_evicts,omitempty"`

	// unknown keeps fields a newer version of the store wrote, so that
	// rewriting the file does not drop them.
	unknown map[string]json.RawMessage
}

// NonConforming reports whether the record is evidence against the relay.
func (r Record) NonConforming() bool { return len(r.Violated) > 0 }

// ExpiresAt is when the record stops counting.
func (r Record) ExpiresAt() time.Time {
	if !r.Expires.IsZero() {
		return r.Expires
	}
	return r.Date.Add(DefaultValidity)
}

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

// FromReport is the record a probe report gives, standing for
// DefaultValidity from the report's date.
func FromReport(rep Report) Record {
	r := Record{Relay: rep.Relay, Source: "probe", ProbeVersion: rep.ProbeVersion, Date: rep.Date,
		Verdicts: slices.Clone(rep.Requirements), SubCapacity: rep.SubCapacity, SubEvicts: rep.SubEvicts}
	if !rep.Date.IsZero() {
		r.Expires = rep.Date.Add(DefaultValidity)
	}
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
// ended non-conforming on what the relay sent it, nothing otherwise. It
// is dated now and stands for DefaultValidity.
func FromLoad(relay string, res model.LoadResult) (Record, bool) {
	if res.Reason != model.ReasonNonConforming || res.Stats.REQs == 0 {
		return Record{}, false // no evidence, or the gate's own refusal
	}
	now := time.Now().UTC().Truncate(time.Second)
	return Record{Relay: relay, Violated: []Requirement{ReqLoadEvidence}, Source: "load", Detail: res.Detail,
		Date: now, Expires: now.Add(DefaultValidity)}, true
}

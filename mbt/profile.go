package mbt

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/itf"
	"github.com/nip-rs/harness/model"
)

// ProfileFull is the profile of a client that implements everything: a
// trace written under it is unmasked.
const ProfileFull = "full"

// clientProfiles are the client profiles of the vectors
// (vectors/profiles.json) and whether each lacks the override layer.
// Only that capability changes what a trace shows: the others concern
// the spelling of plaintexts or the raw registers, which no trace carries.
var clientProfiles = []clientProfile{
	{ProfileFull, false},
	{"legacy-decoder", true},
	{"json-parse", false},
	{"canonical-store", false},
}

type clientProfile struct {
	name          string
	lacksOverride bool
}

// Profile is what a client of one profile (or a combination, "a,b") can
// observe of a trace.
type Profile struct {
	Name string
	// Legacy: the client has no override layer. It hosts the universe's
	// legacy devices (an upgraded device's override actions are beyond
	// it); a device shows each context whose frontier is above 0 as
	// {"effective": f}, with no liveness; a blob in flight carries only
	// the entries such a client reads (override keys left out).
	Legacy bool
}

// ParseProfile reads a profile name or a comma-separated combination;
// empty is the full profile.
func ParseProfile(s string) (Profile, error) {
	if s == "" {
		return Profile{Name: ProfileFull}, nil
	}
	var p Profile
	var names []string
	for _, n := range strings.Split(s, ",") {
		n = strings.TrimSpace(n)
		i := slices.IndexFunc(clientProfiles, func(c clientProfile) bool { return c.name == n })
		if i < 0 {
			return p, fmt.Errorf("profile %q: want one of %s, or several joined by commas", n, strings.Join(ProfileNames(), ", "))
		}
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
		p.Legacy = p.Legacy || clientProfiles[i].lacksOverride
	}
	p.Name = strings.Join(names, ",")
	return p, nil
}

// ProfileNames lists the profiles a trace can be masked by.
func ProfileNames() []string {
	out := make([]string, len(clientProfiles))
	for i, c := range clientProfiles {
		out[i] = c.name
	}
	return out
}

// hosts reports whether a client of the profile hosts a device.
func (p Profile) hosts(legacyDevice bool) bool { return legacyDevice == p.Legacy }

// deviceValue is a device's contexts as the profile shows them.
func (p Profile) deviceValue(cs []exhaustive.CtxObserved) itf.Map {
	if !p.Legacy {
		return deviceValue(cs)
	}
	m := itf.Map{}
	for _, c := range cs {
		if c.Effective > 0 {
			m = append(m, itf.Pair{K: itf.Str(c.Ctx), V: itf.Record{"effective": itf.NewInt(int64(c.Effective))}})
		}
	}
	return m
}

// blobValue is a blob in flight as the profile shows it.
func (p Profile) blobValue(b model.Blob) itf.Record {
	if !p.Legacy {
		return blobValue(b)
	}
	var kept model.Blob
	groupKey := model.Spec().GroupKey
	for _, e := range b.Contexts {
		if k, _ := groupKey(e.Key); k == model.KeyFrontier {
			kept.Contexts = append(kept.Contexts, e)
		}
	}
	return blobValue(kept)
}

// maskView is a client's answer for one device as the profile compares
// it: without liveness, and without contexts at 0, for a legacy client.
func (p Profile) maskView(v map[string]ctxView) map[string]ctxView {
	if !p.Legacy || v == nil {
		return v
	}
	out := map[string]ctxView{}
	for k, c := range v {
		if c.Effective > 0 {
			out[k] = ctxView{Effective: c.Effective}
		}
	}
	return out
}

// viewJSON is a view as the profile shows it, contexts in name order: a
// legacy client's contexts have no liveness.
func (p Profile) viewJSON(v map[string]ctxView) string {
	if !p.Legacy || v == nil {
		return viewJSON(v)
	}
	m := map[string]map[string]uint32{}
	for k, c := range v {
		m[k] = map[string]uint32{"effective": c.Effective}
	}
	return jsonText(m)
}

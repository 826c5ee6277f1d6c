package community

import (
	"fmt"
	"slices"
	"strings"
)

// The community liveness properties.
const (
	PropRekey = "rekey"
	PropLive  = "live"
	// PropLiveQuiet is the live property in the quiet live universe.
	PropLiveQuiet = "live-quiet"
)

// RekeyProperty: every delivered rotation is adopted. In the epochs
// universe, from every state, once the community stops publishing and
// rotating, the member's own steps (rekey passes, rounds whole or split)
// bring its held epoch to the community's newest, or settle it as removed
// or stranded (§6: adopt one epoch at a time, chained within a pass; the
// two terminal states), under weak fairness on the rekey pass: a member
// whose watch delivers a rotation runs its pass eventually. A round alone
// repeated forever does not count against the rules.
func RekeyProperty() *Property {
	return &Property{
		Name:     PropRekey,
		Doc:      "every delivered rotation is adopted: the held epoch reaches the community's newest, or the member is removed or stranded",
		Universe: func() *Universe { return EpochsUniverse(6) },
		System:   []Action{{actRekey, 0}, {actRound, 0}, {actStart, 0}, {actEnd, 0}},
		Fair:     []Action{{actRekey, 0}},
		Triggers: []Action{{actRotate, int(Deliver)}, {actRotate, int(Remove)}},
		Pending: func(_ *Rules, st State) bool {
			s, ok := st.(*epochState)
			return ok && !s.m.Removed && !s.m.Stranded && s.m.Held < s.cur
		},
		What: func(st State) string {
			s, _ := st.(*epochState)
			if s == nil {
				return "nothing"
			}
			return fmt.Sprintf("the member at epoch %d with the community at %d", s.m.Held, s.cur)
		},
	}
}

// LiveProperty: every plane change re-installs the live REQ. In the live
// universe, from every state where a live REQ is installed, the member's
// own steps (rounds of either channel) bring the installed REQ to address
// the current epoch of every channel the member has a plane for (§6: after
// a delivery, re-install the subscription, the plane set changed), under
// weak fairness on the rounds. Opening the community (install) is the
// user's, not the member's own: it is not a step here.
func LiveProperty() *Property {
	return &Property{
		Name:     PropLive,
		Doc:      "every plane change re-installs the live REQ: the installed REQ addresses every channel's current epoch",
		Universe: func() *Universe { return LiveUniverse(5) },
		System:   []Action{{"round", 0}, {"round", 1}},
		Fair:     []Action{{"round", 0}, {"round", 1}},
		Triggers: []Action{{"rotate", 0}},
		Armed: func(st State) bool {
			s, ok := st.(*liveState)
			return ok && s.installed != nil
		},
		Pending: func(r *Rules, st State) bool {
			s, ok := st.(*liveState)
			return ok && len(s.missing(r)) > 0
		},
		What: func(st State) string {
			s, _ := st.(*liveState)
			if s == nil || s.installed == nil {
				return "nothing"
			}
			return fmt.Sprintf("the live REQ at %v, without the current planes of %v", s.installed.Planes, s.missing(nil))
		},
	}
}

// LiveQuietProperty is LiveProperty in the quiet live universe, where
// nothing is published after a rotation. There the property has no safety
// face: in the live universe a REQ that misses a current plane is caught
// by W1 as soon as a wrap is published on that plane (publishing does not
// depend on the rules, and a wrap on a current plane is always one the
// member must receive), so a rule that leaves the REQ stale is caught by
// safety first at every depth but the bound's last step. Once the
// community is quiet no such wrap comes, and only this property sees the
// stale REQ. It is not one of Properties: its findings are the live
// property's, seen without their safety face.
func LiveQuietProperty() *Property {
	p := LiveProperty()
	p.Name = PropLiveQuiet
	p.Doc = "every plane change re-installs the live REQ, in a community that goes quiet after a rotation"
	p.Universe = func() *Universe { return LiveQuietUniverse(5) }
	return p
}

// missing is the current planes the installed live REQ does not address,
// of the channels the rules give a plane (every held channel when r is
// nil); nil when no REQ is installed.
func (s *liveState) missing(r *Rules) []Plane {
	if s.installed == nil {
		return nil
	}
	var out []Plane
	for c, ch := range s.chans {
		if r != nil && !r.LivePlane(ch.Private, ch.Held) || r == nil && !ch.Held {
			continue
		}
		if p := (Plane{c, s.current(c).Epoch}); !slices.Contains(s.installed.Planes, p) {
			out = append(out, p)
		}
	}
	return out
}

// Properties are the community liveness properties, in check order.
func Properties() []*Property { return []*Property{RekeyProperty(), LiveProperty()} }

// PropertyNamed is one of Properties by name.
func PropertyNamed(name string) (*Property, bool) {
	i := slices.IndexFunc(Properties(), func(p *Property) bool { return p.Name == name })
	if i < 0 {
		return nil, false
	}
	return Properties()[i], true
}

// ReplayLasso re-runs a lasso of property p under rules: the prefix's
// actions are enabled, the approach's and the loop's are the member's own
// steps, enabled, each leaving something pending; the loop returns to its
// first state; and every fair step enabled in all the loop's states is
// taken on it. It returns the rendering, and an error naming the first
// step that does not hold.
func ReplayLasso(p *Property, l *Lasso, rules *Rules) (string, error) {
	u := p.Universe()
	var b strings.Builder
	fmt.Fprintf(&b, "liveness %s: universe %s, depth bound %d, rules %s\n%s\n", p.Name, u.Name, u.Depth, rules.Name, l.Detail)
	s := u.Initial()
	for i, a := range l.Prefix {
		if !slices.Contains(u.Actions, a) {
			return b.String(), fmt.Errorf("prefix step %d: %s is not an action of %s", i+1, a, u.Name)
		}
		n, ok, _ := u.Step(rules, s, a)
		if !ok {
			return b.String(), fmt.Errorf("prefix step %d: %s is not enabled", i+1, a)
		}
		s = n
		fmt.Fprintf(&b, "prefix %d. %s: %s\n", i+1, a, s)
	}
	if !p.Pending(rules, s) {
		return b.String(), fmt.Errorf("nothing is pending at the root")
	}
	if len(l.Loop) == 0 {
		return b.String(), fmt.Errorf("the loop is empty")
	}
	var first State
	var cont []Action
	var taken []Action
	for i, a := range append(slices.Clone(l.Approach), l.Loop...) {
		part, k := "approach", i+1
		if i >= len(l.Approach) {
			part, k = "loop", i+1-len(l.Approach)
		}
		if i == len(l.Approach) {
			first = s
		}
		if part == "loop" {
			var en []Action
			for _, f := range p.Fair {
				if _, ok, _ := u.Step(rules, s, f); ok {
					en = append(en, f)
				}
			}
			if k == 1 {
				cont = en
			} else {
				cont = slices.DeleteFunc(cont, func(f Action) bool { return !slices.Contains(en, f) })
			}
			if slices.Contains(p.Fair, a) {
				taken = append(taken, a)
			}
		}
		if !slices.Contains(p.System, a) {
			return b.String(), fmt.Errorf("%s step %d: %s is not one of the member's own steps", part, k, a)
		}
		n, ok, _ := u.Step(rules, s, a)
		switch {
		case !ok:
			return b.String(), fmt.Errorf("%s step %d: %s is not enabled", part, k, a)
		case !p.Pending(rules, n):
			return b.String(), fmt.Errorf("%s step %d: %s leaves nothing pending", part, k, a)
		}
		s = n
		fmt.Fprintf(&b, "%s %d. %s: %s\n", part, k, a, s)
	}
	if s.Key() != first.Key() {
		return b.String(), fmt.Errorf("the loop does not return to its first state")
	}
	for _, f := range cont {
		if !slices.Contains(taken, f) {
			return b.String(), fmt.Errorf("the loop is unfair: %s is enabled throughout and never taken", f)
		}
	}
	b.WriteString("the loop returns to its first state, fair\n")
	return b.String(), nil
}

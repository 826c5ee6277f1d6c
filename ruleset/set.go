package ruleset

import (
	"github.com/nip-rs/harness/history"
	"github.com/nip-rs/harness/history/community"
	"github.com/nip-rs/harness/model"
)

// Set is the rules of every layer, under one name.
type Set struct {
	Name      string
	Model     *model.Rules
	History   *history.Rules
	Community *community.Rules
}

// Names of the two sets every tool knows.
const (
	SpecName     = "spec"
	ProposedName = model.ProposedName
)

// Spec is the text in every layer.
func Spec() Set {
	return Set{Name: SpecName, Model: model.Spec(), History: history.Spec(), Community: community.Spec()}
}

// Proposed is the text with every proposal of every layer: the model's
// proposals (model.Proposals), the walk's fixes (history.Proposed) and the
// rekey fixes (community.Heal).
func Proposed() Set {
	return Set{Name: ProposedName, Model: model.Proposed(), History: history.Proposed(), Community: community.Heal()}
}

// Named returns the set for one of the two names every tool knows.
func Named(name string) (Set, bool) {
	switch name {
	case SpecName:
		return Spec(), true
	case ProposedName:
		return Proposed(), true
	}
	return Set{}, false
}

// Clone returns a copy whose layers a change may alter without touching s.
func (s Set) Clone() Set {
	out := s
	if s.Model != nil {
		out.Model = s.Model.Clone()
	}
	if s.History != nil {
		out.History = s.History.Clone()
	}
	if s.Community != nil {
		out.Community = s.Community.Clone()
	}
	return out
}

// WithTie is s with the override layer deciding set/clear ties by t (the
// other layers have no tie).
func (s Set) WithTie(t model.TiePolicy) Set {
	out := s
	out.Model = s.Model.WithTie(t)
	return out
}

// Rename is a copy of s whose every layer carries name, as a witness of
// any layer records it.
func (s Set) Rename(name string) Set {
	out := s.Clone()
	out.Name = name
	out.Model.Name = name
	out.History.Name = name
	out.Community.Name = name
	return out
}

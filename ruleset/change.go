package ruleset

import (
	"github.com/nip-rs/harness/history"
	"github.com/nip-rs/harness/history/community"
	"github.com/nip-rs/harness/model"
)

// Layer is one of the rule sets a Set holds.
type Layer string

// The layers, in the order a change lists them.
const (
	LayerModel     Layer = "model"
	LayerHistory   Layer = "history"
	LayerCommunity Layer = "community"
)

// Change is what a mutant or an amendment does to a Set: a function per
// layer it touches, nil for a layer it leaves alone.
type Change struct {
	Model     func(r *model.Rules)
	History   func(r *history.Rules)
	Community func(r *community.Rules)
}

// OnModel is a change of the override layer and the load only.
func OnModel(f func(r *model.Rules)) Change { return Change{Model: f} }

// OnHistory is a change of the paged history walk only.
func OnHistory(f func(r *history.Rules)) Change { return Change{History: f} }

// OnCommunity is a change of the community mechanisms only.
func OnCommunity(f func(r *community.Rules)) Change { return Change{Community: f} }

// Layers lists the layers c touches, in Layer order.
func (c Change) Layers() []Layer {
	var out []Layer
	if c.Model != nil {
		out = append(out, LayerModel)
	}
	if c.History != nil {
		out = append(out, LayerHistory)
	}
	if c.Community != nil {
		out = append(out, LayerCommunity)
	}
	return out
}

// Touches reports whether c changes layer l.
func (c Change) Touches(l Layer) bool {
	switch l {
	case LayerModel:
		return c.Model != nil
	case LayerHistory:
		return c.History != nil
	case LayerCommunity:
		return c.Community != nil
	}
	return false
}

// Apply returns base with c applied to a clone of each layer it touches,
// every layer named name: base itself is left as it was.
func (c Change) Apply(base Set, name string) Set {
	out := base.Rename(name)
	if c.Model != nil {
		c.Model(out.Model)
	}
	if c.History != nil {
		c.History(out.History)
	}
	if c.Community != nil {
		c.Community(out.Community)
	}
	return out
}

// ApplyModel applies c's change of the override layer, if any, to r in
// place: the explorer's catalogue holds model rule sets.
func (c Change) ApplyModel(r *model.Rules) {
	if c.Model != nil {
		c.Model(r)
	}
}

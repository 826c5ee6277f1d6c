package model

import "fmt"

// Restore installs one context's persisted state, as a client does when it
// reloads its own local store at start-up: the own frontier value (hasF says
// whether an entry exists; without one the value is 0) and the stored register, replacing whatever the
// replica held for ctx. Nothing is merged or canonicalised, so any register,
// dead or raw, can be restored exactly. A legacy replica has no registers.
func (r *Replica) Restore(ctx string, f uint32, hasF bool, reg Reg) error {
	if r.Legacy && reg != (Reg{}) {
		return fmt.Errorf("restore %q: %w", ctx, ErrLegacy)
	}
	i, ok := r.find(ctx)
	if !hasF && reg == (Reg{}) {
		if ok {
			r.ents = append(r.ents[:i], r.ents[i+1:]...)
		}
		return nil
	}
	if !hasF {
		f = 0 // no entry reads as 0
	}
	e := r.at(ctx)
	e.F, e.HasF, e.R = f, hasF, reg
	return nil
}

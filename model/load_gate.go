package model

import (
	"errors"
	"fmt"
)

// ErrLoadInProgress refuses a publish to the client's own coordinates
// while its own full-state load runs (a self-inflicted replacement is the
// moved-coordinate defect with the client on both ends of it).
var ErrLoadInProgress = errors.New("own full-state load in progress")

// GatedAction is an action that a potentially incomplete load must not be
// the basis of (Full-State Load; Read-Before-Write).
type GatedAction uint8

const (
	ActCanonicalPublish  GatedAction = iota // publishing a canonicalised override blob
	ActCompact                              // canonical compaction of an override register
	ActDeleteCoordinate                     // deleting a coordinate
	ActAbandonCoordinate                    // abandoning a coordinate
	ActReportMarkRead                       // reporting an explicit mark-read as successful
)

func (a GatedAction) String() string {
	return [...]string{"canonical-publish", "compact", "delete-coordinate", "abandon-coordinate", "report-mark-read"}[a]
}

// ApplyLoad records a load's verdict on the replica: from now on its
// override actions require a complete load, and LoadComplete says whether
// the latest load was one. Only Complete sets it; cannot-prove-complete
// and failed clear it, and a load still running is not a verdict.
func (r *Replica) ApplyLoad(v Verdict) {
	if v == Running {
		return
	}
	r.RequireLoad = true
	r.LoadComplete = v == Complete
}

// Permit reports whether a gated action may proceed: it fails with
// ErrLoadIncomplete until a complete load has been applied (when the
// replica requires one), and with ErrLegacy on a legacy replica.
func (r *Replica) Permit(a GatedAction) error {
	if err := r.gate(); err != nil {
		return fmt.Errorf("%s: %w", a, err)
	}
	return nil
}

// PublishCanonical is Publish behind the gates: refused while the
// client's own load runs and until a complete load has been applied.
// Refused, it leaves the replica unchanged (local state stays in use).
func (r *Replica) PublishCanonical(loadRunning bool) (Blob, error) {
	if loadRunning {
		return Blob{}, fmt.Errorf("%s: %w", ActCanonicalPublish, ErrLoadInProgress)
	}
	if err := r.Permit(ActCanonicalPublish); err != nil {
		return Blob{}, err
	}
	return r.Publish(), nil
}

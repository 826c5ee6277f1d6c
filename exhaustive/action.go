package exhaustive

import (
	"fmt"
	"strings"

	"github.com/nip-rs/harness/witnessfile"
)

// Kind is a transition kind. The order of the constants is the generation
// order within one device and context.
type Kind uint8

const (
	KindMarkUnread Kind = iota
	KindMarkRead
	KindCompact
	KindAdvance
	KindReinstall
	KindDeliver
	// The network universes' transitions (network.go).
	KindPublish
	KindDuplicate
	KindDrop
	KindRotate
)

var kindNames = [...]string{"mark_unread", "mark_read", "compact", "advance", "reinstall", "deliver",
	"publish", "duplicate", "drop", "rotate"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

func parseKind(s string) (Kind, bool) {
	for i, n := range kindNames {
		if n == s {
			return Kind(i), true
		}
	}
	return 0, false
}

// Action is one transition with its parameters. Device is the acting device
// (the destination of a delivery); From is the source of a delivery. Msg,
// in a network universe, is the 1-based position of the message a delivery,
// duplicate or drop takes from its channel (0: not a channel action).
type Action struct {
	Kind   Kind
	Device int
	From   int
	Ctx    string
	Value  uint32
	Msg    int
	// failed: the replica reported the action as failed (a refusal, or a
	// mark-read at the ceiling that left the override active). Not part
	// of a witness file: the replay recomputes it.
	failed bool
}

func (a Action) String() string {
	switch a.Kind {
	case KindMarkUnread, KindCompact:
		return fmt.Sprintf("%s d%d %s", a.Kind, a.Device, a.Ctx)
	case KindMarkRead, KindAdvance:
		return fmt.Sprintf("%s d%d %s %d", a.Kind, a.Device, a.Ctx, a.Value)
	case KindReinstall:
		return fmt.Sprintf("reinstall d%d", a.Device)
	case KindDeliver:
		if a.Msg > 0 {
			return fmt.Sprintf("deliver d%d->d%d msg %d", a.From, a.Device, a.Msg)
		}
		return fmt.Sprintf("deliver d%d->d%d", a.From, a.Device)
	case KindDuplicate, KindDrop:
		return fmt.Sprintf("%s d%d->d%d msg %d", a.Kind, a.From, a.Device, a.Msg)
	case KindPublish, KindRotate:
		return fmt.Sprintf("%s d%d", a.Kind, a.Device)
	}
	return a.Kind.String()
}

// toFile is the action as a witness file holds it.
func (a Action) toFile() witnessfile.Action {
	d, f := a.Device, a.From
	j := witnessfile.Action{Action: a.Kind.String()}
	switch a.Kind {
	case KindDeliver, KindDuplicate, KindDrop:
		j.From, j.To, j.Msg = &f, &d, a.Msg
	default:
		j.Device, j.Ctx, j.Value = &d, a.Ctx, a.Value
	}
	return j
}

// fromFile reads an action of a witness file.
func fromFile(j witnessfile.Action) (Action, error) {
	k, ok := parseKind(j.Action)
	if !ok {
		return Action{}, fmt.Errorf("unknown action %q (want one of %s)", j.Action, strings.Join(kindNames[:], ", "))
	}
	a := Action{Kind: k, Ctx: j.Ctx, Value: j.Value, Msg: j.Msg}
	if k == KindDeliver || k == KindDuplicate || k == KindDrop {
		if j.From == nil || j.To == nil {
			return Action{}, fmt.Errorf("%s needs from and to", j.Action)
		}
		a.From, a.Device = *j.From, *j.To
		return a, nil
	}
	if j.Device == nil {
		return Action{}, fmt.Errorf("%s needs a device", j.Action)
	}
	a.Device = *j.Device
	return a, nil
}

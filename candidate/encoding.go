package candidate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nip-rs/harness/model"
)

// Device is one installation under an encoding, as the world drives it.
// Every method is deterministic; a Device is never shared between
// goroutines while it is modified.
type Device interface {
	ClientID() string
	Legacy() bool
	Clone() Device
	// AppendKey appends the exact byte encoding of the device's state (its
	// client id included): two devices with the same key behave alike.
	AppendKey(buf []byte) []byte
	// The actions. MarkUnread and MarkRead may refuse (the device is then
	// unchanged, except that a mark-read's frontier advance stands).
	MarkUnread(ctx string) error
	MarkRead(ctx string, ts uint32) error
	Advance(ctx string, ts uint32)
	// Compact is local storage GC of ctx's register; it reports false when
	// the encoding has no compaction or no register is held.
	Compact(ctx string) bool
	HasReg(ctx string) bool
	Reinstall(clientID string)
	Frontier(ctx string) uint32
	// EachFrontier calls fn for every held frontier entry, in context order.
	EachFrontier(fn func(ctx string, f uint32))
	// Live is the override verdict of ctx (false on a legacy device).
	Live(ctx string) bool
	// Publish is the plaintext the device would put on the wire now.
	Publish() []byte
	// Receive merges a plaintext; a plaintext the device cannot read is an
	// error and leaves it unchanged.
	Receive(plaintext []byte) error
	// Renamed is the device with every client id it holds (its own, and
	// any inside its registers) replaced through rename.
	Renamed(rename func(string) string) Device
	// IDs lists the client ids the state holds: its own, and any its
	// registers record.
	IDs() []string
	// View renders the device's state for a witness, one line.
	View(ctxs []string) string
}

// Encoding is a wire encoding of the override layer.
type Encoding interface {
	// Name is what flags and witnesses call it ("A", "B").
	Name() string
	// Doc says in one line what the encoding is.
	Doc() string
	// Upgraded is a fresh upgraded installation deciding through rules (an
	// encoding without model registers uses only rules.Tie).
	Upgraded(clientID string, rules *model.Rules) Device
	// Compacts reports whether the encoding has a compaction (a canonical
	// form a register can be replaced by); the compaction invariants do not
	// apply to one without.
	Compacts() bool
}

// Encodings lists the encodings by name.
func Encodings() []Encoding { return []Encoding{EncodingA{}, EncodingB{}} }

// Lookup finds an encoding by name.
func Lookup(name string) (Encoding, error) {
	var names []string
	for _, e := range Encodings() {
		if e.Name() == name {
			return e, nil
		}
		names = append(names, e.Name())
	}
	slices.Sort(names)
	return nil, fmt.Errorf("unknown encoding %q (known: %s)", name, strings.Join(names, ", "))
}

// Describe says which wire encoding a run used, for an account of what
// differs from production: its name and what it is, or its name alone
// when no encoding has it.
func Describe(name string) string {
	enc, err := Lookup(name)
	if err != nil {
		return "wire encoding " + name
	}
	return fmt.Sprintf("wire encoding %s: %s", name, enc.Doc())
}

package candidate

import (
	"encoding/binary"
	"fmt"
	"strings"

	"github.com/nip-rs/harness/model"
)

// EncodingB is the spec's encoding: the production core unchanged. Its
// device is a model.Replica deciding through the run's rules, published
// through model.EncodeBlob and received through model.ParseBlobWith.
type EncodingB struct{}

func (EncodingB) Name() string { return "B" }
func (EncodingB) Doc() string {
	return "two grow-only counters and a baseline as ov_s:/ov_c:/ov_b: sibling keys inside contexts (the spec's)"
}
func (EncodingB) Compacts() bool { return true }

func (EncodingB) Upgraded(clientID string, rules *model.Rules) Device {
	r := model.NewReplica(clientID)
	r.Rules = rules
	return &replicaDevice{r: r}
}

// NewLegacy is a legacy installation, the same under every encoding: the
// production legacy reader (model.ParseBlobLegacy keeps only v, client_id
// and contexts) feeding model's legacy replica in the given mode.
func NewLegacy(clientID string, mode model.LegacyMode) Device {
	return &replicaDevice{r: model.NewLegacyReplica(clientID, mode)}
}

// replicaDevice is a model.Replica as a Device: B's upgraded installation,
// or any encoding's legacy one.
type replicaDevice struct{ r *model.Replica }

func (d *replicaDevice) ClientID() string { return d.r.ClientID }
func (d *replicaDevice) Legacy() bool     { return d.r.Legacy }
func (d *replicaDevice) Clone() Device    { return &replicaDevice{r: d.r.Clone()} }

// AppendKey is the exact state: the client id, then every held context with
// its frontier entry and register (a context holding neither behaves as an
// absent one and is not encoded).
func (d *replicaDevice) AppendKey(buf []byte) []byte {
	buf = appendString(buf, d.r.ClientID)
	d.r.Each(func(ctx string, f uint32, hasF bool, reg model.Reg) {
		if !hasF && reg == (model.Reg{}) {
			return
		}
		buf = appendString(buf, ctx)
		buf = append(buf, byte(b2i(hasF)))
		buf = binary.AppendUvarint(buf, uint64(f))
		buf = binary.AppendUvarint(buf, uint64(reg.S))
		buf = binary.AppendUvarint(buf, uint64(reg.C))
		buf = binary.AppendUvarint(buf, uint64(reg.B))
	})
	return buf
}

func (d *replicaDevice) MarkUnread(ctx string) error          { return d.r.MarkUnread(ctx) }
func (d *replicaDevice) MarkRead(ctx string, ts uint32) error { return d.r.MarkRead(ctx, ts) }
func (d *replicaDevice) Advance(ctx string, ts uint32)        { d.r.Advance(ctx, ts) }
func (d *replicaDevice) Compact(ctx string) bool              { return d.r.Compact(ctx) }
func (d *replicaDevice) HasReg(ctx string) bool               { return d.r.HasReg(ctx) }
func (d *replicaDevice) Reinstall(clientID string)            { d.r.Reinstall(clientID) }
func (d *replicaDevice) Frontier(ctx string) uint32           { return d.r.Frontier(ctx) }
func (d *replicaDevice) Publish() []byte                      { return model.EncodeBlob(d.r.Candidate()) }
func (d *replicaDevice) Live(ctx string) bool                 { return !d.r.Legacy && d.r.Live(ctx) }
func (d *replicaDevice) EachFrontier(fn func(string, uint32)) { d.r.Each(eachF(fn)) }
func eachF(fn func(string, uint32)) func(string, uint32, bool, model.Reg) {
	return func(ctx string, f uint32, hasF bool, _ model.Reg) {
		if hasF {
			fn(ctx, f)
		}
	}
}

// Receive parses as the installation does: an upgraded one through every
// Content Validation rule, a legacy one as the legacy reader (unknown
// top-level members, candidate A's included, are not kept).
func (d *replicaDevice) Receive(data []byte) error {
	parse := model.ParseBlobWith
	if d.r.Legacy {
		parse = model.ParseBlobLegacy
	}
	b, _, err := parse(d.r.Rules, data)
	if err != nil {
		return err
	}
	d.r.Receive(b)
	return nil
}

func (d *replicaDevice) Renamed(rename func(string) string) Device {
	c := d.r.Clone()
	c.ClientID = rename(c.ClientID)
	return &replicaDevice{r: c}
}

// IDs: a model register records no client id.
func (d *replicaDevice) IDs() []string { return []string{d.r.ClientID} }

func (d *replicaDevice) View(ctxs []string) string {
	parts := []string{d.r.ClientID}
	if d.r.Legacy {
		parts[0] += " (legacy)"
	}
	for _, ctx := range ctxs {
		s := fmt.Sprintf("%s f=%s", ctx, frontierText(d.r.Frontier(ctx), d.r.HasFrontier(ctx)))
		if !d.r.Legacy {
			s += fmt.Sprintf(" reg=%v %s", d.r.Reg(ctx), liveWord(d.Live(ctx)))
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "; ")
}

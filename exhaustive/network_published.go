package exhaustive

import (
	"fmt"

	"github.com/nip-rs/harness/model"
)

// peerVerdict is N8 for upgraded device d in replica rep: a peer that
// received the publication the device would make now, and nothing newer,
// must derive the device's own unread verdict for every context of the
// universe, whatever the newest message's time (no message, or any
// frontier value). The peer is a fresh installation under the device's own
// rules and parent resolver, so a rule the two disagree on is N1's concern,
// not this one's; what N8 sees is a verdict that cannot travel, such as an
// override whose keys every receiver must reject (Content Validation: keys
// over 256 bytes). It returns "" when they agree, and nothing for a legacy
// device or a state that cannot publish (N5 reports that). Memoised per
// device replica, the only thing it reads.
func (w *netWorld) peerVerdict(c *cache, d int, rep int32) string {
	if w.u.Devices[d].Legacy {
		return ""
	}
	fa := w.factsOf(c, d, rep)
	if fa.peer != nil {
		return *fa.peer
	}
	f := ""
	if base := w.publishBase(c, d, rep); base.err == "" {
		f = w.comparePeer(d, w.replica(d, rep), base.parts)
	}
	fa.peer = &f
	return f
}

// comparePeer receives parts into a fresh peer of device d's replica r and
// names the first context and message time on which the two disagree.
func (w *netWorld) comparePeer(d int, r *model.Replica, parts []model.Blob) string {
	peer := model.NewReplica("peer")
	peer.Rules, peer.Parent = r.Rules, r.Parent
	for _, b := range parts {
		peer.Receive(b)
	}
	times := append([]uint32{0}, w.u.Values...)
	for _, ctx := range w.u.Contexts {
		for _, latest := range times {
			if mine, theirs := r.Unread(ctx, latest), peer.Unread(ctx, latest); mine != theirs {
				return fmt.Sprintf("d%d shows %s %s for a newest message at %d (f=%d %s), a peer holding only its publication shows %s (f=%d %s)",
					d, shortCtx(ctx), readWord(mine), latest, r.Effective(ctx), verdict(r.Live(ctx)),
					readWord(theirs), peer.Effective(ctx), verdict(peer.Live(ctx)))
			}
		}
	}
	return ""
}

func readWord(unread bool) string {
	if unread {
		return "unread"
	}
	return "read"
}

// shortCtx names a context in a finding: a long id by its first bytes and
// its length, so that a witness stays readable.
func shortCtx(ctx string) string {
	if len(ctx) <= 24 {
		return ctx
	}
	return fmt.Sprintf("%s…(%d bytes)", ctx[:12], len(ctx))
}

package model

import "fmt"

// Context ids of the optional read-context schemes (Read Context Schemes).
const (
	ThreadPrefix = "thread:"
	MsgPrefix    = "msg:"
)

// ThreadContext is the context id of the thread rooted at the event with id
// root (64 lowercase hex).
func ThreadContext(root string) (string, error) {
	if !isLowerHex(root, 64) {
		return "", fmt.Errorf("thread root %q is not 64 lowercase hex characters", root)
	}
	return ThreadPrefix + root, nil
}

// MsgContext is the per-message context id of the event with id id.
func MsgContext(id string) (string, error) {
	if !isLowerHex(id, 64) {
		return "", fmt.Errorf("message id %q is not 64 lowercase hex characters", id)
	}
	return MsgPrefix + id, nil
}

// dominatedChild is the production dominance rule (Eviction): a thread: or
// msg: entry whose value is at most its resolved parent's effective frontier
// is inert. Opaque ids, and children whose parent cannot be resolved, are
// never dominated.
func dominatedChild(raw string, own, parent uint32, resolved bool) bool {
	return resolved && ContextScheme(raw) != SchemeOpaque && own <= parent
}

// ChannelMessage is one message of a channel as the channel-read rule sees
// it: its created_at and whether it is a top-level message (not a thread
// reply).
type ChannelMessage struct {
	CreatedAt uint32
	TopLevel  bool
}

// channelReadTarget is the production channel-read rule (Write Discipline):
// the channel frontier advances to the newest top-level message only, so a
// thread whose replies are newer stays unread. ok is false when there is no
// top-level message.
func channelReadTarget(msgs []ChannelMessage) (ts uint32, ok bool) {
	for _, m := range msgs {
		if m.TopLevel && (!ok || m.CreatedAt > ts) {
			ts, ok = m.CreatedAt, true
		}
	}
	return ts, ok
}

// EffectiveReply is the reply rule (Hierarchical Frontier Rule): a surface
// that knows the reply's thread folds the thread frontier in,
// max(effective(msg:<reply>), effective(thread:<root>)). An empty thread
// context means the thread is not known and gives effective(msg:<reply>).
func EffectiveReply(own func(string) uint32, parent ParentResolver, msgCtx, threadCtx string) uint32 {
	v := Effective(own, parent, msgCtx)
	if threadCtx != "" {
		v = max(v, Effective(own, parent, threadCtx))
	}
	return v
}

// ReplyUnread is the per-message unread verdict of a reply created at
// createdAt: newer than its effective frontier (reply rule included).
func ReplyUnread(own func(string) uint32, parent ParentResolver, msgCtx, threadCtx string, createdAt uint32) bool {
	return createdAt > EffectiveReply(own, parent, msgCtx, threadCtx)
}

// EffectiveReply is the replica's reply rule.
func (r *Replica) EffectiveReply(msgCtx, threadCtx string) uint32 {
	return EffectiveReply(r.Frontier, r.Parent, msgCtx, threadCtx)
}

// ReplyUnread is the replica's verdict for a reply created at createdAt.
func (r *Replica) ReplyUnread(msgCtx, threadCtx string, createdAt uint32) bool {
	return createdAt > r.EffectiveReply(msgCtx, threadCtx)
}

// MarkChannelRead advances the channel context, and only it, to the target
// rules.Slots.ChannelRead picks from the channel's messages (Write
// Discipline). It reports the target and whether the frontier moved.
func (r *Replica) MarkChannelRead(channel string, msgs []ChannelMessage) (uint32, bool) {
	ts, ok := r.Rules.Slots.ChannelRead(msgs)
	if !ok {
		return 0, false
	}
	before, had := r.Frontier(channel), r.HasFrontier(channel)
	r.Advance(channel, ts)
	return ts, !had || ts > before
}

// MarkThreadRead advances thread:<root>, and only it (Write Discipline).
func (r *Replica) MarkThreadRead(root string, ts uint32) error {
	ctx, err := ThreadContext(root)
	if err != nil {
		return err
	}
	r.Advance(ctx, ts)
	return nil
}

// MarkMessageRead advances msg:<id>, and only it (Write Discipline).
func (r *Replica) MarkMessageRead(id string, ts uint32) error {
	ctx, err := MsgContext(id)
	if err != nil {
		return err
	}
	r.Advance(ctx, ts)
	return nil
}

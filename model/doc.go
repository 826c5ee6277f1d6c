// Package model is the production core of NIP-RS read-state sync with the
// manual-unread override layer: the register algebra, reserved-namespace
// keys, the plaintext blob codec and its validation, merged state, the
// replica, slots and budget, kind 30078 events, and the full-state load.
//
// A Go client imports this package; every check in this repository runs
// against the same code through the Rules seam (see rules.go), so a mutant
// is a Rules value with one field replaced, never a copy of a rule.
//
// Section names in comments refer to NIP-RS.md.
//
// # Usage
//
// Pick one rule set and pass it everywhere. [Proposed] is the set a
// production client runs: the spec's text ([Spec]) with every named fix of
// [Proposals] applied. [Without] leaves one proposal out, and
// [ByValueIntegers], [DistinctKeyLimit], [UTF8DiscardsEvent] and
// [FenceLapseFails] read one ambiguous sentence the other way. A [Rules]
// value is the only way a decision is made: the [Replica] holds it in
// Replica.Rules, the codec takes it in [ParseBlobWith], [ParseEvent] and
// [Decode], the split in [SplitBlob], the load in LoadConfig.Rules. A
// client that mixes two rule sets can publish what it would itself refuse
// on receipt.
//
// A [Replica] is one installation (one client_id) of the user. Its actions
// are the ones the spec lists: a natural read ([Replica.Advance]) moves the
// context's frontier forward; [Replica.MarkUnread] bumps the set counter
// past both counters and records the effective frontier as the baseline;
// [Replica.MarkRead] moves the frontier and bumps the clear counter, which
// ends the override (Manual-Unread Override Layer, Actions). The unread
// verdict is [Replica.Unread]. To sync, a replica publishes
// [Replica.Publish] (the canonical candidate, see below) and merges every
// blob it receives with [Replica.Receive]; merging is componentwise
// maximum, so any order of delivery converges (Merge Rule). A client
// publishes again when [Replica.NeedsRepublish] says its candidate differs
// from what it last published (Live Subscription and Convergence). See
// the example of [Replica.Receive].
//
// A received event is authenticated and decrypted by [ParseEvent] (kind,
// author, the d and t tags, size, id, signature, NIP-44 to self), which
// hands the plaintext to [ParseBlobWith]. Validation works at two levels
// (Content Validation): a malformed blob is discarded whole, with an error
// wrapping [ErrInvalidBlob] ([ErrUnknownVersion] for a later schema, which
// is ignored rather than malformed); otherwise bad entries are dropped one
// by one and named in the [Report], and an override group that is neither
// a complete live triple nor a lone ov_c floor, or has an invalid sibling,
// is dropped whole while the context's frontier entry stays. Nothing of a discarded event
// may merge. See the example of [ParseBlobWith].
//
// Publication is canonical (Mandatory Canonical Publication, Tombstone
// Floor): a live override travels as its three keys ov_s, ov_c and ov_b;
// a dead one folds to the single key ov_c holding the larger counter, a
// floor that no older live group can climb back over; a never-activated
// register is not written. [Replica.Candidate] applies it and [EncodeBlob] writes
// the plaintext; [BuildEvent] encrypts it to self and signs a kind 30078
// event at the slot's d tag. When the state outgrows one event,
// [Replica.PublishSplit] deals it into a primary coordinate and
// frontier-only additional ones under a [Budget]: the entries of one
// context travel together, and every override group lives in the primary
// (Override Group Co-Location Rule, Bounds and Budget). A client that
// writes to real relays goes through [Replica.PlanPublish]: read its own
// coordinates first ([OwnFilter]), or run a full-state load, then publish
// the [PlannedEvent] values at the created_at the plan gives; override
// state is written only behind a complete load (Read-Before-Write, Clock
// Skew).
//
// Override state may be acted on only after a full-state load proves that
// every coordinate of the user was retrieved (Full-State Load). [Load] is
// that procedure as a sans-I/O state machine, one per relay: [NewLoad]
// checks the [LoadConfig]; [Load.Start] returns the first messages; the
// client sends each [Out] ([Out.Wire] is its frame), reads every relay
// frame in wire order into an [In] with [ParseIn] (skipping what it
// refuses), passes it to [Load.Feed] and sends what that returns. Before
// sending, [Load.PassGapDue] says whether to wait LoadConfig.PassGap first
// (a multi-pass load). Once [Load.Running] is false, [Load.Result] holds
// the verdict and the collected coordinates; a client that gives up calls
// [Load.Abort]. [Drive] runs the same loop over a [Wire], such as a
// websocket to a relay, verifying every signature. Only [Complete] counts:
// cannot-prove-complete and failed are both "potentially incomplete", and
// [Replica.ApplyLoad] makes the replica refuse the gated actions
// ([Replica.Permit]) until a complete one. [MultiLoad] aggregates one load
// per relay. See the examples of [Load] and [Drive].
//
// The load starts with the fence, a REQ on
// {"kinds":[30078],"authors":[pk],"limit":n}; the queries follow the
// fence's EOSE, one at a time on its connection: the band, the pinned
// window {since:T, until:T} and the continuation until:T-1, each closed
// at its EOSE.
//
// Beyond the rule sets, [Proposal] records what each named fix changes:
// its section, the sentence proposed for the NIP, and the [Rules] fields it
// sets. The decision functions [Spec] and [Proposed] put in those fields
// are unexported, so the compiler holds every caller to the rule set it
// chose: a decision is reached only through a [Rules] value, and a mutant
// replaces one by setting a field. Three exported functions have the shape
// of a decision and are exported for another reason: [EscapeKey] and
// [UnescapeKey] are codec helpers for writing and reading a wire key by
// hand (the drivers escape through Rules.Escape and Rules.Unescape), and
// [MarkUnreadKeepBaseline] is another reading of mark-unread that takes
// effect only once installed in Rules.MarkUnread.
//
// # Codec decisions
//
// Where Content Validation and Wire Encoding leave the parser a choice, it
// decides as follows; NOTE.md, "Blob codec", weighs the choices that bear
// on the text.
//
// Top-level members resolve last-wins and unknown ones are skipped. A
// plaintext over [MaxPlaintextBytes] is rejected before it is scanned, and
// nesting deeper than [MaxNesting] levels rejects the blob even inside an
// unknown member: no writer of this protocol nests, so the bound costs no
// honest blob. A key that is not
// UTF-8 (raw bytes, or an unpaired \u surrogate escape) drops its entry
// under [Spec] and the whole event under [UTF8DiscardsEvent].
//
// The entry limit counts raw members, duplicates and invalid ones
// included. The scanner keeps at most one member more than 65,535 / 5: the
// shortest member with its comma, "":0, takes 5 bytes, so the densest
// plaintext holds 13,099 members and the bound is never reached by real
// input, yet it caps the scanner's allocation on hostile input under
// either reading of the limit.
//
// Override groups are collected after last-wins and before any per-entry
// discard: per raw context, its ov_s:, ov_c: and ov_b: entries, each with
// a validity flag (the value an integer in range, the key UTF-8 and at
// most [MaxKeyBytes] bytes). The group is then accepted or rejected
// whole, and the context's frontier entry stays either way, so one bad
// sibling can never leave a partial register behind.
//
// # Readings
//
// Three sentences of Content Validation read two ways; [Spec] takes the
// literal reading and the other is a rule set of its own.
//
// "Integer": Content Validation drops an entry whose timestamp is not an
// integer in 0..4294967295, and Wire Encoding bounds override values
// alike. By the literal (Spec) an integer is a digit string without sign,
// fraction or exponent, so 1.0, -0, 1e3, 1E+3 and 10.0 are dropped as
// entries and "v": 1.0 discards the blob; by the value
// ([ByValueIntegers], what JSON.parse-based clients do) those read as 1,
// 0, 1000 and 10. v stays literal in both. Canonical writers write 1, so
// only a non-canonical writer tells the readings apart.
//
// The entry limit: a blob "containing more than 10,000 context entries"
// contains its members as written, and duplicate resolution is a later
// SHOULD of the same list. Counted over what last-wins leaves
// ([DistinctKeyLimit]) the sentence is dead: at most 9,370 distinct valid
// keys, 9,389 of any bytes, fit a plaintext. Literally it bites only
// through duplicates: a hostile blob of 10,001 members is discarded by one
// reader and read last-wins by the other, and a blob of 10,001 distinct
// members is discarded for its size under both.
//
// A key that is not UTF-8: the blob-level rules name the JSON, v,
// client_id (its UTF-8 included) and contexts, never a key, and an id
// failing a bound is discarded as an entry, "the rest of the blob still
// processed", so Spec drops the entry. Through RFC 8259 (JSON text is
// UTF-8) the plaintext is not JSON and the event is discarded
// ([UTF8DiscardsEvent], unpaired surrogate escapes included). The decision
// follows the envelope rules and precedes the entry limit.
//
// # Slot decisions
//
// The split groups wire entries by logical context (a frontier key is
// unescaped first, so esc:ov_s:evil stays with ov_*:ov_s:evil), evicts,
// and deals whole groups: override-bearing groups with their frontier
// entries into the primary, then frontier-only groups in key order,
// next-fit. One state always splits one way, and every blob is measured
// again after the split.
//
// Eviction drops dominated child entries first (at or below the channel's
// effective frontier, an overridden child's inert frontier entry
// included); then, with a horizon, older frontier entries; then, over the
// coordinate limit, msg: before thread: before other contexts, oldest
// first, ties by key. ov_* entries and the frontier entry of a context
// that carries an override are never evicted.
//
// A coordinate's capacity is the least of the plaintext budget, the
// largest plaintext whose event fits the relay's event limit at the widest
// created_at, and [MaxPlaintextBytes]; event sizes follow NIP-44's padding
// and are compared byte for byte with built events by the tests.
//
// A rotation needs a complete load, merges it, splits under the new
// client_id and a fresh primary, and checks the new primary covers every
// readable version of the old one and the last publication. Deletion (per
// coordinate and relay) never deletes the current primary or another
// installation's coordinate; it deletes own or predecessor frontier-only
// coordinates freely, and anything with ov_* entries or unreadable only
// after a covering carry-forward was accepted on that relay; an orphan
// counts as a carrier whatever it seems to hold.
//
// # Load decisions
//
// How [Spec] reads each step of Full-State Load (NOTE.md, "What spec
// means", sorts the load's decisions into stated, proposed and bounds of
// this core): L is two and never taken from a relay's advertisement; one
// tag-free filter with one limit n >= L (step 1); the greater created_at,
// then the lower id, wins, and a fence delivery moves neither T nor C
// (step 2); every delivered event sets T (step 3); the pinned window is
// asked before T is passed (step 4) and discharges only below max(C, L)
// (step 5); only an empty continuation completes, never a count against
// the limit (step 7); the fence counts from its end-of-stored-events, and
// a connection lost after it cannot prove complete (step 8; the other
// reading is [FenceLapseFails]); a relay known to break a requirement
// gets no load. Where the text leaves the implementation a choice: C
// takes the pinned delivery after step 5's comparison (the production
// TypeScript client takes it before, with the same verdicts), and T is
// the lowest created_at over every query result, so it never rises.
//
// # Index
//
// Replica and actions:
//   - installation: [Replica], [NewReplica], [NewLegacyReplica],
//     [LegacyMode], [LegacyCarry], [LegacyDropOverrides], [Replica.Clone],
//     [Replica.CloneInto], [Replica.Restore], [Replica.Reinstall]
//   - actions: [Replica.Advance], [Replica.MarkUnread], [Replica.MarkRead],
//     [Replica.MarkChannelRead], [ChannelMessage], [Replica.MarkThreadRead],
//     [Replica.MarkMessageRead], [Replica.MarkUnreadBudgeted],
//     [Replica.MarkReadBudgeted], [Replica.Compact]; refusals
//     [ErrCounterCeiling], [ErrStillActive], [ErrKeyTooLong], [ErrLegacy]
//   - reading state: [Replica.Frontier], [Replica.HasFrontier],
//     [Replica.EverRead], [Replica.Reg], [Replica.HasReg],
//     [Replica.Effective], [Replica.EffectiveReply], [Replica.Live],
//     [Replica.Unread], [Replica.ReplyUnread], [Replica.Contexts],
//     [Replica.Each]
//   - publishing and receiving: [Replica.Candidate], [Replica.Publish],
//     [Replica.LastPublished], [Replica.NeedsRepublish],
//     [Replica.NeedsRepublishEvicted], [Replica.Receive],
//     [Replica.ReceiveDecoded], [Replica.Split], [Replica.PublishSplit],
//     [Replica.CheckBudget]
//   - gates of a potentially incomplete load: [Replica.ApplyLoad],
//     [Replica.Permit], [Replica.PublishCanonical], [GatedAction],
//     [ActCanonicalPublish], [ActCompact], [ActDeleteCoordinate],
//     [ActAbandonCoordinate], [ActReportMarkRead], [ErrLoadIncomplete],
//     [ErrLoadInProgress]
//   - read-before-write, rotation and deletion: [Replica.PlanPublish],
//     [WriteInput], [PublishPlan], [PlannedEvent], [Replica.PlanRotation],
//     [RotationInput], [RotationPlan], [Covers], [PlanDeletion],
//     [DeletionInput], [DeleteDecision], [DeleteFacts], [CoordKind],
//     [CoordPrimary], [CoordAdditional], [CoordPredecessor], [CoordOrphan],
//     [CoordPeer], [ErrNotOwn], [ErrLiveCarrier], [ErrNotCarried]
//   - registers and merged state: [Reg], [Reg.Ceiling], [Reg.Virgin],
//     [MaxU32], [Shape], [ShapeOmit], [ShapeLive], [ShapeFloor], [Shapes],
//     [TiePolicy], [ClearWins], [SetWins], [ParseTiePolicy], [ParseTies],
//     [State], [State.Effective], [MergeBlobs]
//   - contexts and the hierarchy: [ThreadPrefix], [MsgPrefix],
//     [ThreadContext], [MsgContext], [Scheme], [SchemeOpaque],
//     [SchemeThread], [SchemeMsg], [ContextScheme], [ParentResolver],
//     [Effective], [EffectiveReply], [Unread], [ReplyUnread]
//
// Blobs and codec:
//   - the blob: [Blob], [Blob.Value], [Entry], [SortEntries],
//     [EntriesString], [EncodeBlob], [EncodedSize], [CarriesOverrides]
//   - parsing and validation: [ParseBlob], [ParseBlobWith], [Report],
//     [Drop], [ErrInvalidBlob], [ErrUnknownVersion], [ErrBadClientID],
//     [MaxPlaintextBytes], [MaxNesting], [MaxEntries], [MaxClientIDChars],
//     [MaxKeyBytes]; drop reasons [ReasonKeyTooLong], [ReasonKeyNotUTF8],
//     [ReasonValueRejected], [ReasonValueNegative],
//     [ReasonValueNotInteger], [ReasonValueTooLarge], [ReasonGroupRejected]
//   - decoding into frontiers and registers: [Decode], [Decoded],
//     [RawEntry], [Raw], [Frontier], [Override], [Group], [Group.Put],
//     [Slot], [ErrGroupPartial], [ErrGroupInvalid]
//   - reserved namespace and keys: [EscMarker], [PrefixS], [PrefixC],
//     [PrefixB], [NeedsEscape], [EscapeKey], [UnescapeKey], [OverrideKey],
//     [ClassifyKey], [KeyKind], [KeyFrontier], [KeyS], [KeyC], [KeyB],
//     [MaxOverrideContextBytes]
//   - legacy clients (no override layer): [ParseBlobLegacy],
//     [LegacySanitize], [LegacyPrune], [LegacyTrim], [ChildPrefixed]
//
// Events and NIP-44:
//   - building and parsing: [KindReadState], [TTagValue], [DTagPrefix],
//     [DTag], [ValidDTag], [ValidSlotID], [NewSlotID], [EventSlot],
//     [BuildEvent], [ParseEvent], [FetchEvent], [FetchedBlob]
//   - why an event is ignored: [ErrNilEvent], [ErrWrongKind],
//     [ErrWrongAuthor], [ErrNoDTag], [ErrManyDTags], [ErrDTagPrefix],
//     [ErrBadSlotID], [ErrNoTTag], [ErrManyTTags], [ErrOversized],
//     [ErrBadID], [ErrBadSignature], [ErrDecrypt], [ErrContent], [ErrBadKey]
//   - encryption to self and sizes: [SelfKeys], [NewSelfKeys],
//     [SelfKeys.Encrypt], [SelfKeys.Decrypt], [EventJSONSize], [EventSize],
//     [CiphertextLen], [NIP44PaddedLen], [MaxPlaintextForEvent]
//   - identity and fetching: [Self], [Self.Validate], [OwnFilter],
//     [Identify], [Identity], [Identity.PrimaryConflicted], [BlobRole],
//     [RolePeer], [RoleOwn], [RoleOwnAdditional], [RoleConflict],
//     [RoleOrphan], [RoleUnreadable], [BlobRoles], [ResolveConflicts],
//     [CreatedAtFor]
//
// Slots and grouping:
//   - budget: [Budget], [DefaultBudget], [Budget.BlobCapacity],
//     [PlaintextBudget], [DefaultMaxEventBytes], [DefaultMaxCoordinates]
//   - the split: [SplitBlob], [SplitPlan], [SplitPlan.Entries], [Capacity],
//     [SlotGroup], [ErrOverrideBudget], [ErrCoordinateLimit],
//     [ErrSplitOverflow]
//   - eviction: [Eviction], [EvictReason], [EvictDominated], [EvictHorizon],
//     [EvictBudget], [EvictReasons], [EvictCandidate], [EvictClassMsg],
//     [EvictClassThread], [EvictClassContext]
//
// The load:
//   - one relay: [Load], [NewLoad], [LoadConfig], [Load.Start], [Load.Feed],
//     [Load.PassGapDue], [Load.Abort], [Load.Running], [Load.Result],
//     [Load.Verdict], [Load.FenceID], [Load.Established], [Load.C],
//     [Load.Pass], [Load.Cursor]
//   - messages: [In], [InKind], [InEvent], [InEOSE], [InClosed],
//     [InConnectionLost], [ParseIn], [Out], [Out.Wire], [OutKind],
//     [OutREQ], [OutCLOSE]
//   - a connection: [Wire], [Drive]
//   - the verdict: [LoadResult], [LoadResult.Complete], [LoadStats],
//     [Verdict], [Running], [Complete], [CannotProveComplete], [Failed],
//     [Verdicts], [Reason], [ReasonNone], [ReasonPlateau],
//     [ReasonFenceLapsed], [ReasonRelayFailure], [ReasonNonConforming],
//     [ReasonQueryPush], [ReasonUnproven], [ReasonSubscriptions],
//     [ReasonFenceOverflow], [Reasons]
//   - several relays: [MultiLoad], [NewMultiLoad], [MultiLoad.Start],
//     [MultiLoad.Feed], [MultiLoad.Running], [MultiLoad.Result],
//     [MultiLoad.Load], [MultiLoad.Relays], [MultiResult],
//     [MultiResult.Complete], [RelayOut], [RelayResult]
//   - bounds: [FloorL], [LoadSubscriptions], [MaxLoadPasses], [MaxPassGap],
//     [MaxCreatedAt]; configuration errors [ErrLoadPubKey], [ErrLoadLimit],
//     [ErrLoadPrefixHeld], [ErrLoadConnection], [ErrLoadSubs],
//     [ErrLoadPasses], [ErrLoadPassGap]
//
// Rules and proposals:
//   - rule sets: [Rules], [Spec], [Proposed], [ProposedName], [Without],
//     [Rules.Clone], [Rules.IsLive], [Rules.WithTie], [SlotRules],
//     [LoadRules]
//   - proposals: [Proposal], [Proposals], [ProposalLongIDRefusal],
//     [ProposalPushNotResult], [ProposalDistinctREQs], [ProposalFenceFits],
//     [ProposalNewestFirst], [ProposalLimitResults], [ProposalUnproven]
//   - the other reading of an ambiguous sentence: [ByValueIntegers],
//     [ByValueIntegersName], [DistinctKeyLimit], [DistinctKeyLimitName],
//     [UTF8DiscardsEvent], [UTF8DiscardsEventName], [FenceLapseFails],
//     [FenceLapseFailsName]
//   - another reading of mark-unread, for a Rules field:
//     [MarkUnreadKeepBaseline]
//
// Relay requirements (what a complete load rests on; the simulator and the
// conformance probe report against the same names): [RelayRequirement],
// [ReqPrefix], [ReqCap], [ReqFloor], [ReqPush], [ReqPushSettled],
// [ReqBarrier], [ReqAtomic], [ReqFresh], [ReqSubs], [ReqTieOrder].
package model

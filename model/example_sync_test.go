package model_test

import (
	"errors"
	"fmt"
	"slices"

	"github.com/nip-rs/harness/model"
)

// Three installations of one user converge after a mark-unread on one of
// them. Each blob travels as the plaintext a client would encrypt to self
// (EncodeBlob) and is parsed and validated on receipt (ParseBlobWith), as
// it would be after decryption; every replica runs the same rule set.
func ExampleReplica_Receive() {
	rules := model.Proposed() // one rule set, passed everywhere
	phone := model.NewReplica("phone")
	desk := model.NewReplica("desktop")
	tablet := model.NewReplica("tablet")
	all := []*model.Replica{phone, desk, tablet}
	for _, r := range all {
		r.Rules = rules
	}

	// One round: every replica publishes, every other receives. A client
	// publishes again whenever its candidate differs from what it last
	// published (NeedsRepublish), so the rounds stop once all agree.
	exchange := func() {
		var wire [][]byte
		for _, r := range all {
			wire = append(wire, model.EncodeBlob(r.Publish()))
		}
		for i, r := range all {
			for j, pt := range wire {
				if i == j {
					continue
				}
				blob, _, err := model.ParseBlobWith(rules, pt)
				if err != nil {
					fmt.Println("discarded:", err)
					continue
				}
				r.Receive(blob)
			}
		}
	}
	converge := func() {
		rounds := 0
		for rounds == 0 || slices.ContainsFunc(all, (*model.Replica).NeedsRepublish) {
			exchange()
			rounds++
		}
		fmt.Println("rounds:", rounds)
	}

	desk.Advance("chan-1", 100) // read up to second 100 on the desktop
	tablet.Advance("chan-2", 40)
	converge()
	// The phone, now at 100 too, marks chan-1 unread: a live group whose
	// baseline is the frontier it was marked at.
	if err := phone.MarkUnread("chan-1"); err != nil { // only at the uint32 ceiling
		fmt.Println("refused:", err)
	}
	converge()
	for _, r := range all {
		fmt.Printf("%-7s %s unread=%v\n", r.ClientID, model.EntriesString(r.Candidate().Contexts), r.Unread("chan-1", 100))
	}

	// A mark-read on the desktop outranks the phone's mark-unread; the
	// register folds to its tombstone floor, ov_c alone.
	if err := desk.MarkRead("chan-1", 120); err != nil {
		fmt.Println("mark-read failed:", err)
	}
	converge()
	for _, r := range all {
		fmt.Printf("%-7s %s unread=%v\n", r.ClientID, model.EntriesString(r.Candidate().Contexts), r.Unread("chan-1", 120))
	}
	// Output:
	// rounds: 2
	// rounds: 2
	// phone   {chan-1:100, chan-2:40, ov_b:chan-1:100, ov_c:chan-1:0, ov_s:chan-1:1} unread=true
	// desktop {chan-1:100, chan-2:40, ov_b:chan-1:100, ov_c:chan-1:0, ov_s:chan-1:1} unread=true
	// tablet  {chan-1:100, chan-2:40, ov_b:chan-1:100, ov_c:chan-1:0, ov_s:chan-1:1} unread=true
	// rounds: 2
	// phone   {chan-1:120, chan-2:40, ov_c:chan-1:2} unread=false
	// desktop {chan-1:120, chan-2:40, ov_c:chan-1:2} unread=false
	// tablet  {chan-1:120, chan-2:40, ov_c:chan-1:2} unread=false
}

// A received blob is validated before anything merges: a bad entry is
// dropped alone (its reason in the Report), a bad override group is
// dropped whole (here an ov_s without its siblings) while the context's
// frontier stays, and a malformed blob
// is discarded as a whole. The rule set decides the borderline cases:
// the text reads "integer" by its literal, so 1.0 is dropped under
// Proposed() and kept under ByValueIntegers().
func ExampleParseBlobWith() {
	plaintext := []byte(`{"v":1,"client_id":"phone","contexts":{
		"chan-1":100,
		"chan-2":1.0,
		"ov_s:chan-3":1,
		"chan-3":70
	}}`)
	for _, rules := range []*model.Rules{model.Proposed(), model.ByValueIntegers()} {
		blob, report, err := model.ParseBlobWith(rules, plaintext)
		if err != nil {
			fmt.Println("discard:", err)
			continue
		}
		fmt.Printf("%s: kept %s\n", rules.Name, model.EntriesString(blob.Contexts))
		for _, d := range report.Drops {
			fmt.Printf("%s: dropped %s\n", rules.Name, d)
		}
	}

	for _, bad := range []string{
		`{"v":1,"client_id":"phone","contexts":[]}`,
		`{"v":2,"client_id":"phone","contexts":{}}`,
	} {
		_, _, err := model.ParseBlobWith(model.Proposed(), []byte(bad))
		switch {
		case errors.Is(err, model.ErrUnknownVersion):
			fmt.Println("ignore (a later schema):", err)
		case errors.Is(err, model.ErrInvalidBlob):
			fmt.Println("discard the event:", err)
		}
	}
	// Output:
	// proposed: kept {chan-1:100, chan-3:70}
	// proposed: dropped chan-2: value has a fraction or exponent (only integer literals are accepted)
	// proposed: dropped ov_s:chan-3: override group rejected: override group is neither a complete live triple nor a lone ov_c floor
	// by-value-integers: kept {chan-1:100, chan-2:1, chan-3:70}
	// by-value-integers: dropped ov_s:chan-3: override group rejected: override group is neither a complete live triple nor a lone ov_c floor
	// discard the event: invalid blob: contexts is an array, not an object
	// ignore (a later schema): unknown blob version: v is 2
}

package model_test

import (
	"fmt"

	"github.com/nip-rs/harness/model"
)

// Two installations: a mark-unread travels as a live group, a mark-read on
// the other device travels back as a tombstone floor.
func ExampleReplica() {
	phone := model.NewReplica("phone")
	desk := model.NewReplica("desktop")

	phone.Advance("chan-1", 100) // natural read
	if err := phone.MarkUnread("chan-1"); err != nil {
		fmt.Println("refused:", err) // at the uint32 ceiling
	}
	desk.Receive(phone.Publish())    // live group: ov_s, ov_c, ov_b
	fmt.Println(desk.Live("chan-1")) // true

	if err := desk.MarkRead("chan-1", 150); err != nil {
		fmt.Println("failed:", err)
	}
	phone.Receive(desk.Publish()) // dead: the floor ov_c:chan-1 = 2
	fmt.Println(phone.Live("chan-1"), phone.Reg("chan-1"))
	// Output:
	// true
	// false (1,2,100)
}

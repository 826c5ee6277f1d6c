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
package model

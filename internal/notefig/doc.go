// Package notefig reads NOTE.md for the tests that pin its figures: a
// pinned figure lives in a test and in the note, and the test fails when the
// two disagree. It also formats numbers the way the note writes them.
package notefig

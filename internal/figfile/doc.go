// Package figfile pins what a test computes in a file under the package's
// testdata/: the test compares its output with the file byte for byte and
// fails on any difference, and rewrites the file when run with the
// package's -update flag. A pinned figure therefore lives in one place (the
// file, reviewed in the diff that changes it) and cannot drift from the
// code that computes it.
package figfile

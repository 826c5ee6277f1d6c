// Package probeshare lets the tests of a package share one expensive
// result (a relay probe) per key: the first top-level test to ask runs
// it, every other top-level test reads that result, and a test that asks
// a second time (-count) runs it afresh, so a repeated run still probes.
// The relay tests probe fresh starts of the same relay program with the
// same options in several tests, and the probe is most of what each
// costs; the report is a client's record of that program, as a client
// keeps it across restarts.
package probeshare

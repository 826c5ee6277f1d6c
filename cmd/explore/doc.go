// Command explore runs the bounded explorer over a universe and the
// directed checks, or replays a witness.
//
//	explore [-universe reference] [-depth N] [-tie clear|set|both]
//	        [-workers N] [-directed=true] [-only KEY,...] [-rules spec]
//	        [-max-states N] [-json] [-witness DIR] [-progress 1s]
//	explore -replay FILE
//	explore -list
//
// The first line of standard output says everything needed to reproduce the
// run. Progress goes to standard error. A violation prints its witness as
// text and writes it as JSON under -witness; -replay re-runs a witness
// through the same code and requires the same invariant to fail again.
//
// Exit codes: 0 every check passed; 1 a violation (or, with -replay, the
// witness reproduced); 2 a usage or input error, including a witness file
// that does not parse or does not fit its universe or check; 3 a resource
// bound (-max-states) was hit before the depth bound, so the result is
// unknown.
package main

// Command relaycheck probes a relay for the requirements the NIP-RS
// full-state load places on it (package relaycheck) and prints a verdict
// per requirement with the evidence of every violation.
//
//	relaycheck [-json] [-quiet] [-timeout 5s] [-trials 2000] [-confidence 0.95] [-max-rate 0.005] [-store relays.json] URL
//
// The delivery barrier and atomic replacement are tried sequentially:
// until a violation, or until the trials in which the race could show
// bound the violation rate by -max-rate at -confidence, or until -trials
// (then the verdict is unknown). The text output is a summary table,
// requirement by requirement, then every check with its evidence.
//
// It publishes events under a throwaway key and asks the relay to delete
// them afterwards. Progress goes to stderr (-quiet: none). With -store
// the result is recorded in the evidence store the load's gate reads.
//
// Exit codes: 0 every load requirement conforms, 1 a requirement is
// violated, 2 usage or bad input, 3 a requirement could not be decided
// (or the relay could not be reached).
package main

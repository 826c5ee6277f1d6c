// Command relaycheck probes a relay for the requirements the NIP-RS
// full-state load places on it (package relaycheck) and prints a verdict
// per requirement with the evidence of every violation.
//
//	relaycheck [-json] [-quiet] [-timeout 5s] [-trials 40] [-store relays.json] URL
//
// It publishes events under a throwaway key and asks the relay to delete
// them afterwards. Progress goes to stderr (-quiet: none). With -store
// the result is recorded in the evidence store the load's gate reads.
//
// Exit codes: 0 every load requirement conforms, 1 a requirement is
// violated, 2 usage or bad input, 3 a requirement could not be decided
// (or the relay could not be reached).
package main

// Package ruleset names one value for the rules of every layer the
// harness checks: the override layer and the full-state load
// (model.Rules), the paged history walk (history.Rules) and the community
// mechanisms (history/community.Rules).
//
// A Set is what a run checks: the gate's control, an amendment, a reading
// of an ambiguous sentence. A Change is what a mutant or an amendment does
// to a Set: it may touch any layer, and a tool that runs a Set runs every
// layer it holds, so a change of the walk's rules is checked by the walk's
// universe and a change of the core's by the explorer, through one value.
//
// Two sets are named by every tool: Spec (the text of NIP-RS.md and
// community-history-sync.md, literally where they are silent) and Proposed
// (the text with every fix ERRATA.md proposes, in every layer).
package ruleset

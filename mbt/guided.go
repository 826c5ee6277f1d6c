package mbt

import (
	"github.com/nip-rs/harness/exhaustive"
)

// maxGuidedGap bounds the silent steps the guided search allows between
// two records; past it only the breadth-first search decides.
const maxGuidedGap = 64

// guided looks for one behaviour that explains every record of the log
// (load records aside: they are no transitions), depth first, the log's
// next record tried before any silent step, with at most g silent steps
// between two records for g = 0, 1, 2, ... (iterative deepening). It
// visits at most budget (record, state) pairs in all. true means the
// behaviour it found is one of the model's, so the log is explained;
// false means only that none was found within the budget, and the
// breadth-first search decides (the first record no behaviour allows, or
// unknown).
//
// The breadth-first search holds every state consistent with the log so
// far, and a device the log does not host (a legacy device) multiplies
// them by everything it may have done unseen; a log usually leaves few
// silent steps between its records, and the shortest explanation is
// found among a few thousand states.
//
// line is, when no behaviour was found, the line of the last transition
// record a behaviour it found explains (0 for none): load records are not
// checked here.
func guided(st *exhaustive.Stepper, hosted []bool, recs []LogRecord, budget int) (ok bool, visited, line int) {
	var sync []LogRecord
	for _, r := range recs {
		if r.Load == nil {
			sync = append(sync, r)
		}
	}
	far := 0 // the most transition records one path explained
	var silentTs []int
	for t := range st.Transitions() {
		if silent(st.Decode(t), hosted) {
			silentTs = append(silentTs, t)
		}
	}
	cut := false
	for g := 0; g <= maxGuidedGap; g++ {
		// seen holds, per record index and state, the most silent steps
		// left with which the pair was searched: fewer cannot do better.
		seen := make([]map[string]int, len(sync))
		for i := range seen {
			seen[i] = map[string]int{}
		}
		short := false // some path ran out of silent steps short of a new state: a larger g may help
		var dfs func(i int, row []int32, left int) bool
		dfs = func(i int, row []int32, left int) bool {
			far = max(far, i)
			if i == len(sync) {
				return true
			}
			k := exhaustive.Key(row)
			if l, ok := seen[i][k]; ok && l >= left {
				return false
			}
			if visited >= budget {
				cut = true
				return false
			}
			seen[i][k] = left
			visited++
			if next, un := advance(st, [][]int32{row}, sync[i]); un == nil {
				for _, n := range next {
					if dfs(i+1, n, g) {
						return true
					}
				}
			}
			if left == 0 {
				// A larger g helps only if a silent step leads out of
				// what this round has seen at this record: when none
				// does anywhere, the round saw every state consistent
				// with the log, and no behaviour explains it.
				if !short {
					for _, t := range silentTs {
						if n, ok := st.Step(row, t); ok {
							if _, in := seen[i][exhaustive.Key(n)]; !in {
								short = true
								break
							}
						}
					}
				}
				return false
			}
			for _, t := range silentTs {
				if n, ok := st.Step(row, t); ok {
					if dfs(i, n, left-1) {
						return true
					}
				}
				if cut {
					return false
				}
			}
			return false
		}
		if dfs(0, st.Initial(), g) {
			return true, visited, 0
		}
		if cut || !short {
			break
		}
	}
	if far == 0 {
		return false, visited, 0
	}
	return false, visited, sync[far-1].Line
}

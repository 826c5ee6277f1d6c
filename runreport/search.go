package runreport

import (
	"fmt"

	"github.com/nip-rs/harness/amendments"
	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/model"
)

// Search is the exhaustive part of a run: one search of Config per tie
// policy, each under Config.Rules with that tie or, with Amendment, under
// the amendment's rules wrapped to count the rule inputs it decides
// otherwise than spec.
type Search struct {
	Config    exhaustive.Config
	Ties      []model.TiePolicy
	Amendment *amendments.Amendment
	// Checkpoints, when set, gives each tie's search its checkpoint
	// directory (exhaustive.Checkpoints.For); Stop, when set, is asked
	// after each checkpoint whether to end the run there, as a kill at
	// that moment would.
	Checkpoints *exhaustive.Checkpoints
	Stop        func(t model.TiePolicy, depth int) bool
	// Tracker, when set, follows the searches for a partial summary;
	// Progress receives each snapshot and Finished each search's result
	// before it joins the run.
	Tracker  *exhaustive.Tracker
	Progress func(t model.TiePolicy, p exhaustive.Progress)
	Finished func(*exhaustive.Result)
}

// Search runs s's searches in tie order and adds their results (and an
// amendment's differences) to the run. stopped says that Stop ended it:
// the searches after that one did not run. An error is the first
// search's that could not start.
func (r *Run) Search(s Search) (stopped bool, err error) {
	tracker := s.Tracker
	if tracker == nil {
		tracker = new(exhaustive.Tracker)
	}
	for _, t := range s.Ties {
		cfg := s.Config
		cfg.Rules = s.Config.Rules.WithTie(t)
		var diff *amendments.Diff
		if s.Amendment != nil {
			diff = &amendments.Diff{}
			cfg.Rules = diff.Wrap(s.Amendment.Rules(t), s.Amendment.Baseline(t))
		}
		if s.Checkpoints != nil {
			cp := s.Checkpoints.For(t)
			if s.Stop != nil {
				cp.Stop = func(d int) bool {
					stopped = s.Stop(t, d)
					return stopped
				}
			}
			cfg.Checkpoint = cp
		}
		tracker.Start(r.Run, t)
		cfg.Progress = func(p exhaustive.Progress) {
			tracker.Note(p)
			if s.Progress != nil {
				s.Progress(t, p)
			}
		}
		res, err := exhaustive.Explore(cfg)
		if err != nil {
			return false, err
		}
		if s.Finished != nil {
			s.Finished(res)
		}
		r.Explore = append(r.Explore, res)
		tracker.Finish(res)
		if stopped {
			return true, nil
		}
		if diff != nil {
			r.Diffs = append(r.Diffs, fmt.Sprintf("tie %s, universe %s: %s", t, cfg.Universe.Name, diff))
		}
	}
	return false, nil
}

package khatrutest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/relaycheck"
)

// Scenario is a dynamic setting for full-state loads: what other
// installations of the user (and the client itself) do on the relay
// around the loads.
type Scenario string

const (
	// ReplaceDuring: another installation replaces coordinates (a newer
	// version of an existing d) while each load runs.
	ReplaceDuring Scenario = "replace-during"
	// WriteBetween: coordinates are replaced, each acknowledged, between
	// two loads; nothing is written while a load runs.
	WriteBetween Scenario = "write-between"
	// OtherSubs: the load shares its connection with other subscriptions
	// of the client, opened before it, while coordinates are replaced as
	// in ReplaceDuring.
	OtherSubs Scenario = "other-subs"
	// BackToBack: loads one after another while another installation
	// replaces coordinates without pause, across and between loads.
	BackToBack Scenario = "back-to-back"
)

// Scenarios lists every scenario, in a fixed order.
func Scenarios() []Scenario { return []Scenario{ReplaceDuring, WriteBetween, OtherSubs, BackToBack} }

// ScenarioConfig configures RunScenario. Zero fields take the defaults
// in brackets.
type ScenarioConfig struct {
	// URL is the relay's websocket address.
	URL string
	// SecretKey is the user's key (hex). The user must have no events on
	// the relay yet: each run publishes its own history.
	SecretKey string
	// Coords is how many read-state coordinates the user has [8]; Foreign
	// how many other kind 30078 events of the user share the timeline [8].
	Coords, Foreign int
	// Loads is how many loads run [10].
	Loads int
	// Limit is each load's n when Config leaves it zero [10].
	Limit int
	// Writes is how many replacements another installation makes before
	// each load in WriteBetween, and at most while each load runs in
	// ReplaceDuring and OtherSubs (it stops when the load ends) [4, 50].
	Writes int
	// OtherSubs is how many other subscriptions share the load's
	// connection in the OtherSubs scenario [20].
	OtherSubs int
	// Seed seeds the choice of the coordinates replaced.
	Seed uint64
	// Timeout bounds each load [10 s].
	Timeout time.Duration
	// Config, if set, gives the load configuration for the relay (a
	// client's evidence gate plugs in here); PubKey is always the user's,
	// and a zero Limit becomes the Limit above. Nil loads ungated.
	Config func(url string) (model.LoadConfig, error)
}

// ScenarioResult counts a scenario's loads by verdict, and the false
// completes among them: loads that reported complete while a coordinate
// that existed when the load started was missing from the result, or
// held at a version older than the one acknowledged before the load
// started (Full-State Load promises neither can happen).
type ScenarioResult struct {
	Scenario Scenario
	Loads    int
	// Complete, CannotProve and Failed split Loads by verdict.
	Complete, CannotProve, Failed int
	// FalseCompletes counts complete loads with a coordinate missing or
	// stale; Missing and Stale count the coordinates over all of them.
	FalseCompletes, Missing, Stale int
	// Replacements is how many replacements the relay acknowledged;
	// Refused how many it did not (a coordinate whose replacement was
	// refused is not judged until a later one is acknowledged, since
	// khatru deletes the old version before it fails to store the new).
	Replacements, Refused int
	// FirstFalse describes the first false complete.
	FirstFalse string
}

func (r ScenarioResult) String() string {
	s := fmt.Sprintf("%s: %d loads, %d complete, %d cannot-prove, %d failed; %d false completes (%d missing, %d stale); %d replacements, %d refused",
		r.Scenario, r.Loads, r.Complete, r.CannotProve, r.Failed, r.FalseCompletes, r.Missing, r.Stale, r.Replacements, r.Refused)
	if r.FirstFalse != "" {
		s += "; first: " + r.FirstFalse
	}
	return s
}

// scenarioBase is the second the user's history is dated around (the
// foreign events within 100 s above it); the replacements are dated from
// 100 s above it, one second apart, so that every version of every
// coordinate has a second of its own.
const scenarioBase = nostr.Timestamp(1_700_000_000)

// RunScenario runs cfg.Loads full-state loads against the relay at
// cfg.URL in the scenario, each on a connection of its own, and judges
// every complete verdict against what the relay acknowledged. Which
// coordinates are replaced is seeded; when a replacement lands relative
// to a load's queries is timing, so the counts are a measurement. An
// error means the run could not be set up or a load could not be
// started.
func RunScenario(ctx context.Context, sc Scenario, cfg ScenarioConfig) (ScenarioResult, error) {
	cfg = withDefaults(cfg)
	res := ScenarioResult{Scenario: sc}
	if !validScenario(sc) {
		return res, fmt.Errorf("khatrutest: unknown scenario %q (have %v)", sc, Scenarios())
	}
	pk, err := nostr.GetPublicKey(cfg.SecretKey)
	if err != nil {
		return res, fmt.Errorf("khatrutest: user key: %w", err)
	}
	w, err := newWriter(ctx, cfg, pk)
	if err != nil {
		return res, err
	}
	defer w.close()
	if err := w.publishHistory(ctx); err != nil {
		return res, err
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, uint64(len(sc))))
	between, duringMax := cfg.Writes, cfg.Writes
	if between <= 0 {
		between = 4
	}
	if duringMax <= 0 {
		duringMax = 50
	}
	var bg sync.WaitGroup
	stopBG := make(chan struct{})
	if sc == BackToBack {
		picks := make(chan int)
		bg.Add(2)
		go func() { // the seeded choices, made on one goroutine
			defer bg.Done()
			defer close(picks)
			for {
				select {
				case picks <- rng.IntN(cfg.Coords):
				case <-stopBG:
					return
				}
			}
		}()
		go func() {
			defer bg.Done()
			for i := range picks {
				w.replace(ctx, i)
			}
		}()
	}
	defer func() { close(stopBG); bg.Wait() }()
	for i := range cfg.Loads {
		var during func(stop <-chan struct{})
		switch sc {
		case WriteBetween:
			for range between {
				w.replace(ctx, rng.IntN(cfg.Coords))
			}
		case ReplaceDuring, OtherSubs:
			picks := make([]int, duringMax)
			for k := range picks {
				picks[k] = rng.IntN(cfg.Coords)
			}
			during = func(stop <-chan struct{}) {
				for _, p := range picks {
					select {
					case <-stop:
						return
					default:
					}
					w.replace(ctx, p)
				}
			}
		}
		if err := runOne(ctx, sc, cfg, pk, w, i+1, during, &res); err != nil {
			return res, err
		}
	}
	res.Replacements, res.Refused = w.counts()
	return res, nil
}

// runOne runs load number k: the snapshot of what was acknowledged, the
// load (with during running beside it), then the judgement.
func runOne(ctx context.Context, sc Scenario, cfg ScenarioConfig, pk string, w *writer, k int, during func(stop <-chan struct{}), res *ScenarioResult) error {
	lc := model.LoadConfig{}
	if cfg.Config != nil {
		var err error
		if lc, err = cfg.Config(cfg.URL); err != nil {
			return fmt.Errorf("khatrutest: load %d config: %w", k, err)
		}
	}
	lc.PubKey = pk
	if lc.Limit == 0 {
		lc.Limit = cfg.Limit
	}
	l, err := model.NewLoad(lc)
	if err != nil {
		return fmt.Errorf("khatrutest: load %d: %w", k, err)
	}
	lctx, cancel := context.WithTimeout(ctx, cfg.Timeout)
	defer cancel()
	tr, err := relaycheck.DialWebsocket(lctx, cfg.URL)
	if err != nil {
		return fmt.Errorf("khatrutest: load %d: dial: %w", k, err)
	}
	defer tr.Close()
	var others []string
	if sc == OtherSubs {
		others = make([]string, cfg.OtherSubs)
		for i := range others {
			others[i] = fmt.Sprintf("other-%d", i)
		}
		if err := openOthers(lctx, tr, others, pk); err != nil {
			return fmt.Errorf("khatrutest: load %d: %w", k, err)
		}
	}
	snap := w.snapshot()
	var wg sync.WaitGroup
	stop := make(chan struct{})
	if during != nil {
		wg.Add(1)
		go func() { defer wg.Done(); during(stop) }()
	}
	var out model.LoadResult
	if others != nil {
		out = driveShared(lctx, tr, l, others)
	} else {
		out = model.Drive(lctx, tr, l)
	}
	close(stop)
	wg.Wait()
	unsure := w.endLoad()
	res.Loads++
	switch out.Verdict {
	case model.Complete:
		res.Complete++
		missing, stale, detail := judge(out, snap, unsure)
		if missing+stale > 0 {
			res.FalseCompletes++
			res.Missing += missing
			res.Stale += stale
			if res.FirstFalse == "" {
				res.FirstFalse = fmt.Sprintf("load %d: %s", k, detail)
			}
		}
	case model.CannotProveComplete:
		res.CannotProve++
	default:
		res.Failed++
	}
	return nil
}

func withDefaults(cfg ScenarioConfig) ScenarioConfig {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&cfg.Coords, 8)
	def(&cfg.Foreign, 8)
	def(&cfg.Loads, 10)
	def(&cfg.Limit, 10)
	def(&cfg.OtherSubs, 20)
	if cfg.Timeout <= 0 {
		cfg.Timeout = 10 * time.Second
	}
	return cfg
}

func validScenario(sc Scenario) bool {
	for _, s := range Scenarios() {
		if s == sc {
			return true
		}
	}
	return false
}

// errNotFresh refuses a run for a user who already has events on the
// relay: the run could not tell its own history from what was there.
var errNotFresh = errors.New("khatrutest: the user already has events on the relay; give each run a fresh key")

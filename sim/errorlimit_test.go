package sim_test

import (
	"strconv"
	"testing"

	"github.com/creditsim/creditsim/policy"
	"github.com/creditsim/creditsim/scenarios"
)

// fateRecorder counts, per workunit, the results sent and how reported
// ones ended, and whether a quorum was validated.
type fateRecorder struct {
	policy.Base
	wus map[int64]*wuFate
}

type wuFate struct {
	sent, successes, errors, aborts, noReplies int
	validated                                  bool
}

func (f *fateRecorder) fate(id int64) *wuFate {
	w := f.wus[id]
	if w == nil {
		w = &wuFate{}
		f.wus[id] = w
	}
	return w
}

func (f *fateRecorder) Init(*policy.World)    { f.wus = map[int64]*wuFate{} }
func (f *fateRecorder) Scale() float64        { return 200 }
func (f *fateRecorder) Sent(x *policy.Result) { f.fate(x.WorkunitID).sent++ }
func (f *fateRecorder) Reported(x *policy.Result) {
	w := f.fate(x.WorkunitID)
	switch x.Outcome {
	case policy.Success:
		w.successes++
	case policy.ClientError:
		w.errors++
	case policy.Aborted:
		w.aborts++
	case policy.NoReply:
		w.noReplies++
	}
}
func (f *fateRecorder) Validated(v *policy.Validation) float64 {
	if !v.Late && len(v.Valid) > 0 {
		f.fate(v.WorkunitID).validated = true
	}
	return 0
}

// TestErrorLimit: as BOINC's transitioner, a workunit fails after more
// than max_error_results client errors; a volunteer's abort and a
// time-out are no replies, which only max_total_results limits. With many
// errors, aborts (a third of hosts abort jobs running past 1 h) and
// time-outs (a short deadline), some workunit is still validated after 3
// client errors, and some after 3 or more aborts and time-outs (counting
// them as errors failed both), none after 4 client errors, and none gets
// more than max_total_results results.
func TestErrorLimit(t *testing.T) {
	t.Parallel()
	slowInShort(t)
	s, err := scenarios.Open("baseline", []string{"policies=[v1peak]", "hosts.initial=200", "duration=12d", "warmup=1d",
		"projects[0].apps[0].delay_bound=1d", "hosts.error_rate={dist: const, mean: 0.25}",
		"projects[0].apps[0].max_error_results=3", "projects[0].apps[0].max_total_results=8",
		"hosts.agents=[{kind: cherry_picker, share: 0.3, threshold: 1h}]"})
	if err != nil {
		t.Fatal(err)
	}
	rec := &fateRecorder{}
	runWith(t, s, rec)
	threeErrors, manyNoReplies := 0, 0
	for id, w := range rec.wus {
		if w.sent > 8 {
			t.Fatalf("workunit %d: %d results sent, max_total_results 8", id, w.sent)
		}
		if !w.validated {
			continue
		}
		if w.errors > 3 {
			t.Fatalf("workunit %d validated after %d client errors", id, w.errors)
		}
		if w.errors == 3 {
			threeErrors++
		}
		if w.aborts+w.noReplies >= 3 {
			manyNoReplies++
		}
	}
	t.Logf("%d workunits; validated after 3 client errors: %d; after 3 or more aborts and time-outs: %d", len(rec.wus), threeErrors, manyNoReplies)
	if threeErrors == 0 || manyNoReplies == 0 {
		t.Errorf("validated after 3 client errors: %d, after 3 or more aborts and time-outs: %d; want some of each", threeErrors, manyNoReplies)
	}
}

// TestMaxSuccessResults: as BOINC's validator, a workunit fails once more
// successful results than max_success_results disagree, whatever is still
// out. Half the results are wrong answers (each unlike any other): with a
// limit of 3, no workunit has more than 4 successes, and some are still
// validated at the fourth (it agrees with one of the three); without one
// (0), some are validated only at the fifth or later.
func TestMaxSuccessResults(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		limit, most int  // the limit; successes a workunit may have
		lateOnes    bool // some are validated after 5 or more
	}{
		{limit: 3, most: 4},
		{limit: 0, most: 8, lateOnes: true},
	} {
		s, err := scenarios.Open("baseline", []string{"policies=[v1peak]", "hosts.initial=200", "duration=10d", "warmup=1d",
			"hosts.invalid_rate={dist: const, mean: 0.5}", "hosts.error_rate={dist: const, mean: 0}",
			"projects[0].apps[0].max_total_results=8", "projects[0].apps[0].max_success_results=" + strconv.Itoa(tc.limit)})
		if err != nil {
			t.Fatal(err)
		}
		rec := &fateRecorder{}
		runWith(t, s, rec)
		atFour, late := 0, 0
		for id, w := range rec.wus {
			if w.successes > tc.most {
				t.Fatalf("max_success_results %d: workunit %d has %d successes", tc.limit, id, w.successes)
			}
			if w.validated && w.successes == 4 {
				atFour++
			}
			if w.validated && w.successes >= 5 {
				late++
			}
		}
		t.Logf("max_success_results %d: %d workunits, %d validated at the fourth success, %d after 5 or more", tc.limit, len(rec.wus), atFour, late)
		if atFour == 0 || (late > 0) != tc.lateOnes {
			t.Errorf("max_success_results %d: validated at the fourth success %d (want some), after 5 or more %d (want some: %v)",
				tc.limit, atFour, late, tc.lateOnes)
		}
	}
}

package attack

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/creditsim/creditsim/results"
)

// TestTwinFile: twins written by one search are read back by another of
// the same scenario, exactly; a file of another binary, scenario, seed or
// replications, or one cut short or edited so that its parts do not fit,
// is not read (the twins are simulated instead).
func TestTwinFile(t *testing.T) {
	dir := t.TempDir()
	st, err := prepare(Options{Scenario: "cheaters", Sets: tiny, Budget: 24, TwinDirs: []string{dir}, TwinOut: dir})
	if err != nil {
		t.Fatal(err)
	}
	e := st.e
	if buildID() == "" {
		t.Fatal("the test binary's SHA-256 could not be read")
	}
	n := len(e.all)
	twin, err := results.TwinFrom(results.TwinData{Policies: n, HostCredit: make([]float64, 2*n), HostResults: []int32{3, 4},
		HostInvalid: []int32{0, 1}, AccountCredit: make([]float64, n), AccountResults: []int32{7}})
	if err != nil {
		t.Fatal(err)
	}
	twin.Data().HostCredit[1] = 0.1 + 0.2 // a float that prints long
	k := twinKey{seed: 1, reps: 1}
	if err := e.writeTwins(k, []*results.Twin{twin}); err != nil {
		t.Fatal(err)
	}
	got, ok := e.readTwins(k)
	if !ok || len(got) != 1 || got[0].Data().HostCredit[1] != 0.1+0.2 || got[0].Data().AccountResults[0] != 7 {
		t.Fatalf("read back %v, %v", got, ok)
	}
	if _, ok := e.readTwins(twinKey{seed: 2, reps: 1}); ok {
		t.Error("read the twins of seed 2 from a file of seed 1")
	}
	path := filepath.Join(dir, TwinFileName(1, 1))
	good, _ := os.ReadFile(path)
	other, err := prepare(Options{Scenario: "cheaters", Sets: tiny[1:], Budget: 24, TwinDirs: []string{dir}})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := other.e.readTwins(k); ok {
		t.Error("a scenario resolved otherwise read the file")
	}
	for name, b := range map[string][]byte{
		"another build": []byte(strings.Replace(string(good), buildID(), strings.Repeat("0", 64), 1)),
		"cut short":     good[:len(good)/2],
		"edited":        []byte(`{"build":"` + buildID() + `","scenario_sha256":"` + e.sha + `","seed":1,"replications":1,"policies":["v1peak","v2actual","v3pfc-boinc"],"twins":[{"policies":3,"host_credit":[1],"host_results":[1,2],"host_invalid":[0,0]}]}`),
	} {
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, ok := e.readTwins(k); ok {
			t.Errorf("%s: the file was read", name)
		}
	}
}

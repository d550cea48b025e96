package policy

import (
	"bytes"
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The golden vectors are copied from the project's shared/golden folder
// into testdata so a fresh clone tests without it; TestGoldenCopyIsCurrent
// checks the copy whenever the shared folder is present.

type goldenRow map[string]string

func readGolden(t *testing.T, name string) []goldenRow {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "golden", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var rows []goldenRow
	for _, rec := range recs[1:] {
		r := goldenRow{}
		for i, h := range recs[0] {
			r[h] = rec[i]
		}
		rows = append(rows, r)
	}
	if len(rows) == 0 {
		t.Fatalf("%s: no rows", name)
	}
	return rows
}

func (r goldenRow) f(t *testing.T, col string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(r[col], 64)
	if err != nil {
		t.Fatalf("column %s: %v", col, err)
	}
	return v
}

// same reports bit equality, with NaN equal to NaN.
func same(a, b float64) bool {
	return a == b && math.Signbit(a) == math.Signbit(b) || math.IsNaN(a) && math.IsNaN(b)
}

func TestGoldenCopyIsCurrent(t *testing.T) {
	shared := filepath.Join("..", "..", "shared", "golden")
	if _, err := os.Stat(shared); err != nil {
		t.Skip("shared/golden not beside the checkout")
	}
	ents, err := os.ReadDir(shared)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		want, _ := os.ReadFile(filepath.Join(shared, e.Name()))
		got, err := os.ReadFile(filepath.Join("testdata", "golden", e.Name()))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("testdata/golden/%s differs from shared/golden (copy it again)", e.Name())
		}
	}
}

func TestGoldenUpdateAverage(t *testing.T) {
	rows := readGolden(t, "update_average.csv")
	// Each row replayed from its own before-state.
	worst := 0.0
	exact := 0
	for _, r := range rows {
		rac := RAC{Avg: r.f(t, "avg_before"), AvgTime: r.f(t, "avg_time_before")}
		rac.UpdateAverage(r.f(t, "time"), r.f(t, "work_start_time"), r.f(t, "work"), r.f(t, "half_life"))
		want := r.f(t, "avg_after")
		if rac.AvgTime != r.f(t, "avg_time_after") {
			t.Errorf("%s/%s step %s: avg_time %v, want %v", r["scenario"], r["entity"], r["step"], rac.AvgTime, r["avg_time_after"])
		}
		if same(rac.Avg, want) {
			exact++
			continue
		}
		rel := math.Abs(rac.Avg-want) / math.Abs(want)
		if !(rel <= 1e-12) {
			t.Errorf("%s/%s step %s: avg %v, want %v (rel %g)", r["scenario"], r["entity"], r["step"], rac.Avg, want, rel)
		}
		worst = math.Max(worst, rel)
	}
	t.Logf("update_average: %d of %d rows bit-exact, worst relative difference %g", exact, len(rows), worst)

	// Whole sequences replayed from the first row's before-state.
	state := map[string]*RAC{}
	for _, r := range rows {
		key := r["scenario"] + "/" + r["entity"]
		s, ok := state[key]
		if !ok {
			s = &RAC{Avg: r.f(t, "avg_before"), AvgTime: r.f(t, "avg_time_before")}
			state[key] = s
		}
		s.UpdateAverage(r.f(t, "time"), r.f(t, "work_start_time"), r.f(t, "work"), r.f(t, "half_life"))
		want := r.f(t, "avg_after")
		if math.IsInf(want, 0) || math.IsNaN(want) {
			if !same(s.Avg, want) {
				t.Errorf("%s step %s: sequence avg %v, want %v", key, r["step"], s.Avg, want)
			}
			s.Avg = want
			continue
		}
		if rel := math.Abs(s.Avg-want) / math.Max(math.Abs(want), 1e-300); rel > 1e-12 {
			t.Errorf("%s step %s: sequence avg %v, want %v", key, r["step"], s.Avg, want)
		}
	}
}

func testGoldenAverage(t *testing.T, file string) {
	rows := readGolden(t, file)
	type pair struct {
		a  Average
		av AverageVar
	}
	state := map[string]*pair{}
	for _, r := range rows {
		p := AverageParams{Threshold: r.f(t, "n_threshold"), Weight: r.f(t, "sample_weight"), Limit: r.f(t, "sample_limit")}
		s, ok := state[r["scenario"]]
		if !ok {
			s = &pair{}
			state[r["scenario"]] = s
		}
		if s.av.N != r.f(t, "n_before") || !same(s.av.Avg, r.f(t, "avg_before")) || !same(s.av.Var, r.f(t, "var_before")) {
			t.Fatalf("%s step %s: before-state drifted", r["scenario"], r["step"])
		}
		x := r.f(t, "sample")
		trA := s.a.Update(x, p)
		trV := s.av.Update(x, p)
		id := r["scenario"] + " step " + r["step"]
		if trV != (r["truncated"] == "1") || trA != (r["truncated_AVERAGE"] == "1") {
			t.Errorf("%s: truncated %v/%v, want %s/%s", id, trV, trA, r["truncated"], r["truncated_AVERAGE"])
		}
		for _, c := range []struct {
			got float64
			col string
		}{
			{s.av.N, "n_after"}, {s.av.Avg, "avg_after"}, {s.av.Var, "var_after"}, {s.av.Q, "q_after"},
			{s.a.N, "AVERAGE_n_after"}, {s.a.Avg, "AVERAGE_avg_after"},
		} {
			if want := r.f(t, c.col); !same(c.got, want) {
				t.Errorf("%s: %s = %v, want %v", id, c.col, c.got, want)
			}
		}
	}
	if len(state) < 6 {
		t.Errorf("only %d scenarios", len(state))
	}
}

func TestGoldenAverageHAV(t *testing.T) { testGoldenAverage(t, "average_var_hav.csv") }
func TestGoldenAverageAV(t *testing.T)  { testGoldenAverage(t, "average_var_av.csv") }

func TestGoldenCreditCombine(t *testing.T) {
	rows := readGolden(t, "credit_combine.csv")
	seen := map[string]int{}
	for _, r := range rows {
		var v []float64
		for _, s := range strings.Split(r["values"], ";") {
			x, err := strconv.ParseFloat(s, 64)
			if err != nil {
				t.Fatal(err)
			}
			v = append(v, x)
		}
		want := r.f(t, "result")
		var got float64
		switch r["function"] {
		case "low_average":
			got = LowAverage(v)
		case "pegged_average":
			got = PeggedAverage(v, r.f(t, "anchor"))
		case "vec_min":
			got = Min(v)
		case "fpops_to_credit_macro":
			got = FlopsToCredit(v[0], ScaleServer)
		case "fpops_to_credit_paren":
			got = FlopsToCreditAssign(v[0], ScaleServer)
		case "max_granted_over_scale_macro":
			got = v[0] / 200 / 86400e9
		case "max_granted_over_scale_intended":
			got = CreditToFlops(v[0], ScaleServer)
		default:
			t.Fatalf("unknown function %s", r["function"])
		}
		seen[r["function"]]++
		if !same(got, want) {
			t.Errorf("%s(%s, anchor %s) = %v, want %v", r["function"], r["values"], r["anchor"], got, want)
		}
	}
	if len(seen) != 7 {
		t.Errorf("functions seen: %v", seen)
	}
}

package v3pfc

import (
	"encoding/csv"
	"math"
	"os"
	"strconv"
	"testing"

	"github.com/creditsim/creditsim/policy"
)

// readGolden returns the rows of a golden CSV as maps by column name.
func readGolden(t *testing.T, name string) []map[string]string {
	t.Helper()
	f, err := os.Open("../testdata/golden/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var rows []map[string]string
	for _, r := range recs[1:] {
		m := map[string]string{}
		for i, h := range recs[0] {
			m[h] = r[i]
		}
		rows = append(rows, m)
	}
	return rows
}

func num(t *testing.T, row map[string]string, col string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(row[col], 64)
	if err != nil {
		t.Fatalf("%s: %q: %v", col, row[col], err)
	}
	return v
}

// same is bit-for-bit equality, with NaN equal to NaN.
func same(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }

// serverConfig is the v3pfc-boinc preset's configuration.
func serverConfig(t *testing.T) *Config {
	t.Helper()
	p, err := policy.New(policy.Spec{Name: "v3pfc-boinc"})
	if err != nil {
		t.Fatal(err)
	}
	c := *p.(*Policy).Config()
	return &c
}

// pfcCase is one workunit of pfc_cases.csv with its own copy of state.
type pfcCase struct {
	cfg  *Config
	app  App
	havs map[[2]int]*HostVersion
	tims map[[2]int]*HostTiming
	avs  map[int]*Version
}

func newPFCCase(t *testing.T, cfg *Config, rows []map[string]string) *pfcCase {
	c := *cfg
	first := rows[0]
	c.MaxGranted = num(t, first, "max_granted_credit")
	if first["app_host_scale_check"] == "1" {
		c.Cherry = "cons_valid"
	}
	pc := &pfcCase{cfg: &c, app: App{MinAvgPFC: num(t, first, "app_min_avg_pfc")},
		havs: map[[2]int]*HostVersion{}, tims: map[[2]int]*HostTiming{}, avs: map[int]*Version{}}
	for _, r := range rows {
		avid := int(num(t, r, "app_version_id"))
		if host := int(num(t, r, "hav_host_id")); host != 0 {
			k := [2]int{host, avid}
			if pc.havs[k] == nil {
				pc.havs[k] = &HostVersion{PFC: policy.Average{N: num(t, r, "hav_pfc_n_in"), Avg: num(t, r, "hav_pfc_avg_in")}}
				pc.tims[k] = &HostTiming{ET: policy.AverageVar{N: num(t, r, "hav_et_n_in"), Avg: num(t, r, "hav_et_avg_in")}}
			}
		}
		if r["av_pfc_n"] != "nan" && pc.avs[avid] == nil {
			pc.avs[avid] = &Version{PFC: policy.Average{N: num(t, r, "av_pfc_n"), Avg: num(t, r, "av_pfc_avg")},
				Scale: num(t, r, "av_pfc_scale")}
		}
	}
	return pc
}

func (pc *pfcCase) job(t *testing.T, r map[string]string) (Job, *HostVersion, *HostTiming, *Version) {
	avid := int(num(t, r, "app_version_id"))
	j := Job{
		Elapsed: num(t, r, "elapsed_time"), CPUTime: num(t, r, "cpu_time"), FlopsEstimate: num(t, r, "flops_estimate"),
		Est: num(t, r, "rsc_fpops_est"), Bound: num(t, r, "rsc_fpops_bound"),
		Sent: num(t, r, "sent_time"), Received: num(t, r, "received_time"),
		RuntimeOutlier: r["runtime_outlier_in"] == "1", Anonymous: avid < 0,
		ConsecutiveValid: int(num(t, r, "hav_consecutive_valid")),
	}
	k := [2]int{int(num(t, r, "hav_host_id")), avid}
	return j, pc.havs[k], pc.tims[k], pc.avs[avid]
}

// TestGoldenPFCCases replays every row of pfc_cases.csv (BOINC's get_pfc
// and assign_credit_set) through the v3pfc-boinc preset and compares every
// output bit for bit.
func TestGoldenPFCCases(t *testing.T) {
	rows := readGolden(t, "pfc_cases.csv")
	var order []string
	byCase := map[string][]map[string]string{}
	for _, r := range rows {
		if byCase[r["case"]] == nil {
			order = append(order, r["case"])
		}
		byCase[r["case"]] = append(byCase[r["case"]], r)
	}
	cfg := serverConfig(t)
	checked := 0
	for _, name := range order {
		rs := byCase[name]
		t.Run(name, func(t *testing.T) {
			pc := newPFCCase(t, cfg, rs)
			for _, r := range rs {
				j, hv, tm, v := pc.job(t, r)
				var before int
				if v != nil {
					before = len(v.Pending)
				}
				_, _, outlier := pc.cfg.Raw(&j)
				pfc, mode := pc.cfg.PFCTimed(&j, &pc.app, hv, tm, v, j.Received)
				check := func(col string, got float64) {
					t.Helper()
					if want := num(t, r, col); !same(got, want) {
						t.Errorf("result %s: %s = %.17g, want %.17g", r["result_index"], col, got, want)
					}
					checked++
				}
				check("get_pfc_retval", 0)
				check("pfc_out", pfc)
				check("mode_out", float64(mode))
				check("credit_claim_out", policy.FlopsToCredit(pfc, 200))
				if hv != nil {
					outlierF := 0.0
					if outlier {
						outlierF = 1
					}
					check("runtime_outlier_out", outlierF)
					check("hav_pfc_n_out", hv.PFC.N)
					check("hav_pfc_avg_out", hv.PFC.Avg)
					check("hav_et_n_out", tm.ET.N)
					check("hav_et_avg_out", tm.ET.Avg)
					check("hav_et_var_out", tm.ET.Var)
					check("hav_turnaround_n_out", tm.Turnaround.N)
					check("hav_turnaround_avg_out", tm.Turnaround.Avg)
				}
				pushed := math.NaN()
				if v != nil && len(v.Pending) > before {
					pushed = v.Pending[len(v.Pending)-1]
				}
				check("av_pfc_sample_pushed", pushed)
				credit := math.NaN()
				if v != nil && hv != nil {
					credit = policy.FlopsToCredit(pfc, 200)
				}
				check("av_credit_sample_pushed", credit)
			}
			// assign_credit_set on a fresh copy of the state.
			pc = newPFCCase(t, cfg, rs)
			var claims []Claim
			var j0 Job
			for k, r := range rs {
				j, hv, tm, v := pc.job(t, r)
				if k == 0 {
					j0 = j
				}
				pfc, mode := pc.cfg.PFCTimed(&j, &pc.app, hv, tm, v, j.Received)
				claims = append(claims, Claim{PFC: pfc, Mode: mode})
			}
			got := pc.cfg.AssignCredit(claims, &j0, &pc.app, &Scratch{})
			if want := num(t, rs[0], "wu_granted_credit"); !same(got, want) {
				t.Errorf("wu_granted_credit = %.17g, want %.17g", got, want)
			}
			checked++
		})
	}
	if len(order) < 20 || checked < len(rows)*8 {
		t.Errorf("only %d cases, %d values checked", len(order), checked)
	}
}

// TestGoldenAVScales replays av_scales.csv through UpdateScales.
func TestGoldenAVScales(t *testing.T) {
	rows := readGolden(t, "av_scales.csv")
	var order []string
	byCase := map[string][]map[string]string{}
	for _, r := range rows {
		if byCase[r["case"]] == nil {
			order = append(order, r["case"])
		}
		byCase[r["case"]] = append(byCase[r["case"]], r)
	}
	cfg := serverConfig(t)
	for _, name := range order {
		rs := byCase[name]
		t.Run(name, func(t *testing.T) {
			a := App{}
			vers := make([]Version, len(rs))
			for i, r := range rs {
				vers[i] = Version{ID: i, Gpu: r["is_gpu"] == "1", PFC: policy.Average{N: num(t, r, "pfc_n"), Avg: num(t, r, "pfc_avg")}}
				a.Versions = append(a.Versions, i)
			}
			b := cfg.UpdateScales(&a, vers, func(*Version) float64 { return 0 })
			for i, r := range rs {
				if string(b) != r["branch"] {
					t.Errorf("branch %s, want %s", b, r["branch"])
				}
				if want := num(t, r, "min_avg_pfc_out"); !same(a.MinAvgPFC, want) {
					t.Errorf("min_avg_pfc = %.17g, want %.17g", a.MinAvgPFC, want)
				}
				got := strconv.FormatFloat(vers[i].Scale, 'g', 17, 64)
				if r["pfc_scale_out"] == "unchanged" {
					if vers[i].Scale != 0 {
						t.Errorf("version %s: scale %s, want unchanged", r["av_id"], got)
					}
				} else if want := num(t, r, "pfc_scale_out"); !same(vers[i].Scale, want) {
					t.Errorf("version %s: scale %s, want %.17g", r["av_id"], got, want)
				}
			}
		})
	}
}
